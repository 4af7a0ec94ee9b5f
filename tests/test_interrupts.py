"""Ctrl-C and SIGTERM stop a command the same way (core/stopping.py): what
was done is kept, nothing it started is left running, and one line says
how to go on; the exit code is 130 for Ctrl-C and 143 for SIGTERM.  A
memcheck once went on starting Valgrind for its queued cases for 20 s
after Ctrl-C, and a SIGTERM left `run` without its resume line."""
import os
import shutil
import signal
import subprocess
import time

import pytest

from conftest import TREBUCHET, query, read_progress_until, start_run, trebuchet


def _left_running(proc):
    return subprocess.run(["pgrep", "-s", str(proc.pid)], capture_output=True).returncode == 0


def test_sigterm_stops_a_run_with_the_line_that_resumes_it(tmp_path):
    db = tmp_path / "t.db"
    run = start_run(db, "--target", "stdio")
    read_progress_until(run, lambda done, _: done > 0)
    run.send_signal(signal.SIGTERM)  # to trebuchet alone, as CI's cancel sends it
    _, err = run.communicate(timeout=120)
    assert run.returncode == 143
    assert err.decode().rstrip().endswith(f"`trebuchet run --target stdio --db {db} --resume`"
                                          " finishes it")
    assert not _left_running(run)
    assert query(db, "SELECT finished FROM runs") == [(None,)]
    assert 0 < query(db, "SELECT count(*) FROM results")[0][0]


@pytest.fixture(scope="module")
def passed(tmp_path_factory):
    """A store with a run of 200 cases that pass, for memcheck to go through."""
    if not shutil.which("valgrind"):
        pytest.skip("no valgrind")
    db = tmp_path_factory.mktemp("stop") / "passed.db"
    trebuchet("run", "--target", "selftest", "--functions", "st_return", "--cap", "200",
              "--db", db, "--quiet")
    return db


@pytest.mark.parametrize("how, code", [("SIGINT", 130), ("SIGTERM", 143)])
def test_memcheck_stops_at_once_keeping_what_it_judged(passed, tmp_path, how, code):
    db = tmp_path / "m.db"
    shutil.copy(passed, db)
    proc = subprocess.Popen([str(TREBUCHET), "memcheck", "--db", str(db), "--all", "--jobs", "2",
                             "--quiet"], start_new_session=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while proc.poll() is None and query(db, "SELECT count(*) FROM memcheck")[0][0] == 0 \
            and time.monotonic() < deadline:
        time.sleep(0.05)  # polling the store for its first judged case, not timing
    at_signal = query(db, "SELECT count(*) FROM memcheck")[0][0]
    if how == "SIGINT":
        os.killpg(proc.pid, signal.SIGINT)  # as a terminal sends Ctrl-C
    else:
        proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == code, err
    assert err == (f"trebuchet: stopped; what was done is stored: `trebuchet memcheck --db {db}"
                   " --all --jobs 2 --quiet` goes on where it stopped\n")
    assert not _left_running(proc)
    judged = query(db, "SELECT count(*) FROM memcheck")[0][0]
    assert 0 < judged < 200  # it did not go on through the queue
    assert judged <= at_signal + 2  # at most the two cases in flight were stored after it
