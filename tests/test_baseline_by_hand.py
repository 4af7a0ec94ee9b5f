"""src/trebuchet/gate/baseline.py on files and stores written by hand: the text it
writes (its exact layout, which a pull request's diff reads), the rebase of
some functions into a reviewed baseline, and what it refuses.  Every
expected value below is written out, not computed by the module."""
import json

import pytest

from conftest import hand_store
from trebuchet.gate import baseline as baselines
from trebuchet.findings.signature import FINGERPRINTS
from trebuchet.core.errors import TrebuchetError

RUN = {"seed": 1, "cap": 10, "timeout_ms": 1000, "dictionary": "ours", "dictionary_digest": "d",
       "spec_digest": "s", "library": "v", "harness": "v"}
COUNTS = {"cases": 2, "setup": 0, "abort": 1, "restart": 0, "abort_rate": 50.0,
          "restart_rate": 0.0, "failure_rate": 50.0}
FP_A, FP_B, FP_C = "aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb", "cccccccccccccccc"


def case(function, index, outcome="ABORT", values=("int:ONE",), **more):
    return dict(function=function, case=index, values=list(values), outcome=outcome, **more)


def finding(fingerprint, *functions):
    return dict(fingerprint=fingerprint, title=f"t {fingerprint[0]}", functions=list(functions),
                cases=1, violation=False)


def baseline(functions, failing=(), setup=(), findings=None, run=RUN, spec="old.yaml"):
    out = dict(format=baselines.FORMAT, target="demo", spec=spec, run=dict(run),
               functions={name: dict(COUNTS, **counts) for name, counts in functions.items()},
               failing=list(failing), setup=list(setup))
    if findings is not None:
        out["findings"] = list(findings)
        out["fingerprints"] = FINGERPRINTS
    return out


def written(tmp_path, data, name="old.baseline"):
    path = tmp_path / name
    path.write_text(baselines.dumps(data))
    return path


# -- case_line: what a listed case holds --------------------------------------

def test_an_abort_by_signal_is_listed_with_the_signal_by_name():
    assert baselines.case_line("f", 3, "int:ONE string:NULL", "ABORT", 11, None) == dict(
        function="f", case=3, values=["int:ONE", "string:NULL"], outcome="ABORT",
        signal="SIGSEGV")


def test_an_abort_by_exit_is_listed_with_its_status():
    assert baselines.case_line("f", 0, "int:ONE", "ABORT", None, 3) == dict(
        function="f", case=0, values=["int:ONE"], outcome="ABORT", exit_status=3)


@pytest.mark.parametrize("outcome", ["RESTART", "SETUP"])
def test_other_outcomes_carry_neither_signal_nor_status(outcome):
    assert baselines.case_line("f", 1, "int:ONE", outcome, 9, 0) == dict(
        function="f", case=1, values=["int:ONE"], outcome=outcome)


def test_a_function_of_no_parameters_lists_no_values():
    assert baselines.case_line("g", 0, "", "RESTART", None, None)["values"] == []


# -- dumps: the exact text ----------------------------------------------------

def test_the_text_is_one_function_and_one_case_per_line_in_a_fixed_order():
    data = dict(format="trebuchet baseline 2", target="t", spec="s.yaml", run={"seed": 1},
                functions={"b": {"cases": 1}, "a": {"cases": 2}},
                findings=[], failing=[{"function": "a", "case": 0}],
                setup=[{"function": "a", "case": 1}, {"function": "b", "case": 0}])
    assert baselines.dumps(data) == (
        '{\n'
        ' "format": "trebuchet baseline 2",\n'
        ' "target": "t",\n'
        ' "spec": "s.yaml",\n'
        ' "run": {"seed": 1},\n'
        ' "functions": {\n'
        '  "a": {"cases": 2},\n'
        '  "b": {"cases": 1}\n'
        ' },\n'
        ' "findings": [],\n'
        ' "failing": [\n'
        '  {"function": "a", "case": 0}\n'
        ' ],\n'
        ' "setup": [\n'
        '  {"function": "a", "case": 1},\n'
        '  {"function": "b", "case": 0}\n'
        ' ]\n'
        '}\n')


