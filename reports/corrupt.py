"""Corrupt failures: PASS cases that `trebuchet memcheck` (runner/memcheck.py)
ran again under Valgrind's memcheck and found reading or writing memory the
call must not.  A function is judged on its checked cases that passed under
memcheck too, a sample of its PASS cases, so its rate is over that sample,
with a Wilson interval beside it."""
from . import crash_scale, metrics


def _judge(conn, run, target, name):
    f = crash_scale.ScaleFunction(target, name)
    for index, values, corrupt, kind, what in conn.execute(
            "SELECT m.case_index, r.value_names, m.corrupt, m.kind, m.what FROM memcheck m"
            " JOIN results r USING (run_id, function, case_index)"
            " WHERE m.run_id = ? AND m.function = ? AND m.outcome = 'PASS' ORDER BY m.case_index",
            (run, name)):
        f.judged += 1
        if corrupt:
            f.add(index, values.split(" ") if values else [], f"{kind}: {what}")
    return f


def judged_functions(conn, run, target):
    """[ScaleFunction] of the run's functions memcheck judged some case of,
    by name: the report's and `trebuchet memcheck`'s one count."""
    names = [n for (n,) in conn.execute("SELECT DISTINCT function FROM memcheck"
                                        " WHERE run_id = ? ORDER BY function", (run,))]
    return [f for f in (_judge(conn, run, target, n) for n in names) if f.judged]


def corrupt_targets(sources, newest_by_dictionary):
    """[ScaleTarget], one per (dictionary, target) whose newest run was
    checked under memcheck."""
    out = []
    chosen = crash_scale.newest_runs(sources, None, newest_by_dictionary)
    for (target, dictionary), (conn, run, db) in sorted(chosen.items(),
                                                         key=lambda kv: kv[0][::-1]):
        functions = judged_functions(conn, run, target)
        if functions:
            out.append(crash_scale.ScaleTarget(
                "corrupt", target, dictionary, run, functions,
                [(metrics.RunInfo.read(conn, run), db)],
                "Valgrind's memcheck, over a sample of its PASS cases"))
    return out


def acceptable_rate(conn, run):
    """(normalized Corrupt rate in percent, cases judged) over the judged
    cases whose every value the contract accepts (run_values, as
    findings_store.acceptable_rate reads it): a freed or garbage handle the
    caller passed makes a use after free the caller's, not the library's.
    (None, 0) when no such case was judged."""
    verdict = {(fn, i, v): ok for fn, i, v, ok in conn.execute(
        "SELECT function, param, value, acceptable FROM run_values WHERE run_id = ?", (run,))}
    per = {}
    for function, values, corrupt in conn.execute(
            "SELECT m.function, r.value_names, m.corrupt FROM memcheck m"
            " JOIN results r USING (run_id, function, case_index)"
            " WHERE m.run_id = ? AND m.outcome = 'PASS'", (run,)):
        names = values.split(" ") if values else []
        if all(verdict.get((function, i, v), 1) for i, v in enumerate(names)):
            judged, count = per.get(function, (0, 0))
            per[function] = (judged + 1, count + corrupt)
    if not per:
        return None, 0
    return (metrics._mean(100.0 * c / j for j, c in per.values()),
            sum(j for j, _ in per.values()))
