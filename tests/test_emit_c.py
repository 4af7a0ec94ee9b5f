"""`trebuchet repro --emit-c DIR` writes a case as a C program of its own:
built with `make` in DIR (a C compiler and the target's library, nothing of
trebuchet's) and run, it must end as `trebuchet repro --json` says the case
ends: the same signal, the same exit, or the same return value and errno."""
import json
import os
import random
import re
import shutil
import signal
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT, chroot_launcher, function_cases, root_is_a_mount_point, trebuchet

RETURNED = re.compile(r"^(\w+) returned (-?\d+), errno (\d+)", re.M)
HANG_SECONDS = 10  # as `make run` gives a call: past it, the case hangs
LIBRARIES = ROOT / "build" / "lib"  # where librobust_sfio.so lies, not installed


def emit(tmp_path, target, function, *how):
    """Runs `repro --json --emit-c`; returns (its result record, the directory)."""
    out = tmp_path / f"{target}_{function}"
    result = trebuchet("repro", "--target", target, "--function", function, *how, "--json",
                       "--emit-c", out)
    return json.loads(result.stdout), out


def build(out, cflags=None):
    """`make` in out, as the build line trebuchet printed says (LIBDIRS=, for
    a library that is not installed)."""
    extra = [f"CFLAGS={cflags}"] if cflags else []
    if "robust_sfio" in out.name:
        extra.append(f"LIBDIRS={LIBRARIES}")
    made = subprocess.run(["make", "-C", str(out), *extra], capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    return made


def run(out):
    """Runs ./repro as a user would; None when it was still running at the
    deadline.  Its working directory goes into out/tmp (one a crash leaves
    behind stays there), which nobody may write, as /tmp."""
    tmp = out / "tmp"
    tmp.mkdir(exist_ok=True)
    tmp.chmod(0o1777)
    try:
        return subprocess.run(["./repro"], cwd=out, capture_output=True, text=True,
                              timeout=HANG_SECONDS, env=dict(os.environ, TMPDIR=str(tmp)))
    except subprocess.TimeoutExpired:
        return None


def ending(ran):
    """How the program ended, in the terms of `repro --json`: (outcome, signal)."""
    if ran is None:
        return ("RESTART", None)
    if ran.returncode < 0:
        return ("ABORT", -ran.returncode)
    if ran.returncode == 3:
        return ("SETUP", None)
    return ("PASS", None) if ran.returncode == 0 else ("ABORT", None)


def returned(ran):
    """(function, return value, errno) from the line a returning program prints."""
    m = RETURNED.search(ran.stdout)
    assert m, ran.stdout + ran.stderr
    return m.group(1), int(m.group(2)), int(m.group(3))


def test_fclose_of_null_builds_and_dies_of_sigsegv(tmp_path):
    result, out = emit(tmp_path, "stdio", "fclose", "--values", "FILE:NULL")
    assert (result["outcome"], result["signal"]) == ("ABORT", signal.SIGSEGV)
    build(out)
    ran = run(out)
    assert ran.returncode == -signal.SIGSEGV
    assert ran.stderr.splitlines()[-1] == "repro: calling fclose(FILE:NULL)"
    source = (out / "repro.c").read_text()
    assert "ret = fclose((FILE *)a[0].ptr);" in source
    assert "ABORT, signal 11 (SIGSEGV)" in source and "dies of signal 11 (SIGSEGV)" in source


def test_fclose_of_a_read_stream_exits_0_and_removes_its_directory(tmp_path):
    result, out = emit(tmp_path, "stdio", "fclose", "--values", "FILE:READ")
    assert result["outcome"] == "PASS"
    build(out)
    ran = run(out)
    assert ran.returncode == 0, ran.stderr
    assert returned(ran) == ("fclose", 0, 0)
    workdir = Path(re.search(r"repro: working in (\S+)", ran.stderr).group(1))
    assert workdir.parent == out / "tmp" and list(workdir.parent.iterdir()) == []


def test_a_crash_leaves_its_stderr_beside_its_directory_as_repro_shows_it(tmp_path):
    # st_complain writes 40 lines to stderr, then fails an assert()
    result, out = emit(tmp_path, "selftest", "st_complain", "--values", "int:ONE")
    assert result["outcome"] == "ABORT" and result["stderr"]
    build(out)
    ran = run(out)
    assert ran.returncode == -result["signal"]
    kept = Path(re.search(r"repro: the call's stderr goes to (\S+)", ran.stderr).group(1))
    workdir = Path(re.search(r"repro: working in (\S+)", ran.stderr).group(1))
    assert kept == workdir.with_name(workdir.name + ".stderr") and kept.parent == out / "tmp"
    # the whole of it, of which trebuchet kept the last lines; the program
    # is named otherwise in the assertion's message
    text = kept.read_text()
    assert text.startswith("st_complain: line 1 of 40\n")
    assert text.splitlines()[-2] == result["stderr"].splitlines()[-2] == "st_complain: line 40 of 40"
    assert text.endswith("st_complain: Assertion `code == 0' failed.\n")


def test_an_sfio_crash_dies_of_the_signal_repro_reports(tmp_path):
    # a wild stream pointer: SFIO reads through it without a check
    result, out = emit(tmp_path, "sfio", "sfclose", "--values", "Sfio_t:GARBAGE")
    assert result["outcome"] == "ABORT" and result["signal"] > 0
    assert "-l:libgvpr.so.2" in (out / "Makefile").read_text()
    build(out)
    assert run(out).returncode == -result["signal"]


def test_a_pass_prints_the_return_value_and_errno_repro_reports(tmp_path):
    # a page from a guarded block, written to a stream opened for reading: EBADF
    result, out = emit(tmp_path, "stdio", "fwrite", "--values",
                       "buffer:VALID,size:ONE,size:PAGE,FILE:READ")
    assert result["outcome"] == "PASS" and result["errno"] != 0
    build(out)
    ran = run(out)
    assert ran.returncode == 0, ran.stderr
    assert returned(ran) == ("fwrite", result["ret"], result["errno"])
    assert "error reported" in ran.stdout if result["error_reported"] else "not reported" in ran.stdout


def test_fprintf_int_is_written_as_a_call_of_fprintf(tmp_path):
    result, out = emit(tmp_path, "stdio", "fprintf_int", "--values",
                       "FILE:WRITE,format:PCT_D,int:INT_MIN")
    assert re.search(r"ret = fprintf\(\(FILE \*\)a\[0\]\.ptr, \(const char \*\)a\[1\]\.ptr, "
                     r"\(int\)a\[2\]\.i\);", (out / "repro.c").read_text())
    build(out)
    assert returned(run(out)) == ("fprintf", result["ret"], result["errno"])


def test_robust_sfio_links_its_library_by_name_from_where_trebuchet_says_it_lies(tmp_path):
    out = tmp_path / "out"
    said = trebuchet("repro", "--target", "robust_sfio", "--function", "sfclose", "--values",
                     "Sfio_t:GARBAGE", "--json", "--emit-c", out)
    result = json.loads(said.stdout)
    assert (result["outcome"], result["errno"]) == ("PASS", 9)  # EBADF, where SFIO crashes
    assert f"  build: make -C {out} LIBDIRS={LIBRARIES}\n" in said.stderr
    assert f"  run:   make -C {out} LIBDIRS={LIBRARIES} run\n" in said.stderr
    makefile = (out / "Makefile").read_text().splitlines()
    assert "LIBDIRS  =" in makefile  # the folder is this machine's: said, not written
    assert "LIB      = $(LIBDIRS:%=-L%) $(LIBDIRS:%=-Wl,-rpath,%) -l:librobust_sfio.so" \
        " -l:libgvpr.so.2" in makefile
    unsaid = subprocess.run(["make", "-C", str(out)], capture_output=True, text=True)
    assert unsaid.returncode != 0 and "librobust_sfio.so" in unsaid.stderr
    out = out.rename(tmp_path / "robust_sfio_sfclose")
    build(out)
    ran = run(out)
    assert ran.returncode == 0, ran.stderr
    assert returned(ran) == ("sfclose", result["ret"], result["errno"])


def test_a_reproducer_builds_elsewhere_where_make_is_told_where_the_library_lies(tmp_path):
    """Another folder, the library in another place: `make LIBDIRS=` links
    and runs it from there, as on a maintainer's machine."""
    result, written = emit(tmp_path, "robust_sfio", "sfclose", "--values", "Sfio_t:GARBAGE")
    out, libs = tmp_path / "elsewhere" / "repro", tmp_path / "libs"
    shutil.copytree(written, out)
    shutil.rmtree(written)
    libs.mkdir()
    shutil.copyfile(ROOT / "build" / "lib" / "librobust_sfio.so", libs / "librobust_sfio.so")
    made = subprocess.run(["make", "-C", str(out), f"LIBDIRS={libs}"], capture_output=True,
                          text=True)
    assert made.returncode == 0, made.stderr
    dynamic = subprocess.run(["readelf", "-d", str(out / "repro")], capture_output=True,
                             text=True, check=True).stdout
    assert f"[{libs}]" in dynamic and str(ROOT) not in dynamic
    ran = run(out)
    assert ran.returncode == 0, ran.stderr
    assert returned(ran) == ("sfclose", result["ret"], result["errno"])


@pytest.mark.parametrize("target", ["stdio", "robust_sfio"])
def test_the_directory_names_nothing_of_trebuchets_but_the_library(tmp_path, target):
    _, out = emit(tmp_path, target, "sfclose" if target != "stdio" else "fclose", "--case", "3")
    mentions = subprocess.run(["grep", "-rn", str(ROOT), str(out)], capture_output=True,
                              text=True).stdout.splitlines()
    assert mentions == []
    assert not list(out.rglob("*.so")) and not list(out.rglob("*.a"))
    made = build(out, "-O2 -g -Wall -Werror -fno-builtin -U_FORTIFY_SOURCE")
    assert "warning" not in made.stderr


STRTOL = """\
target: strtolib
includes: [stdlib.h]
functions:
  - name: strtol
    returns: long
    params:
      - {name: s, type: const char *, datatype: string}
      - {name: end, type: char **, datatype: pointer}
      - {name: base, type: int, datatype: int}
    error: {when: expr, expr: "%s"}
"""


@pytest.mark.parametrize("expr", ["ret == 0 && s != NULL && err != 0", "err != 0"])
def test_an_expr_convention_declares_only_the_parameters_it_names(tmp_path, expr):
    """The rest would be unused variables: -Wall -Werror refuses them."""
    (tmp_path / "strtol.yaml").write_text(STRTOL % expr)
    out = tmp_path / "out"
    trebuchet("repro", "--target", tmp_path / "strtol.yaml", "--function", "strtol",
              "--values", "string:EMPTY,pointer:NULL,int:ZERO", "--emit-c", out)
    build(out, "-O2 -Wall -Werror")
    assert returned(run(out)) == ("strtol", 0, 0)


def test_a_directory_that_holds_something_is_refused_before_the_case_runs(tmp_path):
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "notes.txt").write_text("mine")
    (tmp_path / "file").write_text("mine")
    for where in (tmp_path / "taken", tmp_path / "file"):
        refused = trebuchet("repro", "--target", "stdio", "--function", "fclose", "--case", "0",
                            "--emit-c", where, check=False)
        assert refused.returncode == 2 and refused.stdout == ""
        assert refused.stderr.count("\n") == 1 and "--emit-c wants a new or empty" in refused.stderr
    assert [p.name for p in (tmp_path / "taken").iterdir()] == ["notes.txt"]


