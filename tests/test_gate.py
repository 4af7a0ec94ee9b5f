"""`trebuchet baseline` and `trebuchet gate`, end to end on a library with a
real regression: demolib (tests/demolib/), built as version 1 and as version
2, which dropped the NULL check of demo_count's string.  The cases the gate
must name are worked out here from the datatypes' value lists, not from the
pipeline; the JUnit and SARIF files are checked against the schemas CI
systems read (Jenkins' junit-10.xsd, OASIS's SARIF 2.1.0 schema, fetched by
the Makefile's test-schemas)."""
import contextlib
import json
import subprocess
import xml.etree.ElementTree as ET

import jsonschema
import pytest
import xmlschema

from conftest import (ROOT, TREBUCHET, ci_schemas, datatype_values, libdirs_said, query,
                      shared_folder, trebuchet)
from trebuchet.gate import baseline as baselines

DEMO_SPEC = "tests/demolib/demolib.yaml"
DEMO_LIB = ROOT / "build/tests/demolib/libdemo.so"


def build_demolib(version):
    """Builds demolib version 1 or 2 where its spec links it from."""
    DEMO_LIB.parent.mkdir(parents=True, exist_ok=True)
    flags = ["-DDEMOLIB_DROP_NULL_CHECK"] if version == 2 else []
    subprocess.run(["cc", "-O2", "-g", "-shared", "-fPIC", *flags, "-o", str(DEMO_LIB),
                    str(ROOT / "tests/demolib/demolib.c")], check=True)


def run_demolib(version, db, *args):
    build_demolib(version)
    trebuchet("run", "--target", DEMO_SPEC, "--db", db, "--quiet", *args, cwd=ROOT)


def gate(db, baseline, *args, env=None):
    return trebuchet("gate", "--db", db, "--baseline", baseline, *args, cwd=ROOT, env=env,
                     check=False)


def junit_valid(path):
    xmlschema.XMLSchema(str(ci_schemas() / "junit-10.xsd")).validate(str(path))
    return ET.parse(path).getroot()


def sarif_errors(document):
    schema = json.loads((ci_schemas() / "sarif-schema-2.1.0.json").read_text())
    validator = jsonschema.validators.validator_for(schema)(schema)
    return [e.message for e in validator.iter_errors(document)]


def expected_regression():
    """demo_count(s, c) cases whose s is string:NULL: version 2 reads it."""
    strings, ints = datatype_values()["string"], datatype_values()["int"]
    first = strings.index("NULL") * len(ints)
    return {("demo_count", first + j) for j in range(len(ints))}


@pytest.fixture
def demolib_v1(tmp_path):
    """A store holding a run of version 1, and its baseline."""
    db, baseline = tmp_path / "demo.db", tmp_path / "demolib.baseline"
    run_demolib(1, db)
    trebuchet("baseline", "--db", db, "--target", DEMO_SPEC, "--out", baseline, cwd=ROOT)
    yield db, baseline
    build_demolib(1)


@pytest.fixture
def by_case(demolib_v1):
    """The same, with a baseline as trebuchet wrote them before findings
    (no "findings" key): the gate compares it case by case."""
    db, baseline = demolib_v1
    return db, without_findings(baseline)


def without_findings(baseline):
    """The baseline file rewritten as trebuchet wrote them before findings."""
    data = json.loads(baseline.read_text())
    del data["findings"]
    text = baselines.dumps(data)
    baseline.write_text(text.replace(' "findings": [],\n', ""))
    return baseline


def dereference_line():
    """The line demo_count reads s on, which version 2's dropped check guarded."""
    lines = (ROOT / "tests/demolib/demolib.c").read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if "for (; *s; s++)" in line)


