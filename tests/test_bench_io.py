"""`trebuchet bench io`: the study's I/O benchmarks on stdio, SFIO and
Robust SFIO.  The runs here are tiny (1 MiB files): they hold the command
to storing what it measured, interleaved, the three builds to doing the
same work, and the report to the store's numbers; how fast the libraries
are is the full-size command's job, not a test's."""
import json
import sqlite3
import statistics
import subprocess

import pytest

from conftest import ROOT, query, trebuchet

from trebuchet.store.database import schema_version
from trebuchet.study import bench_io, resident

LIBRARIES = ("stdio", "sfio", "robust_sfio")
PROGRAMS = {lib: ROOT / "build" / "bench" / "io" / f"iobench_{lib}" for lib in LIBRARIES}


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    base = tmp_path_factory.mktemp("bench")
    db = base / "bench.db"
    result = trebuchet("bench", "io", "--size-mib", 1, "--repeat", 3, "--benchmarks", "getc,read",
                       "--blocks", 757, "--db", db, env={"TMPDIR": str(base)})
    return dict(db=db, base=base, stdout=result.stdout)


def test_every_library_is_stored_in_every_repetition(small_run):
    rows = query(small_run["db"], "SELECT benchmark, block, repetition, library, sequence"
                                  " FROM bench_results ORDER BY sequence")
    assert len(rows) == 2 * 3 * 3
    assert {(b, block) for b, block, *_ in rows} == {("getc", 0), ("read", 757)}
    assert [r[4] for r in rows] == list(range(1, 19))
    # interleaved: each (repetition, configuration) runs the three libraries
    # back to back, and the one that goes first changes between repetitions
    firsts = {}
    for i in range(0, len(rows), 3):
        group = rows[i:i + 3]
        assert len({(b, block, rep) for b, block, rep, _, _ in group}) == 1
        assert sorted(r[3] for r in group) == sorted(LIBRARIES)
        firsts.setdefault(group[0][:2], set()).add(group[0][3])
    assert all(len(libs) == 3 for libs in firsts.values())
    assert query(small_run["db"], "SELECT count(*) FROM bench_runs WHERE finished IS NOT NULL"
                                  " AND repeat = 3 AND size_mib = 1 AND cold = 0") == [(1,)]
    assert query(small_run["db"], "SELECT count(*) FROM bench_results"
                                  " WHERE usr_s + sys_s <= 0 OR elapsed_s <= 0") == [(0,)]


def test_the_table_is_printed_and_the_scratch_files_are_gone(small_run):
    out = small_run["stdout"]
    assert "getc" in out and "read757" in out and "robust/sfio cpu" in out
    assert "median of 3 repetitions" in out
    assert not list(small_run["base"].glob("trebuchet-bench-io-*"))


def _run(library, benchmark, block, input_path, output, size):
    said = subprocess.run([str(PROGRAMS[library]), benchmark, str(block), str(input_path),
                           str(output), str(size)], capture_output=True, text=True, check=True)
    return said.stdout, output.read_bytes() if output.exists() else None


@pytest.mark.parametrize("benchmark", bench_io.BENCHMARKS)
def test_the_three_builds_do_the_same_work(tmp_path, benchmark):
    size = 300_000
    source = tmp_path / "input.txt"
    bench_io.make_input(source, size)
    done = {lib: _run(lib, benchmark, 757, source, tmp_path / f"out-{lib}", size)
            for lib in LIBRARIES}
    said, written = done["stdio"]
    assert f"moved={size}" in said or benchmark in ("revrd", "seekrw")
    for lib in LIBRARIES[1:]:
        assert done[lib] == (said, written), f"{lib} differs from stdio on {benchmark}"
    if benchmark == "copyrw":
        assert written == source.read_bytes()
    if benchmark in ("putc", "write"):
        assert len(written) == size
    if benchmark == "records":
        lines = written.decode().splitlines()
        assert len(lines) == source.read_bytes().count(b"\n")
        assert lines[15].startswith("16:00000016 ")


@pytest.mark.parametrize("args, says", [
    (["--benchmarks", "getc,nosuch"], "wants some of copyrw,"),
    (["--blocks", "0"], "wants block sizes"),
    (["--blocks", "8192,abc"], "wants block sizes"),
    (["--size-mib", "0"], "at least 1"),
    (["--repeat", "0"], "at least 1"),
    (["--repeat", "two"], "whole number"),
])
def test_bad_options_are_one_line_and_exit_2(tmp_path, args, says):
    result = trebuchet("bench", "io", *args, "--db", tmp_path / "b.db", check=False)
    assert result.returncode == 2
    assert says in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "b.db").exists()


def test_a_store_of_an_older_schema_version_is_refused_in_one_line(tmp_path):
    db = tmp_path / "old.db"
    schema = (ROOT / "schemas" / "results.sql").read_text()
    now = schema_version()
    with sqlite3.connect(db) as conn:
        conn.executescript(schema.split("-- One `trebuchet bench io`")[0]
                           .replace(f"user_version = {now}", f"user_version = {now - 1}"))
    result = trebuchet("bench", "io", "--size-mib", 1, "--repeat", 1, "--benchmarks", "getc",
                       "--db", db, check=False)
    assert result.returncode == 2
    assert result.stderr.strip() == (f"trebuchet: {db}: store has schema version {now - 1}, this"
                                     f" trebuchet reads version {now}")
    assert query(db, "SELECT name FROM sqlite_master WHERE name LIKE 'bench%'") == []


