"""The gate's comparison, text, JUnit and SARIF on two runs counted by hand
(no run again: --confirm 0), so that every rule of docs/gate.md
is checked case by case and in well under a second: a case failing now
that passed in the baseline is new, one failing in both is still failing,
one the baseline lists as SETUP is neither, one that failed and passes now
is fixed, a function only one side ran is not compared."""
import json
import re
import sqlite3

import pytest

from conftest import ROOT, ci_schemas, hand_store
from test_gate import DEMO_LIB, build_demolib, junit_valid, sarif_errors
from trebuchet.gate import baseline as baselines
from trebuchet.gate import junit, sarif
from trebuchet.gate import verdict as gate
from trebuchet.spec import load as specs
from trebuchet.core.errors import TrebuchetError

SPEC = "tests/demolib/demolib.yaml"
SEGV, BUS = dict(signal=11), dict(signal=7)


def demolib(count, clamp=None, length=None):
    """A run's functions: demo_count's cases as given, demo_clamp's and
    demo_length's when given."""
    out = {"demo_count": dict(signature="size_t demo_count(const char *s, int c)",
                              datatypes="string int", cases=count)}
    if clamp:
        out["demo_clamp"] = dict(signature="int demo_clamp(int v, int lo, int hi)",
                                 datatypes="int int int", cases=clamp)
    if length:
        out["demo_length"] = dict(signature="size_t demo_length(const char *s)",
                                  datatypes="string", cases=length)
    return out


VALUES = ["string:NULL int:ZERO", "string:NULL int:ONE", "string:EMPTY int:ZERO",
          "string:EMPTY int:ONE", "string:LONG int:ZERO", "string:LONG int:ONE"]
CLAMP = [("int:ZERO int:ZERO int:ONE", "PASS")]
BASELINE = demolib([(VALUES[0], "PASS"), (VALUES[1], "ABORT", SEGV), (VALUES[2], "PASS"),
                    (VALUES[3], "SETUP"), (VALUES[4], "RESTART"), (VALUES[5], "PASS")],
                   clamp=CLAMP)
NOW = demolib([(VALUES[0], "ABORT", SEGV),      # new
               (VALUES[1], "ABORT", BUS),       # failing in both
               (VALUES[2], "PASS"),
               (VALUES[3], "ABORT", SEGV),      # SETUP in the baseline: not new
               (VALUES[4], "PASS"),             # fixed
               (VALUES[5], "RESTART")],         # new
              clamp=CLAMP, length=[("string:NULL", "PASS")])


@pytest.fixture
def compared(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)  # as CI runs it: SARIF names the spec from here
    if not DEMO_LIB.exists():  # the spec names it: it is loaded only where it is built
        build_demolib(1)
    db, path = tmp_path / "hand.db", tmp_path / "demolib.baseline"
    hand_store(db, BASELINE, target="demolib")
    path.write_text(baselines.dumps(baselines.from_store(db, "demolib", SPEC)))
    hand_store(db, NOW, target="demolib")
    return gate.gate(db, path, confirm=0), db, path


def test_each_case_is_new_failing_in_both_fixed_or_neither(compared):
    result, _, _ = compared
    assert [(n.function, n.case, n.outcome, n.signal) for n in result.new] == [
        ("demo_count", 0, "ABORT", 11), ("demo_count", 5, "RESTART", None)]
    assert [n.values for n in result.new] == [VALUES[0].split(), VALUES[5].split()]
    assert result.still_failing == 1
    assert [(c["function"], c["case"], c["outcome"]) for c in result.fixed] == [
        ("demo_count", 4, "RESTART")]
    assert result.compared == {"demo_clamp": 1, "demo_count": 6}
    assert (result.not_in_baseline, result.changed, result.left_out) == (["demo_length"], [], [])
    # --confirm 0 trusts the stored outcome: every new failure is confirmed
    assert (len(result.confirmed), len(result.flaky), result.failed) == (2, 0, True)


