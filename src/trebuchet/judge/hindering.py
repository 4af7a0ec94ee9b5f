"""Hindering failures: an error reported with an errno the function's
documentation does not allow, or with none (errno 0).  A function is judged
when its spec lists `errnos`, on its cases less SETUP."""
from trebuchet.core.readable import errno_name

from trebuchet.judge import crash_scale
from trebuchet.store import results
from trebuchet.store.runs import RunInfo, newest_in_stores


def _judge(conn, run, target, name, allowed):
    """Judges the function's cases less SETUP; only those that returned
    reporting an error are read (the count of the rest is SQLite's)."""
    f = crash_scale.ScaleFunction(target, name)
    f.judged = results.judged_count(conn, run, name)
    for index, values, err in results.reported_errors(conn, run, name):
        if not err or errno_name(err) not in allowed:
            f.add(index, values.split(" ") if values else [],
                  "no errno" if not err else f"errno {errno_name(err)}")
    return f


def hindering_targets(sources, allowed_of):
    """[ScaleTarget], one per (dictionary, target) whose spec lists errnos;
    allowed_of(RunInfo): {function: set of errno names}, for the
    functions whose spec lists them (spec_reads.SpecReads.errnos)."""
    out = []
    chosen = newest_in_stores(sources)
    for (target, dictionary), (conn, run, db) in sorted(chosen.items(),
                                                         key=lambda kv: kv[0][::-1]):
        info = RunInfo.read(conn, run)
        allowed = allowed_of(info)
        functions = [_judge(conn, run, target, name, allowed[name])
                     for name in results.function_names(conn, run) if name in allowed]
        functions = [f for f in functions if f.judged]
        if functions:
            out.append(crash_scale.ScaleTarget(
                "hindering", target, dictionary, run, functions,
                [(info, db)], "the errnos its spec allows"))
    return out