def test_a_target_whose_library_is_missing_is_refused(tmp_path):
    spec = tmp_path / "gone.yaml"
    spec.write_text(f"target: gone\nextends: {ROOT}/targets/stdio/stdio.yaml\n"
                    "libraries: [libtrebuchet_no_such_library.so.9]\n")
    refused = trebuchet("repro", "--target", spec, "--function", "fclose", "--case", "0",
                        "--emit-c", tmp_path / "out", check=False)
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert "libtrebuchet_no_such_library.so.9" in refused.stderr and "not installed" in refused.stderr
    assert not (tmp_path / "out").exists()


# Values that point into freed memory (pointer's FREED, FILE:CLOSED,
# Sfio_t:CLOSED) hand the function what malloc left there: its list pointers
# into the C library, which the executor (mapping SQLite, the plugin, ...)
# has at other addresses than the reproducer.  Read as a FILE's flags, the
# pointer's low bits decide whether the stream's lock is taken: feof of
# FILE:FREED returns in the test process and dies of SIGSEGV in the
# reproducer.  So those cases are not drawn (repro.c's header says why they
# may end otherwise).  fd:CLOSED is a descriptor number, not memory: kept.
HEAP_BOUND = re.compile(r"^(?!fd:).*:(FREED|CLOSED)$")


