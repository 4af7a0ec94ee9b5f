"""Determinism: two runs of the same campaign give the same outcome, signal,
exit status, errno and error flag for every case."""
import json
import os
import shlex
import shutil
import subprocess
import pytest

from conftest import (ROOT, TREBUCHET, chroot_launcher, needs_sandbox, outcomes, query,
                      root_is_a_mount_point, trebuchet)


def test_two_stdio_campaigns_agree_case_by_case(tmp_path):
    db = tmp_path / "twice.db"
    for _ in range(2):
        trebuchet("run", "--target", "stdio", "--db", db, "--quiet")
    first, second = outcomes(db, 1), outcomes(db, 2)
    assert len(first) > 30000
    assert first.keys() == second.keys()
    differing = {k: (first[k], second[k]) for k in first if first[k] != second[k]}
    assert not differing, f"{len(differing)} cases differ, e.g. {list(differing.items())[:5]}"
    # every spec function is in the store, complete
    names = query(db, "SELECT count(*), sum(cases_run = cases_drawn) FROM functions WHERE run_id = 1")
    assert names[0][0] == names[0][1] >= 25


# The functions that handle freed memory (and the in-line reads and seeks
# next to them): their cases' fate hangs on the exact heap and stack layout
# a test process inherits, so they are the first to show a world that leaks
# in from whoever started the run.
FREED_MEMORY = {
    "stdio": "fseek,fseeko,fsetpos,rewind,fgetc,fclose,fwrite",
    "sfio": "sfpopen,sfseek,sfgetc,sfclose",
    "selftest": "st_world",
}
# Their slowest case that returns takes 30 ms; the watchdog at 1 s (a CPU
# limit of 1 s) still tells it from a hang by thirty-fold, and halves what
# sfseek's six endless seeks on a string stream cost in each campaign; and
# with no second look (harness/forkserver.h) they are not run again at four
# times it: what these tests compare is the memory layout, not the watchdog.
WATCHDOG = ("--timeout", "1", "--no-second-look")
# Half the default cap, drawn over each function's whole product: every
# function's freed and closed values are still there by the hundred, in
# half the time make test has for them.
CAP = ("--cap", "2500")
# What these campaigns compare is outcomes, case by case, not findings: the
# findings are made without minimising (tests/test_findings.py tests it).
FINDINGS = ("--minimise-budget", "0")


def _campaign(db, launch, cwd):
    """Runs FREED_MEMORY's campaigns into db, each command line wrapped by
    launch (a list of words to put in front of it)."""
    for target, functions in FREED_MEMORY.items():
        argv = [str(TREBUCHET), "run", "--target", target, "--functions", functions,
                *WATCHDOG, *CAP, *FINDINGS, "--db", str(db), "--quiet"]
        subprocess.run(launch(argv), cwd=cwd, check=True, capture_output=True,
                       env=None if launch is _as_is else {})


def _as_is(argv):
    return argv


def _bare(argv):
    return ["env", "-i", "PATH=/usr/bin:/bin", *argv]


def _crowded(argv):
    extra = [f"TREBUCHET_NOISE_{i}={'x' * i}" for i in range(50)]
    return ["env", *[f"{k}={v}" for k, v in os.environ.items()], *extra, *argv]


def _under_make(tmp):
    def launch(argv):
        makefile = tmp / "Makefile"
        makefile.write_text("all:\n\t" + " ".join(shlex.quote(a) for a in argv) + "\n")
        return ["env", *[f"{k}={v}" for k, v in os.environ.items()],
                "make", "-s", "-j2", "-f", str(makefile)]
    return launch


def _odd_parent(argv):
    """A parent that ignores SIGPIPE and SIGINT and has umask 077."""
    return ["env", *[f"{k}={v}" for k, v in os.environ.items()], "sh", "-c",
            'trap "" PIPE INT; umask 077; exec "$@"', "sh", *argv]


def _cases(db):
    """{(target, function, case): (outcome, signal, errno, ret of st_world)}"""
    rows = query(db, "SELECT r.target, s.function, s.case_index, s.outcome, s.signal, s.errno,"
                     " CASE WHEN s.function = 'st_world' THEN s.ret END"
                     " FROM results s JOIN runs r ON r.id = s.run_id")
    return {tuple(r[:3]): tuple(r[3:]) for r in rows}


def test_the_world_of_a_test_process_does_not_depend_on_how_the_run_was_started(tmp_path):
    reference = tmp_path / "reference.db"
    _campaign(reference, _as_is, tmp_path)
    expected = _cases(reference)
    assert len(expected) > 7000
    # what makes it a strong test: the freed-memory values are there, and fail
    assert sum(1 for (t, f, c), v in expected.items() if v[0] == "ABORT") > 1000
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    worlds = {"env -i": (_bare, tmp_path), "50 more variables": (_crowded, tmp_path),
              "make": (_under_make(tmp_path), tmp_path),
              "another directory, SIGPIPE ignored, umask 077": (_odd_parent, elsewhere)}
    report = {}
    for name, (launch, cwd) in worlds.items():
        db = tmp_path / f"{len(report)}.db"
        _campaign(db, launch, cwd)
        got = _cases(db)
        assert got.keys() == expected.keys(), name
        differing = [k for k in expected if got[k] != expected[k]]
        report[name] = (len(expected), len(differing),
                        [(k, expected[k], got[k]) for k in differing[:3]])
    print("\ncases compared, cases differing, under each world:")
    for name, (compared, differing, _) in report.items():
        print(f"  {name}: {compared} compared, {differing} differ")
    assert all(r[1] == 0 for r in report.values()), report


