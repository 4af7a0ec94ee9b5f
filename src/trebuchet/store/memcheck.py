"""`trebuchet memcheck`'s table (schemas/results.sql: memcheck): each PASS
case checked under Valgrind, with the first invalid access of its call."""


def checked_cases(conn, run):
    """{(function, case_index)} of run's cases checked already."""
    return {(f, c) for f, c in conn.execute("SELECT function, case_index FROM memcheck"
                                            " WHERE run_id = ?", (run,))}


def passed_cases(conn, run):
    """[(function, case_index)] of run's PASS cases, by function and case:
    what memcheck may check."""
    return conn.execute("SELECT function, case_index FROM results WHERE run_id = ?"
                        " AND outcome = 'PASS' ORDER BY function, case_index", (run,)).fetchall()


def add(conn, run, function, case, corrupt, outcome, kind, what, frames, seconds):
    """Stores one checked case and commits it: an interrupted memcheck
    keeps every case it finished."""
    conn.execute("INSERT INTO memcheck VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 (run, function, case, int(corrupt), outcome, kind, what, frames, seconds))
    conn.commit()


def judged(conn, run):
    """(function, case_index, value_names, kind, what, frames) of run's
    checked cases that passed under memcheck too, by function and case."""
    return conn.execute(
        "SELECT m.function, m.case_index, r.value_names, m.kind, m.what, m.frames"
        " FROM memcheck m JOIN results r USING (run_id, function, case_index)"
        " WHERE m.run_id = ? AND m.outcome = 'PASS' ORDER BY m.function, m.case_index",
        (run,)).fetchall()


def count(conn, run):
    return conn.execute("SELECT count(*) FROM memcheck WHERE run_id = ?", (run,)).fetchone()[0]


def unjudged_by_function(conn, run):
    """{function: cases checked that did not pass under memcheck}."""
    return dict(conn.execute("SELECT function, count(*) FROM memcheck WHERE run_id = ?"
                             " AND outcome != 'PASS' GROUP BY function", (run,)).fetchall())


def functions(conn, run):
    """{function} with a case of run checked."""
    return {n for (n,) in conn.execute("SELECT DISTINCT function FROM memcheck"
                                       " WHERE run_id = ?", (run,))}


def kinds(conn, run):
    """[(kind, cases, (function, case_index, what, frames) of its first
    case by function and case)], most common first."""
    out = []
    for kind, n in conn.execute("SELECT kind, count(*) FROM memcheck WHERE run_id = ? AND corrupt"
                                " GROUP BY kind ORDER BY count(*) DESC, kind", (run,)).fetchall():
        example = conn.execute("SELECT function, case_index, what, frames FROM memcheck"
                               " WHERE run_id = ? AND corrupt AND kind = ?"
                               " ORDER BY function, case_index LIMIT 1", (run, kind)).fetchone()
        out.append((kind, n, tuple(example)))
    return out
