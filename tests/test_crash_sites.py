"""Crash sites (harness/crashsite.c): where each failing case ended, taken
in the test process as it died.  The handler changes no outcome, and the
site it leaves names the right module for each way a call can end."""
import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from conftest import (TREBUCHET, chroot_launcher, function_cases, query, root_is_a_mount_point,
                      trebuchet)
from test_determinism import FREED_MEMORY, WATCHDOG

FRAME = re.compile(r"^(/\S+|\[unknown\])\+0x[0-9a-f]+$")
SIGSEGV, SIGABRT, SIGXCPU = 11, 6, 24


def _results(db, run):
    """{(function, case): (outcome, signal, exit_status, errno, ret)}"""
    rows = query(db, "SELECT function, case_index, outcome, signal, exit_status, errno, ret"
                     " FROM results WHERE run_id = ?", run)
    return {tuple(r[:2]): tuple(r[2:]) for r in rows}


def test_outcomes_are_the_same_with_and_without_crash_sites(tmp_path):
    """The freed-memory-heavy functions, whose fate hangs on the exact
    memory layout of a test process: the handler, its alternate stack and
    the watchdog's SIGXCPU must not change one case."""
    compared = 0
    for target in ("stdio", "sfio"):
        db = tmp_path / f"{target}.db"
        for extra in ([], ["--no-crash-sites"]):
            trebuchet("run", "--target", target, "--functions", FREED_MEMORY[target],
                      *WATCHDOG, "--db", db, "--quiet", *extra)
        with_sites, without = _results(db, 1), _results(db, 2)
        assert with_sites.keys() == without.keys()
        differing = {k: (with_sites[k], without[k]) for k in with_sites
                     if with_sites[k] != without[k]}
        assert not differing, f"{target}: {len(differing)} cases differ, e.g. " \
                              f"{list(differing.items())[:5]}"
        failing = sum(1 for v in with_sites.values() if v[0] == "ABORT" and v[1] is not None)
        sites = query(db, "SELECT run_id, count(*) FROM crash_sites GROUP BY run_id")
        # what makes it a strong test: many cases died, each left its site
        assert failing > 500, target
        assert sites == [(1, failing + _restarts(with_sites))], target
        compared += len(with_sites)
    assert compared > 10000


def _restarts(results):
    return sum(1 for v in results.values() if v[0] == "RESTART")


@pytest.fixture(scope="module")
def selftest_sites(tmp_path_factory):
    """One run of the functions that crash, one of those that hang (a
    shorter watchdog, two cases each); {function: [site]} of both, each
    site a dict of its row with frames as a list."""
    db = tmp_path_factory.mktemp("sites") / "sites.db"
    trebuchet("run", "--target", "selftest", "--functions", "st_crash,st_abort,st_recurse",
              "--db", db, "--quiet")
    trebuchet("run", "--target", "selftest", "--functions", "st_spin,st_hang", "--cap", 2,
              "--timeout", 1, "--db", db, "--quiet")
    rows = query(db, "SELECT r.function, r.value_names, r.outcome, r.signal, c.signal, c.code,"
                     " c.fault_addr, c.sp, c.stack_depth, c.frames FROM results r"
                     " LEFT JOIN crash_sites c USING (run_id, function, case_index)")
    sites = {}
    for f, values, outcome, signal, caught, code, fault, sp, depth, frames in rows:
        sites.setdefault(f, []).append(dict(
            values=values, outcome=outcome, signal=signal, caught=caught, code=code,
            fault_addr=fault, sp=sp, depth=depth,
            frames=frames.split("\n") if frames else []))
    return db, sites


def _module(frame):
    return frame.rsplit("+0x", 1)[0]


def _check_frames(site):
    assert 1 <= len(site["frames"]) <= 16
    for frame in site["frames"]:
        assert FRAME.match(frame), frame
        module = _module(frame)
        assert module == "[unknown]" or Path(module).is_file(), frame


def test_a_null_dereference_is_found_in_its_function(selftest_sites):
    _, sites = selftest_sites
    assert len(sites["st_crash"]) > 3
    for site in sites["st_crash"]:
        assert (site["outcome"], site["signal"], site["caught"]) == ("ABORT", SIGSEGV, SIGSEGV)
        _check_frames(site)
        assert _module(site["frames"][0]).endswith("/selftest.so")
    null = [s for s in sites["st_crash"] if s["values"] == "int:ZERO"]
    assert len(null) == 1 and null[0]["fault_addr"] == 0 and null[0]["code"] == 1  # SEGV_MAPERR


