"""The gate compares the spec function by function (runs counted by hand,
no run again): a pull request that adds a function, or changes one's call,
is gated on the rest; the function it adds is listed, the one it changed
is refused alone with the command that rebases it, and that command
rebases it alone.  A run of fewer of the baseline's functions than it
lists fails unless --functions names the ones meant."""
import json
import sqlite3

import pytest

from conftest import ROOT, hand_store, trebuchet
from test_gate import DEMO_LIB, build_demolib
from trebuchet.gate import baseline as baselines

SPEC = "tests/demolib/demolib.yaml"
COUNT = "size_t demo_count(const char *s, int c)"
CLAMP = dict(signature="int demo_clamp(int v, int lo, int hi)", datatypes="int int int",
             cases=[("int:ZERO int:ZERO int:ONE", "PASS"), ("int:ONE int:ZERO int:ONE", "PASS")])
LENGTH = dict(signature="size_t demo_length(const char *s)", datatypes="string",
              cases=[("string:NULL", "ABORT", dict(signal=11))])


def count(signature=COUNT, outcome="PASS"):
    return dict(signature=signature, datatypes="string int",
                cases=[("string:NULL int:ZERO", "ABORT", dict(signal=11)),
                       ("string:EMPTY int:ZERO", outcome)])


@pytest.fixture
def made(tmp_path, monkeypatch):
    """A store whose run 1 (demo_count, demo_clamp) is the baseline; add(...)
    stores the pull request's run, its spec digest another."""
    monkeypatch.chdir(ROOT)  # as CI runs it: the baseline names the spec from here
    if not DEMO_LIB.exists():  # the spec names it: it is loaded only where it is built
        build_demolib(1)
    db, path = tmp_path / "hand.db", tmp_path / "demolib.baseline"
    hand_store(db, {"demo_count": count(), "demo_clamp": CLAMP}, target="demolib")
    path.write_text(baselines.dumps(baselines.from_store(db, "demolib", SPEC)))

    def add(functions):
        hand_store(db, functions, target="demolib")
        with sqlite3.connect(db) as conn:
            conn.execute("UPDATE runs SET spec_digest = 'grown' WHERE id = 2")
    return db, path, add


def gate(db, path, *args):
    return trebuchet("gate", "--db", db, "--baseline", path, "--confirm", "0", *args,
                     check=False)


def test_functions_the_run_adds_are_listed_and_the_rest_gated(made):
    db, path, add = made
    add({"demo_count": count(), "demo_clamp": CLAMP, "demo_length": LENGTH})
    result = gate(db, path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "compared 4 cases in 2 functions; 1 failing in both" in result.stdout
    assert (f"not in the baseline (not compared, nor judged by their contracts: run 2 has no "
            f"findings made (`trebuchet findings --db {db}` makes them)): demo_length; "
            f"`trebuchet baseline --db {db}"
            f" --target {SPEC} --out {path} --functions demo_length` adds it") in result.stdout
    assert result.stdout.endswith("gate passed: no confirmed new failure\n")
    only = gate(db, path, "--functions", "demo_length").stdout
    assert "left out by --functions: demo_clamp, demo_count" in only.splitlines()
    add({"demo_count": count(), "demo_clamp": CLAMP, "demo_length": LENGTH,
         "demo_other": dict(LENGTH, signature="size_t demo_other(const char *s)")})
    two = gate(db, path).stdout
    assert (f"findings made (`trebuchet findings --db {db}` makes them)): demo_length,"
            f" demo_other; `trebuchet baseline"
            f" --db {db} --target {SPEC} --out {path} --functions demo_length,demo_other` adds"
            f" them") in two


def test_a_changed_function_is_refused_alone_and_its_command_rebases_it(made):
    db, path, add = made
    add({"demo_count": count("size_t demo_count(const char *text, int c)", "RESTART"),
         "demo_clamp": CLAMP})
    result = gate(db, path)
    assert result.returncode == 2, result.stdout + result.stderr
    rebase = f"trebuchet baseline --db {db} --target {SPEC} --out {path} --functions demo_count"
    lines = result.stdout.splitlines()
    assert "changed in the spec since the baseline (call or datatypes; refused, not compared):" \
        " demo_count" in lines
    assert f"  `{rebase}` rebases demo_count on run 2" in lines
    assert "compared 2 cases in 1 function; 0 failing in both" in result.stdout
    assert result.stdout.endswith("gate refused: 1 function changed since the baseline (call,"
                                  " datatypes or values), and no confirmed new failure"
                                  " elsewhere\n")
    before = json.loads(path.read_text())
    trebuchet(*rebase.split()[1:])
    after = json.loads(path.read_text())
    assert after["functions"]["demo_clamp"] == before["functions"]["demo_clamp"]
    assert after["functions"]["demo_count"]["signature"] == \
        "size_t demo_count(const char *text, int c)"
    assert [(c["function"], c["case"]) for c in after["failing"]] == [("demo_count", 0),
                                                                     ("demo_count", 1)]
    assert gate(db, path).returncode == 0


def test_a_confirmed_failure_elsewhere_fails_the_gate_beside_a_changed_function(made):
    db, path, add = made
    add({"demo_count": count("size_t demo_count(const char *text, int c)"),
         "demo_clamp": dict(CLAMP, cases=[CLAMP["cases"][0], ("int:ONE int:ZERO int:ONE",
                                                               "RESTART")])})
    result = gate(db, path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stdout.endswith("gate failed: 1 confirmed new failure\n")


def test_a_run_of_fewer_functions_fails_unless_they_are_named(made):
    db, path, add = made
    add({"demo_count": count()})
    result = gate(db, path)
    assert result.returncode == 2
    assert result.stderr == (f"trebuchet: {db}: run 2 ran 1 of the baseline's 2 functions, not"
                             f" demo_clamp: run them too, or name the functions meant with"
                             f" --functions\n")
    meant = gate(db, path, "--functions", "demo_count")
    assert meant.returncode == 0, meant.stderr
    assert "left out by --functions: demo_clamp" in meant.stdout
    unknown = gate(db, path, "--functions", "demo_count,demo_length,demo_other")
    assert unknown.returncode == 2
    assert "--functions names demo_length, demo_other, which run 2 did not run" in unknown.stderr
    add({"demo_length": LENGTH})  # run 3: none of the baseline's functions
    none = gate(db, path)
    assert "run 3 ran 0 of the baseline's 2 functions, not demo_clamp, demo_count: run" \
        in none.stderr


def test_a_baseline_of_format_1_stands_by_the_whole_spec_s_digest(made):
    db, path, add = made
    data = dict(json.loads(path.read_text()), format="trebuchet baseline 1")
    for counts in data["functions"].values():
        del counts["signature"], counts["datatypes"]
    path.write_text(baselines.dumps(data))
    add({"demo_count": count(), "demo_clamp": CLAMP})
    result = gate(db, path)
    assert result.returncode == 2
    assert "refused, not compared): demo_clamp, demo_count" in result.stdout
