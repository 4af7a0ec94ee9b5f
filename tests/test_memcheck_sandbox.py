"""`trebuchet memcheck` in the sandbox.  Valgrind 3.19 answers ENOSYS to
open_tree, move_mount and mount_setattr; the executor's fallback
(harness/isolation_legacy.c) makes the same sandbox with mount(2).  Each
escape of test_sandbox.py, run as memcheck runs its cases (memcheck.command:
Valgrind, the executor, the cases listed), as root and as an ordinary user, meets
what it meets in a plain run (a read-only filesystem above the scratch
directory, no route, no such process), nothing it leaves is found outside,
and the test process's own report gets out to memcheck."""
import json
import os
import shutil
import subprocess

import pytest

from conftest import needs_sandbox, query, trebuchet
from test_sandbox import EXEC, NOBODY, PLUGIN, bait, user_namespaces_allowed  # noqa: F401
from trebuchet.memcheck import valgrind as memcheck

pytestmark = pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind not installed")

# name: (ret, errno) met inside: EROFS above the scratch directory and
# beside the store, ENETUNREACH, ESRCH; the rest did what they meant to in
# the run's own /tmp, /dev/shm and IPC namespace.  Not /var/tmp (bound as
# /tmp is), nor the daemon and the fork bomb: under Valgrind each of their
# processes is one, for seconds each.
MET = {"tmp": (0, 0), "dev_shm": (0, 0), "shm": (0, 0), "above": (-1, 30), "store": (-1, 30),
       "connect": (-1, 101), "signal": (-1, 3)}


def memcheck_escapes(bait, user=None):
    """The escapes' cases as memcheck runs them, under one Valgrind (as
    user: nobody), their scratch directory made where a plain run of
    test_sandbox.py makes it; ({name: its result}, the pids Valgrind wrote
    a report for)."""
    listed = bait.tmp / "cases"
    listed.write_text("".join(f"st_escape_{name} 0\n" for name in MET))
    listed.chmod(0o644)
    argv, env = memcheck.command(PLUGIN, listed, None, 30, bait.tmp)
    reports = bait.tmp / "reports"
    reports.mkdir()
    if user:
        os.chown(reports, NOBODY, NOBODY)
        argv = ["runuser", "-u", user, "--", "env", f"TMPDIR={env['TMPDIR']}",
                f"TREBUCHET_SHARE={env['TREBUCHET_SHARE']}", *argv]
    done = subprocess.run(argv, env=env, cwd=bait.base, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    results = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    pids = {int(p.stem) for p in reports.glob("*.xml")}
    shutil.rmtree(reports)  # not a file left outside
    listed.unlink()
    return {r["function"].removeprefix("st_escape_"): r for r in results}, pids


def assert_held_under_memcheck(bait, level, user=None):
    results, pids = memcheck_escapes(bait, user)
    assert results.keys() == MET.keys()
    for name, met in MET.items():
        result = results[name]
        assert result["sandbox"] == level, name
        assert (result["outcome"], result["ret"], result["errno"]) == ("PASS", *met), name
        # each test process's own report, by the pid the executor gives it
        assert result["pid"] in pids, name
    # the fork server is its PID namespace's 1
    assert 1 in pids
    assert bait.traces() == set()
    assert bait.leftover_files() == []


def test_as_root_memcheck_runs_each_case_in_the_full_sandbox(bait):
    needs_sandbox()
    assert_held_under_memcheck(bait, "full")


@pytest.mark.skipif(not user_namespaces_allowed(),
                    reason="needs root to become nobody, and unprivileged user namespaces")
def test_as_an_ordinary_user_memcheck_runs_each_case_in_the_user_sandbox(bait):
    assert_held_under_memcheck(bait, "user", user="nobody")


def test_memcheck_says_the_sandbox_its_cases_ran_in(tmp_path):
    """As a run's closing line does, at the run's level."""
    needs_sandbox()
    db = tmp_path / "s.db"
    trebuchet("run", "--target", "selftest", "--functions", "st_return", "--cap", "2",
              "--db", db, "--quiet")
    [(level,)] = query(db, "SELECT sandbox FROM runs")
    out = trebuchet("memcheck", "--db", db, "--sample", "2").stdout
    assert out.splitlines()[-1].endswith(f"; sandbox {level})"), out
    assert level == ("full" if os.geteuid() == 0 else "user")
