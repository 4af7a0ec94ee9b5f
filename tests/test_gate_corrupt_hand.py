"""The gate on Corrupt counted by hand, in well under a second: two runs of
demolib stored by hand, each with memcheck's verdicts written as
`trebuchet memcheck` stores them, and no memcheck run (the store holds the
baseline's cases checked) nor rerun (--confirm 0).  Every rule of
src/trebuchet/gate/corrupt_verdict.py is one case: Corrupt in both, a new case of a defect the
baseline knows, a new defect (one of two cases, one of one), fixed, and
memcheck's own string routines passed over to name where it struck."""
import json
import sqlite3

import pytest

from conftest import ROOT, hand_store
from test_gate import DEMO_LIB, build_demolib, junit_valid, sarif_errors
from test_gate_hand import SPEC, VALUES, demolib
from trebuchet.gate import baseline as baselines
from trebuchet.gate import junit, sarif
from trebuchet.gate import verdict as gate
from trebuchet.spec import load as specs

ALL_PASS = demolib([(v, "PASS") for v in VALUES])
SHIM = "call_demo_count (demolib.so) /b/demolib.c:9"


def stack(*frames):
    return "\n".join(frames + (SHIM,))


READ_IN_COUNT = ("InvalidRead", "Invalid read of size 1",
                 stack("strlen (vgpreload_memcheck-amd64-linux.so)",
                       "demo_count (libdemo.so) /src/demolib.c:30"))
WRITE_IN_HELPER = ("InvalidWrite", "Invalid write of size 4",
                   stack("helper (libdemo.so) /src/demolib.c:12",
                         "demo_count (libdemo.so) /src/demolib.c:31"))
READ_IN_OTHER = ("InvalidRead", "Invalid read of size 8",
                 stack("other (libdemo.so) /src/demolib.c:44",
                       "demo_count (libdemo.so) /src/demolib.c:32"))
UNINIT_IN_COUNT = ("UninitCondition", "Conditional jump or move depends on uninitialised"
                   " value(s)", stack("demo_count (libdemo.so) /src/demolib.c:33"))
# case: memcheck's first error in the baseline's run, and in the gated one
BEFORE = {0: None, 1: READ_IN_COUNT, 2: WRITE_IN_HELPER, 3: None, 4: None, 5: None}
NOW = {0: READ_IN_COUNT,    # a new case of a defect the baseline knows
       1: READ_IN_COUNT,    # Corrupt in both
       2: None,             # fixed: and no case of its defect is Corrupt now
       3: READ_IN_OTHER,    # a new defect, first of its two cases
       4: UNINIT_IN_COUNT,  # a new defect: another kind where a known one struck
       5: READ_IN_OTHER}


def memchecked(db, verdicts):
    """memcheck's rows for the newest run, as src/trebuchet/memcheck/valgrind.py stores them."""
    with sqlite3.connect(db) as conn:
        [run] = conn.execute("SELECT max(id) FROM runs").fetchone()
        for case, error in verdicts.items():
            kind, what, frames = error or (None, None, None)
            conn.execute("INSERT INTO memcheck VALUES (?, 'demo_count', ?, ?, 'PASS', ?, ?, ?,"
                         " 1.0)", (run, case, int(error is not None), kind, what, frames))


