"""Findings end to end on a library with known defects (tests/defects/),
counted by hand: which distinct defects there are, which public functions
reach each, what their cases share, where each strikes (the source line
marked DEFECT, read here from the source, not from the pipeline) and which
break the header's promises."""
import json
import re
import sqlite3
import subprocess

import pytest

from conftest import ROOT, libdirs_said, trebuchet
from trebuchet.harness import crash_sites as symbolize

SPEC = "tests/defects/defects.yaml"
SOURCE = ROOT / "tests/defects/defects.c"
LIB = ROOT / "build/tests/defects/libdefects.so"

# (kind, the function it is named by): functions, trigger, broken promise?,
# its DEFECT mark (None: a hang strikes anywhere in its loop).
EXPECTED = {
    ("SIGSEGV", "count_bytes"): (["df_length", "df_upper", "df_width"],
                                 "df_length: s = NULL; df_upper: s = NULL; df_width: s = NULL",
                                 True, "count_bytes"),
    ("assertion", "df_ratio"): (["df_ratio"], "df_ratio: b = ZERO", True, "df_ratio-assert"),
    ("SIGFPE", "df_ratio"): (["df_ratio"], "df_ratio: a = INT_MIN; b = NEG_ONE", True,
                             "df_ratio-divide"),
    ("stack-overflow", "deep"): (["df_depth"], "df_depth: n = INT_MAX", True, None),
    ("hang", "df_spin"): (["df_spin"], "df_spin: n in {INT_MIN, NEG_ONE}", False, None),
    ("hang", "df_wait"): (["df_wait"], "df_wait: n in {INT_MIN, NEG_ONE}", False, None),
    ("no-error", "df_open"): (["df_open"], "df_open: path = EMPTY", True, None),
    # a call through a NULL function pointer, named after the function that made it
    ("SIGSEGV", "df_apply"): (["df_apply"], "df_apply: fn = NULL", True, "df_apply"),
}
# Crashes on misuse only: a finding apart, never a violation.
EXPECTED_MISUSE = {
    ("SIGSEGV", "count_bytes"): ["df_length", "df_upper", "df_width"],
    ("SIGSEGV", "df_peek"): ["df_peek"],
    ("SIGSEGV", "df_apply"): ["df_apply"],  # through a wild function pointer
    # through a pointer into the library's own data: no code, though in a module
    ("SIGSEGV", "df_dispatch"): ["df_dispatch"],
    # free() tail-called by df_release: named after it, not after the call shim
    ("SIGSEGV", "df_release"): ["df_release"],
    ("abort", "df_release"): ["df_release"],
}


def defect_line(mark):
    for number, line in enumerate(SOURCE.read_text().splitlines(), 1):
        if f"DEFECT {mark}:" in line:
            return number
    raise AssertionError(f"no DEFECT {mark} in {SOURCE}")


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    LIB.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["cc", "-O1", "-g", "-shared", "-fPIC", "-o", str(LIB), str(SOURCE)],
                   check=True)
    db = tmp_path_factory.mktemp("findings") / "defects.db"
    # a hang is a hang without its second look (tests/test_second_look.py tests the look)
    trebuchet("run", "--target", SPEC, "--db", db, "--timeout", "0.5", "--no-second-look",
              "--quiet", cwd=ROOT)
    return db


def rows(db):
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    return [dict(r) for r in conn.execute("SELECT * FROM findings ORDER BY id")]


def is_misuse(finding):
    return finding["signature"].endswith("|misuse")


def named_by(finding):
    """(kind, function) as the signature has them: its kind, its frame."""
    frame = [part for part in finding["signature"].split("|")
             if part != "misuse" and not part.startswith("cause: ")][-1]
    return finding["kind"], frame.split(":")[0]  # the function, without its line's text


# add_bytes: one crash site with two causes (test_two_causes_at_one_site)
TWO_CAUSES = ("SIGSEGV", "add_bytes")
# the functions whose findings are tested apart: add_bytes' and the flaky one
APART = ("df_sum", "df_seed")


