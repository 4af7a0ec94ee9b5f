"""The findings tables (schemas/results.sql: findings, finding_cases,
run_values, findings_made, minimised_cases): what src/trebuchet/findings/storage.py writes
when a run's findings are made, and reads for every command that shows them."""

FINDING_COLUMNS = ("run_id", "id", "signature", "fingerprint", "kind", "title", "functions",
                   "cases", "misuse_cases", "trigger", "location", "frame", "frames",
                   "violation", "violating_cases", "example_function", "example_case", "stderr",
                   "cause", "minimised_case", "flaky")


def replace(conn, run, findings, finding_cases, value_verdicts, minimised=()):
    """Writes a run's findings (rows in FINDING_COLUMNS' order), their cases
    (run, function, case, finding id), its values' verdicts (run,
    function, param, value, acceptable) and the cases run to minimise them
    (minimised_cases rows), replacing an earlier analysis."""
    for table in ("findings", "finding_cases", "run_values", "findings_made",
                  "minimised_cases"):
        conn.execute(f"DELETE FROM {table} WHERE run_id = ?", (run,))
    conn.executemany("INSERT INTO minimised_cases VALUES (?, ?, ?, ?, ?, ?, ?)", minimised)
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
    representative's values (example_values, as results stores them) and
    its minimised case's (minimised_values; None when not minimised)."""
    cursor = conn.execute(
        "SELECT f.*, r.value_names AS example_values,"
        " coalesce(m.value_names, mr.value_names) AS minimised_values"
        " FROM findings f LEFT JOIN results r"
        " ON r.run_id = f.run_id AND r.function = f.example_function"
        " AND r.case_index = f.example_case"
        " LEFT JOIN minimised_cases m ON m.run_id = f.run_id"
        " AND m.function = f.example_function AND m.case_index = f.minimised_case"
        " LEFT JOIN results mr ON mr.run_id = f.run_id"
        " AND mr.function = f.example_function AND mr.case_index = f.minimised_case"
        " WHERE f.run_id = ? ORDER BY f.id", (run,))
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


# the kinds whose cases are minimised (findings/minimise.py): crashes, not
# hangs or broken error promises
_UNMINIMISED_KINDS = ("hang", "no-error", "errno")


def minimisation(conn, run):
    """(causes found, cases run for them, failing cases left unminimised
    because the budget ran out) of a run's findings."""
    causes = conn.execute("SELECT count(*) FROM findings WHERE run_id = ? AND cause IS NOT NULL",
                          (run,)).fetchone()[0]
    ran = conn.execute("SELECT count(*) FROM minimised_cases WHERE run_id = ?",
                       (run,)).fetchone()[0]
    left = conn.execute(
        f"SELECT coalesce(sum(cases), 0) FROM findings WHERE run_id = ? AND kind NOT IN"
        f" ({', '.join('?' * len(_UNMINIMISED_KINDS))}) AND signature NOT LIKE '%|cause: %'",
        (run, *_UNMINIMISED_KINDS)).fetchone()[0]
    return causes, ran, left


def flaky_cases(conn, run):
    """{(function, case index)} of the run's cases in flaky findings."""
    return set(map(tuple, conn.execute(
        "SELECT fc.function, fc.case_index FROM finding_cases fc JOIN findings f"
        " ON f.run_id = fc.run_id AND f.id = fc.finding"
        " WHERE fc.run_id = ? AND f.flaky IS NOT NULL", (run,))))
