"""The gate's verdict at its boundaries (docs/gate.md): one
confirmed new failure is enough to fail; a new failure that fails again on
one rerun is confirmed, one that fails on none is flaky (the flaky rule); a case the baseline lists as SETUP
never reached the function there, so failing now it is not new; and each
SARIF result is an error code scanning blocks on, with a fingerprint of its
own case.

st_flaky (targets/selftest) fails on every other call while its toggle file
is in the shared folder, so a test sets the toggle to choose which of the
reruns fail: "1" makes the next call fail."""
import json

import pytest

from conftest import ROOT, query, trebuchet
from test_gate import (by_case, demolib_v1, expected_regression, flaky_new_failure,  # noqa: F401
                       gate, junit_valid, run_demolib, sarif_errors, toggle_away,
                       without_findings)
from trebuchet.gate import baseline as baselines


@pytest.fixture(scope="module")
def flaky(tmp_path_factory):
    return flaky_new_failure(tmp_path_factory.mktemp("verdict"), "st_flaky")


@pytest.mark.parametrize("by_finding", [True, False], ids=["by-finding", "by-case"])
def test_one_confirmed_new_failure_fails_the_gate(flaky, tmp_path, by_finding):
    db, baseline, toggle, env = flaky
    if not by_finding:
        baseline = tmp_path / "by-case.baseline"
        baseline.write_text(flaky[1].read_text())
        without_findings(baseline)
    toggle.write_text("1")  # the one rerun fails
    sarif_path = tmp_path / "s.sarif"
    result = gate(db, baseline, "--confirm", "1", "--sarif", sarif_path, env=env)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "1 confirmed, 0 flaky" in result.stdout
    [one] = json.loads(sarif_path.read_text())["runs"][0]["results"]
    assert one["level"] == "error"
    if by_finding:
        assert "gate failed: 1 confirmed new finding" in result.stdout
        fingerprint = query(db, "SELECT fingerprint FROM findings f JOIN finding_cases c ON"
                            " c.run_id = f.run_id AND c.finding = f.id WHERE c.run_id = 2"
                            " AND c.function = 'st_flaky'")[0][0]
        assert one["partialFingerprints"] == {"trebuchetFinding/v1": fingerprint}
    else:
        assert "gate failed: 1 confirmed new failure" in result.stdout
        assert one["partialFingerprints"] == {"trebuchetCase/v1": "selftest/st_flaky/0"}