def draw(target, count, rng):
    """count distinct (function, case) of target, at random, none with a
    heap-bound value."""
    cases = function_cases(target)
    drawn = []
    while len(drawn) < count:
        function = rng.choice(sorted(cases))
        index = rng.randrange(cases[function])
        if (function, index) in drawn:
            continue
        record = json.loads(trebuchet("repro", "--target", target, "--function", function,
                                      "--case", index, "--json").stdout)
        if not any(HEAP_BOUND.match(v) for v in record["values"]):
            drawn.append((function, index))
    return drawn


@pytest.mark.parametrize("target", ["stdio", "sfio"])
def test_ten_random_cases_end_as_repro_says(tmp_path, target):
    for function, index in draw(target, 10, random.Random(2001)):
        result, out = emit(tmp_path / str(index), target, function, "--case", str(index))
        build(out)
        ran = run(out)
        case = f"{target} {function} case {index} {result['values']}"
        assert ending(ran) == (result["outcome"], result["signal"]), case
        pointer = (out / "repro.c").read_text().count("(long long)(intptr_t)ret")
        if result["outcome"] == "PASS" and not pointer:  # an address differs between processes
            assert returned(ran)[1:] == (result["ret"], result["errno"]), case


def test_permission_values_mean_what_they_meant_in_the_test_process(tmp_path):
    # run as root, the test process is nobody: a 0444 file cannot be opened
    # for writing, and the reproducer must see the same
    result, out = emit(tmp_path, "stdio", "fopen", "--values", "path:READ_ONLY_FILE,mode:W")
    assert (result["outcome"], result["ret"], result["errno"]) == ("PASS", 0, 13)  # EACCES
    build(out)
    assert returned(run(out)) == ("fopen", 0, 13)


