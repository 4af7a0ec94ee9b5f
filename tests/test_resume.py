"""A run killed with SIGKILL mid-campaign, then resumed, stores exactly the
results of an uninterrupted run: none lost, none doubled."""
import os
import signal
import sqlite3
import subprocess
import time

from conftest import TREBUCHET, outcomes, processes_under, query, trebuchet

FUNCTIONS = "fread,fgets,fputs,fprintf_int,setbuf"


def stored(db):
    try:
        with sqlite3.connect(db, timeout=10) as conn:
            return conn.execute("SELECT count(*) FROM results").fetchone()[0]
    except sqlite3.OperationalError:  # the tables are not created yet
        return 0


def wait_until(condition, limit_s=120):
    """Polls a condition that the run under test makes true; the limit only
    bounds a broken run."""
    deadline = time.monotonic() + limit_s
    while not condition():
        assert time.monotonic() < deadline, "the run made no progress"
        time.sleep(0.05)


def test_killed_then_resumed_equals_uninterrupted(tmp_path):
    whole, killed = tmp_path / "whole.db", tmp_path / "killed.db"
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    trebuchet("run", "--target", "stdio", "--functions", FUNCTIONS, "--db", whole, "--quiet")

    run = subprocess.Popen([str(TREBUCHET), "run", "--target", "stdio", "--functions", FUNCTIONS,
                            "--db", str(killed), "--quiet", "--scratch", str(scratch)],
                           start_new_session=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    wait_until(lambda: stored(killed) >= 2000)
    os.killpg(run.pid, signal.SIGKILL)
    run.wait()
    partial = stored(killed)
    expected = sum(r[0] for r in query(whole, "SELECT cases_drawn FROM functions"))
    assert 2000 <= partial < expected, "the kill must land mid-campaign"
    assert query(killed, "SELECT finished FROM runs") == [(None,)]
    # the fork server and its test processes die with the executor
    wait_until(lambda: not processes_under(scratch), limit_s=10)

    trebuchet("run", "--target", "stdio", "--db", killed, "--resume", "--quiet",
              "--scratch", scratch)
    assert query(killed, "SELECT count(*), count(finished) FROM runs") == [(1, 1)]
    assert query(killed, "SELECT count(*) FROM results")[0][0] == expected
    assert outcomes(killed) == outcomes(whole)
    # the killed run's scratch directory went with the resumed run's
    assert list(scratch.iterdir()) == []
