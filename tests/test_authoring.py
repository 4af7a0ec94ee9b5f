"""Writing a target for a library of one's own: the guide's worked example
(docs/example/) compiles, passes its Check suite and runs; one name per
datatype; value names unique with inherited ones; spans; parameters typed by
what the compiler says their C types are; the error conventions; a library
beside the spec; two specs of one target name side by side."""
import re
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT, libdirs_said, trebuchet
from trebuchet.build import ctype_probe, plugin_check

EXAMPLE = ROOT / "docs" / "example"
AUTHORING = ROOT / "tests" / "authoring"


def library_folder(tmp_path, source_folder, name):
    """A copy of source_folder with lib<name>.so built into its build/."""
    folder = tmp_path / name
    shutil.copytree(source_folder, folder)
    (folder / "build").mkdir()
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", str(folder / f"build/lib{name}.so"),
                    str(folder / f"{name}.c")], check=True)
    return folder


@pytest.fixture
def tally(tmp_path):
    return library_folder(tmp_path, EXAMPLE, "tally")


@pytest.fixture
def probe(tmp_path):
    return library_folder(tmp_path, AUTHORING, "probe")


def edited(folder, spec, old, new):
    """The spec with old replaced by new, written beside it."""
    text = (folder / spec).read_text()
    assert old in text
    out = folder / f"edited-{spec}"
    out.write_text(text.replace(old, new))
    return out


def without_made_values(spec):
    """The edited spec without its values made by calls, whose steps would
    be refused first where an edit breaks a function they call."""
    text = spec.read_text()
    start = text.index("\nvalues:\n")
    spec.write_text(text[:start] + text[text.index("\nfunctions:\n"):])
    return spec


def built_plugin(spec):
    """The plugin `trebuchet build` made of spec (it prints "SPEC: PLUGIN")."""
    built = trebuchet("build", "--target", spec).stdout
    return Path(built.strip().splitlines()[-1].split(": ")[-1])


def line_of(path, text):
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def fails_at(spec, text, *words):
    """The spec is refused before any case runs: exit 2, one line naming
    its file and the line holding text, with the words."""
    result = trebuchet("list", "functions", "--target", spec, check=False)
    assert result.returncode == 2, result.stdout
    message = result.stderr.strip()
    assert len(message.splitlines()) == 1, message
    assert message.startswith(f"trebuchet: {spec}:{line_of(spec, text)}: "), message
    for word in words:
        assert word in message, message
    return message


# ---- the guide's worked example ----

def test_the_guides_example_passes_its_check_suite(tmp_path):
    binary = tmp_path / "check_tally_values"
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "check"], capture_output=True,
                           text=True, check=True).stdout.split()
    subprocess.run(["cc", f"-I{ROOT / 'datatypes'}", f"-I{EXAMPLE}", "-o", str(binary),
                    *[str(EXAMPLE / f) for f in ("check_tally_values.c", "tally_values.c",
                                                 "tally.c")],
                    "-Wl,--whole-archive", str(ROOT / "build/lib/libtbdatatypes.a"),
                    "-Wl,--no-whole-archive", *flags], check=True)
    result = subprocess.run([str(binary)], env={"CK_FORK": "yes"}, capture_output=True,
                            text=True)
    assert result.returncode == 0 and "Checks: 4, Failures: 0, Errors: 0" in result.stdout


