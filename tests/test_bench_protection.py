"""`trebuchet bench protection`: TR-96-20's services under each protection
scheme, driven through protbench and stored.  The runs here are tiny (two
schemes, nullc and md5, two repetitions): they hold the command to storing
what protbench printed, the statistics to numbers counted by hand on a
store made here, a stopped run to staying unfinished, and the report's
page to the finished run."""
import json
import os
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from conftest import TREBUCHET, query, sigint_default, trebuchet

from trebuchet.store.protection import ProtectionStore
from trebuchet.study import protection_stats

HAS_PKU = "pku" in Path("/proc/cpuinfo").read_text().split()


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    base = tmp_path_factory.mktemp("protection")
    db, tsv = base / "p.db", base / "p.tsv"
    result = trebuchet("bench", "protection", "--reps", 2, "--schemes", "checks,pkey",
                       "--benchmarks", "nullc,md5", "--db", db, "--tsv", tsv)
    return dict(db=db, tsv=tsv, result=result)


def test_the_store_holds_what_protbench_printed(small_run):
    db, tsv = small_run["db"], small_run["tsv"]
    conn = sqlite3.connect(db)
    conn.execute("CREATE TEMP TABLE printed (rep, scheme, place, bench, size, grain, calls, ns,"
                 " ns_per_call, result)")
    lines = [line.rstrip("\n").split("\t") for line in tsv.read_text().splitlines()
             if not line.startswith(("#", "rep\t"))]
    conn.executemany("INSERT INTO printed VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", lines)
    stored = ("SELECT repetition, scheme, place, benchmark, size, grain, calls, ns, result"
              " FROM protection_results")
    printed = ("SELECT CAST(rep AS INTEGER), scheme, place, bench, CAST(size AS INTEGER),"
               " CAST(grain AS INTEGER), CAST(calls AS INTEGER), CAST(ns AS INTEGER), result"
               " FROM printed")
    assert conn.execute(f"{stored} EXCEPT {printed}").fetchall() == []
    assert conn.execute(f"{printed} EXCEPT {stored}").fetchall() == []
    # 17 nullc blocks (4 B to 256 KB) and 14 md5 granularities, two schemes, two repetitions
    assert conn.execute("SELECT count(*) FROM protection_results").fetchone() == (2 * 2 * 31,)
    assert len(lines) == 2 * 2 * 31
    assert conn.execute("SELECT count(*) FROM protection_runs WHERE finished IS NOT NULL"
                        " AND reps = 2 AND places = 'same'").fetchone() == (1,)
    # every scheme computed the same, and the plain call always ran
    assert conn.execute("SELECT count(*) FROM (SELECT benchmark, size, grain FROM"
                        " protection_results GROUP BY 1, 2, 3 HAVING count(DISTINCT result) > 1)"
                        ).fetchone() == (0,)


def test_the_schemes_are_interleaved_their_order_rotated(small_run):
    rows = query(small_run["db"], "SELECT repetition, scheme, benchmark, size, grain"
                                  " FROM protection_results ORDER BY sequence")
    firsts = {}
    for i in range(0, len(rows), 2):
        pair = rows[i:i + 2]
        assert pair[0][0] == pair[1][0] and pair[0][2:] == pair[1][2:]
        assert {r[1] for r in pair} == {"none", "checks"}
        firsts.setdefault(pair[0][2:], set()).add(pair[0][1])
    assert all(len(s) == 2 for s in firsts.values())


@pytest.mark.skipif(HAS_PKU, reason="this CPU has protection keys: nothing is skipped")
def test_a_scheme_that_cannot_run_here_is_said_once_and_skipped(small_run):
    said = [line for line in small_run["result"].stderr.splitlines() if "skipping pkey" in line]
    assert said == ["trebuchet: bench protection: skipping pkey: the CPU has no memory"
                    " protection keys (no pku in /proc/cpuinfo)"]
    assert query(small_run["db"], "SELECT DISTINCT scheme FROM protection_results ORDER BY 1") == \
        [("checks",), ("none",)]
    assert query(small_run["db"], "SELECT skipped FROM protection_runs")[0][0].startswith("pkey: ")


def test_the_summary_is_printed(small_run):
    out = small_run["result"].stdout
    assert "nullc 1K" in out and "md5 G=512" in out and "over 2 repetitions" in out
    assert out.count("   the paper: ") == 5


def _stored(db):
    try:
        return query(db, "SELECT count(*) FROM protection_results")[0][0]
    except sqlite3.OperationalError:  # the store is being made
        return 0