@pytest.fixture
def compared(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    if not DEMO_LIB.exists():
        build_demolib(1)
    db, path = tmp_path / "hand.db", tmp_path / "demolib.baseline"
    hand_store(db, ALL_PASS, target="demolib")
    memchecked(db, BEFORE)
    path.write_text(baselines.dumps(baselines.from_store(db, "demolib", SPEC)))
    hand_store(db, ALL_PASS, target="demolib")
    memchecked(db, NOW)
    return gate.gate(db, path, confirm=0, memcheck=False), db, path


def test_the_baseline_lists_the_checked_cases_and_where_each_error_struck(compared):
    _, _, path = compared
    data = json.loads(path.read_text())
    assert data["format"] == "trebuchet baseline 4"
    assert data["functions"]["demo_count"]["memchecked"] == [0, 1, 2, 3, 4, 5]
    # memcheck's strlen stands for the call's own: the defect is demo_count's
    assert [(c["case"], c["kind"], c["at"], c["location"]) for c in data["corrupt_cases"]] == [
        (1, "InvalidRead", "demo_count", "/src/demolib.c:30"),
        (2, "InvalidWrite", "helper", "/src/demolib.c:12")]


def test_each_corrupt_case_is_sorted_by_its_defect(compared):
    result, _, _ = compared
    g = result.corrupt
    assert (g.checked, g.checked_by_gate, g.still) == (6, 0, 1)
    assert [c.case for c in g.known] == [0]
    assert [[(c.case, c.kind, c.at) for c in d.cases] for d in g.new] == [
        [(3, "InvalidRead", "other"), (5, "InvalidRead", "other")],
        [(4, "UninitCondition", "demo_count")]]
    assert [c["case"] for c in g.fixed] == [2]
    assert g.fixed_defects() == [(("demo_count", "InvalidWrite", "helper"), [g.fixed[0]])]
    # --confirm 0 trusts memcheck's stored verdict
    assert [d.confirmed for d in g.new] == [True, True]
    assert result.failures == ["2 confirmed new Corrupt defects"]


def test_the_text_names_each_new_defect_where_it_struck(compared):
    result, db, path = compared
    lines = gate.as_text(result).splitlines()
    at = lines.index("Corrupt under memcheck: 6 cases checked; 2 new defects, 2 confirmed; 1 new"
                     " Corrupt case of defects the baseline knows (reported, not counted);"
                     " 1 Corrupt in both")
    assert lines[at + 1:at + 7] == [
        "  invalid read (InvalidRead) in other: confirmed, 2 new cases; at /src/demolib.c:44;"
        " not run again (--confirm 0)",
        f"    demo_count({', '.join(VALUES[3].split())}) case 3: Invalid read of size 8",
        f"    trebuchet repro --memcheck --target {SPEC} --function demo_count --case 3",
        "  uninitialised value decides a branch (UninitCondition) in demo_count: confirmed,"
        " 1 new case; at /src/demolib.c:33; not run again (--confirm 0)",
        f"    demo_count({', '.join(VALUES[4].split())}) case 4: Conditional jump or move"
        " depends on uninitialised value(s)",
        f"    trebuchet repro --memcheck --target {SPEC} --function demo_count --case 4"]
    assert lines[at + 7] == (
        f"  fixed: 1 case Corrupt in the baseline and clean now (demo_count 1); once the new"
        f" ones are dealt with, `trebuchet baseline --db {db} --target {SPEC} --out {path}`"
        f" updates the baseline")
    assert lines[-1] == "gate failed: 2 confirmed new Corrupt defects"


def test_junit_and_sarif_carry_each_defect_and_close_the_fixed_one(compared, tmp_path):
    result, _, _ = compared
    junit.write(result, tmp_path / "gate.xml")
    suite = junit_valid(tmp_path / "gate.xml").find("testsuite")
    assert (suite.get("tests"), suite.get("failures")) == ("2", "1")  # demo_count, 1 fixed
    count = next(c for c in suite.iter("testcase") if c.get("name") == "demo_count")
    assert [(f.get("type"), f.get("message")) for f in count.iter("failure")] == [
        ("CORRUPT", "/src/demolib.c:44: invalid read (InvalidRead) in other"),
        ("CORRUPT", "/src/demolib.c:33: uninitialised value decides a branch"
                    " (UninitCondition) in demo_count")]
    document = sarif.document(result, specs.load(ROOT / SPEC), "1")
    assert sarif_errors(document) == []
    results = document["runs"][0]["results"]
    assert [(r["ruleId"], r.get("kind", "fail"), r["properties"]["at"]) for r in results] == [
        ("CORRUPT", "fail", "other"), ("CORRUPT", "fail", "demo_count"),
        ("CORRUPT", "pass", "helper")]
    prints = [r["partialFingerprints"]["trebuchetCorrupt/v1"] for r in results]
    assert len(set(prints)) == 3
    assert results[2]["baselineState"] == "absent"
    # where the fixed defect's alert sat when it was new: helper's line
    assert results[2]["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "file:///src/demolib.c"}, "region": {"startLine": 12}}


def test_a_run_not_memchecked_is_said_not_gated(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    if not DEMO_LIB.exists():
        build_demolib(1)
    db, path = tmp_path / "hand.db", tmp_path / "demolib.baseline"
    hand_store(db, ALL_PASS, target="demolib")
    memchecked(db, BEFORE)
    path.write_text(baselines.dumps(baselines.from_store(db, "demolib", SPEC)))
    hand_store(db, ALL_PASS, target="demolib")
    result = gate.gate(db, path, confirm=0, memcheck=False)
    assert result.corrupt.not_checked and not result.failed
    assert "Corrupt not gated: the baseline lists cases memcheck checked, and run 2 has" \
           " none checked (--no-memcheck)" in gate.as_text(result)


def checked(kind):
    """A rerun's verdict as memcheck.check_case gives it: Corrupt of kind, or clean."""
    from trebuchet.memcheck import valgrind as memcheck
    return memcheck.Checked("demo_count", 3, "PASS", kind, "w", "f") if kind else \
        memcheck.Checked("demo_count", 3, "PASS")


def test_a_defect_is_confirmed_when_a_rerun_is_corrupt_with_its_kind(compared):
    """The flaky rule: Corrupt with its kind again on one rerun confirms it."""
    result, _, _ = compared
    defect = result.corrupt.new[0]  # InvalidRead in other
    defect.reruns = [checked("InvalidRead"), checked("InvalidRead")]
    assert defect.confirmed and defect.reruns_said == "Corrupt again on 2 of 2 reruns"
    defect.reruns = [checked("InvalidRead"), checked(None)]
    assert defect.confirmed and defect.reruns_said == "Corrupt again on 1 of 2 reruns"
    defect.reruns = [checked(None), checked("InvalidWrite")]
    assert not defect.confirmed


def test_flaky_and_fixed_count_only_when_asked(compared):
    from trebuchet.gate import corrupt_verdict as corrupt

    result, _, _ = compared
    result.corrupt.new[0].reruns = [checked(None)]  # flaky now
    assert result.failures == ["1 confirmed new Corrupt defect"]
    assert "  invalid read (InvalidRead) in other: not confirmed (flaky), 2 new cases; at" \
           " /src/demolib.c:44; Corrupt again on 0 of 1 reruns" in corrupt.text(result, 50)
    result.fail_on_flaky = result.fail_on_fixed = True
    assert result.failures == [
        "1 confirmed new Corrupt defect", "1 flaky new Corrupt defect (--fail-on-flaky)",
        "1 fixed Corrupt case the baseline still lists (--fail-on-fixed)"]
    assert [d.title for d in corrupt.counted(result)] == [
        "uninitialised value decides a branch (UninitCondition) in demo_count",
        "invalid read (InvalidRead) in other"]


def test_the_text_lists_so_many_defects_and_says_how_many_more(compared):
    from trebuchet.gate import corrupt_verdict as corrupt

    result, _, _ = compared
    lines = corrupt.text(result, 1)
    assert lines[-2] == "  ... and 1 more new defects (--junit lists every one)"
    assert sum(l.startswith("    trebuchet repro --memcheck") for l in lines) == 1