def test_the_text_gives_the_verdict_and_a_repro_command_per_failure(compared):
    result, db, path = compared
    repro = f"trebuchet repro --target {SPEC} --function demo_count --case"
    assert gate.as_text(result).splitlines() == [
        f"gate demolib: run 2 of {db} (v) against {path} (v)",
        "compared 7 cases in 2 functions; 1 failing in both",
        f"not in the baseline (not compared, nor judged by their contracts: run 2 has no "
        f"findings made (`trebuchet findings --db {db}` makes them)): demo_length; "
        f"`trebuchet baseline --db {db}"
        f" --target {SPEC} --out {path} --functions demo_length` adds it",
        "new failures: 2, not run again, as --confirm 0 asks: 2 confirmed, 0 flaky",
        "  demo_count(string:NULL, int:ZERO) case 0: ABORT SIGSEGV",
        f"    {repro} 0",
        "  demo_count(string:LONG, int:ONE) case 5: RESTART",
        f"    {repro} 5",
        "  (a repro command with --emit-c DIR writes a standalone C reproducer to attach to a"
        " bug report)",
        f"fixed: 1 case failed in the baseline and pass now; `trebuchet baseline --db {db}"
        f" --target {SPEC} --out {path}` updates the baseline",
        "  demo_count(string:LONG, int:ZERO) case 4",
        f"this baseline lists no findings, so it gates case by case; `trebuchet baseline --db"
        f" {db} --target {SPEC} --out {path}` writes one that gates by finding",
        "gate failed: 2 confirmed new failures"]


def test_junit_has_a_failure_for_the_function_with_new_failures(compared, tmp_path):
    result, _, _ = compared
    junit.write(result, tmp_path / "j.xml")
    root = junit_valid(tmp_path / "j.xml")
    assert (root.get("tests"), root.get("failures")) == ("4", "1")
    suite = root.find("testsuite")
    assert (suite.get("name"), suite.get("tests"), suite.get("failures"),
            suite.get("skipped")) == ("demolib", "4", "1", "1")
    cases = {c.get("name"): c for c in suite.iter("testcase")}
    assert list(cases) == ["demo_clamp", "demo_count", "demo_length", "demo_count case 4 fixed"]
    # a fixed case passed, and says so
    fixed = cases["demo_count case 4 fixed"]
    assert fixed.get("classname") == "demolib.demo_count" and fixed.find("failure") is None
    assert fixed.find("system-out").text == (
        "demo_count(string:LONG, int:ZERO) case 4: RESTART in the baseline, passes now;"
        f" `{result.baseline_command()}` updates the baseline\n")
    failure = cases["demo_count"].find("failure")
    assert failure.get("type") == "ABORT RESTART"
    assert failure.get("message") == ("2 new failing cases: passed in the baseline, fail now"
                                      " (not run again: --confirm 0)")
    assert failure.text.splitlines() == [
        "demo_count(string:NULL, int:ZERO) case 0: ABORT SIGSEGV",
        f"  trebuchet repro --target {SPEC} --function demo_count --case 0",
        "demo_count(string:LONG, int:ONE) case 5: RESTART",
        f"  trebuchet repro --target {SPEC} --function demo_count --case 5"]
    assert cases["demo_clamp"].find("failure") is None and not list(cases["demo_clamp"])
    assert cases["demo_length"].find("skipped").get("message") == (
        "not in the baseline, and no findings made to judge it by its contract")
    properties = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert properties == {"baseline": result.baseline.path, "store": result.db, "run": "2",
                          "library": "v", "baseline library": "v", "seed": "1", "cap": "10",
                          "confirm": "0"}


def test_sarif_has_one_error_per_new_failure_at_its_spec_line(compared):
    result, _, path = compared
    spec = specs.load(ROOT / SPEC)
    document = sarif.document(result, spec, "9.9")
    assert sarif_errors(document) == []
    [run] = document["runs"]
    assert run["tool"]["driver"]["version"] == "9.9"
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == ["ABORT", "RESTART", "PROMISE",
                                                                 "CORRUPT"]
    line = next(i for i, text in enumerate((ROOT / SPEC).read_text().splitlines(), 1)
                if "name: demo_count" in text)
    got = [(r["ruleId"], r["ruleIndex"], r["level"], r["partialFingerprints"],
            r["locations"][0]["physicalLocation"], r["locations"][0]["logicalLocations"],
            r["properties"]) for r in run["results"]]
    where = dict(artifactLocation=dict(uri=SPEC), region=dict(startLine=line))
    logical = [dict(name="demo_count", kind="function", fullyQualifiedName="demolib::demo_count")]
    assert got == [
        ("ABORT", 0, "error", {"trebuchetCase/v1": "demolib/demo_count/0"}, where, logical,
         dict(case=0, values=VALUES[0].split(), outcome="ABORT SIGSEGV", reruns=[])),
        ("RESTART", 1, "error", {"trebuchetCase/v1": "demolib/demo_count/5"}, where, logical,
         dict(case=5, values=VALUES[5].split(), outcome="RESTART", reruns=[])),
        ("RESTART", 1, "none", {"trebuchetCase/v1": "demolib/demo_count/4"}, where, logical,
         dict(case=4, values=VALUES[4].split(), fixed=True))]
    # the fixed case: absent now, a pass, not an alert
    assert [(r.get("baselineState"), r.get("kind")) for r in run["results"]] == [
        (None, None), (None, None), ("absent", "pass")]
    assert run["results"][2]["message"]["text"] == (
        "demo_count(string:LONG, int:ZERO) (case 4) ended RESTART in the baseline and passes"
        f" now. Update the baseline: {result.baseline_command()}")
    assert run["results"][0]["message"]["text"] == (
        "demo_count(string:NULL, int:ZERO) (case 0) now ends ABORT SIGSEGV; it passed in the"
        " baseline and was not run again (--confirm 0). Reproduce: trebuchet repro --target"
        f" {SPEC} --function demo_count --case 0 (add --emit-c DIR for a standalone C program)")
    assert run["properties"] == dict(baseline=str(path), store=result.db, run=2, library="v",
                                     flaky=0, fixed=1, corrupt_fixed=0)
    assert run["automationDetails"] == {"id": "trebuchet/demolib/"}


