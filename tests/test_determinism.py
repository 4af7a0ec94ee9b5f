"""Determinism: two runs of the same campaign give the same outcome, signal,
exit status, errno and error flag for every case."""
import os
import shlex
import subprocess

from conftest import TREBUCHET, outcomes, query, trebuchet


def test_two_stdio_campaigns_agree_case_by_case(tmp_path):
    db = tmp_path / "twice.db"
    for _ in range(2):
        trebuchet("run", "--target", "stdio", "--db", db, "--quiet")
    first, second = outcomes(db, 1), outcomes(db, 2)
    assert len(first) > 30000
    assert first.keys() == second.keys()
    differing = {k: (first[k], second[k]) for k in first if first[k] != second[k]}
    assert not differing, f"{len(differing)} cases differ, e.g. {list(differing.items())[:5]}"
    # every spec function is in the store, complete
    names = query(db, "SELECT count(*), sum(cases_run = cases_drawn) FROM functions WHERE run_id = 1")
    assert names[0][0] == names[0][1] >= 25


# The functions that handle freed memory (and the in-line reads and seeks
# next to them): their cases' fate hangs on the exact heap and stack layout
# a test process inherits, so they are the first to show a world that leaks
# in from whoever started the run.
FREED_MEMORY = {
    "stdio": "fseek,fseeko,fsetpos,rewind,fgetc,fclose,fwrite",
    "sfio": "sfpopen,sfseek,sfgetc,sfclose",
    "selftest": "st_world",
}


def _campaign(db, launch, cwd):
    """Runs FREED_MEMORY's campaigns into db, each command line wrapped by
    launch (a list of words to put in front of it)."""
    for target, functions in FREED_MEMORY.items():
        argv = [str(TREBUCHET), "run", "--target", target, "--functions", functions,
                "--db", str(db), "--quiet"]
        subprocess.run(launch(argv), cwd=cwd, check=True, capture_output=True,
                       env=None if launch is _as_is else {})


def _as_is(argv):
    return argv


def _bare(argv):
    return ["env", "-i", "PATH=/usr/bin:/bin", *argv]


def _crowded(argv):
    extra = [f"TREBUCHET_NOISE_{i}={'x' * i}" for i in range(50)]
    return ["env", *[f"{k}={v}" for k, v in os.environ.items()], *extra, *argv]


def _under_make(tmp):
    def launch(argv):
        makefile = tmp / "Makefile"
        makefile.write_text("all:\n\t" + " ".join(shlex.quote(a) for a in argv) + "\n")
        return ["env", *[f"{k}={v}" for k, v in os.environ.items()],
                "make", "-s", "-j2", "-f", str(makefile)]
    return launch


def _odd_parent(argv):
    """A parent that ignores SIGPIPE and SIGINT and has umask 077."""
    return ["env", *[f"{k}={v}" for k, v in os.environ.items()], "sh", "-c",
            'trap "" PIPE INT; umask 077; exec "$@"', "sh", *argv]


def _cases(db):
    """{(target, function, case): (outcome, signal, errno, ret of st_world)}"""
    rows = query(db, "SELECT r.target, s.function, s.case_index, s.outcome, s.signal, s.errno,"
                     " CASE WHEN s.function = 'st_world' THEN s.ret END"
                     " FROM results s JOIN runs r ON r.id = s.run_id")
    return {tuple(r[:3]): tuple(r[3:]) for r in rows}


def test_the_world_of_a_test_process_does_not_depend_on_how_the_run_was_started(tmp_path):
    reference = tmp_path / "reference.db"
    _campaign(reference, _as_is, tmp_path)
    expected = _cases(reference)
    assert len(expected) > 10000
    # what makes it a strong test: the freed-memory values are there, and fail
    assert sum(1 for (t, f, c), v in expected.items() if v[0] == "ABORT") > 1000
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    worlds = {"env -i": (_bare, tmp_path), "50 more variables": (_crowded, tmp_path),
              "make": (_under_make(tmp_path), tmp_path),
              "another directory, SIGPIPE ignored, umask 077": (_odd_parent, elsewhere)}
    report = {}
    for name, (launch, cwd) in worlds.items():
        db = tmp_path / f"{len(report)}.db"
        _campaign(db, launch, cwd)
        got = _cases(db)
        assert got.keys() == expected.keys(), name
        differing = [k for k in expected if got[k] != expected[k]]
        report[name] = (len(expected), len(differing),
                        [(k, expected[k], got[k]) for k in differing[:3]])
    print("\ncases compared, cases differing, under each world:")
    for name, (compared, differing, _) in report.items():
        print(f"  {name}: {compared} compared, {differing} differ")
    assert all(r[1] == 0 for r in report.values()), report
