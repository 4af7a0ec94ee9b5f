"""The gate on Corrupt: corruptlib (tests/corruptlib/), built as version 1
and as version 2, whose latent memory errors never crash a plain run.
Between the two, cl_copy gains an invalid write (a new defect), cl_scan's
invalid read widens from code 0 to every code (new cases of a defect the
baseline knows), cl_fixed's uninitialised branch is fixed and cl_clean
stays clean.  What the gate must say is worked out here from that and from
the cases the baseline lists as memchecked, not from the gate's own code."""
import json
import shlex
import shutil
import subprocess

import pytest

from test_gate import gate, junit_valid, sarif_errors
from conftest import ROOT, trebuchet

SPEC = "tests/corruptlib/corruptlib.yaml"
LIB = ROOT / "build/tests/corruptlib/libcorrupt.so"
SAMPLE = 4  # per function: with seed 1 it holds cl_scan's case 0 (checked below)

pytestmark = pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind not installed")


def build(version):
    LIB.parent.mkdir(parents=True, exist_ok=True)
    flags = ["-DCORRUPTLIB_V2"] if version == 2 else []
    subprocess.run(["cc", "-O2", "-g", "-shared", "-fPIC", *flags, "-o", str(LIB),
                    str(ROOT / "tests/corruptlib/corruptlib.c")], check=True)


def run(db):
    trebuchet("run", "--target", SPEC, "--db", db, "--quiet", cwd=ROOT)


@pytest.fixture(scope="module")
def gated(tmp_path_factory):
    """Version 1 run, memchecked and made the baseline; version 2 run and
    gated against it (the gate memchecks the same cases)."""
    tmp = tmp_path_factory.mktemp("gate-corrupt")
    build(1)
    run(tmp / "v1.db")
    trebuchet("memcheck", "--db", tmp / "v1.db", "--sample", SAMPLE, "--quiet")
    baseline = tmp / "corruptlib.baseline"
    trebuchet("baseline", "--db", tmp / "v1.db", "--target", SPEC, "--out", baseline, cwd=ROOT)
    build(2)
    run(tmp / "v2.db")
    result = gate(tmp / "v2.db", baseline, "--junit", tmp / "gate.xml", "--sarif",
                  tmp / "gate.sarif")
    return tmp, json.loads(baseline.read_text()), result


def test_the_baseline_lists_what_memcheck_checked_and_found(gated):
    _, baseline, _ = gated
    checked = {f: c["memchecked"] for f, c in baseline["functions"].items()}
    assert all(len(cases) == SAMPLE for cases in checked.values())
    assert 0 in checked["cl_scan"]  # the one case version 1 reads past its string
    # version 1: cl_fixed Corrupt on every case, cl_scan on code 0 (case 0) alone
    assert [(c["function"], c["case"], c["kind"], c["at"]) for c in baseline["corrupt_cases"]] \
        == [("cl_fixed", i, "UninitCondition", "cl_fixed") for i in checked["cl_fixed"]] \
        + [("cl_scan", 0, "InvalidRead", "cl_scan")]


def test_a_new_defect_fails_the_gate_and_known_ones_do_not(gated):
    _, baseline, result = gated
    checked = {f: c["memchecked"] for f, c in baseline["functions"].items()}
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    known = len(checked["cl_scan"]) - 1  # all but code 0, Corrupt in both
    assert (f"Corrupt under memcheck: {4 * SAMPLE} cases checked, {4 * SAMPLE} of them by this "
            f"gate; 1 new defect, 1 confirmed; {known} new Corrupt cases of defects the baseline"
            f" knows (reported, not counted); 1 Corrupt in both") in lines
    first = checked["cl_copy"][0]
    at = lines.index(f"  invalid write (InvalidWrite) in cl_copy: confirmed, {SAMPLE} new cases; "
                     "at tests/corruptlib/corruptlib.c:42; Corrupt again on 3 of 3 reruns")
    assert lines[at + 1].startswith(f"    cl_copy(int:")
    assert f") case {first}: Invalid write of size 1; Address " in lines[at + 1]
    assert lines[at + 2] == (f"    trebuchet repro --memcheck --target {SPEC} --function cl_copy"
                             f" --case {first}")
    assert any(l.startswith(f"  fixed: {len(checked['cl_fixed'])} cases Corrupt in the baseline"
                            f" and clean now (cl_fixed {len(checked['cl_fixed'])}); once the new"
                            " ones are dealt with, `trebuchet baseline --db ") for l in lines)
    assert lines[-1] == "gate failed: 1 confirmed new Corrupt defect"


def test_the_line_memcheck_names_is_the_write(gated):
    """corruptlib.c:42 above is the store in cl_copy's loop."""
    source = (ROOT / "tests/corruptlib/corruptlib.c").read_text().splitlines()
    assert source[42 - 1].strip() == "kept[i] = (char)code;"