def test_the_guides_example_runs_with_its_library_beside_the_spec(tally, tmp_path):
    db = tmp_path / "t.db"
    # run from elsewhere: the library is found beside the spec, and again at run time
    trebuchet("run", "--target", tally / "tally.yaml", "--db", db, "--quiet", cwd=tmp_path)
    conn = sqlite3.connect(db)
    cases = dict(conn.execute("SELECT name, cases_run FROM functions"))
    # tally: pointer's 9 values but MISALIGNED, its own 6 and one made by calls;
    # bytes: 6; span: 1
    assert cases == {"tally_add": 15 * 6, "tally_finish": 15 * 9, "tally_error": 15,
                     "tally_free": 15, "tally_new": 1}
    outcome = dict(((f, v), (o, e)) for f, v, o, e in conn.execute(
        "SELECT function, value_names, outcome, error_reported FROM results"))
    assert outcome[("tally_add", "tally:FED bytes:PAGE span:SPAN")] == ("PASS", 0)
    assert outcome[("tally_add", "tally:FED bytes:PAST_END span:SPAN")] == ("ABORT", None)
    assert outcome[("tally_add", "tally:IN_ERROR bytes:EMPTY span:SPAN")] == ("PASS", 1)
    assert outcome[("tally_error", "tally:IN_ERROR")] == ("PASS", 0)  # null_valid
    # the same state made by the calls the spec writes (the guide's section 5)
    made = "tally:FED_WHEN_FINISHED bytes:EMPTY span:SPAN"
    in_error = "tally:IN_ERROR bytes:EMPTY span:SPAN"
    assert outcome[("tally_add", made)] == outcome[("tally_add", in_error)]


# ---- one name per datatype, values unique ----

def test_a_datatype_key_other_than_its_c_name_is_refused(tally):
    spec = edited(tally, "tally.yaml", "{tally: tb_type_tally,", "{counter: tb_type_tally,")
    spec.write_text(spec.read_text().replace("datatype: tally}", "datatype: counter}")
                    .replace("\n  tally:\n", "\n  counter:\n"))
    fails_at(spec, "datatypes:", "datatype 'counter'", 'named "tally"')


def test_a_wrong_symbol_is_refused_at_its_line(tally):
    spec = edited(tally, "tally.yaml", "tb_type_tally,", "tb_type_talley,")
    fails_at(spec, "datatypes:", "no symbol tb_type_talley", "tally_values.c")


def test_a_value_named_like_an_inherited_one_is_refused(tally):
    values = tally / "tally_values.c"
    values.write_text(values.read_text().replace('.name = "RELEASED"', '.name = "FREED"'))
    spec = edited(tally, "tally.yaml", "target: tally", "target: tally")
    fails_at(spec, "datatypes:", "'tally' has two values named FREED", "parent pointer")


# ---- spans ----

def test_a_spanning_datatype_needs_its_span_parameters(tally):
    spec = without_made_values(edited(tally, "tally.yaml", "{name: len, type: size_t, "
                                      "datatype: span}", "{name: len, type: size_t, datatype: size}"))
    fails_at(spec, "name: len", "parameter len must be `span`")
    spec = without_made_values(edited(tally, "tally.yaml", "{name: sum, type: tally_sum_t *, "
                                      "datatype: pointer}", "{name: sum, type: tally_sum_t *, "
                                      "datatype: span}"))
    fails_at(spec, "name: sum", "parameter sum is `span`")


# ---- parameters typed by their real C types ----

def test_a_narrower_parameter_is_refused_unless_converted(probe):
    spec = edited(probe, "probe.yaml", "datatype: size, convert: true}", "datatype: size}")
    fails_at(spec, "type: unsigned int", "unsigned, 4 bytes", "truncated from 8 to 4 bytes",
             "convert: true")


@pytest.mark.parametrize("ctype, datatype, read_as", [("long", "size", "signed"),
                                                     ("unsigned int", "int", "unsigned")])
def test_a_parameter_of_other_signedness_is_refused_unless_converted(probe, ctype, datatype,
                                                                    read_as):
    """Same width, other signedness: SIZE_MAX would arrive as -1, NEG_ONE as
    UINT_MAX."""
    plain = f"{{name: n, type: {ctype}, datatype: {datatype}}}"
    spec = edited(probe, "probe.yaml", "{name: n, type: pr_ulong_t, datatype: size}", plain)
    fails_at(spec, f"type: {ctype}, datatype: {datatype}", f"{ctype}: {read_as}",
             f"read as {read_as}", "convert: true")
    spec = edited(probe, "probe.yaml", "{name: n, type: pr_ulong_t, datatype: size}",
                  plain.replace("}", ", convert: true}"))
    listed = trebuchet("list", "functions", "--target", spec).stdout
    assert "probe.pr_ulong" in listed


