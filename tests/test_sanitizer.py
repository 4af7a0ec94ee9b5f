"""`trebuchet run --sanitizer address` on the library whose latent errors
were written on purpose (tests/latent/latent.c): three of its functions do
an error AddressSanitizer sees and a plain run never notices.  Counted by
hand, with the int datatype's 7 values each function has 7 cases:

  lt_overflow        7 ABORT, heap-buffer-overflow (a write 7 bytes past a 1-byte block)
  lt_overread        7 ABORT, heap-buffer-overflow (a read past a 4-byte block)
  lt_use_after_free  7 ABORT, heap-use-after-free
  lt_uninit          7 PASS: ASan does not see a read of uninitialised
                     memory (MemorySanitizer or memcheck do: test_memcheck.py)
  lt_clean, lt_clean_string  7 PASS each
  lt_clean_sloppy    1 SETUP: its one value's setup (latent_values.c, one of
                     the spec's sources, built with ASan too) writes past
                     its block; ASan stops it before the call, so the value
                     could not be built, and no finding is made of it

Without --sanitizer the same 43 cases all PASS.  `--sanitizer undefined`
has a library of its own (tests/undefined/), counted below."""
import collections
import os
import re
import sqlite3
import subprocess

import pytest

from conftest import ROOT, query, trebuchet

from trebuchet.findings import sanitizer_report
from trebuchet.build import plugins as build
from trebuchet.harness import sanitizers
from trebuchet.core.errors import TrebuchetError
from trebuchet.spec import load as specs

LATENT = ROOT / "tests" / "latent" / "latent.yaml"
EXEC = ROOT / "build" / "bin" / "trebuchet-exec"
KINDS = {"lt_overflow": "heap-buffer-overflow", "lt_overread": "heap-buffer-overflow",
         "lt_use_after_free": "heap-use-after-free"}
# the line of latent.c each error is on, by its text
LINES = {"lt_overflow": "kept[i] = (char)code;", "lt_overread": "while (n < 12 && kept[n] != '\\0')",
         "lt_use_after_free": "v = *(volatile int *)kept;"}


def _has(sanitizer):
    try:
        sanitizers.runtime(sanitizer)
    except TrebuchetError:
        return False
    return True


pytestmark = pytest.mark.skipif(not _has("address"), reason="the compiler has no libasan")


def _run(db, *extra):
    return trebuchet("run", "--target", LATENT, "--db", db, *extra).stdout


@pytest.fixture(scope="module")
def sanitized(tmp_path_factory):
    db = tmp_path_factory.mktemp("asan") / "latent.db"
    return db, _run(db, "--sanitizer", "address")


def per_function(db):
    counts = collections.defaultdict(collections.Counter)
    for function, outcome, signal in query(db, "SELECT function, outcome, signal FROM results"):
        counts[function][(outcome, signal)] += 1
    return counts


def line_of(function):
    lines = (ROOT / "tests" / "latent" / "latent.c").read_text().splitlines()
    return next(n for n, text in enumerate(lines, 1) if text.strip() == LINES[function])


def test_each_error_asan_sees_is_an_abort_with_its_kind_and_the_rest_pass(sanitized):
    db, out = sanitized
    counts = per_function(db)
    for function in KINDS:
        assert counts[function] == {("ABORT", 6): 7}, function
    for function in ("lt_uninit", "lt_clean", "lt_clean_string"):
        assert counts[function] == {("PASS", None): 7}, function
    assert counts["lt_clean_sloppy"] == {("SETUP", 6): 1}
    for function, stderr in query(db, "SELECT function, CAST(stderr AS TEXT) FROM results"
                                      " WHERE outcome = 'ABORT'"):
        # stored as the test process wrote it, unsymbolized whatever the
        # folder and the tools installed (harness/world.c), and named by
        # the reporter outside the sandbox
        summary = [line for line in stderr.splitlines() if line.startswith("SUMMARY: ")]
        assert len(summary) == 1 and re.fullmatch(
            rf"SUMMARY: AddressSanitizer: {KINDS[function]} \(\S+/latent\.asan\.so\+0x[0-9a-f]+\) ",
            summary[0]), stderr
        assert sanitizer_report.parse(stderr) == sanitizer_report.Report(
            KINDS[function], f"{LATENT.parent}/latent.c", line_of(function), function)
    assert query(db, "SELECT sanitizer FROM runs") == [("address",)]
    assert out.startswith("latent: 43 cases in 7 functions, PASS 21, ABORT 21, RESTART 0, SETUP 1;")
    assert "; sanitizer address; run 1 in" in out