def test_runs_that_drew_other_cases_are_refused(compared, tmp_path):
    _, db, path = compared
    data = json.loads(path.read_text())
    # a baseline of format 3 has no values digest per function: a datatype
    # edited refuses the whole run (format 4: the functions it moved alone)
    by_run = {name: {k: v for k, v in f.items() if k != "values"}
              for name, f in data["functions"].items()}
    for key, value in (("seed", 2), ("cap", 11), ("dictionary_digest", "other")):
        edited = tmp_path / f"{key}.baseline"
        edited.write_text(baselines.dumps(dict(data, functions=by_run,
                                               run=dict(data["run"], **{key: value}))))
        with pytest.raises(TrebuchetError, match=f"its {key} \\({value} in the baseline"):
            gate.gate(db, edited, confirm=0)
    fewer = tmp_path / "fewer.baseline"
    fewer.write_text(baselines.dumps(dict(data, functions=dict(
        data["functions"], demo_count=dict(data["functions"]["demo_count"], cases=5)))))
    with pytest.raises(TrebuchetError, match="demo_count: run 2 holds 6 cases, the baseline 5"):
        gate.gate(db, fewer, confirm=0)


def rerun(outcome, signal=None, exit_status=None):
    """A record of one run again, as `repro --json` prints it."""
    return dict(outcome=outcome, signal=signal, exit_status=exit_status)


def test_reruns_decide_what_is_confirmed_and_what_flaky(compared, tmp_path):
    """The flaky rule: case 0 failed on each of 3 reruns, confirmed; case 5
    on none of them, flaky; a case that fails on 1 of 3 is confirmed."""
    result, _, _ = compared
    result.confirm = 3
    first, second = result.new
    first.reruns = [rerun("ABORT", 11)] * 3
    second.reruns = [rerun("PASS")] * 3
    assert (first.failures_on_rerun, second.failures_on_rerun) == (3, 0)
    assert (result.confirmed, result.flaky, result.failed) == ([first], [second], True)
    text = gate.as_text(result).splitlines()
    assert text[3:] == [
        "new failures: 2, each run again 3 times on its own: 1 confirmed, 1 flaky",
        "  demo_count(string:NULL, int:ZERO) case 0: ABORT SIGSEGV, failed again on 3 of 3"
        " reruns",
        f"    trebuchet repro --target {SPEC} --function demo_count --case 0",
        "  (a repro command with --emit-c DIR writes a standalone C reproducer to attach to a"
        " bug report)",
        "flaky new failures (failed on none of their reruns; not counted):",
        "  demo_count(string:LONG, int:ONE) case 5: RESTART, then PASS, PASS, PASS",
        text[-4], text[-3], text[-2], "gate failed: 1 confirmed new failure"]

    junit.write(result, tmp_path / "j.xml")
    failure = junit_valid(tmp_path / "j.xml").find(".//testcase[@name='demo_count']/failure")
    assert (failure.get("type"), failure.get("message")) == (
        "ABORT", "1 new failing case: passed in the baseline, fail now and again on a rerun")
    assert failure.text.splitlines()[2:] == [
        "also failing now, but on none of their reruns (flaky):",
        "demo_count(string:LONG, int:ONE) case 5: RESTART",
        f"  trebuchet repro --target {SPEC} --function demo_count --case 5"]

    [only, _fixed] = sarif.document(result, specs.load(ROOT / SPEC), "1")["runs"][0]["results"]
    assert "and failed again on 3 of 3 reruns." in only["message"]["text"]
    assert only["properties"]["reruns"] == ["ABORT SIGSEGV"] * 3

    # failing on 1 of 3 reruns is failing again: confirmed
    second.reruns = [rerun("RESTART"), rerun("PASS"), rerun("PASS")]
    assert (result.confirmed, result.flaky) == ([first, second], [])
    second.reruns = [rerun("PASS")] * 3

    # a function whose only new failure is flaky: a flakyFailure, no failure
    first.reruns = [rerun("PASS")] * 3
    junit.write(result, tmp_path / "k.xml")
    case = junit_valid(tmp_path / "k.xml").find(".//testcase[@name='demo_count']")
    assert case.find("failure") is None
    flaky = case.findall("flakyFailure")
    assert [(f.get("type"), f.get("message"), f.find("system-out").text) for f in flaky] == [
        ("ABORT", "demo_count(string:NULL, int:ZERO) case 0: ABORT SIGSEGV, then PASS, PASS,"
         " PASS", f"trebuchet repro --target {SPEC} --function demo_count --case 0"),
        ("RESTART", "demo_count(string:LONG, int:ONE) case 5: RESTART, then PASS, PASS, PASS",
         f"trebuchet repro --target {SPEC} --function demo_count --case 5")]


