"""Sharded campaigns: `run --shard K/N` deals a campaign's drawn cases into
N balanced shards, and `merge` joins the shards' stores into one run equal,
case by case, to the campaign run whole.  A merge that cannot be right is
refused in one line, exit 2, and leaves its output as it was."""
import hashlib
import json
import os
import shutil
import signal
import sqlite3

import pytest

from conftest import outcomes, query, read_progress_until, start_run, trebuchet
from trebuchet.core.exitcodes import Exit

N = 3
# What a case's result is, as `trebuchet export` writes it.
RESULT = ("outcome", "signal", "errno", "exit_status", "ret", "error_reported", "values")
# fprintf(stream, "%d") with no argument prints whatever the argument
# register holds, left there by the harness just before the call (likely
# the calling mark, made from the result channel's per-case nonce, random
# by design).  The length printed, fprintf's return value, differs between
# any two runs, sharded or not, and between two `repro`s of one case.
# (Measured: two unsharded stdio runs differ in `ret` on 7 of 35259 cases,
# all of them fprintf with format:PCT_D.)  Every other field of such a
# case is compared.
UNSET_ARGUMENT = "format:PCT_D"


def exported(db):
    """{(function, case): {field: value}} of `trebuchet export --format json`."""
    records = json.loads(trebuchet("export", "--db", db, "--format", "json").stdout)
    return {(r["function"], r["case"]): {k: r[k] for k in RESULT} for r in records}


def rows(db):
    """Everything a store holds, to show that nothing in it changed."""
    return [query(db, f"SELECT * FROM {table} ORDER BY 1, 2")
            for table in ("runs", "functions", "results")]


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def stdio(tmp_path_factory):
    """The full stdio campaign at the default cap, run whole and in 3 shards,
    and the shards merged."""
    base = tmp_path_factory.mktemp("shards")
    whole, merged = base / "whole.db", base / "merged.db"
    trebuchet("run", "--target", "stdio", "--db", whole, "--quiet")
    shards, lines = [], []
    for k in range(1, N + 1):
        shards.append(base / f"shard-{k}.db")
        lines.append(trebuchet("run", "--target", "stdio", "--shard", f"{k}/{N}",
                               "--db", shards[-1]).stdout)
    before = [rows(s) for s in shards]
    merge = trebuchet("merge", *shards, "--out", merged)
    return dict(base=base, whole=whole, shards=shards, merged=merged, lines=lines,
                before=before, merge=merge.stdout)


def test_merged_shards_equal_the_whole_campaign_case_by_case(stdio):
    whole, merged = exported(stdio["whole"]), exported(stdio["merged"])
    assert len(whole) > 30000
    assert merged.keys() == whole.keys()
    unset = {key for key, r in whole.items() if UNSET_ARGUMENT in r["values"]}
    assert len(unset) < len(whole) / 50
    for key in unset:
        del whole[key]["ret"], merged[key]["ret"]
    differing = {k: (whole[k], merged[k]) for k in whole if whole[k] != merged[k]}
    assert not differing, f"{len(differing)} cases differ, e.g. {list(differing.items())[:3]}"


def test_the_merged_run_is_one_finished_run_of_the_whole_campaign(stdio):
    shards = [query(s, "SELECT started, finished, host FROM runs")[0] for s in stdio["shards"]]
    [run] = query(stdio["merged"], "SELECT shard, shards, started, finished, host, seed, cap,"
                                   " functions, spec_digest FROM runs")
    assert run[:4] == (1, 1, min(s[0] for s in shards), max(s[1] for s in shards))
    assert run[4] == shards[0][2]  # one machine ran every shard
    assert run[5:] == query(stdio["whole"], "SELECT seed, cap, functions, spec_digest"
                                            " FROM runs")[0]
    functions = "SELECT name, cases_total, cases_drawn, cases_run FROM functions ORDER BY name"
    assert query(stdio["merged"], functions) == query(stdio["whole"], functions)
    assert stdio["merge"].startswith("merged 3 shards: stdio: ")


def test_shards_are_balanced_and_nothing_in_them_changed(stdio):
    sizes = [query(s, "SELECT count(*) FROM results")[0][0] for s in stdio["shards"]]
    assert max(sizes) - min(sizes) <= 1
    assert sum(sizes) == query(stdio["whole"], "SELECT count(*) FROM results")[0][0]
    for k, s in enumerate(stdio["shards"], 1):
        assert query(s, "SELECT shard, shards, finished IS NOT NULL FROM runs") == [(k, N, 1)]
    assert [rows(s) for s in stdio["shards"]] == stdio["before"]


def test_a_shard_run_says_which_shard_it_holds_and_how_to_merge(stdio, tmp_path):
    line = stdio["lines"][1].strip()
    assert len(line.splitlines()) == 1
    assert "shard 2 of 3" in line and "trebuchet merge" in line
    # (a run of the whole campaign says nothing of shards: tests/data/expected)
    trebuchet("report", "--db", stdio["shards"][1], "--out", tmp_path)
    for page in ("index.html", "stdio-fwrite.html"):
        assert "holds only shard 2 of 3" in (tmp_path / page).read_text()


def test_merge_appends_to_a_store_leaving_its_runs_as_they_were(stdio, tmp_path):
    out = tmp_path / "history.db"
    shutil.copy(stdio["whole"], out)
    before = rows(out)
    trebuchet("merge", *stdio["shards"], "--out", out)
    after = rows(out)
    assert [[r for r in table if r[0] == 1] for table in after] == before
    assert query(out, "SELECT id, shard, shards FROM runs") == [(1, 1, 1), (2, 1, 1)]
    assert outcomes(out, 2) == outcomes(out, 1)


