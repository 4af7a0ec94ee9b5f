"""The gate's rules as CI meets them, one row each: a store and baseline
(the hand-counted demolib runs of test_gate_hand.py, whose gate fails on
two new failures), what is done to them, and the exit code and the line
that must come.  Exit codes, in order: 2 for bad input or an output that
cannot be written, found before any work; 1 whenever the verdict is
"failed", even when an output fails afterwards; 2 when it passed but an
output was not written; else 0."""
import json
import re
import sqlite3
import subprocess

import pytest

from conftest import ROOT, TREBUCHET, hand_store
from test_gate import DEMO_LIB, build_demolib
from test_gate_hand import BASELINE, NOW, SPEC, compared  # noqa: F401 (a fixture)
from trebuchet.gate import baseline as baselines
from trebuchet.gate import sarif
from trebuchet.findings.signature import FINGERPRINTS
from trebuchet.spec import load as specs


@pytest.fixture
def stores(tmp_path, monkeypatch):
    """(a store whose newest run regressed, a store whose newest run is the
    baseline's again, the baseline)."""
    monkeypatch.chdir(ROOT)
    if not DEMO_LIB.exists():
        build_demolib(1)
    failing, passing = tmp_path / "failing.db", tmp_path / "passing.db"
    path = tmp_path / "demolib.baseline"
    hand_store(failing, BASELINE, target="demolib")
    path.write_text(baselines.dumps(baselines.from_store(failing, "demolib", SPEC)))
    hand_store(failing, NOW, target="demolib")
    with sqlite3.connect(failing) as conn:  # made with the spec, for the reproducers
        conn.execute("UPDATE runs SET spec_digest = ?", (specs.load(ROOT / SPEC).digest,))
    hand_store(passing, BASELINE, target="demolib")
    hand_store(passing, BASELINE, target="demolib")
    return failing, passing, path


def gate(db, path, *extra):
    said = subprocess.run([str(TREBUCHET), "gate", "--db", str(db), "--baseline", str(path),
                           "--confirm", "0", *map(str, extra)],
                          capture_output=True, text=True, cwd=ROOT)
    return said.returncode, said.stdout, said.stderr


def unfinished_newer(db):
    hand_store(db, NOW, target="demolib")
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE runs SET finished = NULL WHERE id = (SELECT max(id) FROM runs)")


def test_the_rules_exit_codes_and_lines(stores, tmp_path):
    failing, passing, path = stores
    assert gate(passing, path)[0] == 0
    code, out, err = gate(failing, path)
    assert (code, err) == (1, "") and out.rstrip().splitlines()[-1].startswith("gate failed")

    # an output that cannot be opened: bad input, before any work
    for option in ("--junit", "--sarif"):
        code, out, err = gate(failing, path, option, "/proc/self/nowhere/out.xml")
        assert (code, out) == (2, "") and err.count("\n") == 1, err
        assert err.startswith("trebuchet: /proc/self/nowhere/out.xml: cannot make its folder")

    # one that opens but cannot be written (/dev/full): said after the
    # verdict, which keeps its 1; a gate that passed says 2
    code, out, err = gate(failing, path, "--sarif", "/dev/full")
    assert code == 1 and err == "trebuchet: /dev/full: not written: No space left on device\n"
    assert "gate failed" in out
    code, out, err = gate(passing, path, "--junit", "/dev/full")
    assert code == 2 and err == "trebuchet: /dev/full: not written: No space left on device\n"

    # a newer run left unfinished (a job killed mid-run): refused, naming it
    unfinished_newer(failing)
    code, out, err = gate(failing, path)
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert "run 3 of demolib (started 2026-01-01) is newer than run 2 and unfinished" in err
    assert f"trebuchet run --target {SPEC} --db {failing} --resume" in err