def test_sarif_is_written_as_its_document_and_names_files_outside_as_uris(compared, tmp_path,
                                                                          monkeypatch):
    result, _, _ = compared
    spec = specs.load(ROOT / SPEC)
    sarif.write(result, spec, "1", tmp_path / "s.sarif")
    text = (tmp_path / "s.sarif").read_text()
    assert json.loads(text) == sarif.document(result, spec, "1") and text.endswith("}\n")
    monkeypatch.chdir(tmp_path)
    document = sarif.document(result, spec, "1")
    where = document["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert where["artifactLocation"]["uri"] == (ROOT / SPEC).as_uri()
    assert document["runs"][0]["invocations"] == [
        dict(executionSuccessful=True, workingDirectory=dict(uri=tmp_path.as_uri() + "/"))]


def test_a_baseline_is_read_back_as_written_and_a_bad_one_named_at_its_line(compared,
                                                                           tmp_path):
    result, _, path = compared
    read = baselines.read(path)
    assert (read.target, read.spec, read.run["seed"], read.run["library"]) == (
        "demolib", SPEC, 1, "v")
    assert read.failing == {("demo_count", 1): dict(function="demo_count", case=1,
                                                     values=VALUES[1].split(), outcome="ABORT",
                                                     signal="SIGSEGV"),
                            ("demo_count", 4): dict(function="demo_count", case=4,
                                                     values=VALUES[4].split(),
                                                     outcome="RESTART")}
    assert read.setup == {("demo_count", 3)}
    assert read.functions["demo_count"] == dict(cases=6, setup=1, abort=1, restart=1,
                                                abort_rate=20.0, restart_rate=20.0,
                                                failure_rate=40.0, datatypes="string int",
                                                signature=BASELINE["demo_count"]["signature"],
                                                values=read.functions["demo_count"]["values"])
    assert re.fullmatch("[0-9a-f]{16}", read.functions["demo_count"]["values"])
    lines = path.read_text().splitlines()
    failing = lines.index(' "failing": [') + 1  # the first failing case's line, 0-based

    def refused(text, line=None):
        bad = tmp_path / "bad.baseline"
        bad.write_text(text)
        with pytest.raises(TrebuchetError) as e:
            baselines.read(bad)
        return str(e.value).removeprefix(f"{bad}:{line}: " if line else f"{bad}: ")

    assert refused("{\n  nope", 2).startswith("not a baseline: ")
    assert refused('{"format": "other"}\n', 1).startswith('not a baseline: it has "format": "other"')
    assert refused("[]\n").startswith('not a baseline: it has no "format" key')
    wrong = list(lines)
    wrong[failing + 1] = wrong[failing + 1].replace('"RESTART"', '"RESTARTS"')
    assert refused("\n".join(wrong), failing + 2).startswith("failing/1/outcome: 'RESTARTS'")
    stray = list(lines)
    stray[failing] = stray[failing].replace('"demo_count"', '"demo_other"', 1)
    assert refused("\n".join(stray), failing + 1) == \
        "failing/0: function 'demo_other' is not among the baseline's functions"
    with pytest.raises(TrebuchetError, match="No such file"):
        baselines.read(tmp_path / "missing.baseline")


def test_long_lists_are_cut_at_fifty_with_a_count_of_the_rest(compared):
    result, _, _ = compared
    [first, _] = result.new
    for count, cut in ((50, None), (51, "  ... and 1 more confirmed (--junit and --sarif list"
                                         " every one)")):
        result.new = [gate.NewFailure(first.function, i, first.values, "ABORT", 11)
                      for i in range(count)]
        text = gate.as_text(result).splitlines()
        listed = [line for line in text if line.endswith(": ABORT SIGSEGV")]
        assert len(listed) == 50
        assert (cut in text) if cut else not any("more confirmed" in line for line in text)
        assert any(line.startswith("  by function:") for line in text) == (count == 51)


def test_the_files_say_what_ci_servers_read(compared, tmp_path):
    result, db, path = compared
    junit.write(result, tmp_path / "j.xml")
    root = junit_valid(tmp_path / "j.xml")
    suite = root.find("testsuite")
    assert (root.get("name"), root.get("errors"), suite.get("errors")) == ("trebuchet gate",
                                                                         "0", "0")
    assert {c.get("time") for c in suite.iter("testcase")} == {"0"}
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", suite.get("timestamp"))
    spec = specs.load(ROOT / SPEC)
    sarif.write(result, spec, "1", tmp_path / "s.sarif")
    assert (tmp_path / "s.sarif").read_text().startswith('{\n "$schema": ')
    rules = sarif.document(result, spec, "1")["runs"][0]["tool"]["driver"]["rules"]
    assert [(r["id"], r["name"], r["shortDescription"]["text"]) for r in rules] == [
        ("ABORT", "CallAborts", "A call with these values ends its process"),
        ("RESTART", "CallHangs", "A call with these values does not return"),
        ("PROMISE", "PromisedErrorMissing",
         "A call does not report the error its documentation promises"),
        ("CORRUPT", "CallCorruptsMemory",
         "A call with these values reads or writes memory it must not")]
    assert [r["fullDescription"]["text"] for r in rules] == [
        "The function, given exceptional but type-correct values, killed its process (a"
        " signal, or exit() from inside the call) where it passed before.",
        "The function, given exceptional but type-correct values, had not returned when the"
        " watchdog fired, where it returned before.",
        "The function returned without the error (or with another errno than) its"
        " documentation promises for these values, as its spec's contract states it.",
        "The function returned, but Valgrind's memcheck saw it read or write memory it must"
        " not (an invalid read or write, a use after free, an uninitialised value deciding a"
        " branch, an invalid free) where it did not before."]


def test_a_baseline_names_an_exit_and_refuses_a_shard(compared, tmp_path):
    _, db, path = compared
    assert baselines.case_line("f", 1, "int:ONE int:ZERO", "ABORT", None, 3) == dict(
        function="f", case=1, values=["int:ONE", "int:ZERO"], outcome="ABORT", exit_status=3)
    with pytest.raises(TrebuchetError) as e:
        baselines.read(tmp_path / "missing.baseline")
    assert str(e.value) == f"{tmp_path / 'missing.baseline'}: No such file or directory"
    data = json.loads(path.read_text())
    two = tmp_path / "two.baseline"
    two.write_text(baselines.dumps(dict(data, run=dict(data["run"], seed=2, cap=11))))
    with pytest.raises(TrebuchetError, match=r"its seed \(2 in the baseline, 1 in run 2\), cap"
                                             r" \(11 in the baseline, 10 in run 2\) differ"):
        gate.gate(db, two, confirm=0)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE runs SET shard = 2, shards = 2 WHERE id = 2")
    with pytest.raises(TrebuchetError, match="run 2 of demolib holds shard 2 of 2 only"):
        gate.gate(db, path, confirm=0)


def test_a_baseline_carries_the_crash_scale_of_its_run(tmp_path):
    """fclose's spec lists its errnos: one of its two errors is Hindering."""
    db = tmp_path / "stdio.db"
    cases = [("FILE:READ", "PASS", dict(error_reported=1, errno=9)),      # EBADF: allowed
             ("FILE:CLOSED", "PASS", dict(error_reported=1, errno=34))]   # ERANGE: not
    functions = {"fclose": dict(signature="int fclose(FILE *stream)", datatypes="FILE",
                                cases=cases)}
    hand_store(db, functions, "stdio")
    hand_store(db, functions, "stdio")
    counts = baselines.from_store(db, "stdio", "stdio")["functions"]["fclose"]
    assert (counts["hindering"], counts["hindering_rate"]) == (1, 50.0)