def test_an_interrupted_shard_is_refused_then_resumed_as_the_same_shard(stdio, tmp_path):
    killed = tmp_path / "shard-2.db"
    run = start_run(killed, "--target", "stdio", "--shard", f"2/{N}")
    # results are committed every 512 (or every second): 2000 shown, 1536 stored
    read_progress_until(run, lambda done, _: done >= 2000)
    os.killpg(run.pid, signal.SIGKILL)
    run.wait()
    whole_shard = stdio["shards"][1]
    assert 0 < query(killed, "SELECT count(*) FROM results")[0][0] < \
        query(whole_shard, "SELECT count(*) FROM results")[0][0], "the kill must land mid-shard"

    shards = [stdio["shards"][0], killed, stdio["shards"][2]]
    refused = trebuchet("merge", *shards, "--out", tmp_path / "m.db", check=False)
    assert refused.returncode == Exit.INPUT
    assert refused.stderr.count("\n") == 1
    assert f"{killed}: shard 2 of 3" in refused.stderr and "unfinished" in refused.stderr
    assert f"--db {killed} --resume" in refused.stderr
    assert not (tmp_path / "m.db").exists()

    trebuchet("run", "--target", "stdio", "--db", killed, "--resume", "--quiet")
    assert query(killed, "SELECT shard, shards, finished IS NOT NULL FROM runs") == [(2, N, 1)]
    assert outcomes(killed) == outcomes(whole_shard)
    trebuchet("merge", *shards, "--out", tmp_path / "m.db")
    assert outcomes(tmp_path / "m.db") == outcomes(stdio["whole"])


# Refusals, over a small selftest campaign: each is one line naming what
# differs, exit 2, and the output is neither created nor changed.
CAMPAIGN = ("--target", "selftest", "--functions", "st_return,st_crash", "--cap", "60")


@pytest.fixture(scope="module")
def small(tmp_path_factory, stdio):
    base = tmp_path_factory.mktemp("small")

    def shard(name, k, *more):
        trebuchet("run", *CAMPAIGN, "--shard", f"{k}/{N}", "--db", base / name, "--quiet", *more)
        return base / name

    stores = {f"shard-{k}": shard(f"shard-{k}.db", k) for k in range(1, N + 1)}
    stores["again-2"] = shard("again-2.db", 2)
    stores["seed-3"] = shard("seed-3.db", 3, "--seed", "2")
    stores["stdio-3"] = stdio["shards"][2]
    out = base / "existing.db"
    trebuchet("merge", stores["shard-1"], stores["shard-2"], stores["shard-3"], "--out", out)
    return dict(base=base, stores=stores, existing=out)


@pytest.mark.parametrize("given, names_file, says", [
    (["shard-1", "shard-2", "seed-3"], "seed-3", "seed is 2 here but 1 in"),
    (["shard-1", "shard-3"], None, "selftest: shard 2 of 3 missing"),
    (["shard-3", "shard-1"], None, "selftest: shard 2 of 3 missing"),
    (["shard-1", "shard-2", "again-2", "shard-3"], "again-2", "shard 2 of 3 again"),
    (["shard-1", "shard-2", "stdio-3"], "stdio-3", "target is 'stdio' here but 'selftest'"),
])
def test_a_merge_that_cannot_be_right_is_refused(small, given, names_file, says):
    stores = [small["stores"][name] for name in given]
    fresh = small["base"] / "fresh.db"
    was = digest(small["existing"])
    for out in (fresh, small["existing"]):
        r = trebuchet("merge", *stores, "--out", out, check=False)
        assert r.returncode == Exit.INPUT and r.stdout == ""
        assert r.stderr.count("\n") == 1, r.stderr
        assert says in r.stderr
        if names_file:
            assert r.stderr.startswith(f"trebuchet: {small['stores'][names_file]}: ")
    assert not fresh.exists()
    assert digest(small["existing"]) == was


def test_the_output_may_not_be_one_of_the_shards(small):
    shards = [small["stores"][f"shard-{k}"] for k in range(1, N + 1)]
    was = digest(shards[0])
    r = trebuchet("merge", *shards, "--out", shards[0], check=False)
    assert r.returncode == Exit.INPUT and "is one of the shards" in r.stderr
    assert digest(shards[0]) == was


def test_a_case_in_two_shards_leaves_no_half_merged_run(small, tmp_path):
    """Shard 2 holds one of shard 1's cases in place of its own: the counts
    add up, and the copy fails only after shard 1's rows are in.  The
    transaction takes all of it back."""
    shards = [shutil.copy(small["stores"][f"shard-{k}"], tmp_path) for k in range(1, N + 1)]
    taken = query(shards[0], "SELECT function, max(case_index) FROM results")[0]
    with sqlite3.connect(shards[1]) as conn:
        conn.execute("UPDATE results SET case_index = ? WHERE function = ? AND case_index ="
                     " (SELECT min(case_index) FROM results WHERE function = ?)",
                     (taken[1], taken[0], taken[0]))
    existing = shutil.copy(small["existing"], tmp_path / "existing.db")
    was = digest(existing)
    for out in (tmp_path / "fresh.db", existing):
        r = trebuchet("merge", *shards, "--out", out, check=False)
        assert r.returncode == Exit.INPUT and r.stderr.count("\n") == 1
        assert f"{shards[1]} holds a case another shard holds too" in r.stderr
    assert not (tmp_path / "fresh.db").exists()
    assert digest(existing) == was