def test_a_baseline_without_findings_writes_no_findings_key():
    data = baseline({"f": {}})
    assert '"findings"' not in baselines.dumps(data)
    assert json.loads(baselines.dumps(data)) == data


# -- rebased: some functions taken from a new run -----------------------------

OLD = baseline({"f": {"cases": 4}, "g": {"cases": 5}},
               failing=[case("f", 1), case("g", 0), case("g", 7, "RESTART")],
               setup=[case("f", 2, "SETUP"), case("g", 3, "SETUP")],
               findings=[finding(FP_A, "f"), finding(FP_B, "g"), finding(FP_C, "f", "g")])
NEW = baseline({"f": {"cases": 6}, "g": {"cases": 9}, "h": {"cases": 1}},
               failing=[case("f", 0), case("g", 2), case("h", 0)],
               setup=[case("g", 5, "SETUP")],
               findings=[finding(FP_B, "g"), finding("dddddddddddddddd", "g", "h"),
                         finding("eeeeeeeeeeeeeeee", "f")],  # f's: not taken
               run=dict(RUN, harness="v2", library="v3"), spec="new.yaml")


def test_a_rebase_takes_the_chosen_functions_from_the_new_run_and_keeps_the_rest(tmp_path):
    out = baselines.rebased(written(tmp_path, OLD), NEW, ["g", "h"])
    # f as reviewed; g and h as the new run has them
    assert out["functions"] == {"f": dict(COUNTS, cases=4), "g": dict(COUNTS, cases=9),
                                "h": dict(COUNTS, cases=1)}
    assert out["failing"] == [case("f", 1), case("g", 2), case("h", 0)]
    assert out["setup"] == [case("f", 2, "SETUP"), case("g", 5, "SETUP")]
    # the run, the spec and the format are the new run's
    assert out["run"] == dict(RUN, harness="v2", library="v3")
    assert out["spec"] == "new.yaml" and out["format"] == baselines.FORMAT
    assert out["target"] == "demo"
    # findings: f's alone (A) kept; those touching g (B, C) are the new run's
    # (B again, and D); C, of f and g, is gone with g's old cases; E, the new
    # run's finding of f alone, is not taken with them
    assert [f["fingerprint"] for f in out["findings"]] == [FP_A, FP_B, "dddddddddddddddd"]


def test_a_rebased_baseline_is_sorted_by_function_then_case(tmp_path):
    old = baseline({"a": {}, "b": {}}, failing=[case("a", 9), case("b", 1)])
    new = baseline({"a": {}, "b": {}}, failing=[case("a", 2), case("a", 10)])
    out = baselines.rebased(written(tmp_path, old), new, ["a"])
    assert [(c["function"], c["case"]) for c in out["failing"]] == [("a", 2), ("a", 10),
                                                                    ("b", 1)]


@pytest.mark.parametrize("old_has, new_has", [(True, False), (False, True)])
def test_a_rebase_mixing_a_baseline_by_case_gates_by_case(tmp_path, old_has, new_has):
    old = baseline({"f": {}}, findings=[finding(FP_A, "f")] if old_has else None)
    new = baseline({"f": {}}, findings=[finding(FP_B, "f")] if new_has else None)
    assert "findings" not in baselines.rebased(written(tmp_path, old), new, ["f"])


@pytest.mark.parametrize("key", ["seed", "cap", "dictionary"])
def test_a_run_drawn_otherwise_cannot_join(tmp_path, key):
    new = baseline({"f": {}}, run=dict(RUN, **{key: 7 if key in ("seed", "cap") else "x"}))
    with pytest.raises(TrebuchetError, match=f"the run's {key} differ from the baseline's, so "
                                             f"its functions cannot join it"):
        baselines.rebased(written(tmp_path, baseline({"f": {}})), new, ["f"])


