"""Ctrl-C and SIGTERM stop a command the same way (core/stopping.py): what
was done is kept, nothing it started is left running, and one line says
how to go on; the exit code is 130 for Ctrl-C and 143 for SIGTERM.  A
memcheck once went on starting Valgrind for its queued cases for 20 s
after Ctrl-C, a SIGTERM left `run` without its resume line, a Ctrl-C hung
a run whose fork servers had filled their result pipes, and `bench io`
exited 130 on SIGTERM."""
import os
import shutil
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from conftest import TREBUCHET, query, read_progress_until, sigint_default, start_run, trebuchet

# glibc's __assert_fail: every case writes its message to stderr and aborts,
# so each result is large (the stderr's end and a crash site)
ASSERT_FAIL = """\
target: assertfail
description: glibc's assertion failure, whose every case aborts
version: {label: glibc, expr: gnu_get_libc_version()}
includes: [assert.h, gnu/libc-version.h]
functions:
  - name: __assert_fail
    returns: void
    params:
      - {name: assertion, type: const char *, datatype: format}
      - {name: file, type: const char *, datatype: format}
      - {name: line, type: unsigned int, datatype: int, convert: true}
      - {name: function, type: const char *, datatype: format}
    error: {when: none}
"""


def _stored(db, table):
    """Rows of table in db so far (0 while the store is being made), read
    without making the file: an empty one is no store to the command."""
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
            return conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
    except sqlite3.OperationalError:
        return 0


def _wait_for(proc, db, table, at_least=1):
    """Polls the store (not timing) until table holds at_least rows."""
    deadline = time.monotonic() + 120
    while proc.poll() is None and _stored(db, table) < at_least and time.monotonic() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None, f"it ended before it could be stopped: {proc.communicate()}"


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
                             "--quiet"], start_new_session=True, preexec_fn=sigint_default, stdout=subprocess.PIPE,
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


def _server_blocked_writing(pid):
    try:
        return "pipe_write" in (Path("/proc") / str(pid) / "wchan").read_text()
    except OSError:
        return False


def test_ctrl_c_stops_a_run_whose_servers_filled_their_result_pipes(tmp_path):
    """The executor held still (SIGSTOP) while its fork servers fill the
    pipes it reads results from and block writing to them; then Ctrl-C.
    The run stops, where it once waited for the servers forever."""
    spec, db = tmp_path / "assertfail.yaml", tmp_path / "t.db"
    spec.write_text(ASSERT_FAIL)
    run = start_run(db, "--target", spec)
    read_progress_until(run, lambda done, _: done > 0)
    [executor] = subprocess.run(["pgrep", "-P", str(run.pid)], capture_output=True,
                                text=True).stdout.split()
    os.kill(int(executor), signal.SIGSTOP)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # polling the servers' state, not timing
            servers = subprocess.run(["pgrep", "-P", executor], capture_output=True,
                                     text=True).stdout.split()
            if servers and all(_server_blocked_writing(s) for s in servers):
                break
            time.sleep(0.05)
        else:
            pytest.fail("the fork servers never filled their result pipes")
        os.killpg(run.pid, signal.SIGINT)
    finally:
        os.kill(int(executor), signal.SIGCONT)
    try:
        _, err = run.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(run.pid, signal.SIGKILL)
        run.communicate()
        pytest.fail("the run hung after Ctrl-C")
    assert run.returncode == 130, err
    assert err.decode().rstrip().endswith("--resume` finishes it")
    assert not _left_running(run)


@pytest.mark.parametrize("how, code", [("SIGINT", 130), ("SIGTERM", 143)])
def test_the_survey_stops_keeping_what_its_run_stored(tmp_path, how, code):
    library = tmp_path / "examples" / "assertfail"
    library.mkdir(parents=True)
    (library / "assertfail.yaml").write_text(ASSERT_FAIL)
    (library / "survey.md").write_text("## glibc's assertion failure\n")
    db = tmp_path / "s.db"
    args = ["survey", "--examples", str(tmp_path / "examples"), "--db", str(db), "--out",
            str(tmp_path / "report")]
    proc = subprocess.Popen([str(TREBUCHET), *args], start_new_session=True, preexec_fn=sigint_default,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait_for(proc, db, "results")
    if how == "SIGINT":
        os.killpg(proc.pid, signal.SIGINT)  # as a terminal sends Ctrl-C
    else:
        proc.send_signal(signal.SIGTERM)  # to the survey alone, which passes it on
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == code, err
    assert err.splitlines()[-1] == ("trebuchet: stopped; what was done is stored:"
                                    f" `trebuchet {' '.join(args)}` goes on where it stopped")
    assert not _left_running(proc)
    assert query(db, "SELECT finished FROM runs") == [(None,)]
    assert 0 < query(db, "SELECT count(*) FROM results")[0][0] < 5000


def test_bench_io_stops_on_sigterm_with_143_removing_its_files(tmp_path):
    db = tmp_path / "bench.db"
    proc = subprocess.Popen([str(TREBUCHET), "bench", "io", "--size-mib", "512", "--repeat", "50",
                             "--benchmarks", "read", "--blocks", "757", "--db", str(db)],
                            env=dict(os.environ, TMPDIR=str(tmp_path)), start_new_session=True, preexec_fn=sigint_default,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait_for(proc, db, "bench_results", 3)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert err.splitlines()[-1] == (f"trebuchet: bench io stopped; what it measured is stored in"
                                    f" {db} as run 1, unfinished (reports read finished runs"
                                    " only)")
    assert not list(tmp_path.glob("trebuchet-bench-io-*"))
    assert not _left_running(proc)
