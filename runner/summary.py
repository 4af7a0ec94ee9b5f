"""The one line a finished run ends with, on a terminal and in a CI log
alike: target, cases, counts per outcome, normalized ABORT rate, seconds,
store.  The rate comes from reports.metrics, like every other number."""


def line(db, target, seconds):
    from trebuchet.reports import metrics, store

    conn = store.connect(db)
    run = metrics.latest_runs(conn)[target]
    s = metrics.summarize(conn, target, run, db)
    functions = f"{len(s.functions)} function{'s' if len(s.functions) != 1 else ''}"
    return (f"{target}: {s.cases} cases in {functions}, PASS {s.total('passed')}, "
            f"ABORT {s.total('aborts')}, RESTART {s.total('restarts')}, "
            f"SETUP {s.total('setups')}; normalized ABORT rate {s.abort_rate:.2f}%; "
            f"{seconds:.1f} s; run {run} in {db}")