def test_reproducers_go_to_a_new_folder_or_replace_a_gates_own(stores, tmp_path):
    failing, _, path = stores
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "notes.txt").write_text("a user's file\n")
    code, out, err = gate(failing, path, "--emit-c", theirs)
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert "--emit-c wants a new or empty directory, or one where an earlier gate" in err
    assert (theirs / "notes.txt").read_text() == "a user's file\n"

    ours = tmp_path / "reproducers"
    said = gate(failing, path, "--emit-c", ours)
    assert said[0] == 1, said
    first = sorted(p.name for p in ours.iterdir())
    assert first and all(re.fullmatch(r"demo_count-case-\d+", name) for name in first)
    (ours / "demo_count-case-99").mkdir()  # what an earlier gate left
    (ours / "demo_count-case-99" / "repro.c").write_text("int main(void) { return 0; }\n")
    code, out, _ = gate(failing, path, "--emit-c", ours)
    assert code == 1 and "standalone C reproducers" in out
    assert sorted(p.name for p in ours.iterdir()) == first

    code, out, err = gate(failing, path, "--emit-c", "/proc/self/reproducers")
    assert (code, out) == (2, "") and err.startswith("trebuchet: /proc/self/reproducers: cannot be")


def test_sarif_names_every_place_relative_to_the_source_root(compared):
    """--source-root holds for every location, the spec's places too (its
    related locations once stayed relative to the working directory)."""
    result = compared[0]
    spec = specs.load(ROOT / SPEC)
    for root, uri in ((None, SPEC), (ROOT / "tests", "demolib/demolib.yaml")):
        places = [loc["physicalLocation"]["artifactLocation"]["uri"]
                  for r in sarif.document(result, spec, "1", root)["runs"][0]["results"]
                  for loc in r["locations"] + r.get("relatedLocations", [])]
        assert places and set(places) == {uri}


LENGTH = """  - name: demo_length
    returns: size_t
    params:
      - {name: s, type: const char *, datatype: string}
    error: {when: none}
"""


@pytest.fixture
def grown(tmp_path):
    """A folder holding demolib version 1 beside a spec of demo_count, a
    baseline of its run, and write(contract) writing the pull request's
    spec, which adds demo_length with that contract (NULL to it crashes)."""
    lib = tmp_path / "build/tests/demolib/libdemo.so"
    lib.parent.mkdir(parents=True)
    subprocess.run(["cc", "-O2", "-g", "-shared", "-fPIC", "-o", lib,
                    ROOT / "tests/demolib/demolib.c"], check=True)
    (tmp_path / "demolib.h").write_text((ROOT / "tests/demolib/demolib.h").read_text())
    text = (ROOT / SPEC).read_text()
    (tmp_path / "before.yaml").write_text(text.replace(LENGTH, ""))
    db = tmp_path / "t.db"
    for args in (("run", "--target", "before.yaml", "--db", db, "--quiet"),
                 ("baseline", "--db", db, "--target", "before.yaml", "--out", "b.baseline")):
        subprocess.run([TREBUCHET, *map(str, args)], cwd=tmp_path, check=True,
                       capture_output=True)

    def write(contract):
        (tmp_path / "after.yaml").write_text(text.replace(
            LENGTH, LENGTH + f"    contract: {contract}\n"))
        subprocess.run([TREBUCHET, "run", "--target", "after.yaml", "--db", db, "--quiet"],
                       cwd=tmp_path, check=True, capture_output=True)
        said = subprocess.run([TREBUCHET, "gate", "--db", db, "--baseline", "b.baseline"],
                              cwd=tmp_path, capture_output=True, text=True)
        return said.returncode, said.stdout.splitlines()
    return write


def test_a_function_not_in_the_baseline_is_judged_by_its_contract(grown):
    """demo_length, added, crashes on NULL: a violation of `returns:
    acceptable` fails the gate; drafted, it is reported and passes; its
    crashes on misuse values break no promise and are reported."""
    code, lines = grown('{source: "demolib.h", returns: acceptable}')
    assert code == 1 and lines[-1] == ("gate failed: 1 confirmed contract violation in "
                                       "functions not in the baseline")
    assert "functions not in the baseline, judged by their contracts: 2 findings; 1 violation" \
        " of a reviewed promise, 1 confirmed" in lines
    assert any(line.startswith("  VIOLATION ") and ": confirmed, 1 case" in line for line in lines)
    assert any("on misuse: confirmed (reported, not counted: it breaks no promise" in line
               for line in lines)

    code, lines = grown('{source: "demolib.h", returns: acceptable, drafted: true}')
    assert code == 0 and lines[-1] == "gate passed: no confirmed new finding", lines
    assert "    breaks: drafted, not reviewed: returns on acceptable values (demolib.h)" in lines
    assert any("(reported, not counted: the promise it breaks is drafted; review it and "
               "remove `drafted: true` from the spec)" in line for line in lines)