def test_a_dropped_null_check_is_one_new_finding_at_its_dereference(demolib_v1, tmp_path):
    db, baseline = demolib_v1
    run_demolib(2, db)
    junit, sarif_path = tmp_path / "j.xml", tmp_path / "s.sarif"
    result = gate(db, baseline, "--junit", junit, "--sarif", sarif_path)
    assert result.returncode == 1, result.stdout + result.stderr
    expected = expected_regression()
    assert f"new findings: 1, 1 confirmed; 0 new failing cases of findings the baseline knows" \
        in result.stdout
    line = dereference_line()
    assert f"SIGSEGV in demo_count at demolib.c:{line}: confirmed, 7 new cases" in result.stdout
    assert "trigger: demo_count: s = NULL" in result.stdout
    assert "gate failed: 1 confirmed new finding" in result.stdout

    root = junit_valid(junit)
    failures = [f for f in root.iter("failure")]
    assert len(failures) == 1
    assert failures[0].get("message") == \
        f"tests/demolib/demolib.c:{line}: SIGSEGV in demo_count at demolib.c:{line}"  # from ROOT

    sarif = json.loads(sarif_path.read_text())
    assert sarif_errors(sarif) == []
    [r] = sarif["runs"][0]["results"]
    where = r["locations"][0]["physicalLocation"]
    assert where == {"artifactLocation": {"uri": "tests/demolib/demolib.c"},
                     "region": {"startLine": line}}
    assert r["relatedLocations"][0]["physicalLocation"]["artifactLocation"]["uri"] == DEMO_SPEC
    assert r["level"] == "error" and r["ruleId"] == "ABORT"
    assert set(r["properties"]["cases"]) == {c for _, c in expected}
    fingerprint = query(db, "SELECT fingerprint FROM findings WHERE run_id = 2 AND"
                        " signature LIKE 'SIGSEGV|demo_count: %'")[0][0]
    assert r["partialFingerprints"] == {"trebuchetFinding/v1": fingerprint}
    # the same defect found again from another source root keeps its fingerprint
    again = tmp_path / "again.sarif"
    gate(db, baseline, "--confirm", "0", "--sarif", again, "--source-root", ROOT / "tests/demolib")
    [r2] = json.loads(again.read_text())["runs"][0]["results"]
    assert r2["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "demolib.c"
    assert r2["partialFingerprints"] == r["partialFingerprints"]


def test_a_new_case_of_a_known_finding_is_reported_and_passes(demolib_v1, tmp_path):
    """A baseline that does not list one failing case of a finding it knows:
    the case fails now, as a new case of a known finding, and the gate passes."""
    db, baseline = demolib_v1
    lines = baseline.read_text().splitlines(keepends=True)
    dropped = next(i for i, line in enumerate(lines) if '"function": "demo_count"' in line
                   and '"outcome": "ABORT"' in line)
    edited = tmp_path / "edited.baseline"
    edited.write_text("".join(lines[:dropped] + lines[dropped + 1:]).replace("},\n ],", "}\n ],"))
    result = gate(db, edited)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "new findings: 0, 0 confirmed; 1 new failing case of findings the baseline knows" \
        in result.stdout
    assert "gate passed: no confirmed new finding" in result.stdout


def test_the_gate_passes_a_library_against_its_own_baseline(demolib_v1, tmp_path):
    db, baseline = demolib_v1
    result = gate(db, baseline, "--junit", tmp_path / "j.xml", "--sarif", tmp_path / "s.sarif")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "gate passed" in result.stdout
    root = junit_valid(tmp_path / "j.xml")
    assert root.find("testsuite").get("name") == "demolib"
    assert {c.get("name") for c in root.iter("testcase")} == {"demo_count", "demo_length",
                                                              "demo_clamp"}
    assert not list(root.iter("failure"))
    sarif = json.loads((tmp_path / "s.sarif").read_text())
    assert sarif_errors(sarif) == [] and sarif["runs"][0]["results"] == []


def test_a_baseline_from_another_platform_is_said_in_one_line(demolib_v1):
    """The baseline records the platform (C library, kernel, sandbox); a run
    on another is gated all the same, with one line saying so."""
    db, baseline = demolib_v1
    recorded = json.loads(baseline.read_text())["run"]
    libc, kernel, sandbox = query(db, "SELECT libc, kernel, sandbox FROM runs")[0]
    assert (recorded["libc"], recorded["kernel"], recorded["sandbox"]) == (libc, kernel, sandbox)
    assert libc.startswith("glibc ") and kernel.startswith("Linux ")
    assert "different platforms" not in gate(db, baseline, "--confirm", "0").stdout
    baseline.write_text(baseline.read_text().replace(f'"libc": "{libc}"', '"libc": "glibc 2.19"'))
    result = gate(db, baseline, "--confirm", "0")
    assert result.returncode == 0, result.stdout + result.stderr
    said = [line for line in result.stdout.splitlines() if "different platforms" in line]
    assert said == [f"different platforms: libc glibc 2.19 in the baseline, {libc} in run 1"
                    " (outcomes on freed memory may legitimately differ between them)"]


def test_a_dropped_null_check_fails_the_gate_naming_exactly_the_new_cases(by_case, tmp_path):
    db, baseline = by_case
    run_demolib(2, db)
    junit, sarif_path = tmp_path / "j.xml", tmp_path / "s.sarif"
    result = gate(db, baseline, "--junit", junit, "--sarif", sarif_path)
    assert result.returncode == 1, result.stdout + result.stderr
    expected = expected_regression()
    assert f"{len(expected)} confirmed, 0 flaky" in result.stdout
    for function, case in expected:
        assert (f"trebuchet repro --target {DEMO_SPEC} --function {function} --case {case}"
                in result.stdout)

    root = junit_valid(junit)
    failures = {c.get("name"): c.find("failure") for c in root.iter("testcase")}
    assert failures["demo_length"] is None and failures["demo_clamp"] is None
    listed = {("demo_count", int(line.split(" case ")[1].split(":")[0]))
              for line in failures["demo_count"].text.splitlines() if " case " in line
              and not line.startswith(" ")}
    assert listed == expected
    assert root.find("testsuite").get("failures") == "1"

    sarif = json.loads(sarif_path.read_text())
    assert sarif_errors(sarif) == []
    results = sarif["runs"][0]["results"]
    assert {(r["locations"][0]["logicalLocations"][0]["name"], r["properties"]["case"])
            for r in results} == expected
    assert {r["ruleId"] for r in results} == {"ABORT"}
    assert all("trebuchet repro --target" in r["message"]["text"] for r in results)
    assert "this baseline lists no findings, so it gates case by case" in result.stdout
    # the schema check can fail: a document without its version is refused
    del sarif["version"]
    assert sarif_errors(sarif)


def test_cases_that_pass_again_are_listed_as_fixed_with_the_update_command(demolib_v1, tmp_path):
    db, _ = demolib_v1
    run_demolib(2, db)
    v2_baseline = tmp_path / "v2.baseline"
    trebuchet("baseline", "--db", db, "--target", DEMO_SPEC, "--out", v2_baseline, cwd=ROOT)
    run_demolib(1, db)
    result = gate(db, v2_baseline)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"fixed: {len(expected_regression())} cases" in result.stdout
    assert f"trebuchet baseline --db {db} --target {DEMO_SPEC} --out {v2_baseline}" \
        in result.stdout


def test_the_baseline_lists_every_case_that_did_not_pass_and_is_stable(demolib_v1, tmp_path):
    db, baseline = demolib_v1
    data = json.loads(baseline.read_text())
    run = query(db, "SELECT max(id) FROM runs")[0][0]
    stored = query(db, "SELECT function, case_index, outcome FROM results WHERE run_id = ?"
                   " AND outcome != 'PASS'", run)
    listed = [(c["function"], c["case"], c["outcome"]) for c in data["failing"] + data["setup"]]
    assert sorted(listed) == sorted(stored) and stored
    assert data["run"]["library"] == "demolib 1"
    # one case per line, so a diff of two baselines reads case by case
    lines = baseline.read_text().splitlines()
    assert sum('"case":' in line for line in lines) == len(listed)
    # the same run made again gives the same file
    run_demolib(1, db)
    again = tmp_path / "again.baseline"
    trebuchet("baseline", "--db", db, "--target", DEMO_SPEC, "--out", again, cwd=ROOT)
    assert again.read_text() == baseline.read_text()


@pytest.mark.parametrize("option, named", [(("--seed", "2"), "seed"), (("--cap", "50"), "cap")])
def test_other_run_parameters_make_the_comparison_meaningless(demolib_v1, option, named):
    db, baseline = demolib_v1
    run_demolib(1, db, *option)
    result = gate(db, baseline)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert f"its {named} (" in result.stderr and "differ" in result.stderr


def test_a_malformed_baseline_is_one_line_naming_file_and_line(demolib_v1, tmp_path):
    db, _ = demolib_v1
    bad = tmp_path / "bad.baseline"
    bad.write_text('{\n "format": "trebuchet baseline 1",\n "target": demolib\n}\n')
    result = gate(db, bad)
    assert result.returncode == 2
    assert result.stderr.strip() == f"trebuchet: {bad}:3: not a baseline: Expecting value"


def test_a_shard_is_not_gated_before_it_is_merged(demolib_v1, tmp_path):
    db, baseline = demolib_v1
    run_demolib(1, db, "--shard", "1/2")
    result = gate(db, baseline)
    assert result.returncode == 2 and "trebuchet merge" in result.stderr


@contextlib.contextmanager
def toggle_away(toggle):
    """st_flaky's toggle moved aside (its mode kept, nobody writes it): it
    passes every call until the toggle is back."""
    aside = toggle.with_name("aside")
    toggle.rename(aside)
    try:
        yield
    finally:
        aside.rename(toggle)


def flaky_new_failure(base, *functions):
    """A store under base whose newest run of selftest's functions (st_flaky
    among them) has st_flaky's one case fail where the run its baseline
    holds passed; from then on st_flaky fails on every other call, as long
    as its toggle file is there.  Returns (db, baseline, toggle, env)."""
    share, scratch_parent = shared_folder(base), base / "tmp"
    scratch_parent.mkdir()
    scratch_parent.chmod(0o755)
    env = {"TMPDIR": str(scratch_parent), "TREBUCHET_SHARE": str(share)}
    db, baseline = base / "s.db", base / "selftest.baseline"
    run = ("run", "--target", "selftest", "--functions", ",".join(functions), "--cap", "20",
           "--db", db, "--quiet")
    trebuchet(*run, env=env)
    trebuchet("baseline", "--db", db, "--target", "selftest", "--out", baseline)
    toggle = share / "st_flaky.toggle"
    toggle.write_text("1")  # the next call fails: the run's
    toggle.chmod(0o666)
    trebuchet(*run, env=env)
    assert query(db, "SELECT outcome FROM results WHERE function = 'st_flaky'"
                 " ORDER BY run_id") == [("PASS",), ("ABORT",)]
    return db, baseline, toggle, env


def test_a_new_failure_that_fails_on_no_rerun_is_flaky_and_passes(tmp_path):
    db, baseline, toggle, env = flaky_new_failure(tmp_path, "st_flaky", "st_return")
    junit = tmp_path / "j.xml"
    with toggle_away(toggle):  # st_flaky passes from now on
        result = gate(db, baseline, "--junit", junit, env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 confirmed, 1 flaky" in result.stdout
    assert "st_flaky() case 0: ABORT SIGSEGV, then PASS, PASS, PASS" in result.stdout
    root = junit_valid(junit)
    assert not list(root.iter("failure"))
    assert [f.get("type") for f in root.iter("flakyFailure")] == ["ABORT"]


def test_the_gate_writes_a_standalone_reproducer_of_each_confirmed_new_finding(demolib_v1,
                                                                               tmp_path):
    db, baseline = demolib_v1
    run_demolib(2, db)
    out = tmp_path / "reproducers"
    result = gate(db, baseline, "--emit-c", out, "--confirm", "1")
    assert result.returncode == 1, result.stdout + result.stderr
    written = [p.name for p in out.iterdir()]
    assert len(written) == 1 and written[0] in {f"{f}-case-{c}" for f, c in expected_regression()}
    subprocess.run(["make", "-s", "-C", str(out / written[0]), *libdirs_said(result.stdout)],
                   check=True)
    crashed = subprocess.run([str(out / written[0] / "repro")], capture_output=True,
                             env={"TMPDIR": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert crashed.returncode == -11, crashed.stderr  # SIGSEGV, as the gate saw


def test_the_gate_by_case_writes_a_reproducer_of_each_confirmed_new_failure(by_case, tmp_path):
    db, baseline = by_case
    run_demolib(2, db)
    out = tmp_path / "reproducers"
    result = gate(db, baseline, "--emit-c", out, "--confirm", "1")
    assert result.returncode == 1, result.stdout + result.stderr
    written = sorted(p.name for p in out.iterdir())
    assert written == sorted(f"{f}-case-{c}" for f, c in expected_regression())
    first = out / written[0]
    subprocess.run(["make", "-s", "-C", str(first), *libdirs_said(result.stdout)], check=True)
    crashed = subprocess.run([str(first / "repro")], capture_output=True,
                             env={"TMPDIR": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert crashed.returncode == -11, crashed.stderr  # SIGSEGV, as the gate saw


def test_a_reader_that_stops_early_does_not_change_the_verdict(demolib_v1, tmp_path):
    db, baseline = demolib_v1
    run_demolib(2, db)
    piped = subprocess.run(f"set -o pipefail; {TREBUCHET} gate --db {db} --baseline "
                           f"{baseline} --confirm 0 | head -1", shell=True, cwd=ROOT,
                           executable="/bin/bash", capture_output=True, text=True)
    assert piped.returncode == 1, piped.stderr
    assert piped.stdout.startswith("gate demolib:") and not piped.stderr


def test_outputs_go_into_new_folders_and_a_folder_in_their_place_is_one_line(demolib_v1,
                                                                            tmp_path):
    db, baseline = demolib_v1
    nested = tmp_path / "a" / "b"
    trebuchet("baseline", "--db", db, "--target", DEMO_SPEC, "--out", nested / "x.baseline",
              cwd=ROOT)
    result = gate(db, nested / "x.baseline", "--junit", nested / "j.xml", "--sarif",
                  tmp_path / "c" / "s.sarif")
    assert result.returncode == 0 and (nested / "j.xml").is_file()
    refused = gate(db, baseline, "--junit", tmp_path)
    assert refused.returncode == 2
    assert refused.stderr.strip() == f"trebuchet: {tmp_path}: is a directory, not a file to write"


def test_without_reruns_every_output_says_so(by_case, tmp_path):
    db, baseline = by_case
    run_demolib(2, db)
    junit, sarif_path = tmp_path / "j.xml", tmp_path / "s.sarif"
    result = gate(db, baseline, "--confirm", "0", "--junit", junit, "--sarif", sarif_path)
    assert result.returncode == 1
    assert "not run again, as --confirm 0 asks: 7 confirmed" in result.stdout
    assert "not run again" in junit_valid(junit).find(".//failure").get("message")
    results = json.loads(sarif_path.read_text())["runs"][0]["results"]
    assert all("was not run again" in r["message"]["text"] for r in results)


def test_a_baseline_listing_a_wrong_outcome_is_refused_at_its_line(demolib_v1, tmp_path):
    db, baseline = demolib_v1
    lines = baseline.read_text().splitlines()
    where = next(i for i, line in enumerate(lines) if '"outcome": "ABORT"' in line)
    lines[where] = lines[where].replace('"ABORT"', '"ABROT"')
    bad = tmp_path / "bad.baseline"
    bad.write_text("\n".join(lines) + "\n")
    result = gate(db, bad)
    assert result.returncode == 2
    assert result.stderr.startswith(f"trebuchet: {bad}:{where + 1}: failing/0/outcome: 'ABROT'")