def test_its_repro_command_shows_the_write(gated):
    _, _, result = gated
    command = next(l.strip() for l in result.stdout.splitlines()
                   if l.strip().startswith("trebuchet repro --memcheck"))
    shown = trebuchet(*shlex.split(command)[1:], cwd=ROOT).stdout
    assert "CORRUPT under memcheck, invalid write (InvalidWrite) in cl_copy" in shown
    assert f"at cl_copy (libcorrupt.so) {ROOT}/tests/corruptlib/corruptlib.c:42" in shown


def test_junit_and_sarif_carry_the_defect_and_the_fixed_one(gated):
    tmp, baseline, _ = gated
    checked = {f: c["memchecked"] for f, c in baseline["functions"].items()}
    suite = junit_valid(tmp / "gate.xml").find("testsuite")
    assert suite.get("failures") == "1"
    fixed = [c for c in suite.iter("testcase") if c.get("name").endswith("Corrupt fixed")]
    assert [c.get("name") for c in fixed] == [f"cl_fixed case {i} Corrupt fixed"
                                              for i in checked["cl_fixed"]]
    assert all("UninitCondition in cl_fixed in the baseline, clean under memcheck now"
               in c.find("system-out").text for c in fixed)
    [failure] = suite.iter("failure")
    assert failure.get("type") == "CORRUPT"
    assert failure.get("message") == ("tests/corruptlib/corruptlib.c:42: invalid write "
                                      f"(InvalidWrite) in cl_copy")
    assert [c.get("name") for c in suite.iter("testcase") if c.find("failure") is not None] \
        == ["cl_copy"]
    document = json.loads((tmp / "gate.sarif").read_text())
    assert sarif_errors(document) == []
    found, closed = document["runs"][0]["results"]
    # cl_fixed's defect is clean on every case now: its alert closes
    assert (closed["kind"], closed["baselineState"], closed["properties"]["at"]) == \
        ("pass", "absent", "cl_fixed")
    assert closed["properties"]["cases"] == checked["cl_fixed"]
    assert found["ruleId"] == "CORRUPT"
    assert found["locations"][0]["physicalLocation"] == dict(
        artifactLocation=dict(uri="tests/corruptlib/corruptlib.c"), region=dict(startLine=42))
    assert found["properties"]["at"] == "cl_copy"


def test_the_same_library_against_its_own_baseline_passes(gated):
    """Version 2's store, memchecked by the gate, made the baseline: its
    cases are checked already, so the gate runs none again, and passes."""
    tmp, _, _ = gated
    own = tmp / "v2.baseline"
    trebuchet("baseline", "--db", tmp / "v2.db", "--target", SPEC, "--out", own, cwd=ROOT)
    result = gate(tmp / "v2.db", own)
    assert result.returncode == 0, result.stdout + result.stderr
    # version 2: cl_copy and cl_scan Corrupt on every case, the others clean
    assert (f"Corrupt under memcheck: {4 * SAMPLE} cases checked; 0 new defects, 0 confirmed;"
            f" 0 new Corrupt cases of defects the baseline knows (reported, not counted);"
            f" {2 * SAMPLE} Corrupt in both") in result.stdout.splitlines()


def test_without_memcheck_corrupt_is_said_not_gated(gated):
    tmp, _, _ = gated
    run(tmp / "plain.db")  # version 2, not memchecked
    result = gate(tmp / "plain.db", tmp / "corruptlib.baseline", "--no-memcheck")
    assert result.returncode == 0, result.stdout + result.stderr
    assert (f"Corrupt not gated: the baseline lists cases memcheck checked, and run 1 has none"
            f" checked (--no-memcheck); `trebuchet memcheck --db {tmp / 'plain.db'} --target"
            f" {SPEC}` checks a sample, or drop --no-memcheck") in result.stdout.splitlines()


def test_rebasing_one_function_takes_its_memcheck_from_the_run(gated):
    tmp, before, _ = gated
    rebased = tmp / "rebased.baseline"
    shutil.copy(tmp / "corruptlib.baseline", rebased)
    trebuchet("baseline", "--db", tmp / "v2.db", "--target", SPEC, "--out", rebased,
              "--functions", "cl_copy", cwd=ROOT)
    after = json.loads(rebased.read_text())
    assert [c["function"] for c in after["corrupt_cases"]] == \
        ["cl_copy"] * SAMPLE + [c["function"] for c in before["corrupt_cases"]]


def test_fail_on_fixed_counts_the_fixed_corrupt_cases_in_junit(gated):
    tmp, baseline, _ = gated
    fixed = len(baseline["functions"]["cl_fixed"]["memchecked"])
    result = gate(tmp / "v2.db", tmp / "corruptlib.baseline", "--fail-on-fixed", "--confirm",
                  "0", "--junit", tmp / "ratchet.xml")
    assert result.returncode == 1
    assert result.stdout.splitlines()[-1] == (
        f"gate failed: 1 confirmed new Corrupt defect; {fixed} fixed Corrupt cases the baseline"
        f" still lists (--fail-on-fixed)")
    suite = junit_valid(tmp / "ratchet.xml").find("testsuite")
    assert suite.get("failures") == str(1 + fixed)
