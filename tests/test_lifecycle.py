"""The run's life as a user and a CI job see it: the executor lives and dies
with the CLI, one writer per store, --resume only when there is something to
resume, commits on time, a closing summary line, a progress line that moves
while cases hang, and Ctrl-C that says how to go on.

Every wait here blocks on something the run does (a line of its progress
read from a pipe, its exit seen through a pidfd): no sleeps."""
import os
import re
import select
import signal

from conftest import query, read_progress_until, start_run, trebuchet
from trebuchet.core.exitcodes import Exit

def children(pid):
    with open(f"/proc/{pid}/task/{pid}/children") as f:
        return [int(p) for p in f.read().split()]


def stored(db):
    return query(db, "SELECT count(*) FROM results")[0][0]


def test_killing_the_cli_lets_the_store_go_at_once_keeping_its_results(tmp_path):
    """`trebuchet` killed (SIGKILL: it passes nothing on): its executor, told
    by PR_SET_PDEATHSIG, commits what it has and lets the store go as it is,
    its last commits in the write-ahead log (the resumed run folds them in),
    so that a resume started at once finds no other writer.  Before, it
    folded the log into the store first (a tenth of a second and more,
    writing, the store locked), and could wait for ever on a fork server
    blocked writing results it no longer read."""
    db = tmp_path / "k.db"
    run = start_run(db, "--target", "stdio", "--functions", "fread,fgets,fputs,setbuf")
    read_progress_until(run, lambda done, _: done >= 1500)
    executor = children(run.pid)
    assert len(executor) == 1
    ended = os.pidfd_open(executor[0])  # readable once it has ended
    run.kill()
    run.wait()
    assert select.select([ended], [], [], 30)[0], "the killed run's executor goes on"
    os.close(ended)
    assert os.path.exists(f"{db}-wal"), "it wrote on after its caller was killed"
    # it stored what it had and stopped: the run is unfinished, resumable now
    assert stored(db) >= 1000
    assert query(db, "SELECT finished FROM runs") == [(None,)]
    trebuchet("run", "--target", "stdio", "--db", db, "--resume", "--quiet")
    assert query(db, "SELECT count(finished) FROM runs") == [(1,)]
    assert query(db, "SELECT sum(cases_run) = sum(cases_drawn) FROM functions") == [(1,)]


def test_a_second_writer_is_refused_naming_the_run(tmp_path):
    db = tmp_path / "w.db"
    first = start_run(db, "--target", "selftest", "--functions", "st_hang", "--timeout", "30",
                  "--jobs", "1")
    read_progress_until(first, lambda _, text: b"running > 1 s" in text)
    second = trebuchet("run", "--target", "selftest", "--functions", "st_return", "--db", db,
                       check=False)
    os.killpg(first.pid, signal.SIGINT)
    first.wait()
    assert second.returncode == Exit.INPUT
    assert len(second.stderr.strip().splitlines()) == 1
    assert "run 1 of selftest" in second.stderr and "being written" in second.stderr
    assert query(db, "SELECT count(*) FROM runs") == [(1,)]


def test_resume_with_nothing_to_resume_is_an_input_error(tmp_path):
    missing = tmp_path / "missing.db"
    r = trebuchet("run", "--target", "selftest", "--db", missing, "--resume", check=False)
    assert r.returncode == Exit.INPUT and "nothing to resume" in r.stderr
    assert not missing.exists()

    done = tmp_path / "done.db"
    trebuchet("run", "--target", "selftest", "--functions", "st_return", "--cap", "50",
              "--db", done, "--quiet")
    r = trebuchet("run", "--target", "selftest", "--db", done, "--resume", check=False)
    assert r.returncode == Exit.INPUT and "no unfinished run of selftest" in r.stderr
    assert query(done, "SELECT count(*) FROM runs") == [(1,)]


def test_slow_cases_are_committed_within_a_second(tmp_path):
    """Cases of a tenth of a second each, 20 a second, do not fill a batch
    of 512 before the kill: without the commit on time nothing was stored."""
    db = tmp_path / "slow.db"
    run = start_run(db, "--target", "selftest", "--functions", "st_slow", "--jobs", "2")
    read_progress_until(run, lambda done, _: done >= 40)
    os.killpg(run.pid, signal.SIGKILL)
    run.wait()
    assert stored(db) >= 20
    assert query(db, "SELECT cases_run FROM functions") == [(0,)]


def test_progress_shows_elapsed_eta_and_hung_cases(tmp_path):
    run = start_run(tmp_path / "p.db", "--target", "selftest", "--functions", "st_return,st_hang",
                "--cap", "200", "--timeout", "30", "--jobs", "2")
    # both slots hold a hung case: the line keeps moving and says so
    line = read_progress_until(run, lambda _, text: b"2 running > 1 s" in text)
    os.killpg(run.pid, signal.SIGINT)
    _, err = run.communicate()
    assert re.search(rb"\d+:\d\d elapsed", line) and b"ETA" in line
    # Ctrl-C: the interrupted exit code and how to go on
    assert run.returncode == Exit.INTERRUPTED
    assert b"--resume" in err.splitlines()[-1]


def test_a_run_outside_a_terminal_ends_with_a_summary_line(tmp_path):
    db = tmp_path / "s.db"
    r = trebuchet("run", "--target", "selftest", "--functions", "st_return,st_crash,st_take_value",
                  "--cap", "300", "--db", db)
    lines = r.stdout.strip().splitlines()
    assert len(lines) == 1
    counts = dict(query(db, "SELECT outcome, count(*) FROM results GROUP BY outcome"))
    total = sum(counts.values())
    # recomputed by hand: ABORT / (cases - SETUP) per function, then the mean
    rates = query(db, "SELECT 100.0 * sum(outcome = 'ABORT') / sum(outcome != 'SETUP')"
                      " FROM results GROUP BY function")
    normalized = sum(r[0] for r in rates) / len(rates)
    assert lines[0].startswith(f"selftest: {total} cases in 3 functions, ")
    for outcome in ("PASS", "ABORT", "RESTART", "SETUP"):
        assert f"{outcome} {counts.get(outcome, 0)}" in lines[0]
    assert f"normalized ABORT rate {normalized:.2f}%" in lines[0]
    assert str(db) in lines[0]
