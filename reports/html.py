"""The HTML report: index.html and one drill-down page per function, from
jinja2 templates shipped as package data and compiled once."""
import signal
from functools import lru_cache

import jinja2

CASES_PER_PAGE = 500


def pct(value):
    return f"{value:.2f}%"


def signame(number):
    try:
        return signal.Signals(int(number)).name
    except ValueError:
        return f"signal {number}"


def page_of(f):
    return f"{f.target}-{f.name}.html"


@lru_cache(maxsize=None)
def _env():
    env = jinja2.Environment(loader=jinja2.PackageLoader("trebuchet.reports", "templates"),
                             autoescape=True, trim_blocks=True, lstrip_blocks=True,
                             undefined=jinja2.StrictUndefined)
    env.globals.update(pct=pct, signame=signame, page_of=page_of)
    return env


def write_index(out, report, figures, version):
    html = _env().get_template("index.html.j2").render(
        targets=report.targets, pairs=report.pairs, hardened=report.hardened,
        study=report.study, figures=figures, version=version)
    (out / "index.html").write_text(html)


def write_function_pages(out, report, conns, version):
    """conns: {db path: connection} holding each target's run."""
    template = _env().get_template("function.html.j2")
    for summary in report.targets:
        conn = conns[summary.db]
        for f in summary.functions:
            failing = f.aborts + f.restarts
            rows = conn.execute(
                "SELECT case_index, value_names, outcome, signal, exit_status FROM results"
                " WHERE run_id = ? AND function = ? AND outcome IN ('ABORT', 'RESTART')"
                " ORDER BY case_index LIMIT ?", (summary.run, f.name, CASES_PER_PAGE))
            cases = [dict(case=r[0], values=r[1], outcome=r[2], signal=r[3], exit_status=r[4])
                     for r in rows]
            (out / page_of(f)).write_text(template.render(
                f=f, cases=cases, shown=len(cases), failing=failing, version=version))
