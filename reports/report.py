"""`trebuchet report`: from one or more stores to DIR/index.html, the
drill-down pages, summary.json, CSV tables and the figures (PNG and SVG).
Every number is the metrics module's."""
import csv
import json
from importlib.metadata import version
from pathlib import Path

from trebuchet.runner import spec as specs
from trebuchet.runner.errors import TrebuchetError

from . import dictionaries, figures, hindering, html, metrics, silent, store

VERSION = version("trebuchet")  # pyproject.toml's


def spec_texts(info):
    """{function: {"note", "equivalent"}} from the spec the run was made
    with (metrics.RunInfo): its path as the run was given it, else its
    target's name; empty if it is not here (a store from elsewhere)."""
    return {f.name: {"note": f.note, "equivalent": f.equivalent}
            for f in specs.functions_of(info.target_arg)}


equivalents_of = silent.equivalents_of


def build(dbs):
    conns = {str(db): store.connect(db) for db in dbs}
    sources = [(c, db) for db, c in conns.items()]
    report = metrics.build_report(sources, spec_texts)
    report.dictionaries = dictionaries.side_by_side(sources, equivalents_of, report.targets)
    report.silent = silent.silent_targets(sources, equivalents_of,
                                          dictionaries.newest_by_dictionary)
    report.hindering = hindering.hindering_targets(sources, dictionaries.newest_by_dictionary)
    if not report.targets and not report.bench:
        raise TrebuchetError("no finished run in " + ", ".join(map(str, dbs)))
    return report, conns


def _write_csv(path, fields, rows):
    """A header line, then one line per row (only the header when no rows)."""
    with open(path, "w", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=fields, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)


def write(dbs, out):
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    report, conns = build(dbs)
    drawn = figures.draw_all(out, report)
    summary = report.as_dict()
    summary["figures"] = drawn
    (out / "summary.json").write_text(json.dumps(summary, indent=1, sort_keys=True))
    _write_csv(out / "targets.csv", metrics.TARGET_CSV_FIELDS, summary["targets"])
    _write_csv(out / "functions.csv", metrics.FUNCTION_CSV_FIELDS, summary["functions"])
    _write_csv(out / "pairs.csv", metrics.PAIR_CSV_FIELDS, summary["pairs"])
    _write_csv(out / "hardened.csv", metrics.PAIR_CSV_FIELDS, summary["hardened"])
    html.write_index(out, report, drawn, VERSION)
    html.write_function_pages(out, report, conns, VERSION)
    html.write_crash_scale_pages(out, report, VERSION)
    return out / "index.html"
