"""Function-pointer parameters, end to end: tests/callbacks/ runs qsort(3)
with a comparator typed as C writes it and through glibc's typedef (its
datatype the base `callback` family extended with qsort's own), and
signal(2), whose handler is a function pointer both ways.  Outcomes are
checked against what qsort and signal are documented to do, counted by
hand; a type that is no function pointer, or a callback of another
signature, is refused at its line; and a callback case written out by
`repro --emit-c` builds and ends as it did."""
import shutil
import subprocess
import textwrap

from conftest import ROOT, libdirs_said, query, trebuchet
from test_bad_input import assert_input_error

SPEC = ROOT / "tests" / "callbacks" / "callbacks.yaml"
QSORT = ("qsort", "qsort_by_typedef")
FAULTING = ("NULL", "NOT_CODE")  # qsort calls its comparator: a call to no code


def test_callbacks_run_as_counted(tmp_path):
    db = tmp_path / "callbacks.db"
    trebuchet("run", "--target", SPEC, "--db", db, "--quiet")
    # ints' 3 arrays times the comparators: callback's 4 and comparator's 2
    # own, by either spelling; signal: int's 7 times callback's 4
    counts = dict(query(db, "SELECT function, count(*) FROM results GROUP BY function"))
    assert counts == {"qsort": 18, "qsort_by_typedef": 18, "signal": 28}
    rows = query(db, "SELECT function, value_names, outcome, signal FROM results "
                     "WHERE function IN ('qsort', 'qsort_by_typedef')")
    for function, values, outcome, signal in rows:
        array, *_, compar = values.split()
        # one int or none: nothing to compare, so the comparator is not called
        calls = array == "ints:FOUR"
        expected = ("ABORT", 11) if calls and compar.split(":")[1] in FAULTING else ("PASS", None)
        assert (outcome, signal) == expected, (function, values)
    # signal: SIGHUP (int:ONE) takes any handler and returns the default,
    # SIG_DFL (0); the 6 other numbers are no signal: SIG_ERR, EINVAL
    signal_rows = query(db, "SELECT value_names, outcome, ret, error_reported, errno "
                            "FROM results WHERE function = 'signal'")
    for values, outcome, ret, reported, err in signal_rows:
        hup = values.startswith("int:ONE ")
        assert (outcome, reported) == ("PASS", 0 if hup else 1), values
        assert (ret, err) == ((0, 0) if hup else (-1, 22)), values


def test_the_signature_reads_as_c():
    listed = trebuchet("list", "functions", "--target", SPEC).stdout
    assert "void qsort(void *base, size_t nmemb, size_t size, " \
           "int (*compar)(const void *, const void *))" in listed
    assert "void qsort(void *base, size_t nmemb, size_t size, __compar_fn_t compar)" in listed
    assert "void (*signal(int signum, void (*handler)(int)))(int)" in listed


def _spec_with_type(tmp_path, ctype):
    (tmp_path / "handlers.h").write_text("typedef int handler_fn(void *);\n")
    spec = tmp_path / "badtype.yaml"
    spec.write_text(textwrap.dedent(f"""\
        target: badtype
        includes: [stdlib.h, handlers.h]
        functions:
          - name: qsort
            returns: void
            params:
              - {{name: base, type: void *, datatype: pointer}}
              - {{name: nmemb, type: size_t, datatype: size}}
              - {{name: size, type: size_t, datatype: size}}
              - {{name: compar, type: "{ctype}", datatype: callback}}
            error: {{when: none}}
        """))
    return spec


def test_a_type_no_slot_holds_is_refused_at_its_line(tmp_path):
    # parentheses that do not pair up; a function type, not its pointer,
    # spelled out or by a typedef
    for ctype, why in [("int (*)(const void *", "its parentheses do not pair up"),
                       ("int (const void *, const void *)", "a function pointer is written"),
                       ("handler_fn", "is not a pointer, integer or floating type")]:
        result = trebuchet("run", "--target", _spec_with_type(tmp_path, ctype),
                           "--db", tmp_path / "t.db", "--quiet", check=False)
        assert_input_error(result, "badtype.yaml:10:", f"parameter compar: C type '{ctype}'",
                           why)