def test_an_abort_is_found_in_libc_called_from_its_function(selftest_sites):
    _, sites = selftest_sites
    for site in sites["st_abort"]:
        assert (site["outcome"], site["signal"], site["caught"]) == ("ABORT", SIGABRT, SIGABRT)
        assert site["fault_addr"] is None  # raised, not a fault: si_addr is no address
        _check_frames(site)
        modules = [_module(f) for f in site["frames"]]
        assert Path(modules[0]).name == "libc.so.6"
        assert any(m.endswith("/selftest.so") for m in modules[1:])


def test_a_stack_overflow_is_caught_on_the_alternate_stack(selftest_sites):
    _, sites = selftest_sites
    for site in sites["st_recurse"]:
        assert (site["outcome"], site["signal"], site["caught"]) == ("ABORT", SIGSEGV, SIGSEGV)
        _check_frames(site)
        # every frame is the recursion's, and the stack was used to its limit (8 MiB)
        assert len(site["frames"]) == 16
        assert all(_module(f).endswith("/selftest.so") for f in site["frames"])
        assert site["depth"] > 7 << 20


@pytest.mark.parametrize("function, innermost", [("st_spin", "selftest.so"),
                                                 ("st_hang", "libc.so.6")])
def test_a_hang_is_found_where_the_watchdog_stopped_it(selftest_sites, function, innermost):
    """A call that computes gets SIGXCPU from its CPU limit, one asleep
    from the watchdog at its deadline: both stay RESTART."""
    _, sites = selftest_sites
    assert len(sites[function]) == 2
    for site in sites[function]:
        assert (site["outcome"], site["signal"], site["caught"]) == ("RESTART", None, SIGXCPU)
        _check_frames(site)
        modules = [_module(f) for f in site["frames"]]
        assert Path(modules[0]).name == innermost
        assert any(m.endswith("/selftest.so") for m in modules)


def test_export_carries_the_sites(selftest_sites, tmp_path):
    db, sites = selftest_sites
    records = json.loads(trebuchet("export", "--db", db, "--format", "json").stdout)
    null = next(r for r in records if r["function"] == "st_crash" and r["values"] == ["int:ZERO"])
    assert null["crash_signal"] == SIGSEGV and null["fault_addr"] == 0
    assert null["frames"][0].startswith(_module(sites["st_crash"][0]["frames"][0]) + "+0x")
    out = tmp_path / "sites.csv"
    trebuchet("export", "--db", db, "--format", "csv", "--out", out)
    assert "crash_signal,fault_addr,frames" in out.read_text().splitlines()[0]


def test_no_crash_sites_stores_none(tmp_path):
    db = tmp_path / "none.db"
    trebuchet("run", "--target", "selftest", "--functions", "st_crash,st_abort", "--db", db,
              "--quiet", "--no-crash-sites")
    cases = function_cases("selftest")
    assert query(db, "SELECT count(*) FROM results WHERE outcome = 'ABORT'") == \
        [(cases["st_crash"] + cases["st_abort"],)]
    assert query(db, "SELECT count(*) FROM crash_sites") == [(0,)]


def test_merged_shards_keep_their_sites(tmp_path):
    shards = []
    for k in (1, 2):
        shards.append(tmp_path / f"shard{k}.db")
        trebuchet("run", "--target", "selftest", "--functions", "st_crash", "--shard", f"{k}/2",
                  "--db", shards[-1], "--quiet")
    merged = tmp_path / "merged.db"
    trebuchet("merge", *shards, "--out", merged)
    assert query(merged, "SELECT count(*), count(DISTINCT case_index), min(signal)"
                         " FROM crash_sites JOIN runs ON runs.id = run_id") == \
        [(function_cases("selftest")["st_crash"],) * 2 + (SIGSEGV,)]


@pytest.mark.skipif(os.geteuid() != 0 or not root_is_a_mount_point(),
                    reason="the chroot needs root, and a / that is a mount point")
def test_frames_name_files_as_a_chroot_knows_them(tmp_path):
    """In a chroot the sandbox binds its root onto itself (isolation.c); the
    executor, opened before, must still be named by its path there."""
    db = tmp_path / "chroot.db"
    launch = chroot_launcher(tmp_path, proc=True)
    done = subprocess.run(launch([str(TREBUCHET), "run", "--target", "selftest", "--functions",
                                  "st_crash", "--cap", "3", "--db", str(db), "--quiet"]),
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert {r[0] for r in query(db, "SELECT sandbox FROM runs")} == {"full"}
    frames = [f for (text,) in query(db, "SELECT frames FROM crash_sites") for f in text.split("\n")]
    modules = {_module(f) for f in frames}
    assert any(m.endswith("/trebuchet-exec") for m in modules), modules
    assert all(m == "[unknown]" or Path(m).is_file() for m in modules), modules