def c_type(text):
    """"unsigned 8" -> an unsigned 8-byte integer; "pointer 8", "floating 4"."""
    kind, size = text.split()
    integer = kind in ("signed", "unsigned")
    return ctype_probe.CType(text, "integer" if integer else kind, int(size), kind == "signed")


@pytest.mark.parametrize("param, value, change", [
    ("unsigned 8", "unsigned 8", None), ("signed 8", "signed 4", None),
    ("signed 8", "unsigned 4", None), ("unsigned 8", "unsigned 4", None),
    ("unsigned 8", "signed 4", "read as unsigned"), ("signed 8", "unsigned 8", "read as signed"),
    ("unsigned 4", "signed 4", "read as unsigned"), ("signed 4", "signed 8",
                                                     "truncated from 8 to 4 bytes"),
    ("unsigned 2", "unsigned 4", "truncated from 4 to 2 bytes"),
    ("floating 8", "floating 4", None), ("floating 8", "floating 8", None),
    ("floating 4", "floating 8", "narrowed from 8 to 4 bytes"), ("pointer 8", "pointer 8", None),
])
def test_a_conversion_is_named_by_what_it_does_to_the_values(param, value, change):
    assert plugin_check.conversion(c_type(param), c_type(value)) == change


@pytest.mark.parametrize("param, value, why", [
    ("pointer 8", "unsigned 8", "a pointer and a number"),
    ("signed 8", "pointer 8", "a pointer and a number"),
    ("floating 8", "signed 4", "a floating type and an integer"),
    ("signed 8", "floating 8", "a floating type and an integer"),
])
def test_a_conversion_that_cannot_make_sense_is_refused(param, value, why):
    with pytest.raises(ValueError, match=why):
        plugin_check.conversion(c_type(param), c_type(value))


def test_converted_values_that_become_equal_run_once(probe, tmp_path):
    listed = trebuchet("list", "functions", "--target", probe / "probe.yaml").stdout
    # size's 9 values in 4 bytes: 0, 1, 4096, 4097, INT_MAX, and UINT_MAX for
    # UINT_MAX, SIZE_MAX, SIZE_MAX_HALF and NEG_ONE_INT
    assert "probe.pr_narrow" in listed and " 6 cases" in next(
        line for line in listed.splitlines() if "pr_narrow" in line)
    # a typedef of unsigned long holds size_t's values: no conversion, all 9
    assert " 9 cases" in next(line for line in listed.splitlines() if "pr_ulong" in line)
    run = trebuchet("run", "--target", probe / "probe.yaml", "--db", tmp_path / "t.db",
                    "--functions", "pr_narrow")
    assert "pr_narrow(n): datatype size converted to unsigned int: truncated" in run.stdout
    names = [n for (n,) in sqlite3.connect(tmp_path / "t.db").execute(
        "SELECT value_names FROM results ORDER BY case_index")]
    assert names == ["size:ZERO", "size:ONE", "size:PAGE", "size:PAGE_PLUS_1", "size:INT_MAX",
                     "size:UINT_MAX"]


def test_a_value_run_under_another_name_is_named_by_repro(probe):
    result = trebuchet("repro", "--target", probe / "probe.yaml", "--function", "pr_narrow",
                       "--values", "size:SIZE_MAX", check=False)
    assert result.returncode == 2
    assert "size:SIZE_MAX is the same as another of its values once converted to unsigned " \
           "int" in result.stderr and "UINT_MAX" in result.stderr
    assert "returned 0" in trebuchet("repro", "--target", probe / "probe.yaml", "--function",
                                     "pr_narrow", "--values", "size:UINT_MAX").stdout


def test_a_typedef_is_read_from_the_union_member_of_its_real_type(probe):
    shims = built_plugin(probe / "probe.yaml").with_suffix(".c").read_text()
    assert "(pr_ulong_t)a[0].u" in shims and "(unsigned int)a[0].u" in shims


