"""Silent failures by voting: recomputed in SQL from the stored results of
two implementations that share every value (sfio and robust_sfio), and of
two whose datatypes differ (sfio and stdio, voting through the twin
datatypes Sfio_t/FILE and Void_t/buffer on the values named alike), and
reachable from the report."""
import json
import sqlite3

import pytest

from conftest import campaigns_with_report, hand_store, trebuchet
from trebuchet.judge import silent
from trebuchet.store import database as store
from trebuchet.spec.reads import SpecReads

FUNCTIONS = "sfclose,sfseek,sfputc,sfsync"


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    return campaigns_with_report(
        tmp_path_factory.mktemp("silent"),
        *(("--target", target, "--functions", FUNCTIONS, "--cap", "150")
          for target in ("sfio", "robust_sfio")))


def test_silent_counts_are_the_votes_sql_counts(report):
    db, out = report
    summary = json.loads((out / "summary.json").read_text())
    by_target = {s["target"]: s for s in summary["silent"]}
    assert set(by_target) == {"sfio", "robust_sfio"}
    with sqlite3.connect(db) as conn:
        for me, voter in (("sfio", "robust_sfio"), ("robust_sfio", "sfio")):
            got = {f["function"]: (f["judged"], f["silent"])
                   for f in by_target[me]["functions"]}
            want = dict((fn, (n, s)) for fn, n, s in conn.execute(
                "SELECT a.function, count(*), sum(a.outcome = 'PASS' AND NOT a.error_reported"
                " AND b.outcome = 'PASS' AND b.error_reported)"
                " FROM results a JOIN runs ra ON ra.id = a.run_id"
                " JOIN results b ON b.function = a.function AND b.case_index = a.case_index"
                " JOIN runs rb ON rb.id = b.run_id"
                " WHERE ra.target = ? AND rb.target = ? AND a.outcome != 'SETUP'"
                " AND b.outcome != 'SETUP' GROUP BY a.function", (me, voter)))
            assert got == want
            assert by_target[me]["normalized_silent_rate"] == pytest.approx(
                sum(100.0 * s / n for n, s in want.values()) / len(want))


def test_the_cases_behind_a_rate_are_on_its_page(report):
    db, out = report
    summary = json.loads((out / "summary.json").read_text())
    page = (out / "robust_sfio-silent-ours.html").read_text()
    assert 'href="robust_sfio-silent-ours.html"' in (out / "index.html").read_text()
    silent = [f for s in summary["silent"] if s["target"] == "robust_sfio"
              for f in s["functions"] if f["silent"]]
    assert silent  # robust_sfio's sfseek returns quietly where SFIO's reports an error
    for f in silent:
        assert f"--function {f['function']} --case" in page


def test_the_export_and_the_baseline_carry_silent_counts(report, tmp_path):
    db, out = report
    summary = json.loads((out / "summary.json").read_text())
    (sfio,) = [s for s in summary["silent"] if s["target"] == "sfio"]
    records = json.loads(trebuchet("export", "--db", db, "--format", "json").stdout)
    for f in sfio["functions"]:
        mine = [r for r in records if r["target"] == "sfio" and r["function"] == f["function"]]
        assert sum(r["silent"] is True for r in mine) == f["silent"]
        assert sum(r["silent"] is not None for r in mine) == f["judged"]
    trebuchet("baseline", "--db", db, "--target", "sfio", "--out", tmp_path / "b.json")
    functions = json.loads((tmp_path / "b.json").read_text())["functions"]
    assert {n: functions[n]["silent"] for n in functions} == \
        {f["function"]: f["silent"] for f in sfio["functions"]}


# sfio functions, their stdio equivalents, and where each of the stdio
# function's parameters stands in the sfio one's, read off the two specs:
# sfungetc(Sfio_t, int) ~ ungetc(int, FILE);
# sfscanf_ptr(Sfio_t, format, Void_t) ~ fscanf_ptr(FILE, format, buffer).
TWINNED = {"sfungetc": ("ungetc", (1, 0)), "sfscanf_ptr": ("fscanf_ptr", (0, 1, 2))}

# Per case of `mine` run, whether a case of the voter's equivalent holds
# the same value names in the same places (so judged), and whether it is
# Silent there: it passed reporting no error where such a case passed
# reporting one.  Neither side SETUP.
TWIN_VOTES_SQL = """
WITH RECURSIVE split(run_id, function, case_index, pos, value, rest) AS (
    SELECT run_id, function, case_index, -1, NULL, value_names || ' '
    FROM results WHERE outcome != 'SETUP'
    UNION ALL
    SELECT run_id, function, case_index, pos + 1, substr(rest, 1, instr(rest, ' ') - 1),
           substr(rest, instr(rest, ' ') + 1)
    FROM split WHERE rest != ''
),
align(function, pos, place) AS (VALUES {align}),
pairs(mine, theirs) AS (VALUES {pairs}),
places AS (
    SELECT s.run_id, s.function, s.case_index, coalesce(a.place, s.pos) AS place,
           substr(s.value, instr(s.value, ':') + 1) AS name
    FROM split s LEFT JOIN align a ON a.function = s.function AND a.pos = s.pos
    WHERE s.pos >= 0
),
keyed AS (
    SELECT run_id, function, case_index,
           max(CASE place WHEN 0 THEN name END) || ' ' || max(CASE place WHEN 1 THEN name END)
           || ' ' || coalesce(max(CASE place WHEN 2 THEN name END), '') AS names
    FROM places GROUP BY run_id, function, case_index
)
SELECT a.function, a.case_index,
       r.outcome = 'PASS' AND NOT r.error_reported AND EXISTS (
           SELECT 1 FROM keyed b JOIN results v USING (run_id, function, case_index)
           WHERE b.run_id = :voter AND b.function = p.theirs AND b.names = a.names
             AND v.outcome = 'PASS' AND v.error_reported)
FROM keyed a JOIN pairs p ON p.mine = a.function
JOIN results r USING (run_id, function, case_index)
WHERE a.run_id = :mine AND EXISTS (
    SELECT 1 FROM keyed b WHERE b.run_id = :voter AND b.function = p.theirs
                            AND b.names = a.names)
"""