def findings(db):
    return [f for f in rows(db) if not is_misuse(f) and f["functions"] not in APART]


def test_exactly_the_known_defects(store):
    found = {named_by(f): f for f in findings(store)}
    assert sorted(found) == sorted(EXPECTED)
    for key, (functions, trigger, broken, _) in EXPECTED.items():
        f = found[key]
        assert f["functions"].split(",") == functions, key
        assert f["trigger"] == trigger, key
        assert (f["violation"] is not None) == broken, (key, f["violation"])


def test_misuse_apart(store):
    misuse = {named_by(f): f for f in rows(store) if is_misuse(f) and named_by(f) != TWO_CAUSES}
    assert {k: f["functions"].split(",") for k, f in misuse.items()} == EXPECTED_MISUSE
    assert all(f["violation"] is None and f["misuse_cases"] == f["cases"]
               for f in misuse.values())
    assert misuse[("SIGSEGV", "df_peek")]["location"].endswith(
        f"defects.c:{defect_line('df_peek')}")
    # a pc in a module's data is no code: the call that jumped there names it
    assert misuse[("SIGSEGV", "df_dispatch")]["title"] == (
        f"SIGSEGV calling a wild function pointer in df_dispatch at"
        f" defects.c:{defect_line('df_dispatch')} on misuse")


def test_each_points_at_its_source_line(store):
    found = {named_by(f): f for f in findings(store)}
    for key, (*_, mark) in EXPECTED.items():
        if mark:
            assert found[key]["location"].endswith(f"defects.c:{defect_line(mark)}"), key


def test_violations_come_first_and_cite_the_header(store):
    found = rows(store)
    broken = [f["violation"] is not None for f in found]
    assert broken == sorted(broken, reverse=True)
    assert all(re.search(r"\(defects\.h:\d+\)", f["violation"]) for f in found if f["violation"])


def test_every_failing_case_belongs_to_one_finding(store):
    conn = sqlite3.connect(store)
    failing = conn.execute("SELECT count(*) FROM results WHERE outcome IN ('ABORT', 'RESTART')"
                           ).fetchone()[0]
    linked = conn.execute("SELECT count(*) FROM finding_cases f JOIN results r USING"
                          " (run_id, function, case_index) WHERE r.outcome != 'PASS'").fetchone()[0]
    assert failing == linked
    totals = conn.execute("SELECT sum(cases) FROM findings").fetchone()[0]
    assert totals == conn.execute("SELECT count(*) FROM finding_cases").fetchone()[0]


def test_the_representative_is_the_least_misused_case(store):
    """count_bytes' representative hands it NULL, the value the header
    accepts; the wild pointers that crash there too are a finding apart."""
    f = next(f for f in findings(store) if named_by(f) == ("SIGSEGV", "count_bytes"))
    conn = sqlite3.connect(store)
    values = conn.execute("SELECT value_names FROM results WHERE function = ? AND case_index = ?",
                          (f["example_function"], f["example_case"])).fetchone()[0]
    assert values == "string:NULL"
    assert f["misuse_cases"] == 0  # the wild pointers crashing there are a finding apart


