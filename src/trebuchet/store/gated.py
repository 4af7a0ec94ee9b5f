"""What the baseline and the gate read of a run's cases, each query a
function named for what it gives (the pattern of store/runs.py), so that
src/trebuchet/gate/ holds no SQL of its own:

  values_digests        per function, a digest of what its cases hand over
  function_calls        per function run: its C call, datatypes and cases stored
  compared_cases        every case of a run, in order, as the gate compares them
  not_passing           the cases of a run that did not pass, as a baseline lists them
  stored_case           one case of a run: its values and how it ended
  finding_of_cases      the finding each failing case of a run belongs to
  spec_of_newest_run    the spec the newest run of a target was made with
"""
import hashlib


def values_digests(conn, run):
    """{function: digest} of the value names each case of the run's
    functions hands over, by case index: equal in two runs when case N of a
    function is the same values in both.  A datatype whose values were
    edited (one added, renamed or moved) changes the digest of the
    functions that draw from it, and only theirs."""
    digests = {}
    rows = conn.execute("SELECT function, case_index, value_names FROM results"
                        " WHERE run_id = ? ORDER BY function, case_index", (run,))
    for function, index, values in rows:
        digest = digests.setdefault(function, hashlib.sha256())
        digest.update(f"{index} {values or ''}\n".encode())
    return {function: d.hexdigest()[:16] for function, d in digests.items()}


def function_calls(conn, run):
    """{function: (signature, datatypes, cases stored)} of the run."""
    return {name: (signature, datatypes, cases) for name, signature, datatypes, cases in
            conn.execute("SELECT r.function, f.signature, f.datatypes, count(*) FROM results r"
                         " JOIN functions f ON f.run_id = r.run_id AND f.name = r.function"
                         " WHERE r.run_id = ? GROUP BY r.function", (run,))}


def compared_cases(conn, run):
    """(function, case index, value names, outcome, signal, exit status) of
    every case of the run, by function and index."""
    return conn.execute("SELECT function, case_index, value_names, outcome, signal, exit_status"
                        " FROM results WHERE run_id = ? ORDER BY function, case_index", (run,))


def not_passing(conn, run):
    """(function, case index, value names, outcome, signal, exit status) of
    the run's cases that did not pass (failing, or SETUP), in order."""
    return conn.execute("SELECT function, case_index, value_names, outcome, signal, exit_status"
                        " FROM results WHERE run_id = ? AND outcome != 'PASS'"
                        " ORDER BY function, case_index", (run,))


def stored_case(conn, run, function, index):
    """(value names, outcome, signal, exit status, error reported, errno)
    of one case of the run."""
    return conn.execute("SELECT value_names, outcome, signal, exit_status, error_reported, errno"
                        " FROM results WHERE run_id = ? AND function = ? AND case_index = ?",
                        (run, function, index)).fetchone()


def finding_of_cases(conn, run):
    """{(function, case index): finding id} of the run's cases in a finding."""
    return {(fn, i): finding for fn, i, finding in conn.execute(
        "SELECT function, case_index, finding FROM finding_cases WHERE run_id = ?", (run,))}


def spec_of_newest_run(conn, target):
    """The spec the newest run of target was made with, as it was named (a
    path), None when it was a target under targets/; () when the store
    holds no run of target."""
    row = conn.execute("SELECT spec FROM runs WHERE target = ? ORDER BY id DESC LIMIT 1",
                       (target,)).fetchone()
    return () if row is None else row["spec"]
