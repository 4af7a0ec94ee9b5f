"""The harness is never hurt by what it tests: the selftest target's functions
crash, hang, exit, fork, scribble on and close every descriptor, exhaust
memory and kill their parent, and every one is classified per the contract
with the store intact, no process left behind and nothing written outside
the run's scratch directory."""
import os
import re
from pathlib import Path

import pytest

from conftest import function_cases, needs_sandbox, processes_under, query, trebuchet


def nobody_files_in(directory):
    """Files of nobody's in directory, but other runs' scratch directories
    (this run's is made elsewhere): runs of others may come and go."""
    return {p.name for p in Path(directory).iterdir() if p.lstat().st_uid == 65534
            and not re.fullmatch(r"trebuchet-\d{7}-\w{6}", p.name)}


@pytest.fixture(scope="module")
def selftest(tmp_path_factory):
    base = tmp_path_factory.mktemp("hostile")
    cwd, tmp = base / "cwd", base / "tmp"
    cwd.mkdir()
    tmp.mkdir()
    before = nobody_files_in("/tmp")
    # no second look: each hang would be run again at four times the
    # watchdog, the same RESTART (tests/test_second_look.py tests that)
    trebuchet("run", "--target", "selftest", "--db", "selftest.db", "--quiet",
              "--timeout", "0.5", "--memory-mb", "256", "--no-second-look", cwd=cwd,
              env={"TMPDIR": str(tmp)})
    return dict(db=cwd / "selftest.db", cwd=cwd, tmp=tmp, base=base,
                new_in_tmp=nobody_files_in("/tmp") - before)


def outcomes_of(db, function):
    return query(db, "SELECT value_names, outcome, signal, exit_status, ret, cleanup_failed,"
                     " setup_param FROM results WHERE function = ? ORDER BY case_index", function)


def test_store_is_intact_and_complete(selftest):
    db = selftest["db"]
    assert query(db, "PRAGMA integrity_check") == [("ok",)]
    assert query(db, "SELECT count(*) FROM functions WHERE cases_run != cases_drawn") == [(0,)]
    assert query(db, "SELECT count(finished) FROM runs") == [(1,)]


def test_garbage_on_every_descriptor_is_a_pass(selftest):
    rows = outcomes_of(selftest["db"], "st_scribble_fds")
    assert len(rows) == function_cases("selftest")["st_scribble_fds"]
    assert {r[1] for r in rows} == {"PASS"}


def test_closing_every_descriptor_is_a_pass_with_its_return_value(selftest):
    rows = outcomes_of(selftest["db"], "st_close_fds")
    assert {r[1] for r in rows} == {"PASS"}
    assert all(r[4] >= 3 for r in rows)  # at least stdin, stdout and stderr were open


def test_crash_and_abort_are_aborts_with_their_signal(selftest):
    assert {(r[1], r[2]) for r in outcomes_of(selftest["db"], "st_crash")} == {("ABORT", 11)}
    assert {(r[1], r[2]) for r in outcomes_of(selftest["db"], "st_abort")} == {("ABORT", 6)}


def test_exit_inside_the_call_is_an_abort_with_its_status(selftest):
    codes = {"int:ZERO": 0, "int:ONE": 1, "int:NEG_ONE": 255, "int:INT_MAX": 255,
             "int:INT_MIN": 0, "int:CHAR_255": 255, "int:CHAR_256": 0}
    rows = outcomes_of(selftest["db"], "st_exit")
    assert {(r[1], r[2]) for r in rows} == {("ABORT", None)}
    # the statuses of the values whose numbers are known here; int may have more
    assert {r[0]: r[3] for r in rows if r[0] in codes} == codes


def test_hangs_are_restarts(selftest):
    for function in ("st_hang", "st_spin"):
        assert {r[1] for r in outcomes_of(selftest["db"], function)} == {"RESTART"}


def test_forking_functions_pass_and_leave_no_process(selftest):
    for function in ("st_fork_linger", "st_fork_escape"):
        assert {r[1] for r in outcomes_of(selftest["db"], function)} == {"PASS"}
    assert processes_under(selftest["base"]) == []


def test_unbounded_allocation_is_refused_not_fatal(selftest):
    rows = outcomes_of(selftest["db"], "st_allocate")
    assert {r[1] for r in rows} == {"PASS"}
    assert all(0 < r[4] < 256 for r in rows)  # MiB obtained under the 256 MiB limit


@pytest.mark.skipif(os.geteuid() != 0, reason="tests run as an unprivileged user only when root")
def test_killing_the_parent_is_refused(selftest):
    rows = outcomes_of(selftest["db"], "st_kill_parent")
    assert {(r[1], r[4]) for r in rows} == {("PASS", -1)}  # EPERM: not its user


def test_setup_and_cleanup_failures(selftest):
    rows = {r[0]: r[1:] for r in outcomes_of(selftest["db"], "st_take_value")}
    assert rows["ordeal:FINE"][0] == "PASS"
    assert rows["ordeal:SETUP_FAILS"][0] == "SETUP" and rows["ordeal:SETUP_FAILS"][5] == 0
    assert rows["ordeal:SETUP_CRASHES"][0] == "SETUP"
    assert rows["ordeal:SETUP_HANGS"][0] == "SETUP"
    outcome, sig, _, _, cleanup_failed, _ = rows["ordeal:CLEANUP_CRASHES"]
    assert (outcome, sig, cleanup_failed) == ("PASS", 11, 1)


def test_nothing_is_left_outside_the_scratch_directory(selftest):
    needs_sandbox()  # without it, what the functions leave in /tmp stays there
    assert list(selftest["tmp"].iterdir()) == []
    assert {p.name for p in selftest["cwd"].iterdir()} <= {
        "selftest.db", "selftest.db-wal", "selftest.db-shm"}
    assert selftest["new_in_tmp"] == set()


def test_file_functions_leave_nothing_behind(sandbox_dirs):
    cwd, tmp = sandbox_dirs
    trebuchet("run", "--target", "stdio", "--functions", "fopen,freopen,remove,rename,tmpfile",
              "--db", "files.db", "--quiet", cwd=cwd, env={"TMPDIR": str(tmp)})
    assert list(tmp.iterdir()) == []
    assert {p.name for p in cwd.iterdir()} <= {"files.db", "files.db-wal", "files.db-shm"}
