"""Exports of a store: one record per case, as JSON or CSV."""
import csv
import json

from trebuchet.runner.names import stderr_text

RECORD_SQL = """
SELECT r.run_id, runs.target, r.function, r.case_index, r.value_names, r.outcome,
       r.signal, r.exit_status, r.errno, r.ret, r.error_reported, r.setup_param,
       r.duration_us, r.cleanup_failed, r.stderr
FROM results r JOIN runs ON runs.id = r.run_id
{where}
ORDER BY r.run_id, r.function, r.case_index
"""

FIELDS = ["run", "target", "function", "case", "values", "outcome", "signal", "exit_status",
          "errno", "ret", "error_reported", "setup_param", "duration_us", "cleanup_failed",
          "stderr"]


def records(conn, run=None):
    where, args = ("WHERE r.run_id = ?", (run,)) if run is not None else ("", ())
    for row in conn.execute(RECORD_SQL.format(where=where), args):
        values = list(row)
        values[4] = row["value_names"].split(" ") if row["value_names"] else []
        values[-1] = stderr_text(row["stderr"])
        yield dict(zip(FIELDS, values))


def write_json(conn, out, run=None):
    out.write("[\n")
    for i, rec in enumerate(records(conn, run)):
        out.write(("," if i else "") + json.dumps(rec) + "\n")
    out.write("]\n")


def write_csv(conn, out, run=None):
    writer = csv.DictWriter(out, fieldnames=FIELDS)
    writer.writeheader()
    for rec in records(conn, run):
        rec["values"] = " ".join(rec["values"])
        writer.writerow(rec)