@pytest.mark.parametrize("what", ["INT_MAX", "INT_MIN", "CHAR_256"])  # umask, ignored signals, fds
def test_the_world_the_call_sees_is_the_test_processs(tmp_path, what):
    result, out = emit(tmp_path, "selftest", "st_world", "--values", f"int:{what}")
    assert (out / "support" / "selftest.c").is_file()  # the function is the target's own source
    build(out)
    assert returned(run(out)) == ("st_world", result["ret"], result["errno"])


def test_an_exit_from_inside_the_call_is_the_programs_exit(tmp_path):
    result, out = emit(tmp_path, "selftest", "st_exit", "--values", "int:ONE")
    assert (result["outcome"], result["exit_status"]) == ("ABORT", 1)
    build(out)
    assert run(out).returncode == 1


def test_a_hang_hangs_after_saying_what_it_calls(tmp_path):
    result, out = emit(tmp_path, "selftest", "st_hang", "--values", "int:ZERO")
    assert result["outcome"] == "RESTART"
    assert "exit status 124" in (out / "repro.c").read_text()
    build(out)
    with pytest.raises(subprocess.TimeoutExpired) as hung:
        subprocess.run(["./repro"], cwd=out, capture_output=True, text=True, timeout=2,
                       env=dict(os.environ, TMPDIR=str(tmp_path)))
    assert b"repro: calling st_hang(int:ZERO)" in hung.value.stderr


@pytest.mark.skipif(os.geteuid() != 0 or not root_is_a_mount_point(),
                    reason="the chroot needs root, and a / that is a mount point")
def test_a_freed_stream_case_ends_the_same_in_a_chroot_without_proc(tmp_path):
    """The program settles its world (no randomised addresses) by executing
    itself again; where there is no /proc to find itself by (a chroot
    entered without mounting it) it goes by the name it was run by.  A case
    whose fate hangs on the heap (HEAP_BOUND: it may end otherwise than in
    the test process) then ends there as it does here, every time."""
    _, out = emit(tmp_path, "stdio", "freopen", "--values", "path:NULL,mode:R,FILE:FREED")
    build(out)
    here = run(out)
    inside = chroot_launcher(tmp_path)(
        ["sh", "-c", f'cd "{out}" && TMPDIR="{out / "tmp"}" exec ./repro'])
    for _ in range(3):
        ran = subprocess.run(inside, capture_output=True, text=True, timeout=HANG_SECONDS)
        if ran.returncode > 128:  # the chroot's shell reports a signal as 128 + it
            ran.returncode = 128 - ran.returncode
        assert ending(ran) == ending(here), ran.stderr
        if ending(here)[0] == "PASS":
            assert returned(ran)[2] == returned(here)[2]
