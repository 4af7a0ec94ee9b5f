"""`trebuchet memcheck` on a library whose latent errors were written on
purpose (tests/latent/latent.c): four functions that never crash a plain
run but each read or write memory it must not, two clean ones.  Counted by
hand: with 3 cases drawn per function, the 12 cases of the four bad ones
are CORRUPT, each with the kind of its own error, and no case of a clean
one is, not even where the harness's own value construction erred."""
import collections
import json
import shutil
import sqlite3
import subprocess

import pytest

from conftest import ROOT, query, trebuchet

LATENT = ROOT / "tests" / "latent" / "latent.yaml"
# function: (memcheck's kind, words of its text): what latent.c does
EXPECTED = {
    "lt_overflow": ("InvalidWrite", "Invalid write of size 1", "0 bytes after a block of size 1"),
    "lt_overread": ("InvalidRead", "Invalid read of size 1", "0 bytes after a block of size 4"),
    "lt_use_after_free": ("InvalidRead", "Invalid read of size 4", "inside a block of size 4 free'd"),
    "lt_uninit": ("UninitCondition", "Conditional jump or move depends on uninitialised value"),
}
# lt_clean_sloppy: lt_clean on a value whose setup writes past its block
CLEAN = ("lt_clean", "lt_clean_string", "lt_clean_sloppy")

pytestmark = pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind not installed")


@pytest.fixture(scope="module")
def checked(tmp_path_factory):
    db = tmp_path_factory.mktemp("memcheck") / "latent.db"
    trebuchet("run", "--target", LATENT, "--db", db, "--quiet")
    out = trebuchet("memcheck", "--db", db, "--sample", "3", "--quiet").stdout
    return db, out


def rows(db):
    return query(db, "SELECT function, case_index, corrupt, outcome, kind, what, frames"
                     " FROM memcheck ORDER BY function, case_index")


def test_each_latent_error_is_corrupt_with_its_kind_and_no_clean_function_is(checked):
    db, _ = checked
    found = rows(db)
    assert len(found) == 19  # lt_clean_sloppy has one case
    for function, case, corrupt, outcome, kind, what, frames in found:
        assert outcome == "PASS"
        if function in CLEAN:
            assert (corrupt, kind, what, frames) == (0, None, None, None), function
            continue
        expected_kind, *words = EXPECTED[function]
        assert (corrupt, kind) == (1, expected_kind), function
        assert all(w in what for w in words), what
        # the stack from the error down to the call shim, nothing of the harness
        assert frames.splitlines()[0].startswith(f"{function} (latent.so) {LATENT.parent}/latent.c:")
        assert frames.splitlines()[-1].startswith(f"call_{function} (latent.so)")


def test_the_summary_is_the_stored_rows_counted_again(checked):
    db, out = checked
    lines = out.splitlines()
    assert lines[0] == ("latent (run 1): 19 PASS cases checked under memcheck in 7 functions,"
                        " 12 CORRUPT; normalized CORRUPT rate 57.14%")
    # recounted in SQL: each function's share, then their mean
    [(mean,)] = query(db, "SELECT avg(r) FROM (SELECT avg(corrupt) AS r FROM memcheck"
                          " GROUP BY function)")
    assert f"{mean:.2%}" == "57.14%"
    assert "  lt_clean: 0 of 3 CORRUPT, 0.0% (95% interval 0.0% to 56.1%)" in lines
    assert "  lt_overflow: 3 of 3 CORRUPT, 100.0% (95% interval 43.9% to 100.0%)" in lines
    kinds = [line for line in lines if line.startswith("  ") and "): " in line and "e.g." in line]
    assert [k.split(":")[0] for k in kinds] == [
        "  invalid read (InvalidRead)", "  invalid write (InvalidWrite)",
        "  uninitialised value decides a branch (UninitCondition)"]
    assert "invalid read (InvalidRead): 6 cases" in kinds[0]


def test_it_resumes_and_a_second_pass_of_the_same_sample_finds_the_same(checked, tmp_path):
    db, out = checked
    again = trebuchet("memcheck", "--db", db, "--sample", "3").stdout
    assert "(0 cases checked now" in again
    # the whole sample checked afresh: the same cases, the same verdicts
    copy = tmp_path / "again.db"
    shutil.copy(db, copy)
    with sqlite3.connect(copy) as conn:
        conn.execute("DELETE FROM memcheck")
    trebuchet("memcheck", "--db", copy, "--sample", "3", "--quiet")
    assert [r[:5] for r in rows(copy)] == [r[:5] for r in rows(db)]


