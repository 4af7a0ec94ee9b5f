"""`trebuchet states` (docs/states.md) on tests/states/'s valve, whose
states counted by hand from valve.c are: new (valve_new), open (valve_open
of an existing file), failed (valve_open of a missing one: valve_flush
crashes) and closed (valve_open, then valve_close: valve_close crashes),
the last reached by two calls only; and its tap, a handle of the same C
type (valve_taps.yaml), which tap_pour given a valve crashes on.
Exploration finds the three states beyond the new valve at the cost counted
by hand, offers each datatype the other's handle as a sibling, writes them
beside the spec, and the spec that includes the file runs them: the closed
valve's crash and the tap's are findings no hand-made value reaches."""
import shutil
import subprocess

import pytest

from conftest import ROOT, query, trebuchet
from test_bad_input import assert_input_error

STATES = ROOT / "tests" / "states"

# each kept state's steps as written, in the order found
EXPECTED = """\
values:
  valve:
    # valve_open(path=EXISTING) error EBUSY (success on valve_new's)
    # valve_open(path=MISSING) error EBUSY (error ENOENT on valve_new's)
    # valve_flush() success (error on valve_new's)
    # valve_close() success (error EBADF on valve_new's)
    AFTER_VALVE_OPEN_EXISTING:
      - {call: valve_new}
      - {call: valve_open, args: {path: EXISTING}}
    # valve_open(path=EXISTING) error EBUSY (success on valve_new's)
    # valve_open(path=MISSING) error EBUSY (error ENOENT on valve_new's)
    # valve_flush() SIGSEGV (error on valve_new's)
    VALVE_OPEN_MISSING_FAILED:
      - {call: valve_new}
      - {call: valve_open, args: {path: MISSING}, expect: error}
    # valve_flush() error EBADF (success on AFTER_VALVE_OPEN_EXISTING)
    # valve_close() SIGABRT (success on AFTER_VALVE_OPEN_EXISTING)
    AFTER_VALVE_OPEN_EXISTING_THEN_VALVE_CLOSE:
      - {call: valve_new}
      - {call: valve_open, args: {path: EXISTING}}
      - {call: valve_close}
    # a sibling: tap's handle (tap_new()), offered where a valve is taken
    SIBLING_TAP_NEW:
      - {call: tap_new}
  tap:
    # a sibling: valve's handle (valve_new()), offered where a tap is taken
    SIBLING_VALVE_NEW:
      - {call: valve_new}
"""


def _valve(folder):
    """tests/states/ copied into folder, its library built; the spec's path."""
    for path in STATES.iterdir():
        shutil.copy(path, folder)
    (folder / "build").mkdir()
    subprocess.run(["cc", "-shared", "-fPIC", "-o", folder / "build" / "libvalve.so",
                    folder / "valve.c"], check=True)
    return folder / "valve.yaml"


@pytest.fixture(scope="module")
def explored(tmp_path_factory):
    spec = _valve(tmp_path_factory.mktemp("explored")).with_name("valve_taps.yaml")
    said = trebuchet("states", "--target", spec).stdout.splitlines()
    return spec, said


def test_exploration_keeps_the_states_a_next_call_tells_apart(explored):
    spec, said = explored
    written = (spec.parent / "valve_taps.states.yaml").read_text()
    assert written[written.index("values:"):] == EXPECTED
    assert [line.split(":")[:2] for line in said[:-1]] == [
        ["valve", "AFTER_VALVE_OPEN_EXISTING"], ["valve", "VALVE_OPEN_MISSING_FAILED"],
        ["valve", "AFTER_VALVE_OPEN_EXISTING_THEN_VALVE_CLOSE"], ["valve", "SIBLING_TAP_NEW"],
        ["tap", "SIBLING_VALVE_NEW"]]
    assert "valve_close() SIGABRT (success on AFTER_VALVE_OPEN_EXISTING)" in said[2]
    # 4 moves on each valve: the new one, its 4 children, then the 7 that
    # the two kept ones make (valve_flush of the failed valve crashed); one
    # move on each tap: the new one and its child, the same
    assert said[-1].startswith("3 of 14 states kept, 50 cases, ")