def test_each_error_is_a_finding_at_its_line_named_by_its_kind(sanitized):
    db, _ = sanitized
    found = query(db, "SELECT functions, kind, title, location, signature, cases FROM findings"
                      " ORDER BY functions")
    assert [f[0] for f in found] == sorted(KINDS)
    for function, kind, title, location, signature, cases in found:
        line = line_of(function)
        assert kind == KINDS[function]
        assert title == f"{kind} in {function} at latent.c:{line}"
        assert location == f"{LATENT.parent}/latent.c:{line}"
        # the report's kind at its line, then the cause its cases need
        assert signature.split("|cause: ")[0] == f"{kind}|{function}: {LINES[function]}"
        assert cases == 7
    shown = trebuchet("findings", "--db", db).stdout
    assert f"--function lt_overflow --case 0 --sanitizer address" in shown
    assert "last words: SUMMARY: AddressSanitizer: heap-use-after-free" in shown


def test_without_the_sanitizer_every_case_passes(tmp_path):
    db = tmp_path / "plain.db"
    out = _run(db)
    assert out.startswith("latent: 43 cases in 7 functions, PASS 43, ABORT 0, RESTART 0, SETUP 0;")
    assert "; sanitizer " not in out
    assert query(db, "SELECT sanitizer FROM runs") == [("",)]


def test_the_same_run_twice_gives_the_same_outcomes_and_findings(sanitized, tmp_path):
    db, _ = sanitized
    again = tmp_path / "again.db"
    _run(again, "--sanitizer", "address")
    cases = "SELECT function, case_index, outcome, signal FROM results ORDER BY 1, 2"
    signatures = "SELECT signature, cases FROM findings ORDER BY 1"
    assert query(again, cases) == query(db, cases)
    assert query(again, signatures) == query(db, signatures)


def test_plain_and_sanitized_plugins_are_two_files_that_never_rebuild_each_other(sanitized,
                                                                                  tmp_path):
    spec = specs.load(LATENT)
    plain, asan = build.plugin_path(spec), build.plugin_path(spec, "address")
    assert asan == plain.with_name("latent.asan.so")
    _run(tmp_path / "plain.db")
    before = (plain.stat().st_mtime_ns, asan.stat().st_mtime_ns)
    _run(tmp_path / "asan.db", "--sanitizer", "address")
    _run(tmp_path / "plain2.db")
    assert (plain.stat().st_mtime_ns, asan.stat().st_mtime_ns) == before
    # built with ASan: the sanitized plugin calls its runtime, the plain one does not
    symbols = {p: subprocess.run(["nm", "-D", p], capture_output=True, text=True).stdout
               for p in (plain, asan)}
    assert "__asan_report_store1" in symbols[asan]
    assert "__asan_" not in symbols[plain]


def test_a_bad_sanitizer_is_one_line_exit_2(tmp_path):
    said = trebuchet("run", "--target", LATENT, "--db", tmp_path / "x.db", "--sanitizer",
                     "thread", check=False)
    assert said.returncode == 2
    assert said.stderr.count("\n") == 1 and "--sanitizer" in said.stderr
    assert not (tmp_path / "x.db").exists()