def test_a_datatype_edited_rebases_the_functions_whose_values_moved(tmp_path):
    """The run's dictionary_digest moved: the functions rebased join when
    every other one's values digest is the baseline's; one whose values
    moved too must be named; a baseline without digests (format 3) is
    refused whole, as before."""
    run = dict(RUN, dictionary_digest="x")
    old = baseline({"f": {"values": "0" * 16}, "g": {"values": "1" * 16}})
    same = baseline({"f": {"values": "2" * 16}, "g": {"values": "1" * 16}}, run=run)
    assert baselines.rebased(written(tmp_path, old), same, ["f"])["run"] == run
    moved = baseline({"f": {"values": "2" * 16}, "g": {"values": "3" * 16}}, run=run)
    with pytest.raises(TrebuchetError, match="the values of g changed too .a datatype edited.:"
                                             " add it to --functions"):
        baselines.rebased(written(tmp_path, old), moved, ["f"])
    with pytest.raises(TrebuchetError, match="the run's dictionary_digest differ"):
        baselines.rebased(written(tmp_path, baseline({"f": {}, "g": {}})), moved, ["f"])


def test_a_targeted_run_cannot_join_a_whole_one_and_says_which_keys(tmp_path):
    new = baseline({"f": {}}, run=dict(RUN, seed=2, targeted="pinned"))
    with pytest.raises(TrebuchetError, match="the run's seed, targeted differ"):
        baselines.rebased(written(tmp_path, baseline({"f": {}})), new, ["f"])


def test_a_run_that_differs_outside_the_draw_may_join(tmp_path):
    """timeout, library and harness are not what draws the cases."""
    new = baseline({"f": {}}, run=dict(RUN, timeout_ms=5, library="w", harness="w"))
    assert baselines.rebased(written(tmp_path, baseline({"f": {}})), new, ["f"])["run"][
        "timeout_ms"] == 5


def test_a_function_the_new_run_did_not_run_is_named(tmp_path):
    with pytest.raises(TrebuchetError, match="the newest run of demo did not run x, y"):
        baselines.rebased(written(tmp_path, baseline({"f": {}})), baseline({"f": {}}),
                          ["f", "x", "y"])


# -- reading: what is refused, and where --------------------------------------

def test_a_case_of_a_function_not_listed_is_refused_at_its_line(tmp_path):
    path = written(tmp_path, baseline({"f": {}}, failing=[case("f", 0)],
                                      setup=[case("f", 1, "SETUP"), case("z", 2, "SETUP")]))
    with pytest.raises(TrebuchetError) as e:
        baselines.read(path)
    # line 1 "{", 2-6 format/target/spec/run/"functions": {, 7 f, 8 " },",
    # 9 "failing": [, 10 its case, 11 " ],", 12 "setup": [, 13 f's, 14 z's
    assert str(e.value) == (f"{path}:14: setup/1: function 'z' is not among the baseline's "
                            f"functions")


def test_a_schema_error_names_the_entry_and_its_line(tmp_path):
    path = written(tmp_path, baseline({"f": {}}, failing=[case("f", 0), case("f", 1, "PASS")]))
    with pytest.raises(TrebuchetError) as e:
        baselines.read(path)
    # 9 "failing": [, 10 case 0, 11 case 1
    assert str(e.value).startswith(f"{path}:11: failing/1/outcome: ")


def test_a_schema_error_outside_the_lists_names_the_entry_alone(tmp_path):
    data = baseline({"f": {}})
    data["run"]["seed"] = -1
    path = written(tmp_path, data)
    with pytest.raises(TrebuchetError) as e:
        baselines.read(path)
    assert str(e.value).startswith(f"{path}: run/seed: -1 is less than the minimum of 0")


def test_what_is_read_back_is_keyed_by_function_and_case(tmp_path):
    data = baseline({"f": {}}, failing=[case("f", 4)], setup=[case("f", 5, "SETUP")],
                    findings=[finding(FP_A, "f")])
    read = baselines.read(written(tmp_path, data))
    assert read.failing == {("f", 4): case("f", 4)}
    assert read.setup == {("f", 5)}
    assert read.findings == {FP_A: finding(FP_A, "f")}
    assert (read.target, read.spec) == ("demo", "old.yaml")
    assert read.run["targeted"] == "none"
    assert baselines.read(written(tmp_path, baseline({"f": {}}), "b2")).findings is None