def test_a_floating_parameter_refuses_an_integer_datatype(probe):
    spec = edited(probe, "probe.yaml", "{name: n, type: pr_ulong_t, datatype: size}",
                  "{name: n, type: pr_real_t, datatype: size}")
    fails_at(spec, "type: pr_real_t", "pr_real_t: floating, 8 bytes",
             "a floating type and an integer")


def test_a_struct_passed_by_value_is_refused(probe):
    spec = edited(probe, "probe.yaml", "{name: n, type: pr_ulong_t, datatype: size}",
                  "{name: n, type: FILE, datatype: size}")
    fails_at(spec, "type: FILE,", "C type 'FILE' is not a pointer, integer or floating type")


def test_a_pointer_parameter_refuses_a_number(probe):
    spec = edited(probe, "probe.yaml", "{name: status, type: int *, datatype: pointer}",
                  "{name: status, type: int *, datatype: int}")
    fails_at(spec, "name: status", "a pointer and a number")


# ---- error conventions ----

def test_error_conventions_read_as_their_meanings_say(probe, tmp_path):
    db = tmp_path / "t.db"
    trebuchet("run", "--target", probe / "probe.yaml", "--db", db, "--quiet", "--functions",
              "pr_count,pr_status,pr_read,pr_find,pr_errno")
    rows = sqlite3.connect(db).execute(
        "SELECT function, value_names, outcome, error_reported FROM results").fetchall()
    seen = {(f, v): (o, e) for f, v, o, e in rows}

    def reported(function, *values):
        key = (function, " ".join(values))
        return seen[key]

    # zero_or_negative: ZERO, NEG_ONE and INT_MIN of int's seven
    assert sorted(v for (f, v), (o, e) in seen.items() if f == "pr_count" and e) == \
        ["int:INT_MIN", "int:NEG_ONE", "int:ZERO"]
    # out_param: *status, written by the call
    assert reported("pr_status", "int:NEG_ONE", "pointer:VALID") == ("PASS", 1)
    assert reported("pr_status", "int:ONE", "pointer:VALID") == ("PASS", 0)
    # short_count: fewer bytes than asked is no error at end of file
    assert reported("pr_read", "buffer:BUF_LARGE", "size:PAGE", "FILE:AT_EOF") == ("PASS", 0)
    assert reported("pr_read", "buffer:BUF_LARGE", "size:PAGE", "FILE:WRITE") == ("PASS", 1)
    assert reported("pr_read", "buffer:BUF_LARGE", "size:PAGE", "FILE:READ") == ("PASS", 0)
    # null_valid: NULL is an answer
    assert not any(e for (f, v), (o, e) in seen.items() if f == "pr_find")
    # errno: set means an error, whatever came back
    assert reported("pr_errno", "int:NEG_ONE") == ("PASS", 1)
    assert reported("pr_errno", "int:ONE") == ("PASS", 0)


def test_a_convention_that_faults_when_read_is_not_the_calls_crash(probe, tmp_path):
    # the call returns; reading its convention faults: the case is a PASS
    # whose error could not be read, never the call's ABORT
    spec = edited(probe, "probe.yaml", "error: {when: out_param, param: status}",
                  "error: {when: expr, expr: '*(volatile int *)0 == 1'}")
    result = trebuchet("repro", "--target", spec, "--function", "pr_status", "--values",
                       "int:ONE,pointer:VALID", "--json")
    assert '"outcome": "PASS"' in result.stdout and '"error_reported": 0' in result.stdout


# ---- two specs, one target name ----

def test_two_specs_of_one_target_name_keep_their_own_plugins(tally, tmp_path):
    other = tmp_path / "other"
    shutil.copytree(tally, other)
    first = built_plugin(tally / "tally.yaml")
    second = built_plugin(other / "tally.yaml")
    assert first != second
    again = trebuchet("build", "--target", tally / "tally.yaml")
    assert "building" not in again.stdout + again.stderr