@pytest.mark.parametrize("stop, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_stopped_run_keeps_what_it_measured_unfinished(tmp_path, stop, code):
    db = tmp_path / "p.db"
    proc = subprocess.Popen([str(TREBUCHET), "bench", "protection", "--reps", "1000",
                             "--schemes", "none", "--benchmarks", "nullc", "--db", str(db)],
                            start_new_session=True, preexec_fn=sigint_default, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while _stored(db) < 1 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)  # polling the store for its first measurement, not timing
    assert proc.poll() is None, "the run ended before it could be stopped"
    # Ctrl-C reaches the whole job, SIGTERM trebuchet alone
    os.killpg(proc.pid, stop) if stop == signal.SIGINT else proc.send_signal(stop)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == code
    assert f"bench protection stopped; what it measured is stored in {db} as run 1, unfinished" \
        in stderr
    assert "Traceback" not in stderr
    assert query(db, "SELECT finished FROM protection_runs") == [(None,)]
    assert _stored(db) >= 1
    conn = sqlite3.connect(db)
    assert protection_stats.protection_runs([(conn, db)]) == []


@pytest.mark.parametrize("args, said", [
    (["--schemes", "none,nosuch"], "wants some of none,checks,"),
    (["--reps", "0"], "--reps"),
    (["--benchmarks", "md6"], "wants some of nullc,md5,nsieve,tdbm"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, said):
    db = tmp_path / "p.db"
    result = trebuchet("bench", "protection", *args, "--db", db, check=False)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()[-1:]) == 1 and said in result.stderr
    assert "Traceback" not in result.stderr
    assert not db.exists()


# A store made by hand: md5 at three granularities (calls 1024, 128, 16), the
# plain call 2 ms whatever the grain (4 ms in a slow third repetition of
# G=512), pageprot 500 ns a call more, rust a quarter more; nullc at 1 KB
# and 16 KB, copying 2 and 0.5 ns a byte more than sharing.
MD5 = {512: 1024, 4096: 128, 32768: 16}


def _hand_rows():
    rows = []
    for rep in (1, 2, 3):
        for grain, calls in MD5.items():
            base = 4_000_000 if (rep, grain) == (3, 512) else 2_000_000
            for scheme, ns in (("none", base), ("pageprot", base + 500 * calls),
                               ("rust", base * 5 // 4)):
                rows.append((rep, scheme, "md5", 524288, grain, calls, ns))
        for grain, per_byte in ((1024, 2.0), (16384, 0.5)):
            rows += [(rep, "none", "nullc", 512, grain, 512, 100_000),
                     (rep, "process-shm", "nullc", 512, grain, 512, 1_000_000),
                     (rep, "process-copy", "nullc", 512, grain, 512,
                      1_000_000 + int(512 * grain * per_byte))]
    return rows


@pytest.fixture
def hand_store(tmp_path):
    db = tmp_path / "hand.db"
    store = ProtectionStore(db)
    schemes = ["none", "pageprot", "rust", "process-copy", "process-shm"]
    store.start(schemes, ["nullc", "md5"], ["same"], 3, True, {"pkey": "no pku"})
    for seq, (rep, scheme, bench, size, grain, calls, ns) in enumerate(_hand_rows(), start=1):
        store.add(dict(repetition=rep, sequence=seq, scheme=scheme, place="same", benchmark=bench,
                       size=size, grain=grain, calls=calls, ns=ns, result="same"))
    store.add_count(dict(scheme="none", benchmark="md5", size=524288, grain=512,
                         instructions=4_000_000, d1_misses=3000, ll_misses=1000))
    store.add_count(dict(scheme="rust", benchmark="md5", size=524288, grain=512,
                         instructions=5_000_000, d1_misses=4000, ll_misses=1000))
    store.finish()
    # a later run, stopped: what it holds must be read by nobody
    store.start(schemes, ["md5"], ["same"], 3, False, {})
    store.add(dict(repetition=1, sequence=1, scheme="none", place="same", benchmark="md5",
                   size=524288, grain=512, calls=1024, ns=1, result="same"))
    store.close()
    return db


def test_the_statistics_of_a_hand_made_store(hand_store):
    conn = sqlite3.connect(hand_store)
    [run] = protection_stats.protection_runs([(conn, hand_store)])
    assert run.info["id"] == 1 and run.repetitions == 3
    page = run.cell("same", "md5", 524288, 512, "pageprot")
    # per repetition: 2.512/2, 2.512/2, 4.512/4
    assert page.ratio.median == pytest.approx(1.256)
    assert (page.ratio.low, page.ratio.high) == pytest.approx((1.128, 1.256))
    assert page.overhead.median == 512_000
    assert run.cell("same", "md5", 524288, 512, "none").ns.median == 2_000_000
    assert run.slopes == {("same", "pageprot"): pytest.approx(1.0)}
    a = {x.number: x for x in run.assertions}
    assert [a[i].verdict for i in range(1, 6)] == \
        ["holds", "holds", "holds", "holds", "does not hold"]
    assert a[1].today == "fitted slopes on md5: pageprot (same) 1.00"
    assert a[2].today == "rust: beta-1 0.25 to 0.25 over md5's 3 granularities (md5 G=512 0.25)"
    # misses per 1,000 instructions: rust 5000/5e6, the plain call 4000/4e6
    assert a[3].today.endswith("rust on md5 G=512, 1.00 against the plain call's 1.00")
    assert "2.000 at blocks up to a page" in a[4].today and "0.500 above" in a[4].today
    # 500 ns a call / 0.25 = 2,000 ns of service; the plain call runs 4e6 / 2e6 a ns
    assert a[5].today == ("pageprot's overhead a call 500 ns, rust's beta-1 0.25 (medians over"
                          " md5): break-even at a service of 2000 ns, 4,000 instructions (the"
                          " plain call runs 2.00 a ns)")
    # Table 5: copying 2 ns a byte more than sharing on nullc's 1 KB block, every repetition
    [(title, paper, got)] = [row for row in run.table5("same") if row[0] == "nullc 1K"]
    assert (paper, list(got)) == (9.37, ["process"])
    assert (got["process"].per_call.median, got["process"].per_byte.median) == (2048, 2.0)
    assert (got["process"].per_call.low, got["process"].per_call.high) == (2048, 2048)
    # Table 7: rust a quarter over the plain call at md5 G=512 in two repetitions of three
    [(title, paper, cells)] = run.software_costs("same")
    assert (title, paper, list(cells)) == ("md5 G=512", 0.61, ["rust"])
    # and in instructions: 5e6 counted under rust against the plain call's 4e6
    assert run.instruction_beta("rust", cells["rust"]) == pytest.approx(0.25)


def test_the_report_page_draws_the_finished_run(hand_store, tmp_path):
    out = tmp_path / "report"
    trebuchet("report", "--db", hand_store, "--out", out)
    page = (out / "protection.html").read_text()
    assert page.count("<tr><td>") >= 5 and "does not hold" in page
    assert "Interval(" not in page and "None" not in page and "{'" not in page
    assert "Not run here: pkey: no pku." in page
    summary = json.loads((out / "summary.json").read_text())
    assert [p["run"]["id"] for p in summary["protection"]] == [1]
    drawn = summary["figures"]
    assert drawn["i_protection_overhead"]["lines"]["pageprot"] == \
        [[16.0, 8.0], [128.0, 64.0], [1024.0, 512.0]]
    assert all((out / f).is_file() for f in drawn["g_protection_md5"]["files"])
    assert drawn["j_protection_normalized"]["lines"]["rust"] == [[512.0, 0.25], [4096.0, 0.25], [32768.0, 0.25]]
    # Figure 6: copying's premium a call, in microseconds, against the block
    assert drawn["k_protection_copy"]["lines"] == {"process: nullc": [[1024.0, 2.048], [16384.0, 8.192]]}
    assert "beside the paper's Table 5" in page and "beside the paper's Table 7" in page
    assert 'href="protection.html"' in (out / "index.html").read_text()


def test_instructions_are_counted_for_each_measured_instance(tmp_path):
    db = tmp_path / "p.db"
    trebuchet("bench", "protection", "--reps", 1, "--schemes", "none", "--benchmarks", "nullc",
              "--instructions", "--db", db)
    counted = query(db, "SELECT r.grain, i.instructions FROM protection_results r JOIN"
                        " protection_instructions i USING (run_id, scheme, benchmark, size, grain)"
                        " ORDER BY r.grain")
    assert len(counted) == 17 == query(db, "SELECT count(*) FROM protection_results")[0][0]
    # nullc touches each page of its block: the same work up to a page, more with each page
    within_a_page = {n for grain, n in counted if grain <= 4096}
    assert len(within_a_page) == 1 and within_a_page.pop() > 0
    beyond = [n for grain, n in counted if grain >= 4096]
    assert all(a < b for a, b in zip(beyond, beyond[1:]))
