"""The HTML report: index.html and one drill-down page per function, from
jinja2 templates shipped as package data and compiled once.  The templates
lay out what src/trebuchet/report/metrics.py computed; the helpers here only format."""
import shlex
from dataclasses import dataclass
from functools import lru_cache

import jinja2
import markdown
from markupsafe import Markup

from trebuchet.core import paths
from trebuchet.core.readable import signal_name

from trebuchet.report import metrics
from trebuchet.core.rates import wilson
from trebuchet.store import slow_cases
from trebuchet.store.runs import RunInfo
from trebuchet.study import bench_stats

CASES_PER_PAGE = 500
LIBRARY_NAMES = {"stdio": "STDIO", "sfio": "SFIO", "robust_sfio": "Robust SFIO"}
SFIO_DICTIONARY = paths.ROOT / "docs" / "sfio-dictionary.md"


def pct(value):
    return f"{value:.2f}%"


def estimate(value, interval):
    """A rate, and its 95% interval when it is an estimate from a sample."""
    if interval is None:
        return pct(value)
    return Markup(f'{pct(value)} <span class="ci">[{interval[0]:.1f}, {interval[1]:.1f}]</span>')


def measure(value, unit):
    """A study figure of ours: a rate, or a factor ("x")."""
    return pct(value) if unit == "%" else f"{value:.1f}\u00d7"


def secs(value):
    """Seconds to three significant figures."""
    return f"{value:.3g}"


def interval(iv):
    """A median and its interval, in seconds."""
    return f"{secs(iv.median)} [{secs(iv.low)}, {secs(iv.high)}]"


def sampled(part, whole):
    """The 95% Wilson interval of part/whole, a rate over a sample."""
    low, high = wilson(part, whole)
    return f"[{low:.1f}, {high:.1f}]"


def ratio(iv):
    return f"{iv.median:.3f} [{iv.low:.3f}, {iv.high:.3f}]"


def pct_change(r):
    """A ratio as a change in percent: 1.02 is +2.0%."""
    return f"{100 * (r - 1):+.1f}%"


def mib(size_bytes):
    return f"{size_bytes / (1 << 20):g}"


def shade(rate):
    """A heat-map cell's style: a grey as light as the rate is low, with
    text that stays legible on it."""
    level = round(255 - 1.5 * rate)
    return f"background: rgb({level}, {level}, {level}); color: {'black' if rate < 50 else 'white'}"


def points(value):
    """A difference of two rates, in percentage points: +12.5."""
    return f"{value:+.1f}"


def last_line(text, width=100):
    """The last line of a case's stderr that says anything, cut to width."""
    line = next((l for l in reversed(text.splitlines()) if l.strip()), "")
    return line if len(line) <= width else line[:width - 1] + "\u2026"


def page_of(f):
    return f"{f.target}-{f.name}.html"


@dataclass
class RunRow:
    """A run as the pages' run table shows it: its row and its store."""
    info: RunInfo
    db: str


def sanitized(runs):
    """Whether any run ran under a sanitizer: the runs table shows the column then."""
    return any(r.info.sanitizer for r in runs)


@lru_cache(maxsize=None)
def _env():
    env = jinja2.Environment(loader=jinja2.PackageLoader("trebuchet.report", "templates"),
                             autoescape=True, trim_blocks=True, lstrip_blocks=True,
                             undefined=jinja2.StrictUndefined)
    env.globals.update(pct=pct, estimate=estimate, measure=measure, shade=shade,
                       signame=signal_name, page_of=page_of, secs=secs, points=points,
                       last_line=last_line, interval=interval, sampled=sampled, ratio=ratio, pct_change=pct_change,
                       mib=mib, sanitized=sanitized, slow_text=slow_cases.described,
                       libraries=bench_stats.LIBRARIES, library_names=LIBRARY_NAMES)
    return env


def protection_page(i, report):
    """The file name of the i-th protection run's page."""
    return "protection.html" if len(report.protection) == 1 else f"protection_{i + 1}.html"


def _protection_figure(key):
    return key[:2] in ("g_", "h_", "i_", "j_", "k_") and "_protection_" in key


def write_protection_pages(out, report, figures, version):
    """One page per protection run: its figures, ratios and assertions."""
    template = _env().get_template("protection.html.j2")
    for i, run in enumerate(report.protection):
        suffix = f"_{i + 1}" if len(report.protection) > 1 else ""
        mine = {k: v for k, v in figures.items() if _protection_figure(k)
                and (k.endswith(suffix) or f"{suffix}_" in k or not suffix)}
        (out / protection_page(i, report)).write_text(
            template.render(p=run, figures=mine, version=version, runs=[]))


def write_index(out, report, figures, version):
    runs = [RunRow(t.info, t.db) for t in report.targets]
    figures = {k: v for k, v in figures.items() if not _protection_figure(k)}
    protection = [(protection_page(i, report), p) for i, p in enumerate(report.protection)]
    html = _env().get_template("index.html.j2").render(protection=protection,
        targets=report.targets, equivalents=report.equivalents, hardening=report.hardening,
        study=report.study, study_figures=report.study_figures, figures=figures, version=version,
        runs=runs, bench=report.bench, dictionaries=report.dictionaries, crash_scale=report.crash_scale,
        corrupt_measured=bool(report.corrupt),
        dictionaries_differ=report.dictionaries_differ)
    (out / "index.html").write_text(html)
    if any(s.target == "sfio" for s in report.study_figures) and SFIO_DICTIONARY.is_file():
        # the project's own text, rendered as the report's other pages are
        body = markdown.markdown(SFIO_DICTIONARY.read_text(), extensions=["tables"])
        (out / "sfio-dictionary.html").write_text(_env().get_template("document.html.j2").render(
            title="Why our SFIO rate is several times the study's", body=Markup(body),
            version=version, runs=runs))


def _equivalent_page(report, f):
    """The page of f's stdio equivalent, when the report has one."""
    stdio = report.target("stdio")
    other = stdio.function(f.equivalent) if stdio and f.equivalent else None
    return page_of(other) if other else None


def write_crash_scale_pages(out, report, version):
    """One page per target and dictionary for Silent and for Hindering: each
    function's rate and the cases behind it, each with the command that
    runs it again."""
    template = _env().get_template("crash_scale.html.j2")
    for s in report.crash_scale:
        runs = [RunRow(info, db) for info, db in s.runs]
        # its own run's, first: as the run named its target (see write_function_pages)
        (out / s.page).write_text(template.render(
            s=s, version=version, runs=runs, target_arg=shlex.quote(runs[0].info.target_arg)))


def write_function_pages(out, report, conns, version):
    """conns: {db path: connection} holding each target's run."""
    template = _env().get_template("function.html.j2")
    for summary in report.targets:
        conn = conns[summary.db]
        runs = [RunRow(summary.info, summary.db)]
        # as the run named its target, so that the command works pasted
        target_arg = shlex.quote(summary.info.target_arg)
        for f in summary.functions:
            cases = metrics.failing_cases(conn, summary.run, f.name, CASES_PER_PAGE)
            unbuilt = (metrics.setup_reasons(conn, summary.run, f.name, [p.name for p in f.params])
                       if f.setups else [])
            (out / page_of(f)).write_text(template.render(
                f=f, cases=cases, shown=len(cases), unbuilt=unbuilt, version=version, runs=runs,
                target_arg=target_arg, equivalent_page=_equivalent_page(report, f)))
