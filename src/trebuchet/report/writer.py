"""`trebuchet report`: from one or more stores to DIR/index.html, the
drill-down pages, summary.json, CSV tables and the figures (PNG and SVG).
Every number is the metrics module's."""
import csv
import json
import time
from importlib.metadata import version
from pathlib import Path

from trebuchet.core.errors import TrebuchetError

from trebuchet.build import api_coverage
from trebuchet.report import dictionaries, forked, html, judges, metrics
from trebuchet.store import database as store
from trebuchet.spec.reads import SpecReads

VERSION = version("trebuchet")  # pyproject.toml's


def _untimed(name, step, seconds=None):
    return step() if step else None


def _import_figures():
    """The figures module: importing matplotlib takes a good second, which
    write() spends while the judges' process works."""
    from trebuchet.report import figures
    return figures


def build(dbs, meanwhile=lambda: None):
    """The report's data from the stores; meanwhile() is called while the
    judges' process works."""
    conns = {str(db): store.connect(db) for db in dbs}
    sources = [(c, db) for db, c in conns.items()]
    reads = SpecReads()
    report = metrics.build_report(sources, reads.texts)
    for t in report.targets:
        spec = reads.spec(t.info.target_arg)
        t.coverage = api_coverage.of_spec(spec) if spec else None
    # the judges in a child, with the specs read so far, while this process
    # sets the dictionaries side by side and does what meanwhile says
    judged = forked.start(lambda: judges.judge([(store.connect(db), db) for db in conns], reads))
    report.dictionaries = dictionaries.side_by_side(sources, reads.equivalents, report.targets)
    meanwhile()
    report.silent, report.hindering, report.corrupt = judged()
    if not report.targets and not report.bench and not report.protection:
        raise TrebuchetError("no finished run in " + ", ".join(map(str, dbs)))
    return report, conns


def _write_csv(path, fields, rows):
    """A header line, then one line per row (only the header when no rows)."""
    with open(path, "w", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=fields, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)


def write(dbs, out, timed=_untimed):
    """timed(name, step) runs each step of the report (a call without
    arguments) and returns what it returns: `bench report` times them;
    timed(name, None, seconds) tells it of a step timed elsewhere."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    report, conns = timed("read the stores (the judges in a second process), import matplotlib",
                          lambda: build(dbs, _import_figures))
    figures = _import_figures()
    groups = figures.groups(out, report)
    heat = [g for g in groups if g[0].startswith("(d)")]
    # the slowest figures in a child, beside the rest and the drill-down pages
    heat_maps = forked.start(lambda: _timed_alone(figures.draw, heat))
    rest = figures.draw([g for g in groups if g not in heat], timed)
    timed("the drill-down pages", lambda: _write_drill_downs(out, report, conns))
    heat, seconds = timed("waiting for the heat maps, drawn in a second process meanwhile",
                          heat_maps)
    timed("(d) heat maps, drawn in that process meanwhile", None, seconds)
    # in their letters' order, as the index shows them
    drawn = {**{k: v for k, v in rest.items() if k < "d"}, **heat,
             **{k: v for k, v in rest.items() if k > "d"}}
    timed("summary and index", lambda: _write_summary(out, report, drawn))
    return out / "index.html"


def _timed_alone(draw, groups):
    """(what draw returns, the seconds it took)."""
    started = time.perf_counter()
    return draw(groups, _untimed), time.perf_counter() - started


def _write_drill_downs(out, report, conns):
    html.write_function_pages(out, report, conns, VERSION)
    html.write_crash_scale_pages(out, report, VERSION)


def _write_summary(out, report, drawn):
    summary = report.as_dict()
    summary["figures"] = drawn
    (out / "summary.json").write_text(json.dumps(summary, indent=1, sort_keys=True))
    _write_csv(out / "targets.csv", metrics.TARGET_CSV_FIELDS, summary["targets"])
    _write_csv(out / "functions.csv", metrics.FUNCTION_CSV_FIELDS, summary["functions"])
    _write_csv(out / "pairs.csv", metrics.PAIR_CSV_FIELDS, summary["pairs"])
    _write_csv(out / "hardened.csv", metrics.PAIR_CSV_FIELDS, summary["hardened"])
    html.write_protection_pages(out, report, drawn, VERSION)
    html.write_index(out, report, drawn, VERSION)