def test_a_datatype_edited_refuses_the_functions_whose_values_changed(stores):
    """string's EMPTY renamed BLANK (the run's dictionary_digest moves):
    demo_count draws from string and is refused, one line with the command
    that rebases it; demo_clamp, all int, is gated; that command rebases it
    and the gate passes."""
    _, passing, path = stores
    renamed = {**BASELINE, "demo_count": dict(BASELINE["demo_count"], cases=[
        (values.replace("EMPTY", "BLANK"), *rest) for values, *rest in
        BASELINE["demo_count"]["cases"]])}
    hand_store(passing, renamed, target="demolib")
    with sqlite3.connect(passing) as conn:
        conn.execute("UPDATE runs SET dictionary_digest = 'edited' WHERE id = 3")
    code, out, err = gate(passing, path)
    command = (f"trebuchet baseline --db {passing} --target {SPEC} --out {path}"
               f" --functions demo_count")
    assert (code, err) == (2, ""), out
    assert (f"refused: demo_count's cases hand over other values than in the baseline (a"
            f" datatype edited; not compared): `{command}` rebases it on run 3") in out
    assert "compared 1 case in 1 function; 0 failing in both" in out
    assert out.rstrip().splitlines()[-1].startswith("gate refused: 1 function changed")
    subprocess.run(command.split(), check=True, capture_output=True, cwd=ROOT,
                   executable=TREBUCHET)
    assert gate(passing, path)[0] == 0


def test_a_corrupt_baseline_that_names_no_case_of_the_run_is_refused(tmp_path, monkeypatch):
    """A Corrupt case past its function's cases, with other values than the
    run's case, or listed twice: one line naming the baseline (and the
    entry's line where it has one), exit 2, before memcheck runs."""
    from test_gate_corrupt_hand import ALL_PASS, BEFORE, memchecked
    monkeypatch.chdir(ROOT)
    db, path = tmp_path / "hand.db", tmp_path / "demolib.baseline"
    hand_store(db, ALL_PASS, target="demolib")
    memchecked(db, BEFORE)
    text = baselines.dumps(baselines.from_store(db, "demolib", SPEC))
    hand_store(db, ALL_PASS, target="demolib")
    memchecked(db, BEFORE)
    assert gate(db, path.write_text(text) and path, "--no-memcheck")[0] == 0
    lines = text.splitlines()
    first = lines.index(' "corrupt_cases": [') + 1  # 0-based: the first Corrupt case
    past = text.replace('"memchecked": [0, 1, 2, 3, 4, 5]', '"memchecked": [0, 1, 2, 3, 4, 999]')
    assert past != text
    edits = [
        (text.replace('"case": 2, "values"', '"case": 999, "values"'),
         f"{path}:{first + 2}: corrupt_cases/1: case 999 of demo_count is not among the cases"),
        (past, f"{path}: functions/demo_count/memchecked: case 999 is not a case of demo_count"
               f" in run 2 (it holds 6)"),
        (text.replace('"values": ["string:NULL", "int:ONE"], "kind"',
                      '"values": ["string:NOPE", "int:ONE"], "kind"'),
         f"{path}:{first + 1}: corrupt_cases/0: case 1 of demo_count is string:NOPE int:ONE here"
         f" and string:NULL int:ONE in run 2: not the same case"),
        ("\n".join(lines[:first + 1] + [lines[first]] + lines[first + 1:]),  # ends with ","
         f"{path}:{first + 2}: corrupt_cases/1: case 1 of demo_count is listed twice (also"
         f" corrupt_cases/0)")]
    for edited, said in edits:
        path.write_text(edited)
        code, out, err = gate(db, path, "--no-memcheck")
        assert (code, out, err.count("\n")) == (2, "", 1), err
        assert err.startswith(f"trebuchet: {said}"), err


