"""Exports of a store: one record per case, as JSON or CSV.  A case of a
run the report judges for Silent and Hindering failures (the newest of its
target in its dictionary) says whether it is one; elsewhere those are
null (empty in CSV): not judged.  So is corrupt: true or false where
`trebuchet memcheck` checked the case, null elsewhere."""
import csv
import json
import math

from trebuchet.store.runs import pins_shown
from trebuchet.core.readable import stderr_text

from trebuchet.report import judges

RECORD_SQL = """
SELECT r.run_id AS run, runs.target, r.function, r.case_index AS "case",
       r.value_names AS "values", r.outcome, r.signal, r.exit_status, r.errno, r.ret,
       r.error_reported, r.setup_param, r.setup_errno, r.setup_reason, r.duration_us,
       r.cleanup_failed, r.stderr, c.signal AS crash_signal, c.fault_addr, c.frames,
       f.id AS finding, f.fingerprint AS finding_fingerprint, f.title AS finding_title,
       runs.pins AS run_pins, m.corrupt, m.kind AS corrupt_kind, m.outcome AS memcheck_outcome,
       fn.unsigned_return
FROM results r JOIN runs ON runs.id = r.run_id
JOIN functions fn ON fn.run_id = r.run_id AND fn.name = r.function
LEFT JOIN crash_sites c USING (run_id, function, case_index)
LEFT JOIN memcheck m USING (run_id, function, case_index)
LEFT JOIN finding_cases fc USING (run_id, function, case_index)
LEFT JOIN findings f ON f.run_id = fc.run_id AND f.id = fc.finding
{where}
ORDER BY r.run_id, r.function, r.case_index
"""

FIELDS = ["run", "target", "function", "case", "values", "outcome", "signal", "exit_status",
          "errno", "ret", "error_reported", "setup_param", "setup_errno", "setup_reason",
          "duration_us", "cleanup_failed", "stderr", "crash_signal", "fault_addr", "frames",
          "finding", "finding_fingerprint", "finding_title", "run_pins", "corrupt", "corrupt_kind",
          "silent", "hindering"]


def _judged(conn):
    """{kind: {(run, function): set of counted case indices}}."""
    silent, hindering, _ = judges.judge([(conn, "")])  # corrupt: the memcheck table's own
    out = {"silent": {}, "hindering": {}}
    for s in silent + hindering:
        for f in s.functions:
            out[s.kind][s.run, f.name] = f.indices
    return out


def _ret(row):
    """The return value as JSON holds it."""
    ret = row["ret"]
    # SQLite's integers are signed: an unsigned 64-bit return from 2^63 on
    # comes back negative
    if row["unsigned_return"] and isinstance(ret, int):
        return ret & 0xFFFFFFFFFFFFFFFF
    # JSON has no number for an infinity: the text, as for NaN (the store's)
    if isinstance(ret, float) and math.isinf(ret):
        return "Infinity" if ret > 0 else "-Infinity"
    return ret


def records(conn, run=None):
    where, args = ("WHERE r.run_id = ?", (run,)) if run is not None else ("", ())
    judged = _judged(conn)
    for row in conn.execute(RECORD_SQL.format(where=where), args):
        record = {key: row[key] for key in FIELDS[:-2]}  # silent and hindering: below
        record.update(
            values=row["values"].split(" ") if row["values"] else [],
            stderr=stderr_text(row["stderr"]), ret=_ret(row),
            # SQLite's integers are signed: an address above 2^63 comes back negative
            fault_addr=None if row["fault_addr"] is None else row["fault_addr"] & 0xFFFFFFFFFFFFFFFF,
            # a site whose unwinding failed has no frames: an empty list
            frames=None if row["frames"] is None else
            row["frames"].split("\n") if row["frames"] else [],
            run_pins=pins_shown(row["run_pins"]) or None,  # `run --pin`'s, as people read it
            # memcheck's verdict where it checked the case and it passed there too
            corrupt=bool(row["corrupt"]) if row["memcheck_outcome"] == "PASS" else None)
        for kind in ("silent", "hindering"):
            counted = judged[kind].get((row["run"], row["function"]))
            record[kind] = (None if counted is None or row["outcome"] == "SETUP"
                            else row["case"] in counted)
        yield record


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
        if rec["frames"] is not None:
            rec["frames"] = "\n".join(rec["frames"])
        writer.writerow(rec)
