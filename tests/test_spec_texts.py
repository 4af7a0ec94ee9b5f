"""What a spec says of its functions in words, `note:` and `equivalent:`,
appears in the report: on each function's page and in the function tables."""
import html
import re

import pytest

from conftest import trebuchet
from test_report_pages import load_store

COMPLAIN_NOTE = "writes 40 lines to stderr, then: 0 returns, above 0 fails an assert(), below 0 blocks"


@pytest.fixture(scope="module")
def selftest_report(tmp_path_factory):
    base = tmp_path_factory.mktemp("notes")
    db = base / "n.db"
    trebuchet("run", "--target", "selftest", "--functions", "st_complain,st_return", "--cap", "5",
              "--timeout", "0.5", "--db", db, "--quiet")
    trebuchet("report", "--db", db, "--out", base / "out")
    return base / "out"


def test_a_note_is_on_its_function_page_and_in_the_table(selftest_report):
    page = html.unescape((selftest_report / "selftest-st_complain.html").read_text())
    assert f'<p class="note">{COMPLAIN_NOTE}</p>' in page
    index = html.unescape((selftest_report / "index.html").read_text())
    row = re.search(r'<a href="selftest-st_complain.html">st_complain</a>(.*?)</td>', index).group(1)
    assert COMPLAIN_NOTE in row
    # a function without a note gets no empty line
    row = re.search(r'<a href="selftest-st_return.html">st_return</a>(.*?)</td>', index).group(1)
    assert row == ""


def test_an_equivalent_links_to_its_stdio_page(tmp_path):
    db = load_store(tmp_path / "small.db")
    trebuchet("report", "--db", db, "--out", tmp_path / "out")
    page = (tmp_path / "out" / "sfio-sfputr.html").read_text()
    assert 'Its equivalent in stdio: fputs (the spec' in page  # no fputs run: no link
    page = (tmp_path / "out" / "sfio-sfclose.html").read_text()
    assert 'Its equivalent in stdio: <a href="stdio-fclose.html">fclose</a>' in page
    index = (tmp_path / "out" / "index.html").read_text()
    assert ('<a href="sfio-sfwrite.html">sfwrite</a><br><span class="muted">stdio: fwrite</span>'
            in index)
    stdio_page = (tmp_path / "out" / "stdio-fclose.html").read_text()
    assert "Its equivalent" not in stdio_page  # stdio's spec names none