def test_failing_again_on_some_reruns_is_confirmed_and_on_none_flaky(flaky):
    db, baseline, toggle, env = flaky
    toggle.write_text("1")  # the reruns fail, pass, fail
    result = gate(db, baseline, env=env)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "1 confirmed, 0 flaky" in result.stdout
    with toggle_away(toggle):  # the reruns pass, pass, pass
        result = gate(db, baseline, env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 confirmed, 1 flaky" in result.stdout
    assert "st_flaky() case 0: ABORT SIGSEGV, then PASS, PASS, PASS" in result.stdout


def test_a_case_setup_in_the_baseline_is_not_new_when_it_fails(tmp_path):
    """The baseline of a machine where one value could not be built: its
    case is listed as SETUP there, and fails here.  It had never reached the
    function, so it neither passed nor failed in the baseline."""
    db, baseline = tmp_path / "c.db", tmp_path / "selftest.baseline"
    trebuchet("run", "--target", "selftest", "--functions", "st_crash", "--db", db, "--quiet")
    trebuchet("baseline", "--db", db, "--target", "selftest", "--out", baseline)
    data = json.loads(baseline.read_text())
    moved = data["failing"].pop(0)
    data["setup"].append(dict(function=moved["function"], case=moved["case"],
                              values=moved["values"], outcome="SETUP"))
    baseline.write_text(baselines.dumps(data))
    result = gate(db, baseline, "--confirm", "0")
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{len(data['failing'])} failing in both" in result.stdout
    assert "new failures: 0" in result.stdout and "fixed" not in result.stdout


def test_each_sarif_result_is_an_error_with_its_own_fingerprint(by_case, tmp_path):  # noqa: F811
    db, baseline = by_case
    run_demolib(2, db)
    documents = []
    for name in ("first.sarif", "again.sarif"):
        assert gate(db, baseline, "--confirm", "0", "--sarif", tmp_path / name).returncode == 1
        documents.append(json.loads((tmp_path / name).read_text()))
    assert sarif_errors(documents[0]) == []
    driver = documents[0]["runs"][0]["tool"]["driver"]
    assert {r["id"]: r["defaultConfiguration"]["level"] for r in driver["rules"]} == \
        {"ABORT": "error", "RESTART": "error", "PROMISE": "error", "CORRUPT": "error"}
    results = documents[0]["runs"][0]["results"]
    assert [r["level"] for r in results] == ["error"] * len(expected_regression())
    fingerprints = [r["partialFingerprints"] for r in results]
    assert fingerprints == [{"trebuchetCase/v1": f"demolib/demo_count/{r['properties']['case']}"}
                            for r in results]
    assert {("demo_count", r["properties"]["case"]) for r in results} == expected_regression()
    # the same alert on every run, so code scanning knows it again
    assert [r["partialFingerprints"] for r in documents[1]["runs"][0]["results"]] == fingerprints


def test_reproducers_are_written_without_reruns_too(by_case, tmp_path):  # noqa: F811
    """--confirm 0 --emit-c: the gate runs each chosen case once, for its
    reproducer's record, in the baseline's dictionary."""
    db, baseline = by_case
    run_demolib(2, db)
    out = tmp_path / "reproducers"
    result = gate(db, baseline, "--confirm", "0", "--emit-c", out)
    assert result.returncode == 1, result.stdout + result.stderr
    assert out.is_dir() and not result.stderr, result.stderr
    assert sorted(p.name for p in out.iterdir()) == sorted(
        f"{f}-case-{c}" for f, c in expected_regression())


def test_fail_on_flaky_counts_a_flaky_new_finding(flaky, tmp_path):
    db, baseline, toggle, env = flaky
    junit = tmp_path / "j.xml"
    with toggle_away(toggle):  # the reruns pass: flaky, as above
        result = gate(db, baseline, "--fail-on-flaky", "--junit", junit, env=env)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "0 confirmed, 1 flaky" in result.stdout
    assert result.stdout.endswith("gate failed: 1 flaky new finding (--fail-on-flaky)\n")
    [failure] = junit_valid(junit).iter("failure")
    assert "flaky (--fail-on-flaky): " in failure.get("message")


def test_a_finding_the_baseline_lists_as_flaky_never_fails_the_gate(flaky, tmp_path):
    """A flaky new finding's line gives the command that lists it in the
    baseline as known flaky; listed, it fails neither under --fail-on-flaky
    nor when a rerun fails again."""
    db, shared, toggle, env = flaky
    baseline = tmp_path / "selftest.baseline"
    baseline.write_text(shared.read_text())
    with toggle_away(toggle):
        said = gate(db, baseline, "--fail-on-flaky", env=env)
    assert said.returncode == 1, said.stdout + said.stderr
    [command] = [line.split("`")[1] for line in said.stdout.splitlines()
                 if "in the baseline as known flaky, never to fail the gate" in line]
    assert " --flaky " in command
    listed = trebuchet(*command.split()[1:], cwd=ROOT)
    assert listed.stdout == f"baseline of selftest written to {baseline} (1 known flaky finding)\n"
    with toggle_away(toggle):
        said = gate(db, baseline, "--fail-on-flaky", env=env)
    assert said.returncode == 0, said.stdout + said.stderr
    assert "known flaky findings (the baseline lists them; never counted): SIGSEGV in " \
        in said.stdout and said.stdout.endswith("gate passed: no confirmed new finding\n")
    toggle.write_text("1")  # its first rerun fails: confirmed, and listed all the same
    said = gate(db, baseline, env=env)
    assert said.returncode == 0 and "gate passed" in said.stdout, said.stdout + said.stderr
    # writing the baseline again keeps the decision
    assert "(1 known flaky finding)" in trebuchet("baseline", "--db", db, "--target", "selftest",
                                                  "--out", baseline).stdout
    assert '"flaky": [' in baseline.read_text()