@pytest.mark.parametrize("format_, said", [
    (None, 'not a baseline: it has no "format" key'),
    ("something else", 'not a baseline: it has "format": "something else"'),
    (7, 'not a baseline: it has "format": 7'),
])
def test_a_file_that_says_it_is_no_baseline_is_told_so(tmp_path, format_, said):
    data = baseline({"f": {}})
    if format_ is None:
        del data["format"]
    else:
        data["format"] = format_
    path = tmp_path / "x.baseline"
    path.write_text(json.dumps(data))
    with pytest.raises(TrebuchetError) as e:
        baselines.read(path)
    assert said in str(e.value)
    assert f'(a baseline made by `trebuchet baseline` has "format": "{baselines.FORMAT}")' in str(
        e.value)


def test_a_format_1_file_is_still_read(tmp_path):
    data = baseline({"f": {}})
    data["format"] = "trebuchet baseline 1"
    assert baselines.read(written(tmp_path, data)).functions == {"f": COUNTS}


def test_a_missing_file_is_one_line_naming_it(tmp_path):
    with pytest.raises(TrebuchetError) as e:
        baselines.read(tmp_path / "nothing.baseline")
    assert str(e.value) == f"{tmp_path / 'nothing.baseline'}: No such file or directory"


def test_a_line_that_only_looks_like_a_conflict_marker_is_not_one(tmp_path):
    """Seven '=' inside a value, not at a line's start with a space or its
    end, is text; the file is read."""
    data = baseline({"f": {}}, spec="a=======b.yaml")
    assert baselines.read(written(tmp_path, data)).spec == "a=======b.yaml"


# -- the store side ------------------------------------------------------------

def test_no_finished_run_is_named(tmp_path):
    db = tmp_path / "empty.db"
    hand_store(db, {"f": dict(signature="int f(int)", datatypes="int",
                              cases=[("int:ONE", "PASS")])}, target="other")
    with pytest.raises(TrebuchetError, match=f"{db}: no finished run of demo"):
        baselines.from_store(db, "demo", "demo")


def test_a_shard_is_refused_with_the_command_that_joins_it(tmp_path):
    db = hand_store(tmp_path / "s.db", {"f": dict(signature="int f(int)", datatypes="int",
                                                  cases=[("int:ONE", "PASS")])})
    import sqlite3
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE runs SET shard = 2, shards = 3")
    with pytest.raises(TrebuchetError, match="run 1 of demo holds shard 2 of 3 only: "
                                             "`trebuchet merge` joins the shards first"):
        baselines.from_store(db, "demo", "demo")


def test_the_newest_finished_run_is_the_one_written(tmp_path):
    fn = lambda outcome: {"f": dict(signature="int f(int)", datatypes="int",
                                    cases=[("int:ONE", outcome)])}
    db = hand_store(tmp_path / "n.db", fn("PASS"))
    hand_store(db, fn("RESTART"))
    assert baselines.from_store(db, "demo", "demo")["failing"] == [
        case("f", 0, "RESTART")]


def test_a_stored_target_is_found_by_its_name_with_the_spec_its_run_recorded(tmp_path):
    db = hand_store(tmp_path / "t.db", {"f": dict(signature="int f(int)", datatypes="int",
                                                  cases=[("int:ONE", "PASS")])}, target="kv")
    import sqlite3
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE runs SET spec = 'robustness/kv.yaml'")
    assert baselines.stored_target(db, "kv") == ("kv", "robustness/kv.yaml")


# -- more of what is written and what is refused -----------------------------

def one_function(db, outcomes, target="demo"):
    return hand_store(db, {"f": dict(signature="int f(int)", datatypes="int",
                                     cases=[("int:ONE", o) for o in outcomes])}, target=target)


def test_rates_are_written_to_two_places(tmp_path):
    """1 ABORT and 2 RESTART of 3 cases: 33.33%, 66.67%, 100.0%."""
    db = one_function(tmp_path / "r.db", ["ABORT", "RESTART", "RESTART"])
    f = baselines.from_store(db, "demo", "demo")["functions"]["f"]
    assert (f["abort_rate"], f["restart_rate"], f["failure_rate"]) == (33.33, 66.67, 100.0)