def test_two_causes_at_one_site(store):
    """add_bytes crashes on a NULL buf with a length (the header accepts
    NULL: a violation) and on a short buffer read past its end: two
    findings, whatever tag holds (a wild tag, which is not read, counts as
    misuse inside them); the wild buffers are the misuse finding.  Counted
    here by SQL over the run's own cases."""
    conn = sqlite3.connect(store)

    def crashed(where):
        return conn.execute("SELECT count(*) FROM results WHERE function = 'df_sum' AND"
                            f" outcome = 'ABORT' AND {where}").fetchone()[0]
    wild = "('buffer:MINUS_ONE', 'buffer:ONE', 'buffer:NO_ACCESS', 'buffer:UNMAPPED')"
    misused_tag = "('pointer:MINUS_ONE', 'pointer:ONE', 'pointer:FREED', 'pointer:NO_ACCESS'," \
                  " 'pointer:UNMAPPED')"
    first = "substr(value_names, 1, instr(value_names, ' ') - 1)"
    last = "substr(value_names, instr(substr(value_names, instr(value_names, ' ') + 1), ' ')" \
           " + instr(value_names, ' ') + 1)"
    at_site = [f for f in rows(store) if named_by(f) == TWO_CAUSES]
    by_cause = {(is_misuse(f), f["violation"] is not None): f for f in at_site}
    assert len(at_site) == 3 and sorted(by_cause) == [(False, False), (False, True), (True, False)]
    null = by_cause[(False, True)]
    assert (null["cases"], null["trigger"]) == (8 * 9, "df_sum: buf = NULL; len ≠ ZERO")
    assert null["cases"] == crashed(f"{first} = 'buffer:NULL'")
    assert null["misuse_cases"] == 8 * 5 == crashed(f"{first} = 'buffer:NULL' AND {last} IN {misused_tag}")
    short = by_cause[(False, False)]
    assert short["cases"] == crashed(f"{first} NOT IN {wild} AND {first} != 'buffer:NULL'")
    assert by_cause[(True, False)]["cases"] == crashed(f"{first} IN {wild}")
    # the representative minimised: tag (not read) replaced by a passing value
    example, minimised = conn.execute(
        "SELECT r.value_names, coalesce(m.value_names, rm.value_names) FROM findings f"
        " JOIN results r ON r.function = f.example_function AND r.case_index = f.example_case"
        " LEFT JOIN minimised_cases m ON m.function = f.example_function"
        " AND m.case_index = f.minimised_case LEFT JOIN results rm ON"
        " rm.function = f.example_function AND rm.case_index = f.minimised_case"
        " WHERE f.id = ?", (null["id"],)).fetchone()
    assert null["cause"] == "buf = NULL; len = " + example.split(" ")[1].split(":")[1]
    assert minimised.split(" ")[:2] == example.split(" ")[:2]
    assert minimised.split(" ")[2] == "pointer:NULL"  # first of the values that all pass


def test_a_flaky_finding_says_so_and_no_other_does(store):
    """df_seed exits with a status drawn afresh each run: run again, its
    case ends another way, and its finding keeps each run's outcome; every
    other finding's case, run again, ends as it did."""
    flaky = {f["functions"]: f["flaky"] for f in rows(store) if f["flaky"] is not None}
    assert list(flaky) == ["df_seed"]
    outcomes = flaky["df_seed"].split("; ")
    assert len(outcomes) == 4 and all(re.fullmatch(r"ABORT exit \d+", o) for o in outcomes)
    assert len(set(outcomes)) > 1
    text = trebuchet("findings", "--db", store).stdout
    assert f"     flaky: run 3 times more, it ended: {flaky['df_seed']}" in text.splitlines()


def test_compare_sets_a_flaky_findings_cases_apart(tmp_path):
    db = tmp_path / "twice.db"
    for _ in range(2):
        trebuchet("run", "--target", SPEC, "--db", db, "--functions", "df_seed", "--quiet",
                  cwd=ROOT)
    said = trebuchet("compare", db, "--json").stdout
    compared = json.loads(said)
    assert [c["function"] for c in compared["flaky"]] in (["df_seed"], [])  # alike: 1 in 254
    assert not any(compared[k] for k in ("newly_failing", "signal_changes"))
    assert compared["regressed"] is False


