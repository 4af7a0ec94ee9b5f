"""The HTML report: index.html and one drill-down page per function, from
jinja2 templates shipped as package data and compiled once.  The templates
lay out what reports/metrics.py computed; the helpers here only format."""
import signal
from dataclasses import dataclass
from functools import lru_cache

import jinja2
from markupsafe import escape

from trebuchet.runner import paths

from . import metrics

CASES_PER_PAGE = 500
SFIO_DICTIONARY = paths.ROOT / "docs" / "sfio-dictionary.md"


def pct(value):
    return f"{value:.2f}%"


def measure(value, unit):
    """A study figure of ours: a rate, or a factor ("x")."""
    return pct(value) if unit == "%" else f"{value:.1f}\u00d7"


def shade(rate):
    """A heat-map cell's style: a grey as light as the rate is low, with
    text that stays legible on it."""
    level = round(255 - 1.5 * rate)
    return f"background: rgb({level}, {level}, {level}); color: {'black' if rate < 50 else 'white'}"


def signame(number):
    try:
        return signal.Signals(int(number)).name
    except ValueError:
        return f"signal {number}"


def page_of(f):
    return f"{f.target}-{f.name}.html"


@dataclass
class RunRow:
    """A run as the pages' run table shows it: its row and its store."""
    info: metrics.RunInfo
    db: str


@lru_cache(maxsize=None)
def _env():
    env = jinja2.Environment(loader=jinja2.PackageLoader("trebuchet.reports", "templates"),
                             autoescape=True, trim_blocks=True, lstrip_blocks=True,
                             undefined=jinja2.StrictUndefined)
    env.globals.update(pct=pct, measure=measure, shade=shade, signame=signame, page_of=page_of)
    return env


def write_index(out, report, figures, version):
    html = _env().get_template("index.html.j2").render(
        targets=report.targets, equivalents=report.equivalents, hardening=report.hardening,
        study_figures=report.study_figures, figures=figures, version=version,
        runs=[RunRow(t.info, t.db) for t in report.targets])
    (out / "index.html").write_text(html)
    if any(s.target == "sfio" for s in report.study_figures) and SFIO_DICTIONARY.is_file():
        (out / "sfio-dictionary.html").write_text(
            "<!doctype html><meta charset='utf-8'><title>sfio-dictionary.md</title>"
            f"<pre style='white-space: pre-wrap; max-width: 50em'>"
            f"{escape(SFIO_DICTIONARY.read_text())}</pre>\n")


def write_function_pages(out, report, conns, version):
    """conns: {db path: connection} holding each target's run."""
    template = _env().get_template("function.html.j2")
    for summary in report.targets:
        conn = conns[summary.db]
        runs = [RunRow(summary.info, summary.db)]
        for f in summary.functions:
            cases = metrics.failing_cases(conn, summary.run, f.name, CASES_PER_PAGE)
            (out / page_of(f)).write_text(template.render(f=f, cases=cases, shown=len(cases),
                                                          version=version, runs=runs))
