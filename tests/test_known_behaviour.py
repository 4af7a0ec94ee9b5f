"""Known glibc stdio behaviour comes out as the outcome contract says."""
import pytest

from conftest import query, trebuchet, value_product


@pytest.fixture(scope="module")
def stdio_db(tmp_path_factory):
    db = tmp_path_factory.mktemp("known") / "stdio.db"
    trebuchet("run", "--target", "stdio", "--functions", "fclose,fseek", "--db", db, "--quiet")
    return db


def result(db, function, values):
    rows = query(db, "SELECT outcome, signal, error_reported FROM results"
                     " WHERE function = ? AND value_names = ?", function, values)
    assert len(rows) == 1, (function, values, rows)
    return rows[0]


def test_fclose_null_aborts_with_sigsegv(stdio_db):
    assert result(stdio_db, "fclose", "FILE:NULL")[:2] == ("ABORT", 11)


def test_fclose_of_an_open_stream_passes(stdio_db):
    assert result(stdio_db, "fclose", "FILE:READ") == ("PASS", None, 0)


def test_fseek_on_null_always_aborts(stdio_db):
    rows = query(stdio_db, "SELECT outcome FROM results WHERE function = 'fseek'"
                           " AND value_names LIKE 'FILE:NULL %'")
    assert len(rows) == value_product("offset", "whence")
    assert {r[0] for r in rows} == {"ABORT"}


def test_fseek_to_start_of_a_read_stream_passes_without_error(stdio_db):
    assert result(stdio_db, "fseek", "FILE:READ offset:ZERO whence:SET") == ("PASS", None, 0)


def test_fseek_with_bad_whence_reports_an_error(stdio_db):
    assert result(stdio_db, "fseek", "FILE:READ offset:ZERO whence:THREE") == ("PASS", None, 1)


def test_fwrite_to_null_stream_aborts():
    out = trebuchet("repro", "--target", "stdio", "--function", "fwrite", "--values",
                    "buffer:VALID,size:ONE,size:ONE,FILE:NULL", "--json")
    assert '"outcome": "ABORT"' in out.stdout and '"signal": 11' in out.stdout


def test_every_function_is_stored_with_its_counts(stdio_db):
    rows = query(stdio_db, "SELECT name, cases_total, cases_drawn, cases_run FROM functions")
    assert {r[0] for r in rows} == {"fclose", "fseek"}
    for name, total, drawn, ran in rows:
        assert drawn == min(total, 5000) and ran == drawn
    assert query(stdio_db, "SELECT finished IS NOT NULL FROM runs") == [(1,)]