def test_cases_are_numbered_as_the_executor_numbers_them(store):
    """The minimiser finds a replacement in the store by its case index,
    computed in Python: the executor's own index of every stored case."""
    from trebuchet.build import plugins as build
    from trebuchet.findings import minimise
    from trebuchet.harness import executor
    from trebuchet.spec import load as specs

    plugin = build.build_plugin(specs.load(ROOT / SPEC), quiet=True)
    product = minimise.Product(executor.list_functions(plugin))
    stored = sqlite3.connect(store).execute("SELECT function, case_index, value_names"
                                            " FROM results").fetchall()
    assert len(stored) > 1000
    assert all(product.index(f, v.split(" ") if v else []) == i for f, i, v in stored)


def test_the_budget_is_counted_in_cases_and_said(tmp_path):
    """A budget too small for every kind of failing case: what it spent
    stays within it, and the run's last line says what was left."""
    db = tmp_path / "small.db"
    line = trebuchet("run", "--target", SPEC, "--db", db, "--functions", "df_sum", "--cap", "40",
                     "--minimise-budget", "4", cwd=ROOT).stdout.splitlines()[-1]
    ran = sqlite3.connect(db).execute("SELECT count(*) FROM minimised_cases").fetchone()[0]
    assert 0 < ran <= 4
    assert re.search(rf"\(minimised with {ran} cases? of their own; \d+ failing cases not"
                     r" minimised: the budget ran out\)", line), line


def test_the_findings_command(store):
    text = trebuchet("findings", "--db", store).stdout
    assert text.splitlines()[0].startswith("defects (run 1, defects 1): 18 findings, "
                                           "7 contract violations")
    listed = json.loads(trebuchet("findings", "--db", store, "--json").stdout)
    assert [len(t["findings"]) for t in listed] == [18]
    first = listed[0]["findings"][0]
    assert first["repro"].startswith(f"trebuchet repro --target {SPEC} --function ")
    stored = sqlite3.connect(store).execute(
        "SELECT value_names FROM results WHERE function = ? AND case_index = ?",
        (first["example_function"], first["example_case"])).fetchone()[0]
    assert first["example_values"] == stored.split(" ")


def test_repro_says_where_the_case_ended(store):
    f = next(f for f in findings(store) if named_by(f) == ("SIGSEGV", "count_bytes"))
    text = trebuchet("repro", "--target", SPEC, "--function", f["example_function"], "--case",
                     f["example_case"], cwd=ROOT).stdout
    lines = text.splitlines()
    ended = lines.index("it ended in:")
    assert lines[ended + 1].startswith("  at count_bytes (") and \
        lines[ended + 1].endswith(f"defects.c:{defect_line('count_bytes')})")
    assert lines[ended + 2].startswith(f"  at {f['example_function']} (")