# Across sandbox levels: what the freed-memory functions do, and freopen's
# and sfread's and sfswap's cases on freed and closed streams (181 cases that
# differed in a bare Debian chroot, where no /proc let the executor run
# unsettled), must not depend on the namespaces around the test processes.
ACROSS_LEVELS = dict(FREED_MEMORY, stdio=FREED_MEMORY["stdio"] + ",freopen",
                     sfio=FREED_MEMORY["sfio"] + ",sfread,sfswap")
def _refused(argv):
    """A machine that refuses namespaces (a container without CAP_SYS_ADMIN)."""
    return ["capsh", "--drop=cap_sys_admin", "--", "-c", 'exec "$@"', "refused",
            "env", "-i", "PATH=/usr/bin:/bin", *argv]


def _no_sandbox(launch):
    """launch, with --no-sandbox for the CLI's run and the executor alike."""
    return lambda argv: launch([*argv, "--no-sandbox"])


def _level_campaign(db, launch, cwd):
    for target, functions in ACROSS_LEVELS.items():
        argv = [str(TREBUCHET), "run", "--target", target, "--functions", functions,
                *WATCHDOG, *CAP, *FINDINGS, "--db", str(db), "--quiet"]
        done = subprocess.run(launch(argv), cwd=cwd, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr


def _plugin(target):
    """The plugin `trebuchet run --target` built for a target of targets/."""
    return ROOT / "build" / "targets" / target / f"{target}.so"


def _repro_sample(db, tmp):
    """{target: cases file} of every case on a freed or closed stream (by
    stride, 300 at most per target): the cases whose fate hangs on the heap."""
    files = {}
    for target in ACROSS_LEVELS:
        rows = query(db, "SELECT s.function, s.case_index FROM results s JOIN runs r ON"
                         " r.id = s.run_id WHERE r.target = ? AND (s.value_names LIKE '%FREED%'"
                         " OR s.value_names LIKE '%CLOSED%') ORDER BY 1, 2", target)
        rows = rows[::max(1, len(rows) // 300)]
        files[target] = tmp / f"{target}.cases"
        files[target].write_text("".join(f"{f} {i}\n" for f, i in rows))
    return files


def _repro(launch, files, cwd):
    """{(target, function, case): (outcome, signal, errno, ret of st_world)}
    as the executor's --cases (what `trebuchet repro` runs) gives them."""
    got = {}
    exec_ = ROOT / "build" / "bin" / "trebuchet-exec"
    for target, cases in files.items():
        done = subprocess.run(launch([str(exec_), "--plugin", str(_plugin(target)), "--cases",
                                      str(cases), "--no-second-look"]), cwd=cwd,
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        for line in done.stdout.splitlines():
            r = json.loads(line)
            got[target, r["function"], r["case"]] = (
                r["outcome"], r["signal"] if r["signal"] > 0 else None,
                r["errno"] if r["outcome"] == "PASS" else None,
                r["ret"] if r["function"] == "st_world" else None)
    return got


def _normal(cases):
    """_cases' rows with a PASS's errno only (the store keeps none otherwise)."""
    return {k: (v[0], v[1], v[2] if v[0] == "PASS" else None, v[3]) for k, v in cases.items()}


@pytest.mark.skipif(os.geteuid() != 0, reason="a chroot and levels full and none need root")
@pytest.mark.skipif(not shutil.which("unshare"), reason="needs unshare (util-linux)")
def test_outcomes_do_not_depend_on_the_sandbox_level_nor_on_a_chroot(tmp_path):
    needs_sandbox()
    levels = {"full": (_as_is, "full"), "none (--no-sandbox)": (_no_sandbox(_as_is), "none"),
              "none (namespaces refused)": (_refused, "none"),
              "chroot without /proc, sandbox": (chroot_launcher(tmp_path), "full"),
              "chroot with /proc, --no-sandbox": (_no_sandbox(chroot_launcher(tmp_path, True)), "none")}
    if not shutil.which("capsh"):  # libcap2-bin: the refusing machine is left out
        del levels["none (namespaces refused)"]
    if not root_is_a_mount_point():  # in a chroot already: no chroot of the test's own
        levels = {k: v for k, v in levels.items() if "chroot" not in k}
    results, repros, files = {}, {}, None
    for name, (launch, level) in levels.items():
        db = tmp_path / f"{len(results)}.db"
        _level_campaign(db, launch, tmp_path)
        assert {r[0] for r in query(db, "SELECT sandbox FROM runs")} == {level}, name
        results[name] = _normal(_cases(db))
        files = files or _repro_sample(db, tmp_path)
        repros[name] = _repro(launch, files, tmp_path)
    expected = results["full"]
    assert len(expected) > 12000
    assert sum(1 for v in expected.values() if v[0] == "ABORT") > 1000
    print("\ncases compared, differing from level full; repro's cases, differing from the"
          " campaign:")
    report = {}
    for name, got in results.items():
        assert got.keys() == expected.keys(), name
        differing = [k for k in expected if got[k] != expected[k]]
        repro_differing = [k for k, v in repros[name].items() if v != got[k]]
        report[name] = (differing[:3], repro_differing[:3])
        print(f"  {name}: {len(expected)} compared, {len(differing)} differ; repro"
              f" {len(repros[name])}, {len(repro_differing)} differ")
    assert all(not d and not r for d, r in report.values()), report
