"""Silent failures by voting: recomputed in SQL from the stored results of
two implementations that share every value (sfio and robust_sfio), and
reachable from the report."""
import json
import sqlite3

import pytest

from conftest import campaigns_with_report, trebuchet

FUNCTIONS = "sfclose,sfseek,sfputc,sfsync"


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    return campaigns_with_report(
        tmp_path_factory.mktemp("silent"),
        *(("--target", target, "--functions", FUNCTIONS, "--cap", "150")
          for target in ("sfio", "robust_sfio")))


def test_silent_counts_are_the_votes_sql_counts(report):
    db, out = report
    summary = json.loads((out / "summary.json").read_text())
    by_target = {s["target"]: s for s in summary["silent"]}
    assert set(by_target) == {"sfio", "robust_sfio"}
    with sqlite3.connect(db) as conn:
        for me, voter in (("sfio", "robust_sfio"), ("robust_sfio", "sfio")):
            got = {f["function"]: (f["judged"], f["silent"])
                   for f in by_target[me]["functions"]}
            want = dict((fn, (n, s)) for fn, n, s in conn.execute(
                "SELECT a.function, count(*), sum(a.outcome = 'PASS' AND NOT a.error_reported"
                " AND b.outcome = 'PASS' AND b.error_reported)"
                " FROM results a JOIN runs ra ON ra.id = a.run_id"
                " JOIN results b ON b.function = a.function AND b.case_index = a.case_index"
                " JOIN runs rb ON rb.id = b.run_id"
                " WHERE ra.target = ? AND rb.target = ? AND a.outcome != 'SETUP'"
                " AND b.outcome != 'SETUP' GROUP BY a.function", (me, voter)))
            assert got == want
            assert by_target[me]["normalized_silent_rate"] == pytest.approx(
                sum(100.0 * s / n for n, s in want.values()) / len(want))


def test_the_cases_behind_a_rate_are_on_its_page(report):
    db, out = report
    summary = json.loads((out / "summary.json").read_text())
    page = (out / "robust_sfio-silent-ours.html").read_text()
    assert 'href="robust_sfio-silent-ours.html"' in (out / "index.html").read_text()
    silent = [f for s in summary["silent"] if s["target"] == "robust_sfio"
              for f in s["functions"] if f["silent"]]
    assert silent  # robust_sfio's sfseek returns quietly where SFIO's reports an error
    for f in silent:
        assert f"--function {f['function']} --case" in page


def test_the_export_and_the_baseline_carry_silent_counts(report, tmp_path):
    db, out = report
    summary = json.loads((out / "summary.json").read_text())
    (sfio,) = [s for s in summary["silent"] if s["target"] == "sfio"]
    records = json.loads(trebuchet("export", "--db", db, "--format", "json").stdout)
    for f in sfio["functions"]:
        mine = [r for r in records if r["target"] == "sfio" and r["function"] == f["function"]]
        assert sum(r["silent"] is True for r in mine) == f["silent"]
        assert sum(r["silent"] is not None for r in mine) == f["judged"]
    trebuchet("baseline", "--db", db, "--target", "sfio", "--out", tmp_path / "b.json")
    functions = json.loads((tmp_path / "b.json").read_text())["functions"]
    assert {n: functions[n]["silent"] for n in functions} == \
        {f["function"]: f["silent"] for f in sfio["functions"]}