def test_the_address_space_limit_is_refused_under_the_sanitizer_and_none_without(sanitized):
    asan = build.plugin_path(specs.load(LATENT), "address")
    plain = build.plugin_path(specs.load(LATENT))
    under = sanitizers.executor_env(asan)
    said = subprocess.run([EXEC, "--plugin", asan, "--memory-mb", "1024", "--list"],
                          env=under, capture_output=True, text=True)
    assert said.returncode == 2 and "under a sanitizer" in said.stderr
    assert said.stderr.count("\n") == 1
    said = subprocess.run([EXEC, "--plugin", plain, "--memory-mb", "0", "--list"],
                          capture_output=True, text=True, env=dict(os.environ))
    assert said.returncode == 2 and "--memory-mb wants at least 64" in said.stderr
    # a sanitizer with no runtime: refused, not run plain
    said = subprocess.run([EXEC, "--plugin", plain, "--list"], capture_output=True, text=True,
                          env=dict(os.environ, TREBUCHET_EXEC_SANITIZER="thread"))
    assert said.returncode == 2 and "no such sanitizer" in said.stderr


def test_an_error_an_interceptor_notices_is_the_c_library_function_it_stands_for(tmp_path):
    """stdio tests the C library itself, which is not built with ASan: its
    errors are noticed by ASan's interceptors (its free, its fopen), whose
    place is ASan's own source; the finding is the function they stand for."""
    db = tmp_path / "stdio.db"
    trebuchet("run", "--target", "stdio", "--functions", "fclose,fopen", "--sanitizer", "address",
              "--db", db)
    found = dict(query(db, "SELECT title, location FROM findings WHERE kind LIKE '%free'"))
    assert found == {"double-free in fclose on misuse": None,
                     "heap-use-after-free in fopen on misuse": None}


def test_the_summary_line_read_as_kind_and_place():
    parse = sanitizer_report.parse
    assert parse("x\nSUMMARY: AddressSanitizer: stack-buffer-overflow src/a.c:3:7 in main\n"
                 "==12==ABORTING\n") == sanitizer_report.Report("stack-buffer-overflow", "src/a.c",
                                                                3, "main")
    assert parse("SUMMARY: AddressSanitizer: attempting double-free"
                 " (/lib/x86_64-linux-gnu/libasan.so.8+0xb7e6) in __interceptor_free") == \
        sanitizer_report.Report("double-free", None, None, "__interceptor_free")
    assert parse("SUMMARY: AddressSanitizer: heap-use-after-free (the report did not finish)") == \
        sanitizer_report.Report("heap-use-after-free")
    assert parse("free(): invalid pointer") is None
    assert parse("SUMMARY: AddressSanitizer: heap-buffer-overflow (/nowhere/lib.so+0x2a15) ") == \
        sanitizer_report.Report("heap-buffer-overflow")


def test_an_unsymbolized_report_is_named_as_the_sanitizer_would_name_it(tmp_path):
    """The test process writes places unsymbolized (harness/world.c); the
    reporter names them.  Checked against ASan's own symbolizer on a
    program whose overflow is on line 3, run outside any sandbox."""
    source = tmp_path / "over.c"
    source.write_text("#include <stdlib.h>\nint main(void) { char *volatile p = malloc(1);\n"
                      "p[7] = 1;\nreturn 0; }\n")
    program = tmp_path / "over"
    subprocess.run(["cc", "-g", "-O0", "-fsanitize=address", source, "-o", program], check=True)
    said = {flag: subprocess.run([program], capture_output=True, text=True,
                                 env={**os.environ, "ASAN_OPTIONS": f"symbolize={flag}"}).stderr
            for flag in (0, 1)}
    assert "over.c:3" not in said[0]
    assert sanitizer_report.parse(said[0]) == sanitizer_report.parse(said[1]) == \
        sanitizer_report.Report("heap-buffer-overflow", str(source), 3, "main")
    assert sanitizer_report.in_runtime(
        "../../../../src/libsanitizer/sanitizer_common/sanitizer_common_interceptors.inc")
    assert not sanitizer_report.in_runtime("/src/lib/asan.c")


def test_a_run_resumes_only_under_the_sanitizer_it_started_with(tmp_path):
    db = tmp_path / "resume.db"
    _run(db, "--sanitizer", "address", "--functions", "lt_clean")
    with sqlite3.connect(db) as conn:  # as a run stopped before its end leaves it
        conn.execute("UPDATE runs SET finished = NULL")
    said = trebuchet("run", "--target", LATENT, "--db", db, "--resume", check=False)
    assert said.returncode == 2
    assert "ran under the sanitizer address; resume it with --sanitizer" in said.stderr
    assert said.stderr.count("\n") == 1
    assert "sanitizer address" in _run(db, "--sanitizer", "address", "--resume")


