"""The gate's JUnit file, element by element and word by word, on the runs
counted by hand of test_gate_hand.py (by case) and
test_gate_findings_hand.py (by finding): what a CI server shows a reviewer
is the failure's message and text, so each is written out here in full."""
import xml.etree.ElementTree as ET

from test_gate_findings_hand import by_finding  # noqa: F401
from test_gate_hand import compared, rerun  # noqa: F401
from trebuchet.gate import junit

REPRO = "trebuchet repro --target tests/demolib/demolib.yaml --function demo_count --case {}"
PASSED = [dict(outcome="PASS", signal=None, exit_status=None)]


def written(result, tmp_path):
    path = tmp_path / "j.xml"
    junit.write(result, path)
    return path.read_text(), ET.parse(path).getroot()


def test_a_new_finding_is_a_failure_whose_text_says_where_what_and_how(by_finding, tmp_path):  # noqa: F811
    result, _, _ = by_finding
    text, root = written(result, tmp_path)
    assert text.startswith("<?xml version='1.0' encoding='UTF-8'?>\n")
    [case] = root.iter("testcase")
    assert case.attrib == dict(classname="demolib", name="demo_count", time="0")
    assert [f.text for f in case.findall("failure")] == [
        "demolib.c:12: SIGSEGV in demo_count at demolib.c:12\n"
        "  trigger: demo_count: case 2\n"
        "  demo_count(string:EMPTY, int:ZERO) case 2\n"
        f"  {REPRO.format(2)}\n",
        "demo_count returns without an error\n"
        "  trigger: demo_count: case 3\n"
        "  breaks: s = EMPTY must be an error (demolib.yaml:9)\n"
        "  demo_count(string:EMPTY, int:ONE) case 3\n"
        f"  {REPRO.format(3)}\n",
        "hang in demo_count\n"
        "  trigger: demo_count: case 4\n"
        "  breaks: must return (demolib.yaml:9)\n"
        "  demo_count(string:LONG, int:ZERO) case 4\n"
        f"  {REPRO.format(4)}\n"]


def flaky_findings(result):
    """Every new finding's cases pass on their one rerun: flaky."""
    result.confirm = 1
    for g in result.new_findings:
        for c in g.cases:
            c.reruns = PASSED
    for n in result.new:
        n.reruns = PASSED


def test_flaky_findings_counted_by_fail_on_flaky_say_so_after_their_place(by_finding,  # noqa: F811
                                                                         tmp_path):
    result, _, _ = by_finding
    flaky_findings(result)
    result.fail_on_flaky = True
    _, root = written(result, tmp_path)
    messages = {f.get("type"): (f.get("message"), f.text.split("\n")[0])
                for f in root.iter("failure")}
    assert messages["SIGSEGV"] == ("demolib.c:12: flaky (--fail-on-flaky): SIGSEGV in demo_count"
                                   " at demolib.c:12",) * 2
    assert messages["hang"] == ("flaky (--fail-on-flaky): hang in demo_count",) * 2
    # the promise broken without a crash is not rerun: confirmed, no prefix
    assert messages["no-error"] == ("demo_count returns without an error",) * 2


def test_flaky_findings_not_counted_are_flaky_failures_of_a_passing_testcase(by_finding,  # noqa: F811
                                                                            tmp_path):
    result, _, _ = by_finding
    flaky_findings(result)
    result.new_findings = [g for g in result.new_findings if g.finding.kind != "no-error"]
    result.new = [n for n in result.new if n.case != 3]
    _, root = written(result, tmp_path)
    [case] = root.iter("testcase")
    assert case.findall("failure") == []
    # every new case that passed its rerun: those of new findings (2, 4),
    # and the known finding's new case (0)
    assert [f.get("message") for f in case.findall("flakyFailure")] == [
        "demo_count(string:NULL, int:ZERO) case 0: ABORT SIGSEGV, then PASS",
        "demo_count(string:EMPTY, int:ZERO) case 2: ABORT SIGSEGV, then PASS",
        "demo_count(string:LONG, int:ZERO) case 4: RESTART, then PASS"]
    assert root.get("failures") == "0"


def test_flaky_cases_under_fail_on_flaky_are_one_failure_listing_each(compared, tmp_path):  # noqa: F811
    result, _, _ = compared
    result.confirm = 3
    first, second = result.new
    first.reruns = [rerun("PASS")] * 3
    second.reruns = [rerun("PASS")] * 3
    result.fail_on_flaky = True
    result.left_out = ["demo_clamp"]
    result.changed = ["demo_length"]
    _, root = written(result, tmp_path)
    suite = root.find("testsuite")
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("4", "1", "1")
    assert suite.get("skipped") == "2"
    cases = {c.get("name"): c for c in suite.iter("testcase")}
    assert cases["demo_clamp"].find("skipped").get("message") == "left out by --functions"
    assert cases["demo_length"].find("skipped").get("message") == (
        "not in the baseline, and no findings made to judge it by its contract")
    [failure] = cases["demo_count"].findall("failure")
    assert failure.text == (
        "demo_count(string:NULL, int:ZERO) case 0: ABORT SIGSEGV, then PASS, PASS, PASS\n"
        f"  {REPRO.format(0)}\n"
        "demo_count(string:LONG, int:ONE) case 5: RESTART, then PASS, PASS, PASS\n"
        f"  {REPRO.format(5)}\n")
    error = cases["demo_length"].find("error")
    assert (error.get("type"), error.get("message")) == (
        "changed", "changed in the spec since the baseline: not compared")
    assert error.text == result.baseline_command(["demo_length"]) + "\n"
    assert error.text.endswith(" --functions demo_length\n")
    assert all(c.get("time") == "0" for c in cases.values())


def test_one_flaky_case_is_said_in_the_singular(compared, tmp_path):  # noqa: F811
    result, _, _ = compared
    result.confirm = 1
    result.new = result.new[:1]
    result.new[0].reruns = PASSED
    result.fail_on_flaky = True
    _, root = written(result, tmp_path)
    [failure] = root.iter("failure")
    assert failure.get("message") == "1 flaky new failing case (--fail-on-flaky)"


def test_fail_on_flaky_counts_only_functions_with_flaky_cases(compared, tmp_path):  # noqa: F811
    result, _, _ = compared
    result.new = []
    result.fail_on_flaky = True
    _, root = written(result, tmp_path)
    assert root.get("failures") == "0" and not list(root.iter("failure"))