def test_cold_drops_the_cache_or_says_in_one_line_why_not(tmp_path):
    result = trebuchet("bench", "io", "--cold", "--size-mib", 1, "--repeat", 1,
                       "--benchmarks", "getc", "--db", tmp_path / "c.db", check=False)
    if result.returncode == 0:
        assert query(tmp_path / "c.db", "SELECT cold FROM bench_runs") == [(1,)]
    else:
        assert result.returncode == 2
        assert "--cold cannot drop the page cache" in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1


@pytest.fixture(scope="module")
def report(small_run):
    out = small_run["base"] / "report"
    trebuchet("report", "--db", small_run["db"], "--out", out)
    return dict(out=out, summary=json.loads((out / "summary.json").read_text()))


def _independent(db):
    """{(benchmark, block, library): (rows of usr, sys, elapsed)} straight from SQL."""
    got = {}
    for b, block, lib, usr, sys_, el in query(
            db, "SELECT benchmark, block, library, usr_s, sys_s, elapsed_s FROM bench_results"):
        got.setdefault((b, block, lib), []).append((usr, sys_, el))
    return got


def test_figures_and_summary_hold_the_stores_medians(small_run, report):
    rows = _independent(small_run["db"])
    summary, figures = report["summary"], report["summary"]["figures"]
    (bench,) = summary["bench"]
    labels = {c["label"]: (c["benchmark"], c["block"]) for c in bench["configs"]}
    assert figures["e_bench"]["labels"] == figures["f_bench"]["labels"] == list(labels)
    for i, label in enumerate(labels):
        config = bench["configs"][i]
        for lib in LIBRARIES:
            runs = rows[(*labels[label], lib)]
            cpu = sorted(u + s for u, s, _ in runs)
            elapsed = sorted(e for _, _, e in runs)
            assert config["libraries"][lib]["cpu"]["median"] == pytest.approx(statistics.median(cpu))
            assert config["libraries"][lib]["usr"]["median"] == \
                pytest.approx(statistics.median(u for u, _, _ in runs))
            assert figures["f_bench"]["bars"][lib][i] == pytest.approx(statistics.median(cpu),
                                                                         abs=1e-6)
            assert figures["e_bench"]["bars"][lib][i] == pytest.approx(statistics.median(elapsed),
                                                                         abs=1e-6)
            # three values: no 95% interval exists, so the whiskers span them all
            assert figures["f_bench"]["whiskers"][lib][i] == pytest.approx([cpu[0], cpu[-1]],
                                                                             abs=1e-6)
        assert config["libraries"]["sfio"]["cpu"]["coverage"] == pytest.approx(0.75)
    # and the titles say so, rather than the 95% that six repetitions reach
    for figure in ("e_bench", "f_bench"):
        assert figures[figure]["title"].endswith("(median of 3, whiskers: 75.0% interval)")


def test_table_2_holds_the_per_repetition_ratio_and_the_studys_figures(small_run, report):
    by_rep = {}
    for b, block, rep, lib, usr, sys_ in query(
            small_run["db"], "SELECT benchmark, block, repetition, library, usr_s, sys_s"
                             " FROM bench_results"):
        by_rep.setdefault((b, block), {}).setdefault(rep, {})[lib] = usr + sys_
    (bench,) = report["summary"]["bench"]
    ratios = []
    for config in bench["configs"]:
        reps = by_rep[config["benchmark"], config["block"]].values()
        want = statistics.median(r["robust_sfio"] / r["sfio"] for r in reps)
        assert config["robust_over_sfio"]["median"] == pytest.approx(want)
        ratios.append(want)
    assert bench["mean_robust_over_sfio"] == pytest.approx(statistics.mean(ratios))
    page = (report["out"] / "index.html").read_text()
    assert "Table 2: usr and sys seconds, SFIO and Robust SFIO" in page
    assert "Robust / SFIO, usr+sys [75.0% interval]" in page and "95% interval" not in page
    assert "only ~0%-15% (avg. of 2%) slower" in page and "average performance penalty of 1%" in page
    assert f"{bench['mean_robust_over_sfio']:.3f}" in page
    assert "figure_e_bench_elapsed.png" in page and "figure_f_bench_cpu.png" in page
    for leak in ("<built-in", "object at 0x", "Interval(", "{'"):
        assert leak not in page


def _locked_kib():
    """What the kernel counts as locked in this process (VmLck)."""
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmLck:"))


def test_files_are_held_in_memory_while_measuring_and_let_go_after(tmp_path):
    files = [tmp_path / "input.txt", tmp_path / "out-sfio"]
    bench_io.make_input(files[0], 3 << 20)
    files[1].write_bytes(bytes(1 << 20))
    before = _locked_kib()
    with resident.held(files) as not_held:
        assert not_held is None
        assert _locked_kib() - before == (3 << 10) + (1 << 10)
    assert _locked_kib() == before


def test_files_that_would_crowd_memory_are_not_held_and_the_reason_says_so(tmp_path, monkeypatch):
    path = tmp_path / "input.txt"
    path.write_bytes(bytes(1 << 20))
    monkeypatch.setattr(resident, "available_bytes", lambda: 2 << 30)
    before = _locked_kib()
    with resident.held([path]) as not_held:
        assert not_held == "1 MiB of files would leave less than 2.0 GiB of the 2.0 GiB available"
        assert _locked_kib() == before
