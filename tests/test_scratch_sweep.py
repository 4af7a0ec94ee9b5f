"""A run removes the scratch roots that killed runs left behind, and never a
live run's: not even one whose executor runs under another name, which the
pid in the root's name alone would take for gone."""
import os
import shutil
import sqlite3
import subprocess
import time

from conftest import ROOT, trebuchet

EXEC = ROOT / "build" / "bin" / "trebuchet-exec"
PLUGIN = ROOT / "build" / "targets" / "selftest" / "selftest.so"


def executor(binary, db, scratch, *args):
    return subprocess.Popen([str(binary), "--plugin", str(PLUGIN), "--db", str(db), "--quiet",
                             *args], env=dict(os.environ, TMPDIR=str(scratch)),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def roots(scratch):
    return sorted(p.name for p in scratch.glob("trebuchet-*"))


def test_a_live_run_under_another_name_keeps_its_scratch(tmp_path):
    trebuchet("build", "--target", "selftest", "--quiet")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    renamed = tmp_path / "renamed-exec"
    shutil.copy(EXEC, renamed)
    # seven calls that hang, two at a time, a second each (no second look at
    # four seconds each): the run lives ~4 s
    slow = executor(renamed, tmp_path / "slow.db", scratch,
                    "--functions", "st_hang", "--timeout", "1", "--jobs", "2",
                    "--no-second-look")
    deadline = time.monotonic() + 20
    while not roots(scratch) and time.monotonic() < deadline:
        time.sleep(0.05)
    live = roots(scratch)
    assert len(live) == 1

    # a root a killed run left: no such process, no lock
    (scratch / "trebuchet-0000001-Ab3dEf").mkdir()
    quick = executor(EXEC, tmp_path / "quick.db", scratch,
                     "--functions", "st_return", "--cap", "1")
    assert quick.wait(timeout=60) == 0, quick.stderr.read()
    assert roots(scratch) == live  # the dead one went, the live one stayed

    assert slow.wait(timeout=120) == 0, slow.stderr.read()
    with sqlite3.connect(tmp_path / "slow.db") as db:
        assert db.execute("SELECT outcome, count(*) FROM results GROUP BY outcome").fetchall() \
            == [("RESTART", 7)]
    assert roots(scratch) == []
