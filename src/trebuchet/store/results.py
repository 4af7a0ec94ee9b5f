"""A run's cases (schemas/results.sql: results, functions, crash_sites,
listed_cases), read as each command needs them.  The executor writes them
(harness/store.c); nothing on the Python side does."""
from trebuchet.core.outcomes import FAILING


def functions(conn, run):
    """(name, signature, datatypes, cases_total) of the run's functions, by name."""
    return conn.execute("SELECT name, signature, datatypes, cases_total FROM functions"
                        " WHERE run_id = ? ORDER BY name", (run,)).fetchall()


def function_names(conn, run):
    return [n for (n,) in conn.execute("SELECT name FROM functions WHERE run_id = ?"
                                       " ORDER BY name", (run,))]


def function_datatypes(conn, run, function):
    """The datatype of each of function's parameters in the run, or None."""
    row = conn.execute("SELECT datatypes FROM functions WHERE run_id = ? AND name = ?",
                       (run, function)).fetchone()
    return row[0].split() if row else None


def outcomes(conn, run):
    """(function, case_index, outcome, signal, exit_status) of every case."""
    return conn.execute("SELECT function, case_index, outcome, signal, exit_status FROM results"
                        " WHERE run_id = ?", (run,)).fetchall()


def compared(conn, run):
    """(function, case_index, value_names, outcome, signal, exit_status,
    errno) of every case: what `trebuchet compare` sets side by side."""
    return conn.execute("SELECT function, case_index, value_names, outcome, signal, exit_status,"
                        " errno FROM results WHERE run_id = ?", (run,)).fetchall()


def counted(conn, run):
    """(function, value_names, outcome, signal) of every case: the report's counts."""
    return conn.execute("SELECT function, value_names, outcome, signal FROM results"
                        " WHERE run_id = ?", (run,)).fetchall()


def judged_outcomes(conn, run):
    """(function, value_names, outcome) of every case that ran its call."""
    return conn.execute("SELECT function, value_names, outcome FROM results"
                        " WHERE run_id = ? AND outcome != 'SETUP'", (run,)).fetchall()


def judged_cases(conn, run):
    """Rows of every case that ran its call, by function and case: what
    findings are made of."""
    return conn.execute(
        "SELECT function, case_index, value_names, outcome, signal, exit_status, errno,"
        " error_reported, stderr FROM results WHERE run_id = ? AND outcome != 'SETUP'"
        " ORDER BY function, case_index", (run,)).fetchall()


def crash_sites(conn, run):
    """{(function, case_index): the crash_sites row as a dict}."""
    return {(r["function"], r["case_index"]): dict(r) for r in conn.execute(
        "SELECT * FROM crash_sites WHERE run_id = ?", (run,))}


def has_crash_sites(conn, run):
    """Whether the run recorded crash sites: some failing case left one, or
    none failed (`run --no-crash-sites` leaves none)."""
    return conn.execute("SELECT 1 FROM crash_sites WHERE run_id = ? LIMIT 1",
                        (run,)).fetchone() is not None or conn.execute(
        "SELECT 1 FROM results WHERE run_id = ? AND outcome = 'ABORT' LIMIT 1",
        (run,)).fetchone() is None


def function_cases(conn, run, function):
    """{case_index: (value_names, outcome, error_reported)} of one function."""
    return {i: (v, o, e) for i, v, o, e in conn.execute(
        "SELECT case_index, value_names, outcome, error_reported FROM results"
        " WHERE run_id = ? AND function = ?", (run, function))}


def judged_count(conn, run, function):
    """How many of function's cases ran their call."""
    return conn.execute("SELECT count(*) FROM results WHERE run_id = ? AND function = ?"
                        " AND outcome != 'SETUP'", (run, function)).fetchone()[0]


def reported_errors(conn, run, function):
    """(case_index, value_names, errno) of function's cases that passed
    reporting an error, by case."""
    return conn.execute("SELECT case_index, value_names, errno FROM results WHERE run_id = ?"
                        " AND function = ? AND outcome = 'PASS' AND error_reported"
                        " ORDER BY case_index", (run, function)).fetchall()


def failing(conn, run, function, limit):
    """(case_index, value_names, outcome, signal, exit_status, stderr) of
    function's first `limit` failing cases."""
    marks = ", ".join("?" * len(FAILING))
    return conn.execute(
        "SELECT case_index, value_names, outcome, signal, exit_status, stderr FROM results"
        f" WHERE run_id = ? AND function = ? AND outcome IN ({marks})"
        " ORDER BY case_index LIMIT ?", (run, function, *FAILING, limit)).fetchall()


def setups(conn, run, function):
    """(case_index, value_names, setup_param, setup_errno, setup_reason,
    signal) of function's SETUP cases, by case."""
    return conn.execute(
        "SELECT case_index, value_names, setup_param, setup_errno, setup_reason, signal"
        " FROM results WHERE run_id = ? AND function = ? AND outcome = 'SETUP'"
        " ORDER BY case_index", (run, function)).fetchall()


def listed_cases(conn, run):
    """(function, case_index) a `run --values-file` run was given."""
    return conn.execute("SELECT function, case_index FROM listed_cases WHERE run_id = ?",
                        (run,)).fetchall()


# The export's record: a case with its run, crash site, memcheck verdict and finding.
_RECORD_SQL = """
SELECT r.run_id AS run, runs.target, r.function, r.case_index AS "case",
       r.value_names AS "values", r.outcome, r.signal, r.exit_status, r.errno, r.ret,
       r.error_reported, r.setup_param, r.setup_errno, r.setup_reason, r.duration_us,
       r.second_look_cpu_us, r.cleanup_failed, r.stderr, c.signal AS crash_signal, c.fault_addr, c.frames,
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


def records(conn, run=None):
    """Every case of the store (of run, when given) joined with what else
    the store knows of it, by run, function and case."""
    where, args = ("WHERE r.run_id = ?", (run,)) if run is not None else ("", ())
    return conn.execute(_RECORD_SQL.format(where=where), args)