def test_a_case_checked_among_others_is_judged_as_under_a_valgrind_of_its_own(checked):
    """memcheck runs a batch of cases under one Valgrind, each test process
    forked under it; `repro --memcheck` and the gate's reruns run one case
    under a Valgrind of its own.  The first case of each function, both
    ways: the same verdict, kind, text and stack."""
    from concurrent.futures import ThreadPoolExecutor

    from trebuchet.build import plugins
    from trebuchet.memcheck import valgrind
    from trebuchet.spec import load as specs

    db, _ = checked
    firsts = query(db, "SELECT function, min(case_index) FROM memcheck GROUP BY function")
    plugin = plugins.build_plugin(specs.load(LATENT), quiet=True)
    with ThreadPoolExecutor(2) as pool:
        alone = list(pool.map(lambda fc: valgrind.check_case(plugin, *fc, None, 30), firsts))
    batched = {(r[0], r[1]): r[2:] for r in rows(db)}
    assert len(alone) == 7
    for c in alone:
        assert (int(c.corrupt), c.outcome, c.kind, c.what, c.frames) == \
            batched[(c.function, c.case)], c.function


def test_an_unknown_target_or_function_is_one_line(checked):
    db, _ = checked
    refused = trebuchet("memcheck", "--db", db, "--target", "nosuch", check=False)
    assert refused.returncode == 2
    assert refused.stderr == f"trebuchet: {db}: no finished run of target 'nosuch' in this store\n"
    refused = trebuchet("memcheck", "--db", db, "--functions", "lt_nosuch", check=False)
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert "target latent has no function 'lt_nosuch'" in refused.stderr


def test_a_corrupt_cases_reproducer_shows_it_under_make_memcheck(checked, tmp_path):
    db, _ = checked
    [(function, case)] = query(db, "SELECT function, case_index FROM memcheck WHERE corrupt"
                                   " AND function = 'lt_overflow' ORDER BY case_index LIMIT 1")
    [(clean,)] = query(db, "SELECT case_index FROM memcheck WHERE function = 'lt_clean' LIMIT 1")
    for name, index, out in ((function, case, tmp_path / "bad"), ("lt_clean", clean, tmp_path / "ok")):
        trebuchet("repro", "--target", LATENT, "--function", name, "--case", index,
                  "--emit-c", out)
    bad = subprocess.run(["make", "-s", "-C", tmp_path / "bad", "memcheck"], capture_output=True,
                         text=True)
    assert bad.returncode != 0 and "Invalid write of size 1" in bad.stderr
    ok = subprocess.run(["make", "-s", "-C", tmp_path / "ok", "memcheck"], capture_output=True,
                        text=True)
    assert ok.returncode == 0, ok.stderr


def test_corrupt_in_the_report_the_export_and_the_baseline(checked, tmp_path):
    db, _ = checked
    trebuchet("report", "--db", db, "--out", tmp_path / "report")
    index = (tmp_path / "report" / "index.html").read_text()
    assert ('<td>ours</td><td>latent</td><td><a href="latent-corrupt-ours.html">Corrupt</a></td>'
            "<td>Valgrind's memcheck, over a sample of its PASS cases</td>") in index.replace("&#39;", "'")
    assert '<td class="num">7</td><td class="num">57.14%</td>' in index
    assert "no run in this report has been checked under memcheck" not in index  # the stored pages hold the other case
    # beside the target's failure rates, as plainly
    assert ("Under Valgrind's memcheck, <b>57.14% Corrupt</b> (normalized): of the 19\n  PASS cases"
            " it checked, in 7 functions, 12 returned") in index.replace("&#39;", "'")
    page = (tmp_path / "report" / "latent-corrupt-ours.html").read_text()
    assert ('<td class="num">3</td>\n      <td class="num">3</td><td class="num">100.00%</td>'
            '<td class="num">[43.9, 100.0]</td>') in page
    exported = json.loads(trebuchet("export", "--db", db).stdout)
    verdicts = collections.Counter(r["corrupt"] for r in exported)
    # 19 checked, 12 of them CORRUPT; the rest of the 43 cases not checked
    assert verdicts == {True: 12, False: 7, None: 43 - 19}
    assert {r["corrupt_kind"] for r in exported if r["corrupt"]} == {
        "InvalidWrite", "InvalidRead", "UninitCondition"}
    baseline = tmp_path / "latent.baseline"
    trebuchet("baseline", "--db", db, "--target", "latent", "--out", baseline)
    functions = json.loads(baseline.read_text())["functions"]
    assert (functions["lt_overflow"]["corrupt"], functions["lt_overflow"]["corrupt_rate"]) == (3, 100.0)
    assert (functions["lt_clean"]["corrupt"], functions["lt_clean"]["corrupt_rate"]) == (0, 0.0)


def test_the_watchdog_repro_memcheck_scales_is_the_executor_s_default():
    """src/trebuchet/harness/executor.py's DEFAULT_TIMEOUT_MS restates harness/options.c's."""
    import re

    from trebuchet.harness import executor

    options = (ROOT / "harness" / "options.c").read_text()
    [stated] = re.findall(r"\.timeout_ms = (\d+),", options)
    assert int(stated) == executor.DEFAULT_TIMEOUT_MS
