"""Ratchets for projects that want them, on the runs counted by hand of
test_gate_hand.py (two new failures, one fixed case): --fail-on-fixed fails
while the baseline lists a case that passes now, so that each fix updates
it; --fail-on-flaky counts flaky new failures as confirmed ones."""
from conftest import ROOT, hand_store, trebuchet
from test_gate import junit_valid
from test_gate_hand import compared, rerun  # noqa: F401
from trebuchet.gate import baseline as baselines
from trebuchet.gate import junit
from trebuchet.gate import verdict as gate

SPEC = "tests/demolib/demolib.yaml"


def test_fail_on_fixed_fails_on_a_fixed_case_alone(compared, tmp_path):  # noqa: F811
    result, _, _ = compared
    result.new = []  # nothing new: the fixed case is all that changed
    assert not result.failed
    result.fail_on_fixed = True
    assert result.failed
    assert gate.as_text(result).splitlines()[-1] == \
        "gate failed: 1 fixed case the baseline still lists (--fail-on-fixed)"
    junit.write(result, tmp_path / "j.xml")
    root = junit_valid(tmp_path / "j.xml")
    assert root.get("failures") == "1"
    failure = root.find(".//testcase[@name='demo_count case 4 fixed']/failure")
    assert failure.get("type") == "fixed" and "passes now" in failure.get("message")


def test_fail_on_flaky_counts_flaky_new_failures_beside_confirmed_ones(compared,  # noqa: F811
                                                                      tmp_path):
    result, _, _ = compared
    result.confirm = 3
    first, second = result.new
    first.reruns = [rerun("ABORT", 11)] * 3
    second.reruns = [rerun("PASS")] * 3
    assert result.failures == ["1 confirmed new failure"]
    result.fail_on_flaky = True
    text = gate.as_text(result).splitlines()
    assert "flaky new failures (failed on none of their reruns; counted, as --fail-on-flaky" \
        " asks):" in text
    assert text[-1] == "gate failed: 1 confirmed new failure; 1 flaky new failure" \
        " (--fail-on-flaky)"
    first.reruns = [rerun("PASS")] * 3  # now both are flaky: a failure, not flakyFailures
    junit.write(result, tmp_path / "j.xml")
    case = junit_valid(tmp_path / "j.xml").find(".//testcase[@name='demo_count']")
    [failure] = case.findall("failure")
    assert not case.findall("flakyFailure")
    assert (failure.get("type"), failure.get("message")) == (
        "flaky", "2 flaky new failing cases (--fail-on-flaky)")


def test_the_options_reach_the_verdict(tmp_path):
    """A run that fixed its baseline's one failure: exit 0, and with
    --fail-on-fixed exit 1."""
    db, path = tmp_path / "hand.db", tmp_path / "demolib.baseline"
    count = dict(signature="size_t demo_count(const char *s, int c)", datatypes="string int")
    hand_store(db, {"demo_count": dict(count, cases=[("string:NULL int:ZERO", "RESTART")])},
               target="demolib")
    path.write_text(baselines.dumps(baselines.from_store(db, "demolib", SPEC)))
    hand_store(db, {"demo_count": dict(count, cases=[("string:NULL int:ZERO", "PASS")])},
               target="demolib")
    run = ("gate", "--db", db, "--baseline", path, "--confirm", "0")
    assert trebuchet(*run, cwd=ROOT, check=False).returncode == 0
    ratchet = trebuchet(*run, "--fail-on-fixed", cwd=ROOT, check=False)
    assert ratchet.returncode == 1, ratchet.stdout + ratchet.stderr
