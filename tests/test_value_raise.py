"""The values that most raise a function's failure rate, per parameter
(src/trebuchet/report/metrics.py, ValueStats.raise_pp): by hand on a store of six cases,
and recomputed in SQL over the report's fixed small store."""
import json
import sqlite3

import pytest

from conftest import hand_store, trebuchet
from test_report_pages import load_store

# f(a, b, c), all three of datatype size; c is PAGE in every case.
HAND = [  # a, b, outcome
    ("ONE", "ONE", "ABORT"),
    ("ONE", "ZERO", "RESTART"),
    ("ZERO", "ONE", "PASS"),
    ("ZERO", "ZERO", "PASS"),
    ("ONE", "ZERO", "PASS"),
    ("ZERO", "ONE", "SETUP"),  # in no rate
]


@pytest.fixture(scope="module")
def hand(tmp_path_factory):
    base = tmp_path_factory.mktemp("raise")
    db = base / "hand.db"
    hand_store(db, {"f": dict(signature="int f(size_t a, size_t b, size_t c)",
                              datatypes="size size size", total=8,
                              cases=[(f"size:{a} size:{b} size:PAGE", o) for a, b, o in HAND])})
    trebuchet("report", "--db", db, "--out", base / "out")
    return json.loads((base / "out" / "summary.json").read_text()), base / "out"


def test_hand_counted(hand):
    """Tested: 5 cases (SETUP left out), 2 failing.
    a=ONE: 2 of 3 fail (66.67%), the others (a=ZERO) 0 of 2: +66.67.
    b=ONE: 1 of 2 (50%), the others (b=ZERO) 1 of 3 (33.33%): +16.67.
    a=ZERO and b=ZERO lower the rate; c=PAGE is in every case: no raise."""
    summary, _ = hand
    ranked = summary["functions"][0]["failing_values"]
    assert [(v["param"], v["value"]) for v in ranked] == [("a", "size:ONE"), ("b", "size:ONE")]
    assert ranked[0]["raise_pp"] == pytest.approx(200 / 3)
    assert (ranked[0]["failing"], ranked[0]["tested"]) == (2, 3)
    assert (ranked[0]["others_failing"], ranked[0]["others_tested"]) == (0, 2)
    assert ranked[1]["raise_pp"] == pytest.approx(50 - 100 / 3)
    c = next(p for p in summary["parameters"] if p["name"] == "c")
    assert c["values"][0]["raise_pp"] is None


def test_the_page_keys_them_by_parameter_and_states_the_definition(hand):
    _, out = hand
    page = (out / "index.html").read_text()
    assert "<code>a=size:ONE</code>&nbsp;+66.7 (66.67%&nbsp;of&nbsp;3, against&nbsp;0.00%)" in page
    assert "<code>b=size:ONE</code>&nbsp;+16.7 (50.00%&nbsp;of&nbsp;2, against&nbsp;33.33%)" in page
    assert "<dt>raise</dt>" in page and "less the failure rate of its cases holding another value" in page


# Every value of every parameter of every function in the store: its
# failing and tested cases, and its function's, by splitting value_names.
RAISE_SQL = """
WITH RECURSIVE split(run_id, function, failed, pos, value, rest) AS (
    SELECT run_id, function, outcome IN ('ABORT', 'RESTART'), 0, NULL, value_names || ' '
    FROM results WHERE outcome != 'SETUP'
    UNION ALL
    SELECT run_id, function, failed, pos + 1, substr(rest, 1, instr(rest, ' ') - 1),
           substr(rest, instr(rest, ' ') + 1)
    FROM split WHERE rest != ''
),
per_value AS (
    SELECT run_id, function, pos, value, sum(failed) AS failing, count(*) AS tested
    FROM split WHERE pos > 0 GROUP BY run_id, function, pos, value
),
per_function AS (
    SELECT run_id, function, sum(outcome IN ('ABORT', 'RESTART')) AS failing, count(*) AS tested
    FROM results WHERE outcome != 'SETUP' GROUP BY run_id, function
)
SELECT runs.target, v.function, v.pos, v.value, v.failing,
       100.0 * v.failing / v.tested - 100.0 * (f.failing - v.failing) / (f.tested - v.tested)
FROM per_value v JOIN per_function f USING (run_id, function) JOIN runs ON runs.id = v.run_id
WHERE f.tested > v.tested
"""


def test_recomputed_in_sql_on_the_small_store(tmp_path):
    db = load_store(tmp_path / "small.db")
    trebuchet("report", "--db", db, "--out", tmp_path / "out")
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    names = {(p["target"], p["function"]): [] for p in summary["parameters"]}
    for p in summary["parameters"]:
        names[(p["target"], p["function"])].append(p["name"])
    with sqlite3.connect(db) as conn:
        rows = conn.execute(RAISE_SQL).fetchall()
    want = {}
    for target, function, pos, value, failing, raise_pp in rows:
        if raise_pp > 0:
            want.setdefault((target, function), []).append(
                (-raise_pp, -failing, names[(target, function)][pos - 1], value))
    checked = 0
    for f in summary["functions"]:
        expected = sorted(want.get((f["target"], f["name"]), []))[:5]
        got = [(-v["raise_pp"], -v["failing"], v["param"], v["value"])
               for v in f["failing_values"]]
        assert [g[2:] for g in got] == [e[2:] for e in expected], f["name"]
        assert [g[0] for g in got] == pytest.approx([e[0] for e in expected])
        checked += bool(expected)
    assert checked >= 5  # most of the store's functions fail somewhere
