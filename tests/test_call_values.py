"""Values made by calls (docs/datatypes.md, section 5): tests/states/'s
valve, whose handle after a failed open crashes valve_flush, is given that
state by a spec's `values:` alone.  The run reaches the crash as a finding;
a step whose answer is not the one expected makes the case SETUP, saying
the step and its return; the reproducer builds the state with the same
calls and crashes as the case did; and a step that cannot be made is
refused at its line."""
import shutil
import subprocess

import pytest

from conftest import ROOT, libdirs_said, query, trebuchet
from test_bad_input import assert_input_error
from trebuchet.spec import load as specs

STATES = ROOT / "tests" / "states"


@pytest.fixture(scope="module")
def valve(tmp_path_factory):
    """tests/states/ copied, its library built, and run once."""
    folder = tmp_path_factory.mktemp("states")
    for path in STATES.iterdir():
        shutil.copy(path, folder)
    (folder / "build").mkdir()
    subprocess.run(["cc", "-shared", "-fPIC", "-o", folder / "build" / "libvalve.so",
                    folder / "valve.c"], check=True)
    db = folder / "valve.db"
    trebuchet("run", "--target", folder / "valve.yaml", "--db", db, "--quiet")
    return folder / "valve.yaml", db


def _flushed(db):
    return {values: (outcome, signal, reason) for values, outcome, signal, reason in query(
        db, "SELECT value_names, outcome, signal, setup_reason FROM results"
            " WHERE function = 'valve_flush'")}


def test_a_state_made_by_calls_reaches_the_crash_as_a_finding(valve):
    spec, db = valve
    flushed = _flushed(db)
    assert flushed["valve:NEW"] == ("PASS", None, None)
    assert flushed["valve:OPEN_FAILED"] == ("ABORT", 11, None)
    found = query(db, "SELECT f.functions FROM finding_cases c JOIN findings f ON"
                      " f.run_id = c.run_id AND f.id = c.finding JOIN results r ON"
                      " r.run_id = c.run_id AND r.function = c.function AND"
                      " r.case_index = c.case_index WHERE r.value_names = 'valve:OPEN_FAILED'")
    assert found == [("valve_flush",)]
    # named as any value, with its calls and the digest of their sequence
    listed = trebuchet("list", "datatypes", "--target", spec).stdout.splitlines()
    line = next(line for line in listed if line.split()[:1] == ["OPEN_FAILED"])
    assert "made by calls: valve_new, valve_open (error) [sequence " in line


def test_a_step_not_answering_as_expected_makes_the_case_setup_saying_why(valve):
    _, db = valve
    # valve_open succeeds on an existing file, where the value needs its error
    assert _flushed(db)["valve:OPEN_FAILED_ON_A_FILE"] == (
        "SETUP", None, "step 2, valve_open, returned 0: no error by its convention, where the "
                       "value needs an error")


def test_the_reproducer_makes_the_state_with_the_same_calls_and_crashes(valve, tmp_path):
    spec, _ = valve
    out = tmp_path / "repro"
    said = trebuchet("repro", "--target", spec, "--function", "valve_flush",
                     "--values", "valve:OPEN_FAILED", "--emit-c", out).stdout
    assert "ABORT, signal 11" in said
    assert "valve_open((valve_t *)a[0].ptr" in (out / "repro.c").read_text()
    subprocess.run(["make", "-s", "-C", out, *libdirs_said(said)], check=True,
                   capture_output=True)
    assert subprocess.run([out / "repro"], cwd=out, capture_output=True).returncode == -11


A_STEP = "      - {call: valve_open, args: {path: MISSING}, expect: error}\n    OPEN_FAILED_ON"
GAUGE_READ = ("functions:\n  - name: gauge_read\n    returns: int\n    params:\n"
              "      - {name: g, type: gauge_t *, datatype: valve}\n    error: {when: none}\n")


@pytest.mark.parametrize("step, extra, fragments", [
    ("{call: valve_opne}", "", ["unknown function 'valve_opne'"]),
    ("{call: valve_open, args: {pth: MISSING}}", "",
     ["'pth' is not a parameter of valve_open (its parameters: v, path)"]),
    ("{call: valve_open, args: {path: MISING}}", "",
     ["'MISING' is not a value of datatype path, valve_open(path)'s"]),
    ("{call: valve_open}", "", ["valve_open(path) needs a value"]),
    # a call that takes no valve, by datatype, and by C type
    ("{call: gauge_new}", "", ["gauge_new has no parameter of datatype valve"]),
    ("{call: gauge_read}", GAUGE_READ, ["the plugin did not compile: initialization of "
                                       "'gauge_t *'", "(in the value made by calls"]),
])
def test_a_step_that_cannot_be_made_is_refused_at_its_line(valve, tmp_path, step, extra,
                                                           fragments):
    spec, _ = valve
    for name in ("valve.h", "valve_values.c", "build"):
        (tmp_path / name).symlink_to(spec.parent / name)
    text = spec.read_text().replace(A_STEP, f"      - {step}\n    OPEN_FAILED_ON")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace("functions:\n", extra or "functions:\n"))
    result = trebuchet("build", "--target", bad, "--quiet", check=False)
    assert_input_error(result, "bad.yaml:11: " + ("" if extra else "valve:OPEN_FAILED, step 2: "),
                       *fragments)


def test_the_specs_digest_counts_each_sequence_and_only_when_there_are_some(valve, tmp_path):
    # what runs store (runs.spec_digest) and the gate compares: an edited step
    # makes another value under the same name
    spec, _ = valve
    for name in ("valve.h", "valve_values.c", "build"):
        (tmp_path / name).symlink_to(spec.parent / name)
    text = spec.read_text()
    edited, without = tmp_path / "edited.yaml", tmp_path / "without.yaml"
    edited.write_text(text.replace("args: {path: MISSING}", "args: {path: MISSING_DIR}"))
    # (and without valve_close, which the valve gained after)
    close = text[text.index("  - name: valve_close"):text.index("  - name: gauge_new")]
    without.write_text(text[:text.index("values:\n")]
                       + text[text.index("functions:\n"):].replace(close, ""))
    assert specs.load(edited).digest != specs.load(spec).digest
    # the digest a spec without `values:` had before they existed
    assert specs.load(without).digest == "sha256:f0a96b4bab01234c"
