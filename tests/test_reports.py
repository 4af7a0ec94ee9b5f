"""Reports: summary.json equals a recomputation from the store's raw rows,
the figures show those numbers, the pages hold what a reader needs, and
compare finds exactly the failing cases that came and went."""
import json
import shlex
import shutil
import sqlite3
import subprocess

import pytest

from conftest import TREBUCHET, query, trebuchet

STDIO = "fclose,fputs,fgetc,fwrite,fseek"
SFIO = "sfclose,sfputr,sfgetc,sfwrite,sfseek"


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    base = tmp_path_factory.mktemp("report")
    db = base / "r.db"
    trebuchet("run", "--target", "stdio", "--functions", STDIO, "--cap", "400", "--db", db, "--quiet")
    trebuchet("run", "--target", "sfio", "--functions", SFIO, "--cap", "400", "--db", db, "--quiet")
    out = base / "out"
    trebuchet("report", "--db", db, "--out", out)
    return dict(db=db, out=out, summary=json.loads((out / "summary.json").read_text()))


def rates_from_rows(db, run):
    """Per-function (abort, restart, failure) rates straight from the rows."""
    rows = query(db, "SELECT function, sum(outcome = 'ABORT'), sum(outcome = 'RESTART'),"
                     " sum(outcome != 'SETUP') FROM results WHERE run_id = ? GROUP BY function", run)
    return {f: (100.0 * a / n, 100.0 * r / n, 100.0 * (a + r) / n) for f, a, r, n in rows}


def test_summary_equals_a_recomputation_from_the_rows(report):
    summary = report["summary"]
    for target in summary["targets"]:
        expected = rates_from_rows(report["db"], target["run"])
        functions = {f["name"]: f for f in summary["functions"] if f["target"] == target["target"]}
        assert functions.keys() == expected.keys()
        for name, (abort, restart, failure) in expected.items():
            f = functions[name]
            assert f["abort_rate"] == pytest.approx(abort)
            assert f["restart_rate"] == pytest.approx(restart)
            assert f["failure_rate"] == pytest.approx(failure)
        mean = lambda i: sum(v[i] for v in expected.values()) / len(expected)  # noqa: E731
        assert target["abort_rate"] == pytest.approx(mean(0))
        assert target["restart_rate"] == pytest.approx(mean(1))
        assert target["failure_rate"] == pytest.approx(mean(2))
        cases = query(report["db"], "SELECT count(*) FROM results WHERE run_id = ?", target["run"])
        assert target["cases"] == cases[0][0]


def test_figure_a_bars_are_the_pair_rates(report):
    summary = report["summary"]
    figure = summary["figures"]["a_sfio_vs_stdio"]
    pairs = summary["pairs"]
    assert len(pairs) == 5
    assert figure["bars"]["sfio"] == pytest.approx([p["left_failure_rate"] for p in pairs])
    assert figure["bars"]["stdio"] == pytest.approx([p["right_failure_rate"] for p in pairs])
    assert figure["labels"][0] == f"{pairs[0]['left']} / {pairs[0]['right']}"
    for name in figure["files"]:
        assert (report["out"] / name).stat().st_size > 1000


def test_figure_c_stacks_the_normalized_rates(report):
    summary = report["summary"]
    figure = summary["figures"]["c"]
    assert figure["labels"] == [t["target"] for t in summary["targets"]]
    assert figure["bars"]["ABORT"] == pytest.approx([t["abort_rate"] for t in summary["targets"]])
    assert figure["bars"]["RESTART"] == pytest.approx([t["restart_rate"] for t in summary["targets"]])


def test_page_sets_the_study_beside_ours_and_links_each_function(report):
    page = (report["out"] / "index.html").read_text()
    assert "The study's published figures" in page and "5.61% over 36 functions" in page
    assert "0.44%" not in page  # Robust SFIO's figure only beside a robust_sfio run
    for name in STDIO.split(","):
        assert f'href="stdio-{name}.html"' in page
    assert (report["out"] / "targets.csv").read_text().startswith("target,")


def test_drill_down_commands_reproduce_their_cases(report):
    page = (report["out"] / "stdio-fclose.html").read_text()
    command = page.split("<code>trebuchet repro ")[1].split("</code>")[0]
    args = shlex.split(command) + ["--json"]
    result = json.loads(subprocess.run([str(TREBUCHET), "repro", *args], check=True,
                                       capture_output=True, text=True).stdout)
    stored = query(report["db"], "SELECT outcome FROM results JOIN runs ON runs.id = run_id"
                                 " WHERE target = 'stdio' AND function = 'fclose' AND case_index = ?",
                   result["case"])
    assert stored == [(result["outcome"],)] and result["outcome"] in ("ABORT", "RESTART")


def test_figure_b_appears_with_a_run_that_extends_sfio(report, tmp_path):
    """An sfio run relabelled as a build extending sfio, in a copy of the
    store, stands in for robust_sfio's run: the figure must appear, with its
    bars equal to the two runs' ABORT rates."""
    db = tmp_path / "hardened.db"
    shutil.copy(report["db"], db)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE runs SET target = 'robust_sfio', extends = 'sfio'"
                     " WHERE target = 'sfio'")
    both = tmp_path / "both"
    trebuchet("report", "--db", report["db"], "--db", db, "--out", both)
    summary = json.loads((both / "summary.json").read_text())
    figure = summary["figures"]["b_sfio_vs_robust_sfio"]
    assert sorted(figure["labels"]) == sorted(SFIO.split(","))
    hardened = summary["hardened"]
    assert figure["bars"]["sfio"] == pytest.approx([h["left_abort_rate"] for h in hardened])
    assert figure["bars"]["robust_sfio"] == pytest.approx([h["right_abort_rate"] for h in hardened])
