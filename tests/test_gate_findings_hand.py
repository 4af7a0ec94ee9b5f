"""The gate by finding on two runs and their findings written by hand (no
run again: --confirm 0), so that each rule is checked in well under a
second: a new failing case of a finding the baseline knows is reported and
not counted; one of a finding it does not know makes a new finding; a
promise broken without a crash is a new finding of its own; a known
finding that now breaks the contract, where it did not, is a new one.

    case  values              baseline         now
    0     string:NULL  ZERO   PASS             ABORT, finding A (known)
    1     string:NULL  ONE    ABORT, A         ABORT, A: failing in both
    2     string:EMPTY ZERO   PASS             ABORT, finding B (new)
    3     string:EMPTY ONE    PASS             PASS, breaks a promise: C (new)
    4     string:LONG  ZERO   PASS             RESTART, D: now a violation
    5     string:LONG  ONE    RESTART, D       RESTART, D"""
import dataclasses
import sqlite3

import pytest

from conftest import ROOT, hand_store
from test_gate import DEMO_LIB, build_demolib, junit_valid, sarif_errors
from trebuchet.gate import baseline as baselines
from trebuchet.gate import junit, sarif
from trebuchet.gate import verdict as gate
from trebuchet.spec import load as specs

SPEC = "tests/demolib/demolib.yaml"
SEGV = dict(signal=11)
VALUES = ["string:NULL int:ZERO", "string:NULL int:ONE", "string:EMPTY int:ZERO",
          "string:EMPTY int:ONE", "string:LONG int:ZERO", "string:LONG int:ONE"]
COUNT = dict(signature="size_t demo_count(const char *s, int c)", datatypes="string int")
BEFORE = [(VALUES[0], "PASS"), (VALUES[1], "ABORT", SEGV), (VALUES[2], "PASS"),
          (VALUES[3], "PASS"), (VALUES[4], "PASS"), (VALUES[5], "RESTART")]
NOW = [(VALUES[0], "ABORT", SEGV), (VALUES[1], "ABORT", SEGV), (VALUES[2], "ABORT", SEGV),
       (VALUES[3], "PASS", dict(error_reported=0, errno=0)), (VALUES[4], "RESTART"),
       (VALUES[5], "RESTART")]
# (id, fingerprint, kind, title, cases, location, violation, example case, its cases)
FOUND_BEFORE = [(1, "a" * 16, "SIGSEGV", "SIGSEGV in demo_count at demolib.c:17", "demolib.c:17",
                 None, 1, [1]),
                (2, "d" * 16, "hang", "hang in demo_count", None, None, 5, [5])]
FOUND_NOW = [(1, "a" * 16, "SIGSEGV", "SIGSEGV in demo_count at demolib.c:17", "demolib.c:17",
              None, 1, [0, 1]),
             (2, "b" * 16, "SIGSEGV", "SIGSEGV in demo_count at demolib.c:12", "demolib.c:12",
              None, 2, [2]),
             (3, "c" * 16, "no-error", "demo_count returns without an error", None,
              "s = EMPTY must be an error (demolib.yaml:9)", 3, [3]),
             (4, "d" * 16, "hang", "hang in demo_count", None,
              "must return (demolib.yaml:9)", 4, [4, 5])]


def store_findings(db, run, found):
    with sqlite3.connect(db) as conn:
        for fid, fingerprint, kind, title, location, violation, example, cases in found:
            conn.execute(
                "INSERT INTO findings (run_id, id, signature, fingerprint, kind, title, functions,"
                " cases, misuse_cases, trigger, location, frames, violation, violating_cases,"
                " example_function, example_case) VALUES (?, ?, ?, ?, ?, ?, 'demo_count', ?, 0,"
                " ?, ?, '', ?, ?, 'demo_count', ?)",
                (run, fid, f"{kind}|demo_count", fingerprint, kind, title, len(cases),
                 f"demo_count: case {example}", location, violation,
                 len(cases) if violation else 0, example))
            conn.executemany("INSERT INTO finding_cases VALUES (?, 'demo_count', ?, ?)",
                             [(run, c, fid) for c in cases])
        conn.execute("INSERT INTO findings_made VALUES (?)", (run,))