def test_a_callback_of_another_signature_is_refused_at_its_line(tmp_path):
    shutil.copy(SPEC.parent / "qsort_values.c", tmp_path)
    spec = tmp_path / "handlers.yaml"
    spec.write_text(SPEC.read_text().replace(
        'type: "void (*)(int)", datatype: callback', 'type: "void (*)(int)", datatype: comparator'))
    result = trebuchet("run", "--target", spec, "--db", tmp_path / "t.db", "--quiet", check=False)
    assert_input_error(result, "handlers.yaml:35:", "parameter handler (void (*)(int)) cannot "
                       "take datatype comparator, whose callbacks are int (*)(const void *, "
                       "const void *)")


def test_a_callback_datatype_whose_type_does_not_compile_is_refused_at_its_line(tmp_path):
    # the callbacks' types are compared before the slots are checked: that
    # comparison leaves out a type the compiler does not know
    source = (SPEC.parent / "qsort_values.c").read_text()
    signature = '.ctype = "int (*)(const void *, const void *)",'
    assert signature in source
    (tmp_path / "qsort_values.c").write_text(source.replace(signature, '.ctype = "no_fn_t",'))
    shutil.copy(SPEC, tmp_path)
    result = trebuchet("build", "--target", tmp_path / SPEC.name, "--quiet", check=False)
    assert_input_error(result, "callbacks.yaml:9:", "datatype 'comparator' gives C type "
                       "'no_fn_t', which does not compile with the spec's includes")


def _emit(tmp_path, function, values):
    out = tmp_path / values.replace(",", "_").replace(":", "-")
    said = trebuchet("repro", "--target", SPEC, "--function", function, "--values", values,
                     "--emit-c", out).stdout
    subprocess.run(["make", "-s", "-C", out, *libdirs_said(said)], check=True,
                   capture_output=True)
    return subprocess.run([out / "repro"], cwd=out, capture_output=True, text=True)


def test_a_callback_case_written_out_builds_and_faults_as_it_did(tmp_path):
    # the program builds the comparator from callback.c's code, copied
    ended = _emit(tmp_path, "qsort", "ints:FOUR,span:SPAN,span:SPAN,comparator:NOT_CODE")
    assert ended.returncode == -11


def test_a_function_pointer_returned_is_written_out(tmp_path):
    ended = _emit(tmp_path, "signal", "int:ONE,callback:RETURNS_MINUS_ONE")
    assert ended.stdout == "signal returned 0, errno 0, error not reported\n"


def test_a_contract_naming_no_value_of_the_targets_own_datatype_is_refused_at_its_line(
        tmp_path):
    # a misspelt value of a datatype the target defines itself: a promise no
    # case would ever hold, refused once the plugin lists the datatype's values
    shutil.copy(SPEC.parent / "qsort_values.c", tmp_path)
    spec = tmp_path / "misspelt.yaml"
    spec.write_text(SPEC.read_text().replace(
        "datatype: comparator, undefined: [NULL]}", "datatype: comparator, undefined: [NUL]}", 1))
    result = trebuchet("run", "--target", spec, "--db", tmp_path / "t.db", "--quiet", check=False)
    assert_input_error(result, "misspelt.yaml:20:", "qsort(compar): 'NUL' is not a value of"
                       " datatype comparator (its values: NULL, ")
    assert not (tmp_path / "t.db").exists()


def test_a_value_both_accepted_and_undefined_is_refused_at_its_line(tmp_path):
    shutil.copy(SPEC.parent / "qsort_values.c", tmp_path)
    spec = tmp_path / "both.yaml"
    spec.write_text(SPEC.read_text().replace(
        "datatype: comparator, undefined: [NULL]}",
        "datatype: comparator, undefined: [NULL], accepts: [NULL]}", 1))
    result = trebuchet("run", "--target", spec, "--db", tmp_path / "t.db", "--quiet", check=False)
    assert_input_error(result, "both.yaml:20:", "compar = NULL is both accepted and undefined")
