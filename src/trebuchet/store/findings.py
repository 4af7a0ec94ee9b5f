"""The findings tables (schemas/results.sql: findings, finding_cases,
run_values, findings_made): what src/trebuchet/findings/storage.py writes
when a run's findings are made, and reads for every command that shows them."""

FINDING_COLUMNS = ("run_id", "id", "signature", "fingerprint", "kind", "title", "functions",
                   "cases", "misuse_cases", "trigger", "location", "frame", "frames",
                   "violation", "violating_cases", "example_function", "example_case", "stderr")


def replace(conn, run, findings, finding_cases, value_verdicts):
    """Writes a run's findings (rows in FINDING_COLUMNS' order), their cases
    (run, function, case, finding id) and its values' verdicts (run,
    function, param, value, acceptable), replacing an earlier analysis."""
    for table in ("findings", "finding_cases", "run_values", "findings_made"):
        conn.execute(f"DELETE FROM {table} WHERE run_id = ?", (run,))
    conn.execute("INSERT INTO findings_made VALUES (?)", (run,))
    conn.executemany("INSERT INTO run_values VALUES (?, ?, ?, ?, ?)", value_verdicts)
    conn.executemany(f"INSERT INTO findings ({', '.join(FINDING_COLUMNS)}) VALUES"
                     f" ({', '.join('?' * len(FINDING_COLUMNS))})", findings)
    conn.executemany("INSERT INTO finding_cases VALUES (?, ?, ?, ?)", finding_cases)


def made(conn, run):
    """Whether the run's findings were made (none made is not none found)."""
    return conn.execute("SELECT 1 FROM findings_made WHERE run_id = ?",
                        (run,)).fetchone() is not None


def rows(conn, run):
    """The run's findings as {column: value}, in their order, with their
    representative's values (example_values, as results stores them)."""
    cursor = conn.execute(
        "SELECT f.*, r.value_names AS example_values FROM findings f LEFT JOIN results r"
        " ON r.run_id = f.run_id AND r.function = f.example_function"
        " AND r.case_index = f.example_case WHERE f.run_id = ? ORDER BY f.id", (run,))
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row)) for row in cursor]


def example_frames(conn, run):
    """The stored frames ("MODULE+0xOFFSET" lines) of each of run's
    findings' representative cases that left a crash site."""
    return [frames for (frames,) in conn.execute(
        "SELECT c.frames FROM findings f JOIN crash_sites c ON c.run_id = f.run_id"
        " AND c.function = f.example_function AND c.case_index = f.example_case"
        " WHERE f.run_id = ? AND c.frames IS NOT NULL", (run,))]


def value_verdicts(conn, run):
    """(function, param, value, acceptable) of each value the run's cases held."""
    return conn.execute("SELECT function, param, value, acceptable FROM run_values"
                        " WHERE run_id = ?", (run,)).fetchall()