def test_a_fixed_finding_closes_the_alert_it_raised(tmp_path):
    """demolib version 2 drops a NULL check: gated against version 1's
    baseline, its SARIF alert sits at the source line under the finding's
    fingerprint; version 1 gated against version 2's baseline gives that
    finding's fixed result at the same line under the same fingerprint and
    rule. JUnit names the line relative to --source-root."""
    lib = tmp_path / "build/tests/demolib/libdemo.so"
    lib.parent.mkdir(parents=True)
    (tmp_path / "src").mkdir()
    for name in ("demolib.c", "demolib.h"):
        (tmp_path / "src" / name).write_text((ROOT / "tests/demolib" / name).read_text())
    (tmp_path / "demolib.h").write_text((ROOT / "tests/demolib/demolib.h").read_text())
    (tmp_path / "spec.yaml").write_text((ROOT / SPEC).read_text())

    def cli(*args):
        return subprocess.run([TREBUCHET, *map(str, args)], cwd=tmp_path, capture_output=True,
                              text=True)

    def run_version(version, baseline=None):
        flags = ["-DDEMOLIB_DROP_NULL_CHECK"] if version == 2 else []
        subprocess.run(["cc", "-O2", "-g", "-shared", "-fPIC", *flags, "-o", lib,
                        "src/demolib.c"], check=True, cwd=tmp_path)
        cli("run", "--target", "spec.yaml", "--functions", "demo_count", "--db", "t.db",
            "--quiet")
        if baseline:
            cli("baseline", "--db", "t.db", "--target", "spec.yaml", "--out", baseline)

    def sarif_results(baseline, name):
        said = cli("gate", "--db", "t.db", "--baseline", baseline, "--confirm", "0",
                   "--sarif", f"{name}.sarif", "--junit", f"{name}.xml", "--source-root", "src")
        results = json.loads((tmp_path / f"{name}.sarif").read_text())["runs"][0]["results"]
        return said, [(r["ruleId"], r.get("kind"), r["locations"][0]["physicalLocation"],
                       r["partialFingerprints"]) for r in results]

    run_version(1, "v1.baseline")
    run_version(2, "v2.baseline")
    said, new = sarif_results("v1.baseline", "new")
    assert said.returncode == 1 and len(new) == 1, said.stdout
    rule, _, where, fingerprint = new[0]
    assert where == {"artifactLocation": {"uri": "demolib.c"}, "region": {"startLine": 17}}
    assert 'message="demolib.c:17: SIGSEGV in demo_count' in (tmp_path / "new.xml").read_text()
    run_version(1)
    said, fixed = sarif_results("v2.baseline", "fixed")
    assert said.returncode == 0, said.stdout
    assert fixed == [(rule, "pass", where, fingerprint)]
    assert "fixed findings (in the baseline, not in run 3; their alerts close): SIGSEGV in " \
        "demo_count at demolib.c:17" in said.stdout.splitlines()


def test_a_baseline_of_earlier_fingerprints_gates_by_case_and_says_how_to_refresh(stores):
    """Its findings are set aside (compared, each would be new and fixed at
    once); the regression is still caught, case by case."""
    failing, passing, path = stores
    data = json.loads(path.read_text())
    data["findings"] = [dict(fingerprint="0123456789abcdef", title="SIGSEGV in demo_length",
                             functions=["demo_length"], cases=1, violation=False)]
    data.pop("fingerprints", None)
    path.write_text(json.dumps(data))
    code, out, _ = gate(failing, path)
    assert code == 1 and out.rstrip().splitlines()[-1].startswith("gate failed")
    [said] = [line for line in out.splitlines() if "fingerprints of version" in line]
    assert said.startswith(f"this baseline's findings carry fingerprints of version 1, and this"
                           f" trebuchet's are version {FINGERPRINTS}, so it gates case by case;")
    assert said.endswith("writes it again") and "`trebuchet baseline --db " in said