def test_the_spec_that_includes_the_states_runs_them_and_their_crashes_are_findings(explored):
    spec, _ = explored
    text = spec.read_text()
    spec.write_text(text.replace("datatypes:", "states: valve_taps.states.yaml\ndatatypes:"))
    db = spec.parent / "valve.db"
    trebuchet("run", "--target", spec, "--db", db, "--quiet")
    spec.write_text(text)
    found = query(db, "SELECT r.function, r.value_names, r.signal FROM finding_cases c JOIN"
                      " results r ON r.run_id = c.run_id AND r.function = c.function AND"
                      " r.case_index = c.case_index ORDER BY r.function, r.value_names")
    # the two states and the sibling found reach two defects no hand-made
    # value of the spec reaches, and the failed valve's crash of OPEN_FAILED
    assert found == [("tap_pour", "tap:SIBLING_VALVE_NEW", 11),
                     ("valve_close", "valve:AFTER_VALVE_OPEN_EXISTING_THEN_VALVE_CLOSE", 6),
                     ("valve_flush", "valve:OPEN_FAILED", 11),
                     ("valve_flush", "valve:VALVE_OPEN_MISSING_FAILED", 11)]


def test_a_parameter_without_accepts_takes_its_first_own_value_and_a_budget_stops_whole(
        tmp_path):
    spec = _valve(tmp_path)
    spec.write_text(spec.read_text().replace(", accepts: [EXISTING, MISSING]", ""))
    said = trebuchet("states", "--target", spec, "--budget", "12").stdout.splitlines()
    # valve_open's path is EXISTING, path's first own value neither misuse
    # nor NULL (not the VALID page it inherits): 3 moves; the new valve and
    # its three children fill the budget, and the closed valve is never made
    assert said[:-1] == ["valve:AFTER_VALVE_OPEN: valve_open(path=EXISTING) error EBUSY (success"
                         " on valve_new's); valve_flush() success (error on valve_new's);"
                         " valve_close() success (error EBADF on valve_new's)"]
    assert said[-1].startswith("1 of 4 states kept, 12 cases, ")
    assert said[-1].endswith("; the budget of 12 cases ran out; written to "
                             f"{spec.parent / 'valve.states.yaml'} (include it with"
                             " `states: valve.states.yaml`)")


def _bad(explored, tmp_path, edit, states=None):
    spec = explored[0].with_name("valve.yaml")
    for name in ("valve.h", "valve_values.c", "build"):
        (tmp_path / name).symlink_to(spec.parent / name)
    bad = tmp_path / "bad.yaml"
    bad.write_text(edit(spec.read_text()))
    if states is not None:
        (tmp_path / "bad.states.yaml").write_text(states)
    return bad


@pytest.mark.parametrize("edit, states, args, fragments", [
    # a states file left by an earlier exploration is not written over
    (lambda t: t, "values: {}\n", [], ["bad.states.yaml: bad.states.yaml is there already",
                                       "--replace"]),
    # the spec includes a file that is not there, or one naming a value it has
    (lambda t: t.replace("sources:", "states: gone.yaml\nsources:"), None, [],
     ["bad.yaml:5: states 'gone.yaml': no such file"]),
    (lambda t: t.replace("sources:", "states: bad.states.yaml\nsources:"),
     "values:\n  valve:\n    OPEN_FAILED:\n      - {call: valve_new}\n", ["--replace"],
     ["bad.states.yaml:3: valve:OPEN_FAILED is a value of the spec already"]),
    (lambda t: t.replace("sources:", "states: bad.states.yaml\nsources:"),
     "values:\n  valve:\n    LATE:\n      - {call: valve_opne}\n", ["--replace"],
     ["bad.states.yaml:4: valve:LATE, step 1: unknown function 'valve_opne'"]),
    # nothing returns a valve
    (lambda t: t[:t.index("values:")] + t[t.index("functions:"):].replace(
        "  - name: valve_new\n    returns: valve_t *\n", "  - name: valve_new\n    returns: int\n"),
     None, [], ["bad.yaml:", "no handle to explore"]),
])
def test_bad_input_is_one_line(explored, tmp_path, edit, states, args, fragments):
    bad = _bad(explored, tmp_path, edit, states)
    assert_input_error(trebuchet("states", "--target", bad, *args, check=False), *fragments)
