"""A failing case's last words: the end of what its test process wrote to
stderr is kept for ABORT and RESTART (never for PASS), and shown by `repro`,
the export and the drill-down pages.

selftest's st_complain writes 40 numbered lines to stderr, more than a case
keeps, then returns (code 0), fails an assert() (code above 0) or blocks
(code below 0); st_abort aborts without a word."""
import html
import json
import re

import pytest

from conftest import query, trebuchet

ASSERTION = "st_complain: Assertion `code == 0' failed."
TAIL = 512  # bytes kept (harness/outcome.h)


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = tmp_path_factory.mktemp("stderr") / "s.db"
    # one slot: each case follows another in the same slot's stderr file
    trebuchet("run", "--target", "selftest", "--functions", "st_complain,st_abort",
              "--timeout", "0.5", "--jobs", "1", "--db", path, "--quiet")
    return path


def stored(db, function):
    """{value: (outcome, stderr text or None)} of the function's cases."""
    rows = query(db, "SELECT value_names, outcome, stderr FROM results WHERE function = ?",
                 function)
    return {v: (o, e.decode() if e is not None else None) for v, o, e in rows}


def test_an_assertion_keeps_its_message_and_the_lines_before_it(db):
    aborts = {v: e for v, (o, e) in stored(db, "st_complain").items() if o == "ABORT"}
    assert set(aborts) == {"int:ONE", "int:INT_MAX", "int:CHAR_255", "int:CHAR_256"}
    for text in aborts.values():
        assert len(text.encode()) <= TAIL
        lines = text.splitlines()
        assert lines[-1].endswith(ASSERTION)
        assert lines[-2] == "st_complain: line 40 of 40"
        # whole lines, counting down without a gap from the end
        numbers = [int(re.fullmatch(r"st_complain: line (\d+) of 40", l).group(1))
                   for l in lines[:-1]]
        assert numbers == list(range(41 - len(numbers), 41)) and len(numbers) > 10


def test_a_hang_keeps_what_it_said_before_blocking(db):
    restarts = {v: e for v, (o, e) in stored(db, "st_complain").items() if o == "RESTART"}
    assert set(restarts) == {"int:NEG_ONE", "int:INT_MIN"}
    for text in restarts.values():
        assert text.endswith("st_complain: line 40 of 40\nst_complain: blocking now\n")


def test_a_pass_keeps_nothing_though_it_wrote(db):
    assert stored(db, "st_complain")["int:ZERO"] == ("PASS", None)


def test_a_silent_abort_keeps_nothing_not_its_neighbours_words(db):
    """st_abort's cases ran in the slot where st_complain's had written."""
    cases = stored(db, "st_abort")
    assert cases and all(o == "ABORT" and e is None for o, e in cases.values())


def test_repro_prints_the_last_words(db):
    out = trebuchet("repro", "--target", "selftest", "--function", "st_complain",
                    "--values", "int:ONE").stdout
    assert "ABORT, signal 6 (SIGABRT)" in out
    assert out.rstrip().endswith(ASSERTION)
    assert "  | st_complain: line 40 of 40\n" in out
    result = json.loads(trebuchet("repro", "--target", "selftest", "--function", "st_complain",
                                  "--values", "int:ONE", "--json").stdout)
    assert result["stderr"] == stored(db, "st_complain")["int:ONE"][1]
    passed = json.loads(trebuchet("repro", "--target", "selftest", "--function", "st_complain",
                                  "--values", "int:ZERO", "--json").stdout)
    assert passed["outcome"] == "PASS" and passed["stderr"] is None


def test_the_export_holds_them(db):
    records = json.loads(trebuchet("export", "--db", db).stdout)
    by_values = {(r["function"], r["values"][0]): r["stderr"] for r in records}
    assert by_values[("st_complain", "int:ONE")] == stored(db, "st_complain")["int:ONE"][1]
    assert by_values[("st_complain", "int:ZERO")] is None


def test_the_drill_down_page_shows_them(db, tmp_path):
    trebuchet("report", "--db", db, "--out", tmp_path)
    page = (tmp_path / "selftest-st_complain.html").read_text()
    shown = re.findall(r"<summary><code>(.*?)</code></summary><pre>(.*?)</pre>", page, re.S)
    assert len(shown) == 6  # 4 ABORT, 2 RESTART
    shown = [(html.unescape(last), html.unescape(body)) for last, body in shown]
    # the summary is the last line (cut to 100 characters), the body all of it
    assert sum(body.endswith(ASSERTION + "\n") and "Assertion" in last
               for last, body in shown) == 4
    assert all("st_complain: line 40 of 40\n" in body for _, body in shown)
