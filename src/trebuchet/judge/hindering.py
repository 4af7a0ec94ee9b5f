"""Hindering failures: an error reported with an errno the function's
documentation does not allow, or with none (errno 0).  A function is judged
when its spec lists `errnos`, on its cases less SETUP."""
from trebuchet.core.readable import errno_name

from trebuchet.judge import crash_scale
from trebuchet.store.runs import RunInfo


def _judge(conn, run, target, name, allowed):
    """Judges the function's cases less SETUP; only those that returned
    reporting an error are read (the count of the rest is SQLite's)."""
    f = crash_scale.ScaleFunction(target, name)
    f.judged = conn.execute("SELECT count(*) FROM results WHERE run_id = ? AND function = ?"
                            " AND outcome != 'SETUP'", (run, name)).fetchone()[0]
    for index, values, err in conn.execute(
            "SELECT case_index, value_names, errno FROM results WHERE run_id = ?"
            " AND function = ? AND outcome = 'PASS' AND error_reported ORDER BY case_index",
            (run, name)):
        if not err or errno_name(err) not in allowed:
            f.add(index, values.split(" ") if values else [],
                  "no errno" if not err else f"errno {errno_name(err)}")
    return f


def hindering_targets(sources, newest_by_dictionary, allowed_of):
    """[ScaleTarget], one per (dictionary, target) whose spec lists errnos;
    allowed_of(RunInfo): {function: set of errno names}, for the
    functions whose spec lists them (spec_reads.SpecReads.errnos)."""
    out = []
    chosen = crash_scale.newest_runs(sources, None, newest_by_dictionary)
    for (target, dictionary), (conn, run, db) in sorted(chosen.items(),
                                                         key=lambda kv: kv[0][::-1]):
        info = RunInfo.read(conn, run)
        allowed = allowed_of(info)
        functions = [_judge(conn, run, target, name, allowed[name])
                     for name in crash_scale.function_names(conn, run) if name in allowed]
        functions = [f for f in functions if f.judged]
        if functions:
            out.append(crash_scale.ScaleTarget(
                "hindering", target, dictionary, run, functions,
                [(info, db)], "the errnos its spec allows"))
    return out
