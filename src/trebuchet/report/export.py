"""Exports of a store: one record per case, as JSON or CSV.  A case of a
run the report judges for Silent and Hindering failures (the newest of its
target in its dictionary) says whether it is one; elsewhere those are
null (empty in CSV): not judged.  So is corrupt: true or false where
`trebuchet memcheck` checked the case, null elsewhere."""
import csv
import json
import math

from trebuchet.store import results
from trebuchet.store.runs import pins_shown
from trebuchet.core.readable import stderr_text

from trebuchet.report import judges

FIELDS = ["run", "target", "function", "case", "values", "outcome", "signal", "exit_status",
          "errno", "ret", "error_reported", "setup_param", "setup_errno", "setup_reason",
          "duration_us", "second_look_cpu_us", "cleanup_failed", "stderr", "crash_signal", "fault_addr", "frames",
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
    judged = _judged(conn)
    for row in results.records(conn, run):
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
