"""`run --repeat`'s tables (schemas/results.sql: repeats, flaky): how many
times a run's campaign ran, and the cases whose outcome was not the same
every time."""


def replace(conn, run, times, flaky):
    """Stores times and the flaky (function, case_index, outcomes) of run."""
    conn.execute("INSERT OR REPLACE INTO repeats VALUES (?, ?)", (run, times))
    conn.execute("DELETE FROM flaky WHERE run_id = ?", (run,))
    conn.executemany("INSERT INTO flaky VALUES (?, ?, ?, ?)",
                     ((run, *case) for case in flaky))


def times(conn, run):
    """How many times run's campaign ran: 1 when it was not repeated."""
    row = conn.execute("SELECT times FROM repeats WHERE run_id = ?", (run,)).fetchone()
    return row[0] if row else 1


def flaky(conn, run):
    """[(function, case_index, outcomes)] of run's flaky cases."""
    return [tuple(r) for r in conn.execute(
        "SELECT function, case_index, outcomes FROM flaky WHERE run_id = ?"
        " ORDER BY function, case_index", (run,))]