def test_a_reproducer_fills_a_span_and_reads_a_judged_convention(tally, tmp_path):
    out = tmp_path / "repro"
    said = trebuchet("repro", "--target", tally / "tally.yaml", "--function", "tally_add",
                     "--values", "tally:IN_ERROR,bytes:PAGE,span:SPAN", "--emit-c", out).stdout
    run = subprocess.run(["make", "-s", "-C", str(out), *libdirs_said(said), "run"],
                         capture_output=True, text=True)
    assert "tally_add returned -1, errno 0, error reported" in run.stdout, run.stderr


# ---- the guide says what the code does ----

def code_lines(text):
    """C or YAML lines without comments, whitespace-normalized, as a set."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    lines = (" ".join(re.sub(r"\s#.*$", "", line).split()) for line in text.splitlines())
    return {line for line in lines if line and line != "..."}


def test_the_guides_example_code_is_the_example():
    """Every line of the guide's C and YAML blocks about the example is in
    docs/example/ or tests/callbacks/ (the interface excerpts of sections 1 and 13 and section
    12's base datatype aside)."""
    guide = (ROOT / "docs" / "datatypes.md").read_text()
    example = set()
    # section 14's callbacks are tests/test_callbacks.py's target
    for path in [*EXAMPLE.iterdir(), *(ROOT / "tests" / "callbacks").iterdir()]:
        example |= code_lines(path.read_text())
    blocks = re.findall(r"```(c|yaml)\n(.*?)```", guide, flags=re.S)
    checked = [body for lang, body in blocks
               if not any(word in body for word in ("union tb_arg {", "TB_DATATYPE(",
                                                    "struct tb_dial "))]
    assert len(checked) >= 6
    for body in checked:
        missing = code_lines(body) - example
        assert not missing, missing


def test_a_cleanup_cannot_assume_its_object_alive(tally):
    """The guide's section 6: a cleanup that releases a handle the call
    already released frees it twice; the case stays the call's PASS and is
    marked cleanup_failed."""
    values = tally / "tally_values.c"
    text = values.read_text().replace(
        "/* No cleanup:", "static void release(union tb_arg *v) { tally_free(v->ptr); }\n\n/*")
    values.write_text(text.replace('.setup = setup_fresh,', '.setup = setup_fresh, '
                                   '.cleanup = release,'))
    spec = edited(tally, "tally.yaml", "target: tally", "target: tally")
    out = trebuchet("repro", "--target", spec, "--function", "tally_free", "--values",
                    "tally:FRESH", "--json").stdout
    assert '"outcome": "PASS"' in out and '"cleanup_failed": 1' in out
    out = trebuchet("repro", "--target", spec, "--function", "tally_error", "--values",
                    "tally:FRESH", "--json").stdout
    assert '"outcome": "PASS"' in out and '"cleanup_failed": 0' in out


def test_the_executor_refuses_a_plugin_whose_span_is_cut_short(tally, tmp_path):
    """A plugin made without the spec's checks cannot make a spanning value
    write past its function's argument slots."""
    shims = built_plugin(tally / "tally.yaml").with_suffix(".c").read_text()
    assert '"bytes", "span", NULL' in shims
    cut = tmp_path / "cut.c"
    cut.write_text(shims.replace('"bytes", "span", NULL', '"bytes", "int", NULL'))
    subprocess.run(["cc", "-shared", "-fPIC", f"-I{ROOT / 'datatypes'}", f"-I{ROOT / 'harness'}",
                    f"-I{tally}", str(cut), str(tally / "tally_values.c"),
                    str(tally / "build/libtally.so"), "-o", str(tmp_path / "cut.so")], check=True)
    result = subprocess.run([str(ROOT / "build/bin/trebuchet-exec"), "--plugin",
                             str(tmp_path / "cut.so"), "--list"], capture_output=True, text=True)
    assert result.returncode == 2
    assert "tally_add: datatype 'bytes' spans 2 parameters, the 1 after it must be 'span'" \
        in result.stderr