# tests/undefined/undefined.c: three functions each do one undefined thing a
# plain build lets return; with the int datatype's 7 values, 7 cases each.
UNDEFINED = ROOT / "tests" / "undefined" / "undefined.yaml"
UB_KINDS = {"ub_overflow": ("signed-integer-overflow", "return big + one;"),
            "ub_shift": ("shift", "return 1 << wide;"),
            "ub_misaligned": ("misaligned-access", "return *odd;")}


@pytest.mark.skipif(not _has("undefined"), reason="the compiler has no libubsan")
def test_undefined_behaviour_under_ubsan_is_an_abort_and_a_finding_at_its_line(tmp_path):
    plain, ub = tmp_path / "plain.db", tmp_path / "ub.db"
    assert "PASS 28, ABORT 0" in trebuchet("run", "--target", UNDEFINED, "--db", plain).stdout
    out = trebuchet("run", "--target", UNDEFINED, "--db", ub, "--sanitizer", "undefined").stdout
    assert out.startswith("undefined: 28 cases in 4 functions, PASS 7, ABORT 21, RESTART 0,")
    assert "; sanitizer undefined; " in out
    counts = per_function(ub)
    assert counts["ub_clean"] == {("PASS", None): 7}
    lines = UNDEFINED.with_name("undefined.c").read_text().splitlines()
    found = {f: (k, t, loc, sig.split("|cause: ")[0]) for f, k, t, loc, sig in query(
        ub, "SELECT functions, kind, title, location, signature FROM findings")}
    assert sorted(found) == sorted(UB_KINDS)
    for function, (kind, text) in UB_KINDS.items():
        assert counts[function] == {("ABORT", 6): 7}, function
        line = next(n for n, t in enumerate(lines, 1) if t.strip() == text)
        assert found[function] == (kind, f"{kind} in {function} at undefined.c:{line}",
                                   f"{UNDEFINED.parent}/undefined.c:{line}",
                                   f"{kind}|{function}: {text}")
    assert query(ub, "SELECT sanitizer FROM runs") == [("undefined",)]
    # no shadow memory: the address-space limit stays, 0 (none) is refused
    plugin = build.plugin_path(specs.load(UNDEFINED), "undefined")
    said = subprocess.run([EXEC, "--plugin", plugin, "--memory-mb", "0", "--list"],
                          env=sanitizers.executor_env(plugin), capture_output=True, text=True)
    assert said.returncode == 2 and "--memory-mb wants at least 64" in said.stderr


def test_the_report_shows_the_runs_sanitizer(sanitized, tmp_path):
    db, _ = sanitized
    trebuchet("report", "--db", db, "--out", tmp_path / "out")
    page = (tmp_path / "out" / "index.html").read_text()
    assert "<th>sanitizer</th>" in page and "<td>address</td>" in page


def test_a_run_under_asan_is_gated_under_it(tmp_path):
    """The gate runs a sanitized run's new failures again under the same
    sanitizer: ASan's report comes again and they are confirmed (with a
    plain plugin they passed, flaky, and a library built with ASan would
    not even load)."""
    db, baseline = tmp_path / "gate.db", tmp_path / "latent.baseline"
    _run(db, "--sanitizer", "address", "--functions", "lt_overflow")
    with sqlite3.connect(db) as conn:  # a baseline in which lt_overflow passed
        conn.execute("UPDATE results SET outcome = 'PASS', signal = NULL, stderr = NULL")
        for table in ("findings", "finding_cases"):
            conn.execute(f"DELETE FROM {table}")
    trebuchet("baseline", "--db", db, "--target", LATENT, "--out", baseline)
    _run(db, "--sanitizer", "address", "--functions", "lt_overflow")
    said = trebuchet("gate", "--db", db, "--baseline", baseline, "--confirm", "1", check=False)
    assert said.returncode == 1, said.stdout + said.stderr
    assert "7 confirmed, 0 flaky" in said.stdout
