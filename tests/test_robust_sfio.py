"""Robust SFIO: the same programs give the same output on plain SFIO and on
the hardened library, and the robust_sfio campaign (the sfio target's very
functions and values) has no ABORT and no RESTART."""
import os
import subprocess

import pytest

from conftest import ROOT, query, trebuchet
from trebuchet.spec import load as specs

BUILT = ROOT / "build" / "targets" / "robust_sfio" / "tests"
PROGRAMS = subprocess.run([str(BUILT / "equivalence_plain"), "--list"], capture_output=True,
                          text=True, check=True).stdout.split()


def run_program(binary, program, workdir, env=None):
    workdir.mkdir()
    result = subprocess.run([str(binary), program], cwd=workdir, capture_output=True, timeout=60,
                            env=env)
    files = {p.name: p.read_bytes() for p in sorted(workdir.iterdir())}
    return result.returncode, result.stdout, files


@pytest.mark.parametrize("program", PROGRAMS)
def test_valid_programs_behave_the_same_on_both_libraries(program, tmp_path):
    plain = run_program(BUILT / "equivalence_plain", program, tmp_path / "plain")
    robust = run_program(BUILT / "equivalence_robust", program, tmp_path / "robust")
    assert plain[0] == 0 and plain[1], f"{program} failed on plain SFIO"
    assert robust == plain


@pytest.mark.parametrize("program", PROGRAMS)
def test_preloading_the_library_under_a_plain_sfio_program_changes_nothing(program, tmp_path):
    """The other way in: no rebuild, LD_PRELOAD (the in-line macros then stay
    SFIO's own, compiled into the program)."""
    library = ROOT / "build" / "lib" / "librobust_sfio.so"
    plain = run_program(BUILT / "equivalence_plain", program, tmp_path / "plain")
    preloaded = run_program(BUILT / "equivalence_plain", program, tmp_path / "preloaded",
                            env=dict(os.environ, LD_PRELOAD=str(library)))
    assert preloaded == plain


def test_a_preloaded_library_hardens_a_plain_sfio_program(tmp_path):
    library = ROOT / "build" / "lib" / "librobust_sfio.so"
    crash = BUILT / "equivalence_plain"
    env = dict(os.environ, LD_PRELOAD=str(library))
    result = subprocess.run([str(crash), "wild_write"], cwd=tmp_path, capture_output=True,
                            timeout=60, env=env)
    assert result.returncode == 0 and result.stdout == b"wild_write=-1 errno=EFAULT\n"
    unhardened = subprocess.run([str(crash), "wild_write"], cwd=tmp_path, capture_output=True,
                                timeout=60)
    assert unhardened.returncode < 0  # plain SFIO dies of the signal


def test_there_are_programs_for_every_area_the_issue_names():
    assert {"write_read_seek", "records", "printf_scanf", "string_streams", "stacks",
            "pools"} <= set(PROGRAMS)


def test_the_robust_target_shares_the_sfio_spec():
    sfio = specs.load(specs.find_spec("sfio"))
    robust = specs.load(specs.find_spec("robust_sfio"))
    assert robust.functions == sfio.functions
    assert robust.datatypes == sfio.datatypes
    assert robust.libraries[0] == "build/lib/librobust_sfio.so"


@pytest.fixture(scope="module")
def robust_db(tmp_path_factory):
    db = tmp_path_factory.mktemp("robust") / "robust.db"
    trebuchet("run", "--target", "robust_sfio", "--db", db, "--quiet")
    return db


def test_the_robust_campaign_has_no_abort_and_no_restart(robust_db):
    counts = dict(query(robust_db, "SELECT outcome, COUNT(*) FROM results GROUP BY outcome"))
    assert counts.get("PASS", 0) > 40000
    assert counts == {"PASS": counts["PASS"]}, counts


def test_the_robust_campaign_runs_every_sfio_case(robust_db):
    listed = trebuchet("list", "--target", "sfio", "functions").stdout.splitlines()
    expected = {line.split()[0].split(".", 1)[1]: int(line.split()[1]) for line in listed}
    run = dict(query(robust_db, "SELECT name, cases_total FROM functions"))
    assert run == expected


def test_wild_streams_are_refused_with_ebadf(robust_db):
    rows = query(robust_db, "SELECT value_names, errno, error_reported FROM results"
                            " WHERE function IN ('sfputc', 'sfwrite', 'sfclose')"
                            " AND value_names LIKE 'Sfio_t:GARBAGE%'")
    assert rows and all(errno == 9 and reported == 1 for _, errno, reported in rows)
