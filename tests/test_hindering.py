"""Hindering failures: an error reported with an errno the spec's `errnos`
does not list, or with none; recomputed in SQL from the stored results and
the spec file's own lists, and bad lists rejected with file and line."""
import errno
import json
import sqlite3

import pytest
import yaml

from conftest import ROOT, campaigns_with_report, hand_store, trebuchet
from trebuchet.judge import hindering
from trebuchet.store import database as store
from trebuchet.spec.reads import SpecReads
from test_bad_input import GOOD_FUNCTION, assert_input_error, run_spec, write_spec

FUNCTIONS = ["fclose", "fseek", "fopen", "fputs", "ungetc"]


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    return campaigns_with_report(
        tmp_path_factory.mktemp("hindering"),
        ("--target", "stdio", "--functions", ",".join(FUNCTIONS), "--cap", "300"))


def test_hindering_counts_are_the_errnos_the_spec_does_not_allow(report):
    db, out = report
    spec = yaml.safe_load((ROOT / "targets/stdio/stdio.yaml").read_text())
    allowed = {f["name"]: {getattr(errno, e) for e in f["errnos"]}
               for f in spec["functions"] if "errnos" in f}
    (stdio,) = [s for s in json.loads((out / "summary.json").read_text())["hindering"]
                if s["target"] == "stdio"]
    got = {f["function"]: (f["judged"], f["hindering"]) for f in stdio["functions"]}
    assert "ungetc" not in got  # its documentation names no errno: not judged
    with sqlite3.connect(db) as conn:
        for name in set(FUNCTIONS) & set(allowed):
            rows = conn.execute("SELECT errno FROM results WHERE function = ? AND outcome = 'PASS'"
                                " AND error_reported", (name,)).fetchall()
            (judged,) = conn.execute("SELECT count(*) FROM results WHERE function = ?"
                                     " AND outcome != 'SETUP'", (name,)).fetchone()
            want = sum(1 for (e,) in rows if not e or e not in allowed[name])
            assert got[name] == (judged, want), name
    # fputs of a long string into a full fmemopen stream: EOF with errno 0
    assert got["fputs"][1] > 0
    page = (out / "stdio-hindering-ours.html").read_text()
    for f in stdio["functions"]:
        if f["hindering"]:
            assert f"--function {f['function']} --case" in page


def test_an_unknown_errno_names_file_and_line(tmp_path):
    spec = write_spec(tmp_path, "functions:\n" + GOOD_FUNCTION + "    errnos: [EBADF, ENOTANERRNO]\n",
                      "baderrno")
    assert_input_error(run_spec(spec, tmp_path / "t.db"), "baderrno.yaml:9:",
                       "unknown errno 'ENOTANERRNO'")


def test_the_export_and_the_baseline_carry_hindering_counts(report, tmp_path):
    db, out = report
    (stdio,) = [s for s in json.loads((out / "summary.json").read_text())["hindering"]
                if s["target"] == "stdio"]
    records = json.loads(trebuchet("export", "--db", db, "--format", "json").stdout)
    trebuchet("baseline", "--db", db, "--target", "stdio", "--out", tmp_path / "b.json")
    functions = json.loads((tmp_path / "b.json").read_text())["functions"]
    for f in stdio["functions"]:
        mine = [r for r in records if r["function"] == f["function"]]
        assert sum(r["hindering"] is True for r in mine) == f["hindering"]
        assert functions[f["function"]]["hindering"] == f["hindering"]
    assert all(r["hindering"] is None for r in records if r["function"] == "ungetc")


def test_a_spec_of_ones_own_is_judged_by_its_errnos(tmp_path):
    """The errnos come from the spec the run was made with, found again by
    the path the run was given; the page's commands name that path."""
    spec = write_spec(tmp_path, """\
        functions:
          - name: fputs
            returns: int
            params:
              - {name: s, type: const char *, datatype: string}
              - {name: stream, type: FILE *, datatype: FILE}
            error: {when: eof}
            errnos: [EINVAL]
        """, "ownlib")
    db = tmp_path / "own.db"
    assert run_spec(spec, db).returncode == 0
    trebuchet("report", "--db", db, "--out", tmp_path / "r")
    page = (tmp_path / "r" / "ownlib-hindering-ours.html").read_text()
    # fputs into a stream open for reading: EOF with EBADF, not allowed here
    assert f"trebuchet repro --target {spec} --function fputs --case" in page


def hand_run(db, target, dictionary="ours"):
    """f's spec allows EBADF: an error with EINVAL, and one with no errno,
    are Hindering; a quiet EINVAL, an ABORT and an allowed EBADF are not;
    SETUP is not judged.  g's lists none: not judged."""
    cases = [("int:ZERO", "PASS", dict(error_reported=1, errno=errno.EBADF)),
             ("int:CHAR_255", "SETUP"),
             ("int:ONE", "PASS", dict(error_reported=1, errno=errno.EINVAL)),
             ("int:NEG_ONE", "PASS", dict(error_reported=1, errno=0)),
             ("int:INT_MAX", "PASS", dict(error_reported=0, errno=errno.EINVAL)),
             ("int:INT_MIN", "ABORT", dict(signal=11))]
    cases = [(f"{values} int:ZERO", *rest) for values, *rest in cases]
    functions = {name: dict(signature=f"int {name}(int a, int b)", datatypes="int int",
                            cases=cases) for name in ("f", "g")}
    functions["h"] = dict(signature="int h(int a)", datatypes="int", cases=[("int:ONE", "SETUP")])
    return hand_store(db, functions, target, dictionary)


def test_judged_by_hand(tmp_path):
    # listed by dictionary, then target
    db = tmp_path / "hand.db"
    for target, dictionary in (("a", "ours"), ("b", "ballista"), ("c", "ours")):
        hand_run(db, target, dictionary)
    found = hindering.hindering_targets([(store.connect(db), db)],
                                        lambda info: {"f": {"EBADF"}, "h": {"EBADF"}})
    assert [(s.kind, s.target, s.dictionary, s.run) for s in found] == [
        ("hindering", "b", "ballista", 2), ("hindering", "a", "ours", 1),
        ("hindering", "c", "ours", 3)]
    [f] = found[0].functions
    assert (f.name, f.judged, f.count, f.indices) == ("f", 5, 2, {2, 3})
    assert f.cases == [(2, ["int:ONE", "int:ZERO"], "errno EINVAL"),
                       (3, ["int:NEG_ONE", "int:ZERO"], "no errno")]
    assert f.rate == pytest.approx(40.0) and found[0].rate == pytest.approx(40.0)
    assert found[0].judges == "the errnos its spec allows"
    assert [(info.id, where) for info, where in found[0].runs] == [(2, db)]


def test_judged_by_hand_against_the_errnos_of_the_spec(tmp_path):
    """A run of stdio is judged by stdio's spec: fclose lists its errnos,
    ungetc none."""
    db = tmp_path / "stdio.db"
    cases = [("FILE:READ", "PASS", dict(error_reported=1, errno=errno.EBADF)),
             ("FILE:CLOSED", "PASS", dict(error_reported=1, errno=errno.ERANGE))]
    hand_store(db, {name: dict(signature=f"int {name}(FILE *stream)", datatypes="FILE",
                               cases=cases) for name in ("fclose", "ungetc")}, "stdio")
    [found] = hindering.hindering_targets([(store.connect(db), db)],
                                          SpecReads().errnos)
    assert [(f.name, f.judged, f.indices) for f in found.functions] == [("fclose", 2, {1})]