@pytest.fixture
def by_finding(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    if not DEMO_LIB.exists():  # the spec names it: it is loaded only where it is built
        build_demolib(1)
    db, path = tmp_path / "hand.db", tmp_path / "demolib.baseline"
    hand_store(db, {"demo_count": dict(COUNT, cases=BEFORE)}, target="demolib")
    store_findings(db, 1, FOUND_BEFORE)
    path.write_text(baselines.dumps(baselines.from_store(db, "demolib", SPEC)))
    hand_store(db, {"demo_count": dict(COUNT, cases=NOW)}, target="demolib")
    store_findings(db, 2, FOUND_NOW)
    return gate.gate(db, path, confirm=0), db, path


def test_the_baseline_lists_its_run_s_findings(by_finding):
    _, _, path = by_finding
    assert baselines.read(path).findings == {
        "a" * 16: dict(fingerprint="a" * 16, title="SIGSEGV in demo_count at demolib.c:17",
                       functions=["demo_count"], kind="SIGSEGV", cases=1, violation=False,
                       location="demolib.c:17"),
        "d" * 16: dict(fingerprint="d" * 16, title="hang in demo_count", kind="hang",
                       functions=["demo_count"], cases=1, violation=False)}


def test_new_findings_are_new_crashes_broken_promises_and_new_violations(by_finding):
    result, _, _ = by_finding
    assert result.by_finding
    assert [(n.case, n.finding.id) for n in result.new] == [(0, 1), (2, 2), (4, 4)]
    assert [n.case for n in result.of_known_findings] == [0]
    assert result.still_failing == 2
    new = result.new_findings
    assert [(g.finding.id, [n.case for n in g.cases]) for g in new] == [(2, [2]), (3, []),
                                                                        (4, [4])]
    promise = new[1].example
    assert (promise.case, promise.values, promise.stored) == (3, VALUES[3].split(),
                                                              ("PASS", 0, 0))
    assert [g.representative.case for g in new] == [2, 3, 4]
    assert [g.finding.id for g in result.confirmed_findings] == [2, 3, 4]
    assert [n.case for n in gate.reproduced(result)] == [2, 3, 4]
    assert result.failures == ["3 confirmed new findings"]


def test_a_promise_is_confirmed_when_a_rerun_returns_as_stored(by_finding):
    """The flaky rule: the broken promise once more on a rerun confirms it."""
    result, _, _ = by_finding
    promise = result.new_findings[1]
    same = dict(outcome="PASS", error_reported=0, errno=0)
    kept = dict(same, error_reported=1, errno=22)
    promise.example.reruns = [same, same]
    assert promise.confirmed
    promise.example.reruns = [same, kept]
    assert promise.confirmed
    promise.example.reruns = [kept, kept]
    assert not promise.confirmed
    assert [g.finding.id for g in result.confirmed_findings] == [2, 4]


def test_the_representative_is_the_finding_s_own_case_when_confirmed(by_finding):
    result, _, _ = by_finding
    crash = result.new_findings[2]  # D: its example is case 4, a new failure
    extra = gate.NewFailure("demo_count", 5, VALUES[5].split(), "RESTART")
    crash.cases.insert(0, extra)
    assert crash.representative.case == 4
    crash.cases[1].reruns = [dict(outcome="PASS", signal=None, exit_status=None)]
    assert crash.representative is extra  # the first confirmed one instead
    extra.reruns = list(crash.cases[1].reruns)
    assert crash.representative is extra  # none confirmed: the first


def test_the_text_by_finding(by_finding):
    result, db, path = by_finding
    repro = f"trebuchet repro --target {SPEC} --function demo_count --case"
    assert gate.as_text(result).splitlines()[2:] == [
        "new failures: 3, not run again, as --confirm 0 asks: 3 confirmed, 0 flaky",
        "new findings: 3, 3 confirmed; 1 new failing case of findings the baseline knows"
        " (reported, not counted)",
        "  SIGSEGV in demo_count at demolib.c:12: confirmed, 1 new case; at demolib.c:12",
        "    trigger: demo_count: case 2",
        f"    {repro} 2",
        "  VIOLATION demo_count returns without an error: confirmed, a broken promise",
        "    trigger: demo_count: case 3",
        "    breaks: s = EMPTY must be an error (demolib.yaml:9)",
        f"    {repro} 3",
        "  VIOLATION hang in demo_count: confirmed, 1 new case",
        "    trigger: demo_count: case 4",
        "    breaks: must return (demolib.yaml:9)",
        f"    {repro} 4",
        "  known findings with new cases: SIGSEGV in demo_count at demolib.c:17 (1)",
        "  (a repro command with --emit-c DIR writes a standalone C reproducer to attach to a"
        " bug report)",
        "gate failed: 3 confirmed new findings"]
    # flaky: a new finding none of whose cases failed again
    result.confirm = 2
    passed = dict(outcome="PASS", signal=None, exit_status=None)
    for g in result.new_findings:
        for n in g.cases:
            n.reruns = [passed, passed]
    result.new_findings[1].example.reruns = [dict(outcome="PASS", error_reported=1, errno=0)]
    text = gate.as_text(result).splitlines()
    assert "  SIGSEGV in demo_count at demolib.c:12: not confirmed (flaky), 1 new case;" \
        " at demolib.c:12" in text
    assert "    demo_count(string:EMPTY, int:ZERO) case 2: ABORT SIGSEGV, then PASS, PASS" in text
    assert text[-1] == "gate passed: no confirmed new finding"


def test_long_flaky_findings_and_several_known_ones_in_the_text(by_finding):
    result, _, _ = by_finding
    result.confirm = 1
    crash = result.new_findings[0]
    crash.cases = [gate.NewFailure("demo_count", i, VALUES[2].split(), "ABORT", 11,
                                   reruns=[dict(outcome="PASS", signal=None, exit_status=None)])
                   for i in range(51)]
    known = result.of_known_findings[0]
    other = gate.NewFailure("demo_count", 9, VALUES[0].split(), "ABORT", 11,
                            finding=dataclasses.replace(known.finding, title="abort in demo_count"))
    result.new.append(other)
    text = gate.as_text(result).splitlines()
    assert "  ... and 1 more flaky (--junit lists every one)" in text
    assert "  known findings with new cases: SIGSEGV in demo_count at demolib.c:17 (1);" \
        " abort in demo_count (1)" in text


def test_junit_and_sarif_by_finding(by_finding, tmp_path):
    result, _, _ = by_finding
    junit.write(result, tmp_path / "j.xml")
    root = junit_valid(tmp_path / "j.xml")
    failures = root.findall(".//testcase[@name='demo_count']/failure")
    assert [(f.get("type"), f.get("message")) for f in failures] == [
        ("SIGSEGV", "demolib.c:12: SIGSEGV in demo_count at demolib.c:12"),
        ("no-error", "demo_count returns without an error"),
        ("hang", "hang in demo_count")]
    document = sarif.document(result, specs.load(ROOT / SPEC), "1")
    assert sarif_errors(document) == []
    results = document["runs"][0]["results"]
    assert [(r["ruleId"], r["partialFingerprints"]) for r in results] == [
        ("ABORT", {"trebuchetFinding/v1": "b" * 16}), ("PROMISE", {"trebuchetFinding/v1": "c" * 16}),
        ("RESTART", {"trebuchetFinding/v1": "d" * 16})]
    assert results[0]["locations"][0]["physicalLocation"] == dict(
        artifactLocation=dict(uri="demolib.c"), region=dict(startLine=12))
