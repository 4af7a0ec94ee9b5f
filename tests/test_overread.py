"""Over-reads that show: a function that reads one byte past its string
argument's NUL (tests/overread/overread.c, on odd lengths) ABORTs with
SIGSEGV on string:SHORT ("hello") in a plain run, its fault on the first
byte of the guard page the value ends at; the even-length strings it
reads no further than their NUL still PASS.  Before every string value
ended at a guard page, SHORT was a literal amid the plugin's read-only
data, and the same read returned."""
from conftest import ROOT, query, trebuchet

SPEC = ROOT / "tests" / "overread" / "overread.yaml"
PAGE = 4096


def test_a_read_past_a_short_strings_nul_faults_at_its_guard_page(tmp_path):
    db = tmp_path / "overread.db"
    trebuchet("run", "--target", SPEC, "--db", db, "--quiet")
    outcomes = dict(query(db, "SELECT value_names, outcome || ' ' || coalesce(signal, '')"
                              " FROM results"))
    assert outcomes["string:SHORT"] == "ABORT 11"
    assert [outcomes[f"string:{v}"] for v in ("EMPTY", "LINES", "LONG")] == ["PASS "] * 3
    [(address,)] = query(db, "SELECT fault_addr FROM crash_sites JOIN results"
                             " USING (run_id, function, case_index)"
                             " WHERE value_names = 'string:SHORT'")
    assert address % PAGE == 0  # "hello" and its NUL are the page's last 6 bytes
