"""The datatype guide's trial: examples/expat/, a library none of the
project's targets covers, specified from docs/datatypes.md alone.  Its run
is capped so that it takes seconds; its outcomes are checked against what
expat's header documents, not against a stored run."""
import sqlite3

from conftest import ROOT, trebuchet

SPEC = ROOT / "examples" / "expat" / "expat.yaml"


def repro(function, values):
    return trebuchet("repro", "--target", SPEC, "--function", function,
                     "--values", values).stdout


def test_expat_runs_and_reports(tmp_path):
    db = tmp_path / "expat.db"
    run = trebuchet("run", "--target", SPEC, "--db", db, "--cap", "20", cwd=tmp_path)
    # XML_Bool is an unsigned char, enum XML_Error an unsigned int: both said
    assert "XML_StopParser(resumable): datatype int converted to XML_Bool: truncated " \
           "from 4 to 1 bytes" in run.stdout
    assert "XML_ErrorString(code): datatype int converted to enum XML_Error: read as " \
           "unsigned" in run.stdout
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT count(*) FROM results WHERE outcome = 'SETUP'").fetchone() == (0,)
    # int's 7 values in one byte: 0, 1 and 255 (NEG_ONE, INT_MAX, CHAR_255
    # become 255; INT_MIN and CHAR_256 become 0); XML_Parser's 16: pointer's
    # 9 but MISALIGNED, and 8 of its own
    listed = trebuchet("list", "functions", "--target", SPEC).stdout
    assert " 48 cases" in next(l for l in listed.splitlines() if ".XML_StopParser " in l)
    trebuchet("report", "--db", db, "--out", tmp_path / "report")
    assert "XML_Parse" in (tmp_path / "report" / "index.html").read_text()


def test_expat_parses_what_its_header_says():
    assert "PASS, returned 1, errno 0, error not reported" in repro(
        "XML_Parse", "XML_Parser:NEW,xml_text:DOCUMENT,span:SPAN,int:ONE")
    # a tag mismatch: XML_STATUS_ERROR, the reason in the parser
    assert "PASS, returned 0, errno 0, error reported" in repro(
        "XML_Parse", "XML_Parser:NEW,xml_text:MALFORMED,span:SPAN,int:ONE")
    # parsing after the final buffer: XML_ERROR_FINISHED
    assert "PASS, returned 0, errno 0, error reported" in repro(
        "XML_Parse", "XML_Parser:FINISHED,xml_text:DOCUMENT,span:SPAN,int:ONE")
    # a length one byte longer than the text reads the guard page
    assert "ABORT, signal 11 (SIGSEGV)" in repro(
        "XML_Parse", "XML_Parser:NEW,xml_text:PAST_END,span:SPAN,int:ONE")
    # a suspended parser resumes, and its handler stops it again at <b/>:
    # XML_STATUS_SUSPENDED (2)
    assert "PASS, returned 2, errno 0, error not reported" in repro(
        "XML_ResumeParser", "XML_Parser:SUSPENDED")
