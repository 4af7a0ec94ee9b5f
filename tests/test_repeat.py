"""`run --repeat N`: every case N times; a case whose outcome or signal is
not the same every time is FLAKY, stored with the run and listed by the
report; a deterministic campaign has none.  And the 95% Wilson intervals
of a sampled function's rates."""
import json

import pytest

from conftest import query, trebuchet
from trebuchet.core.rates import wilson


def test_a_case_that_alternates_is_flaky_and_listed(sandbox_dirs, share, tmp_path):
    _, scratch_parent = sandbox_dirs
    env = {"TMPDIR": str(scratch_parent), "TREBUCHET_SHARE": str(share)}
    toggle = share / "st_flaky.toggle"  # st_flaky fails on every other call
    toggle.write_text("1")
    toggle.chmod(0o666)
    db = tmp_path / "r.db"
    out = trebuchet("run", "--target", "selftest", "--functions", "st_flaky,st_return",
                    "--cap", "20", "--repeat", "3", "--db", db, env=env).stdout
    assert "every case ran 3 times: 1 FLAKY" in out
    assert query(db, "SELECT times FROM repeats") == [(3,)]
    assert query(db, "SELECT function, case_index, outcomes FROM flaky") == [
        ("st_flaky", 0, "ABORT SIGSEGV, PASS, ABORT SIGSEGV")]
    trebuchet("report", "--db", db, "--out", tmp_path / "rep")
    (selftest,) = json.loads((tmp_path / "rep" / "summary.json").read_text())["targets"]
    assert selftest["repeated"] == 3
    assert selftest["flaky"] == [dict(function="st_flaky", case=0,
                                      outcomes="ABORT SIGSEGV, PASS, ABORT SIGSEGV")]
    page = (tmp_path / "rep" / "index.html").read_text()
    assert "every case ran 3 times; 1 FLAKY" in page
    assert "trebuchet repro --target selftest --function st_flaky --case 0" in page


def test_a_deterministic_campaign_has_no_flaky_case(tmp_path):
    db = tmp_path / "d.db"
    trebuchet("run", "--target", "stdio", "--functions", "fclose,fseek,fputs", "--cap", "150",
              "--repeat", "2", "--db", db, "--quiet")
    assert query(db, "SELECT times FROM repeats") == [(2,)]
    assert query(db, "SELECT count(*) FROM flaky") == [(0,)]


@pytest.mark.parametrize("part, whole, low, high", [
    # Newcombe, Statistics in Medicine 17 (1998), Table I, method 3 (score)
    (81, 263, 25.53, 36.62), (15, 148, 6.24, 16.05), (0, 20, 0.0, 16.11), (1, 29, 0.61, 17.18),
])
def test_wilson_intervals_are_newcombes(part, whole, low, high):
    got = wilson(part, whole)
    assert got == (pytest.approx(low, abs=0.01), pytest.approx(high, abs=0.01))


def test_a_sampled_functions_rates_carry_intervals(tmp_path):
    db = tmp_path / "w.db"
    trebuchet("run", "--target", "stdio", "--functions", "fclose,fseek", "--cap", "120",
              "--db", db, "--quiet")
    trebuchet("report", "--db", db, "--out", tmp_path / "rep")
    functions = {f["name"]: f for f in
                 json.loads((tmp_path / "rep" / "summary.json").read_text())["functions"]}
    totals = dict(query(db, "SELECT name, cases_total FROM functions"))
    assert functions["fclose"]["sampled"] is (totals["fclose"] > 120) is False
    assert functions["fclose"]["abort_interval"] is None  # every case run: exact
    fseek = functions["fseek"]
    assert fseek["sampled"] and totals["fseek"] > 120
    tested = fseek["cases"] - fseek["setups"]
    assert fseek["abort_interval"] == pytest.approx(list(wilson(fseek["aborts"], tested)))
    low, high = fseek["abort_interval"]
    assert low < fseek["abort_rate"] < high
