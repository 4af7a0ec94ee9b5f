"""Bad options and the spec mistakes a new user makes first: each gets one
line saying what is wrong (the spec's file and line where there is one),
exit code 2, and nothing is stored."""
import subprocess

import pytest

from conftest import query, trebuchet
from test_bad_input import GOOD_FUNCTION, assert_input_error, write_spec
from trebuchet.core import paths
from trebuchet.core.exitcodes import Exit


@pytest.mark.parametrize("option, value, wanted", [
    ("--cap", "0", "--cap: wants a whole number at least 1, not '0'"),
    ("--cap", "-1", "--cap: wants a whole number at least 1, not '-1'"),
    ("--jobs", "0", "--jobs: wants a whole number at least 1 and at most 256, not '0'"),
    ("--timeout", "0", "--timeout: wants a number above 0 and at most 3600, not '0'"),
    ("--seed", "x", "--seed: wants a whole number at least 0, not 'x'"),
])
def test_a_bad_number_is_one_line(tmp_path, option, value, wanted):
    db = tmp_path / "t.db"
    r = trebuchet("run", "--target", "selftest", option, value, "--db", db, check=False)
    assert_input_error(r, wanted)
    assert not db.exists()


def test_an_unknown_function_names_the_spec_line_that_lists_them(tmp_path):
    spec = write_spec(tmp_path, "functions:\n" + GOOD_FUNCTION)
    r = trebuchet("run", "--target", spec, "--functions", "nosuchfn", "--db", tmp_path / "t.db",
                  check=False)
    assert_input_error(r, "userlib.yaml:3:", "no function 'nosuchfn'")


def test_a_spec_without_functions_names_the_missing_key(tmp_path):
    spec = write_spec(tmp_path, "", "nofunctions")
    r = trebuchet("run", "--target", spec, "--db", tmp_path / "t.db", check=False)
    assert_input_error(r, "nofunctions.yaml:1:", "missing key: one of 'functions', 'extends'")
    assert "{" not in r.stderr  # no repr of the whole mapping


def test_when_null_is_the_null_convention(tmp_path):
    spec = write_spec(tmp_path, """\
        functions:
          - name: fopen
            returns: FILE *
            params:
              - {name: path, type: const char *, datatype: path}
              - {name: mode, type: const char *, datatype: mode}
            error: {when: null}
        """, "whennull")
    db = tmp_path / "t.db"
    trebuchet("run", "--target", spec, "--cap", "50", "--db", db, "--quiet")
    # fopen(NULL-ish, ...) returned NULL at least once, and said so
    assert query(db, "SELECT count(*) FROM results WHERE outcome = 'PASS' AND ret = 0"
                     " AND error_reported = 1")[0][0] > 0


def test_the_executor_speaks_one_line_too(tmp_path):
    """trebuchet-exec, which the CLI runs, no longer follows an error with
    its usage."""
    r = subprocess.run([str(paths.EXEC), "--plugin", "x.so", "--cap", "0"], capture_output=True,
                       text=True)
    assert r.returncode == Exit.INPUT
    assert r.stderr.strip().splitlines() == ["trebuchet-exec: --cap wants at least 1"]


def test_export_of_a_run_not_in_the_store_is_an_input_error(tmp_path):
    db = tmp_path / "e.db"
    trebuchet("run", "--target", "selftest", "--functions", "st_return", "--cap", "5", "--db", db,
              "--quiet")
    assert_input_error(trebuchet("export", "--db", db, "--run", "9", check=False),
                       "no run 9 in this store")


def test_compare_takes_the_one_target_two_stores_share(tmp_path):
    first, second = tmp_path / "1.db", tmp_path / "2.db"
    trebuchet("run", "--target", "selftest", "--functions", "st_return", "--cap", "20",
              "--db", first, "--quiet")
    for target, function in (("selftest", "st_return"), ("stdio", "fseek")):
        trebuchet("run", "--target", target, "--functions", function, "--cap", "20",
                  "--db", second, "--quiet")
    assert trebuchet("compare", first, second).stdout.startswith("selftest: ")
    # two targets in common: the user names one
    trebuchet("run", "--target", "stdio", "--functions", "fseek", "--cap", "20", "--db", first,
              "--quiet")
    assert_input_error(trebuchet("compare", first, second, check=False),
                       "--target (in common: selftest, stdio)")
