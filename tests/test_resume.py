"""A run killed with SIGKILL mid-campaign, then resumed, stores exactly the
results of an uninterrupted run: none lost, none doubled."""
import os
import signal

from conftest import (function_cases, outcomes, processes_under, query, read_progress_until,
                      start_run, trebuchet, wait_gone)
from test_case_draw import draw, stored_cases

FUNCTIONS = "fread,fgets,fputs,fprintf_int,setbuf"


def stored(db):
    return query(db, "SELECT count(*) FROM results")[0][0]


def crash_sites(db):
    """{(function, case): (signal, code, fault address, frames)} of the ABORT
    cases: where each crashed, the same in every run of the case."""
    rows = query(db, "SELECT c.function, c.case_index, c.signal, c.code, c.fault_addr, c.frames"
                     " FROM crash_sites c JOIN results r USING (run_id, function, case_index)"
                     " WHERE r.outcome = 'ABORT'")
    return {tuple(r[:2]): tuple(r[2:]) for r in rows}


def wait_all_gone(directory):
    """Blocks on each process working under directory until none is left
    (a fork server may fork once more before its own end)."""
    while pids := processes_under(directory):
        for pid in pids:
            wait_gone(pid)


def test_killed_then_resumed_equals_uninterrupted(tmp_path):
    whole, killed = tmp_path / "whole.db", tmp_path / "killed.db"
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    trebuchet("run", "--target", "stdio", "--functions", FUNCTIONS, "--db", whole, "--quiet")

    run = start_run(killed, "--target", "stdio", "--functions", FUNCTIONS,
                    "--scratch", scratch)
    # results are committed every 512 (or every second): 3000 shown, 2000 stored
    read_progress_until(run, lambda done, _: done >= 3000)
    os.killpg(run.pid, signal.SIGKILL)
    run.wait()
    partial = stored(killed)
    expected = sum(r[0] for r in query(whole, "SELECT cases_drawn FROM functions"))
    assert 2000 <= partial < expected, "the kill must land mid-campaign"
    assert query(killed, "SELECT finished FROM runs") == [(None,)]
    # the fork server and its test processes die with the executor
    wait_all_gone(scratch)

    trebuchet("run", "--target", "stdio", "--db", killed, "--resume", "--quiet",
              "--scratch", scratch)
    assert query(killed, "SELECT count(*), count(finished) FROM runs") == [(1, 1)]
    assert query(killed, "SELECT count(*) FROM results")[0][0] == expected
    assert outcomes(killed) == outcomes(whole)
    # each crash site stored with its result, none lost, none doubled
    assert len(crash_sites(whole)) > 1000
    assert crash_sites(killed) == crash_sites(whole)
    # the killed run's scratch directory went with the resumed run's
    assert list(scratch.iterdir()) == []


def test_a_resumed_run_draws_with_its_own_seed_and_cap(tmp_path):
    """Resumed with neither --seed nor --cap, a run made with both draws its
    remaining cases as it began: with the stored ones, not the defaults."""
    db, scratch = tmp_path / "seeded.db", tmp_path / "scratch"
    scratch.mkdir()
    functions, cap = ("fwrite", "fread"), 2000
    run = start_run(db, "--target", "stdio", "--functions", ",".join(functions), "--seed", "7",
                    "--cap", cap, "--scratch", scratch)
    read_progress_until(run, lambda done, _: done >= 1000)
    os.killpg(run.pid, signal.SIGKILL)
    run.wait()
    assert 0 < stored(db) < len(functions) * cap, "the kill must land mid-campaign"
    wait_all_gone(scratch)

    trebuchet("run", "--target", "stdio", "--db", db, "--resume", "--quiet", "--scratch", scratch)
    assert query(db, "SELECT seed, cap, finished IS NOT NULL FROM runs") == [(7, cap, 1)]
    totals = function_cases("stdio")
    assert stored_cases(db) == {f: draw(totals[f], cap, 7, f) for f in functions}