def test_a_reproducer_builds_from_a_spec_whose_header_is_elsewhere(store, tmp_path):
    """The layout a library's repository has (docs/gate.md, "In a library's
    repository"): the spec in robustness/, its header in include/."""
    (tmp_path / "include").mkdir()
    (tmp_path / "include" / "defects.h").write_text((ROOT / "tests/defects/defects.h").read_text())
    (tmp_path / "robustness").mkdir()
    spec = (ROOT / SPEC).read_text().replace("includes: [defects.h]",
                                             "includes: [../include/defects.h]")
    spec = spec.replace("libraries: [build/tests/defects/libdefects.so]", f"libraries: [{LIB}]")
    (tmp_path / "robustness" / "defects.yaml").write_text(spec)
    out = tmp_path / "repro"
    said = trebuchet("repro", "--target", "robustness/defects.yaml", "--function", "df_peek",
                     "--values", "pointer:NULL", "--emit-c", out, cwd=tmp_path).stdout
    subprocess.run(["make", "-s", "-C", str(out), *libdirs_said(said)], check=True,
                   capture_output=True)
    crashed = subprocess.run([str(out / "repro")], capture_output=True,
                             env={"TMPDIR": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert crashed.returncode == -11  # SIGSEGV, as the case did


def test_a_stripped_build_names_the_same_defects_and_says_once_how_to_name_them_better(
        tmp_path):
    """No DWARF, no .symtab: count_bytes (static) is still one finding over
    df_length, df_upper and df_width, named by the nearest exported function; the
    findings say once that the library has no debug information."""
    lib = tmp_path / "libdefects.so"
    subprocess.run(["cc", "-O1", "-shared", "-fPIC", "-o", str(lib), str(SOURCE)], check=True)
    subprocess.run(["strip", "--strip-all", str(lib)], check=True)
    spec = tmp_path / "defects.yaml"
    spec.write_text((ROOT / SPEC).read_text()
                    .replace("libraries: [build/tests/defects/libdefects.so]",
                             f"libraries: [{lib}]")
                    .replace("includes: [defects.h]",
                             f"includes: [{ROOT / 'tests/defects/defects.h'}]"))
    db = tmp_path / "stripped.db"
    trebuchet("run", "--target", spec, "--db", db, "--timeout", "0.5", "--no-second-look",
              "--quiet", cwd=ROOT)
    found = {named_by(f): f for f in findings(db)}
    assert {k[0] for k in found} == {k[0] for k in EXPECTED}
    count_bytes = [f for (kind, name), f in found.items() if name.startswith("libdefects.so")
                   and kind == "SIGSEGV"]
    assert [f["functions"] for f in count_bytes] == ["df_length,df_upper,df_width"]
    assert "without a symbol (near df_" in count_bytes[0]["title"]
    text = trebuchet("findings", "--db", db).stdout
    notes = [line for line in text.splitlines() if line.startswith("  note: ")]
    assert notes == ["  note: " + symbolize.DEBUG_HINT.format(name="libdefects.so", spec=spec)]


def test_repro_from_the_store_says_which_promise_the_case_breaks(store, tmp_path):
    """`repro --db` takes the target from the store; a violation's case says
    the promise it breaks, and its reproducer's header states it."""
    f = next(f for f in findings(store) if named_by(f) == ("no-error", "df_open"))
    said = trebuchet("repro", "--db", store, "--function", f["example_function"], "--case",
                     f["example_case"], "--emit-c", tmp_path / "r", cwd=ROOT).stdout
    assert f"it breaks the contract: {f['violation']}" in said.splitlines()
    header = (tmp_path / "r" / "repro.c").read_text().split("*/", 1)[0]
    assert " * That breaks the library's documented promise:\n *   answers path = EMPTY" in header
    passing = trebuchet("repro", "--db", store, "--function", "df_open", "--values",
                        "string:NULL", "--json", cwd=ROOT).stdout  # EINVAL, as promised
    assert json.loads(passing)["breaks"] is None


def test_repro_without_a_target_needs_a_store():
    done = trebuchet("repro", "--function", "df_open", "--case", "0", check=False)
    assert (done.returncode, done.stderr.strip()) == (
        2, "trebuchet: give --target, or --db to take it from a store")


def test_a_promise_no_case_held_is_a_note_after_the_run(tmp_path):
    """A capped run that draws neither s = NULL for df_length nor path =
    EMPTY for df_open says so: its silence on them proves nothing."""
    said = trebuchet("run", "--target", SPEC, "--db", tmp_path / "c.db", "--cap", "1",
                     "--functions", "df_length,df_open", "--timeout", "0.5", cwd=ROOT).stderr
    notes = [line for line in said.splitlines() if line.startswith("note: ")]
    conn = sqlite3.connect(tmp_path / "c.db")
    held = {row for row in conn.execute("SELECT function, value_names FROM results")}
    expected = [promise for function, value, promise in [
        ("df_length", "string:NULL", "df_length accepts s = NULL"),
        ("df_open", "string:EMPTY", "df_open answers path = EMPTY with an error"),
        ("df_open", "string:NULL", "df_open answers path = NULL with an error")]
        if (function, value) not in held]
    assert expected and [n.split(": ", 2)[2] for n in notes] == [
        f"{p}: no case of this run holds it" for p in expected]
    assert all(re.match(r"note: defects\.yaml:\d+: ", n) for n in notes)
