"""The one line a finished run ends with, on a terminal and in a CI log
alike: target, cases, counts per outcome, normalized ABORT rate, seconds,
store, the slow cases (store/slow_cases.py), for a shard run which shard it holds and how to join the shards, and
for a targeted run what it held its cases to.
The rate comes from report.metrics, like every other number."""


def _findings(conn, run):
    from trebuchet.findings import storage as findings_store

    from trebuchet.store import findings as findings_tables

    found = findings_store.stored(conn, run)
    violations = sum(f.is_violation for f in found)
    _, ran, left = findings_tables.minimisation(conn, run)
    return (f"{len(found)} finding{'s' if len(found) != 1 else ''}, "
            f"{violations} contract violation{'s' if violations != 1 else ''}"
            + (f" (minimised with {ran:,} case{'s' if ran != 1 else ''} of their own" if ran else
               " (minimised with the run's own cases")
            + (f"; {left:,} failing cases not minimised: the budget ran out)" if left else ")"))


def line(db, target, seconds=None):
    """The line for the newest finished run of target in db; seconds, when
    given, is how long the command took."""
    from trebuchet.report import metrics
    from trebuchet.store import slow_cases
    from trebuchet.store.runs import latest_runs
    from trebuchet.store import database as store

    conn = store.connect(db)
    run = latest_runs(conn)[target]
    s = metrics.summarize(conn, target, run, db)
    functions = f"{len(s.functions)} function{'s' if len(s.functions) != 1 else ''}"
    took = f"{seconds:.1f} s; " if seconds is not None else ""
    text = (f"{target}: {s.cases} cases in {functions}, PASS {s.total('passed')}, "
            f"ABORT {s.total('aborts')}, RESTART {s.total('restarts')}, "
            f"SETUP {s.total('setups')}; normalized ABORT rate {s.abort_rate:.2f}%; "
            f"{_findings(conn, run)}; {took}sandbox {s.info.sandbox}; "
            + (f"sanitizer {s.info.sanitizer}; " if s.info.sanitizer else "")
            + f"run {run} in {db}")
    if s.slow:
        text += f"; {slow_cases.described(s.slow, shown=1)}"
    if s.info.targeted():
        text += f"; targeted: {s.info.targeted()}"
    if s.info.partial:
        text += (f"; shard {s.info.shard} of {s.info.shards} only: `trebuchet merge"
                 f" SHARD.db ... --out DB` joins the {s.info.shards} shards' stores into one run")
    return text
