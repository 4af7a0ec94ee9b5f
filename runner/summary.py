"""The one line a finished run ends with, on a terminal and in a CI log
alike: target, cases, counts per outcome, normalized ABORT rate, seconds,
store.  The rate comes from reports.metrics, like every other number."""


def line(db, target, seconds):
    from trebuchet.reports import metrics, store

    conn = store.connect(db)
    run = conn.execute("SELECT max(id) FROM runs WHERE target = ? AND finished IS NOT NULL",
                       (target,)).fetchone()[0]
    s = metrics.summarize(conn, target, run, db)
    passed = sum(f.passed for f in s.functions)
    aborts = sum(f.aborts for f in s.functions)
    restarts = sum(f.restarts for f in s.functions)
    setups = sum(f.setups for f in s.functions)
    functions = f"{len(s.functions)} function{'s' if len(s.functions) != 1 else ''}"
    return (f"{target}: {s.cases} cases in {functions}, PASS {passed}, "
            f"ABORT {aborts}, RESTART {restarts}, SETUP {setups}; normalized ABORT rate "
            f"{s.abort_rate:.2f}%; {seconds:.1f} s; run {run} in {db}")
