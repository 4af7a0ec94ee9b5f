"""Exports: one record per case with the documented keys."""
import csv
import io
import json

import pytest

from conftest import function_cases, query, trebuchet

FUNCTIONS, CAP = ("fclose", "fwrite"), 300


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = tmp_path_factory.mktemp("export") / "e.db"
    trebuchet("run", "--target", "stdio", "--functions", ",".join(FUNCTIONS), "--cap", CAP,
              "--db", path, "--quiet")
    return path


def test_json_has_one_record_per_case(db):
    records = json.loads(trebuchet("export", "--db", db, "--format", "json").stdout)
    drawn = sum(min(function_cases("stdio")[f], CAP) for f in FUNCTIONS)
    assert len(records) == query(db, "SELECT count(*) FROM results")[0][0] == drawn
    by_case = {(r["function"], tuple(r["values"])): r for r in records}
    null_close = by_case[("fclose", ("FILE:NULL",))]
    assert null_close["target"] == "stdio" and null_close["outcome"] == "ABORT"
    assert null_close["signal"] == 11 and null_close["errno"] is None
    for r in records:
        assert {"target", "function", "case", "values", "outcome", "signal", "errno", "ret"} <= r.keys()
        if r["function"] == "fwrite":
            assert [v.split(":")[0] for v in r["values"]] == ["buffer", "size", "size", "FILE"]


def test_csv_matches_json(db, tmp_path):
    out = tmp_path / "e.csv"
    trebuchet("export", "--db", db, "--format", "csv", "--out", out)
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    records = json.loads(trebuchet("export", "--db", db).stdout)
    assert len(rows) == len(records)
    for row, rec in zip(rows, records):
        assert row["values"].split(" ") == rec["values"]
        assert row["outcome"] == rec["outcome"] and int(row["case"]) == rec["case"]
