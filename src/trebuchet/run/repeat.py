"""`trebuchet run --repeat N`: every case of a finished run run N - 1 times
more, each repetition a whole campaign of its own (same plugin, seed, cap,
selection, shard, dictionary, timeout, pins or listed cases) into a store that is thrown away;
a case whose outcome or signal is not the same every time is flaky.  Kept
in the run's store (tables repeats and flaky, schemas/results.sql)."""
import os
import sqlite3
import tempfile
from pathlib import Path

from trebuchet.store import database as store
from trebuchet.store import repeats, results, runs

from trebuchet.harness import executor
from trebuchet.core.exitcodes import Exit
from trebuchet.core.readable import outcome_brief


def _outcomes(db, run=None):
    """{(function, case index): "OUTCOME[ SIGNAL]"} of one run of a store."""
    with sqlite3.connect(db) as conn:
        run = run or runs.newest_run(conn)
        return {(f, i): outcome_brief(o, s, x) for f, i, o, s, x in results.outcomes(conn, run)}


def repeat(db, plugin, run, times, jobs=None, scratch=None, memory_mb=None):
    """Runs run's campaign times - 1 more; stores the repetition count and the
    flaky cases; returns (exit code, number of flaky cases)."""
    with sqlite3.connect(db) as conn:
        conn.row_factory = sqlite3.Row
        info, functions = runs.RunInfo.read(conn, run), runs.selection(conn, run)
        listed = results.listed_cases(conn, run)
    seen = {case: [brief] for case, brief in _outcomes(db, run).items()}
    with tempfile.TemporaryDirectory(prefix="trebuchet-repeat-") as tmp:
        cases = Path(tmp) / "listed" if listed else None  # the cases a --values-file run ran
        if cases:
            cases.write_text("".join(f"{f} {i}\n" for f, i in listed))
        for k in range(times - 1):
            again = Path(tmp) / f"repeat{k}.db"
            rc = executor.run_campaign(plugin, again, functions=functions, cap=info.cap,
                                       seed=info.seed, timeout=info.timeout_ms / 1000, jobs=jobs,
                                       progress=False, scratch=scratch, memory_mb=memory_mb,
                                       shard=f"{info.shard}/{info.shards}",
                                       dictionary=info.dictionary,
                                       sandbox=info.sandbox != "none",  # as the run was
                                       pins=info.pins, listed=cases)
            if rc != Exit.OK:
                return rc, 0
            for case, brief in _outcomes(again).items():
                seen.setdefault(case, []).append(brief)
    flaky = [(f, i, ", ".join(b)) for (f, i), b in sorted(seen.items()) if len(set(b)) > 1]
    lock = store.writer_lock(db)
    try:
        with sqlite3.connect(db) as conn:
            repeats.replace(conn, run, times, flaky)
    finally:
        os.close(lock)
    return Exit.OK, len(flaky)