def test_a_whole_campaign_writes_no_targeted_key_and_a_pinned_run_writes_its_pins(tmp_path):
    import sqlite3
    db = one_function(tmp_path / "w.db", ["PASS"])
    assert "targeted" not in baselines.from_store(db, "demo", "demo")["run"]
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE runs SET pins = 'f.a#0=int:ONE'")
    assert baselines.from_store(db, "demo", "demo")["run"]["targeted"] == "f.a=int:ONE"


def test_a_store_for_the_baseline_is_told_which_option_takes_which(tmp_path):
    db = one_function(tmp_path / "s.db", ["PASS"])
    with pytest.raises(TrebuchetError) as e:
        baselines.read(db)
    assert str(e.value) == (f"{db}: a SQLite store, not a baseline: --baseline takes the file "
                            f"`trebuchet baseline --out` wrote, --db the store")


def test_a_future_format_is_told_what_to_do(tmp_path):
    data = baseline({"f": {}})
    data["format"] = "trebuchet baseline 9"
    path = tmp_path / "f.baseline"
    path.write_text(json.dumps(data))
    with pytest.raises(TrebuchetError) as e:
        baselines.read(path)
    assert str(e.value) == (
        f'{path}:1: a baseline of format "trebuchet baseline 9", which this trebuchet does not '
        f'read (it reads "trebuchet baseline 1" to "trebuchet baseline 4"): gate with the '
        f'trebuchet that wrote it, or write the baseline again with this one')


def test_another_tool_s_format_is_no_baseline(tmp_path):
    """"trebuchet export 1" shares the word trebuchet, not "trebuchet baseline"."""
    data = baseline({"f": {}})
    data["format"] = "trebuchet export 1"
    path = tmp_path / "e.baseline"
    path.write_text(json.dumps(data))
    with pytest.raises(TrebuchetError) as e:
        baselines.read(path)
    assert str(e.value) == (f'{path}:1: not a baseline: it has "format": "trebuchet export 1" '
                            f'(a baseline made by `trebuchet baseline` has "format": '
                            f'"{baselines.FORMAT}")')


def test_of_two_schema_errors_the_first_in_the_file_s_order_is_named(tmp_path):
    data = baseline({"f": {}})
    data["run"].update(seed=-1, cap=0)
    path = written(tmp_path, data)
    with pytest.raises(TrebuchetError) as e:
        baselines.read(path)
    assert str(e.value).startswith(f"{path}: run/cap: 0 is less than the minimum of 1")


def test_a_missing_key_is_an_error_at_the_top_level(tmp_path):
    data = baseline({"f": {}})
    del data["setup"]
    path = tmp_path / "m.baseline"
    path.write_text(json.dumps(data))
    with pytest.raises(TrebuchetError) as e:
        baselines.read(path)
    assert str(e.value) == f"{path}: top level: 'setup' is a required property"


@pytest.mark.parametrize("version", [None, 1])
def test_findings_of_an_earlier_signature_rule_gate_by_case(tmp_path, version):
    """A baseline whose fingerprints an earlier rule made (no "fingerprints"
    key, or another version) would make every finding new and fixed at
    once: its findings and known flaky ones are set aside, and it gates case
    by case, saying which version it holds."""
    data = baseline({"f": {}}, failing=[case("f", 4)], findings=[finding(FP_A, "f")])
    data["flaky"] = [dict(fingerprint=FP_A, title="t a", functions=["f"])]
    data.pop("fingerprints")
    if version is not None:
        data["fingerprints"] = version
    read = baselines.read(written(tmp_path, data))
    assert (read.findings, read.flaky, read.old_fingerprints) == (None, {}, 1)
    data["fingerprints"] = FINGERPRINTS
    read = baselines.read(written(tmp_path, data, "now.baseline"))
    assert set(read.findings) == {FP_A} and read.old_fingerprints is None
    assert '\n "fingerprints": %d,\n "findings": [' % FINGERPRINTS in baselines.dumps(data)
