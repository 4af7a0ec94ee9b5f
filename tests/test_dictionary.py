"""Ballista's dictionary (`--dictionary ballista`): runs store it, draw
Ballista's values with their multiplicities, reproduce case by case, and
the report sets both dictionaries side by side with numbers SQL recomputes."""
import json
import sqlite3

import pytest

from conftest import trebuchet

# b_ptr_file and b_Sfio_t, counted by hand from the template: b_ptr_void's 7
# values + MODE 6 x PERMISSIONS 6 x EXISTANCE 3 x STATE 4
BALLISTA_STREAMS = 7 + 6 * 6 * 3 * 4


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    db = tmp_path_factory.mktemp("dictionary") / "d.db"
    for target, functions in (("sfio", "sfclose,sfseek"), ("stdio", "fclose,fseek")):
        trebuchet("run", "--target", target, "--functions", functions, "--cap", "200",
                  "--db", db, "--quiet")
        trebuchet("run", "--target", target, "--functions", functions, "--cap", "600",
                  "--db", db, "--quiet", "--dictionary", "ballista")
    return db


def query(db, sql, *args):
    with sqlite3.connect(db) as conn:
        return conn.execute(sql, args).fetchall()


def test_the_run_stores_its_dictionary_and_draws_its_values(store):
    assert query(store, "SELECT target, dictionary FROM runs ORDER BY id") == [
        ("sfio", "ours"), ("sfio", "ballista"), ("stdio", "ours"), ("stdio", "ballista")]
    # one stream parameter: the whole product, every value once
    rows = query(store, "SELECT value_names FROM results WHERE run_id = 2 AND function = 'sfclose'")
    assert len(rows) == BALLISTA_STREAMS
    names = {r[0] for r in rows}
    assert {"Sfio_t:NULL", "Sfio_t:STATIC", "Sfio_t:READ.R_USER.EXIST.BEGINNING",
            "Sfio_t:APPEND_PLUS.NONE.DELETED.PAST_EOF"} <= names
    assert len(query(store, "SELECT 1 FROM results WHERE run_id = 4 AND function = 'fclose'")) \
        == BALLISTA_STREAMS


def test_a_case_reproduces_under_the_runs_dictionary(store):
    rows = query(store, "SELECT case_index, outcome, signal FROM results WHERE run_id = 2"
                 " AND function = 'sfseek' AND outcome != 'SETUP' ORDER BY case_index LIMIT 3")
    rows += query(store, "SELECT case_index, outcome, signal FROM results WHERE run_id = 2"
                  " AND function = 'sfseek' AND outcome = 'ABORT' LIMIT 1")
    for index, outcome, signal in rows:
        got = json.loads(trebuchet("repro", "--target", "sfio", "--function", "sfseek",
                                   "--case", index, "--dictionary", "ballista", "--json").stdout)
        assert (got["outcome"], got["signal"] if outcome == "ABORT" else None) == \
            (outcome, signal)


def test_values_by_name_are_refused_under_ballista():
    result = trebuchet("repro", "--target", "sfio", "--function", "sfclose", "--values",
                       "Sfio_t:NULL", "--dictionary", "ballista", check=False)
    assert result.returncode == 2
    assert "--case" in result.stderr


def test_the_report_sets_the_dictionaries_side_by_side(store, tmp_path):
    trebuchet("report", "--db", store, "--out", tmp_path / "r")
    summary = json.loads((tmp_path / "r" / "summary.json").read_text())
    columns = {d["dictionary"]: d for d in summary["dictionaries"]}
    assert set(columns) == {"ours", "ballista"}
    # recomputed: the mean over functions of ABORT / (cases - SETUP)
    for dictionary, d in columns.items():
        for target in ("sfio", "stdio"):
            (want,) = query(store, "SELECT 100.0 * avg(rate) FROM (SELECT 1.0 *"
                            " sum(outcome = 'ABORT') / sum(outcome != 'SETUP') AS rate"
                            " FROM results JOIN runs ON runs.id = run_id WHERE target = ?"
                            " AND dictionary = ? GROUP BY function)", target, dictionary)[0]
            assert d[f"{target}_abort_rate"] == pytest.approx(want)
        assert d["pairs"] == 2  # sfclose/fclose, sfseek/fseek
        assert d["stdio_over_sfio"] == pytest.approx(
            d["pairs_stdio_abort_rate"] / d["pairs_sfio_abort_rate"])
    # the body shows our runs; the page names each run's dictionary
    assert {r["dictionary"] for r in summary["runs"]} == {"ours"}
    page = (tmp_path / "r" / "index.html").read_text()
    assert "Both dictionaries side by side" in page
    assert "<td>ours</td>" in page


def test_list_shows_dials_and_their_product():
    out = trebuchet("list", "datatypes", "--dictionary", "ballista").stdout
    head = next(line for line in out.splitlines() if line.startswith("b_ptr_file:"))
    assert f"{BALLISTA_STREAMS} values" in head
    assert "x EXISTENCE (EXIST CLOSED DELETED) x" in head and head.endswith("= 432")
    ours = trebuchet("list", "datatypes", "--target", "sfio").stdout
    assert "b_Sfio_t" not in ours and "b_ptr_file" not in ours


def test_an_unknown_dictionary_is_a_usage_error(tmp_path):
    result = trebuchet("run", "--target", "stdio", "--dictionary", "theirs",
                       "--db", tmp_path / "x.db", check=False)
    assert result.returncode == 2


def test_a_killed_ballista_run_resumes_in_its_dictionary(tmp_path):
    from conftest import read_progress_until, start_run
    import os
    import signal

    whole, killed = tmp_path / "whole.db", tmp_path / "killed.db"
    args = ("--target", "stdio", "--functions", "fseek,fputs", "--cap", "3000",
            "--dictionary", "ballista")
    trebuchet("run", *args, "--db", whole, "--quiet")
    run = start_run(killed, *args)
    read_progress_until(run, lambda done, _: done >= 2000)
    os.killpg(run.pid, signal.SIGKILL)
    run.wait()
    assert query(killed, "SELECT finished, dictionary FROM runs") == [(None, "ballista")]
    # no --dictionary: the stored one is used
    trebuchet("run", "--target", "stdio", "--db", killed, "--resume", "--quiet")
    rows = "SELECT function, case_index, outcome, signal FROM results ORDER BY 1, 2"
    assert query(killed, rows) == query(whole, rows)
    # told another, it refuses in one line
    run = start_run(killed, "--target", "stdio", "--functions", "fwrite,fread", "--cap", "5000")
    read_progress_until(run, lambda done, _: done >= 1000)
    os.killpg(run.pid, signal.SIGKILL)
    run.wait()
    result = trebuchet("run", "--target", "stdio", "--db", killed, "--resume", "--quiet",
                       "--dictionary", "ballista", check=False)
    assert result.returncode == 2
    assert "draws from the ours dictionary; resume it with --dictionary ours" in result.stderr