def twin_votes(db, mine, voter, pairs):
    """{function: (judged, {Silent case indices})} of run mine voted by run voter."""
    align = ", ".join(f"('{stdio}', {pos}, {place})" for stdio, places in TWINNED.values()
                      for pos, place in enumerate(places))
    sql = TWIN_VOTES_SQL.format(align=align,
                                pairs=", ".join(f"('{m}', '{t}')" for m, t in pairs))
    out = {}
    with sqlite3.connect(db) as conn:
        rows = conn.execute(sql, dict(mine=mine, voter=voter)).fetchall()
    for function, case, quiet in rows:
        judged, cases = out.get(function, (0, set()))
        out[function] = (judged + 1, cases | ({case} if quiet else set()))
    return out


@pytest.fixture(scope="module")
def twins(tmp_path_factory):
    db = tmp_path_factory.mktemp("twins") / "twins.db"
    for target, functions in (("sfio", TWINNED), ("stdio", [s for s, _ in TWINNED.values()])):
        trebuchet("run", "--target", target, "--functions", ",".join(functions), "--cap",
                  "1000", "--db", db, "--quiet")
    return db


def test_sfio_and_stdio_vote_on_the_values_their_twin_datatypes_name_alike(twins):
    found = silent.silent_targets([(store.connect(twins), twins)], SpecReads().equivalents)
    got = {s.target: {f.name: (f.judged, f.indices) for f in s.functions} for s in found}
    pairs = [(sfio, stdio) for sfio, (stdio, _) in TWINNED.items()]
    want = {"sfio": twin_votes(twins, 1, 2, pairs),
            "stdio": twin_votes(twins, 2, 1, [(t, m) for m, t in pairs])}
    assert got == want
    # both functions judged, on a good part of their cases, and some Silent
    assert all(100 < judged < 1000 for votes in want.values() for judged, _ in votes.values())
    assert any(cases for votes in want.values() for _, cases in votes.values())


def test_votes_counted_by_hand(tmp_path):
    """sfx(Sfio_t, int, int) in sfio and robust_sfio, its equivalent
    fx(int, int, FILE) in stdio: two parameters of one datatype, aligned in
    order; a case Silent by two voters counted once; SETUP neither judged
    nor voting; STRING, which FILE does not name, voted on by robust_sfio
    alone."""
    def cases(*rows):
        datatypes = [v.split(":")[0] for v in rows[0][0].split()]
        return {"sfx" if datatypes[0] == "Sfio_t" else "fx": dict(
            signature="int f(void)", datatypes=" ".join(datatypes),
            cases=[(v, o, dict(error_reported=e)) for v, o, e in rows])}

    db = tmp_path / "votes.db"
    hand_store(db, cases(("Sfio_t:READ int:ONE int:ZERO", "PASS", 0),
                         ("Sfio_t:READ int:ZERO int:ONE", "PASS", 1),
                         ("Sfio_t:STRING int:ONE int:ONE", "PASS", 0),
                         ("Sfio_t:READ int:ONE int:ONE", "SETUP", 0)), "sfio")
    hand_store(db, cases(("Sfio_t:READ int:ONE int:ZERO", "PASS", 1),
                         ("Sfio_t:READ int:ZERO int:ONE", "PASS", 0),
                         ("Sfio_t:STRING int:ONE int:ONE", "PASS", 1),
                         ("Sfio_t:READ int:ONE int:ONE", "PASS", 1)), "robust_sfio")
    hand_store(db, cases(("int:ONE int:ZERO FILE:READ", "PASS", 1),
                         ("int:ZERO int:ONE FILE:READ", "PASS", 0),
                         ("int:ONE int:ONE FILE:READ", "PASS", 0)), "stdio")
    equivalents = {"sfio": {"sfx": "fx"}, "robust_sfio": {"sfx": "fx"}}
    found = silent.silent_targets([(store.connect(db), db)],
                                  lambda target: equivalents.get(target, {}))
    assert [s.target for s in found] == ["robust_sfio", "sfio", "stdio"]  # dictionary, name
    got = {s.target: [(f.name, f.judged, f.indices) for f in s.functions] for s in found}
    assert got == {"sfio": [("sfx", 3, {0, 2})], "robust_sfio": [("sfx", 4, {1})],
                   "stdio": [("fx", 3, {1, 2})]}
    sfio = next(s for s in found if s.target == "sfio")
    assert sfio.functions[0].cases == [
        (0, ["Sfio_t:READ", "int:ONE", "int:ZERO"], "robust_sfio.sfx reported an error"),
        (2, ["Sfio_t:STRING", "int:ONE", "int:ONE"], "robust_sfio.sfx reported an error")]
    assert sfio.judges == "voting with robust_sfio (run 2), stdio (run 3)"
    assert [(info.target, where) for info, where in sfio.runs] == [
        ("sfio", db), ("robust_sfio", db), ("stdio", db)]
