"""Where `trebuchet bench protection` keeps its measurements: the
protection_runs, protection_results and protection_instructions tables of
schemas/results.sql, opened as bench io's tables are (store/bench.py); and
what the study reads of them (src/trebuchet/study/protection_stats.py)."""
import sqlite3
from importlib.metadata import version

from trebuchet.store.bench import BenchStore, _now, host

RESULT_COLUMNS = ("repetition", "sequence", "scheme", "place", "benchmark", "size", "grain",
                  "calls", "ns", "result")
COUNT_COLUMNS = ("scheme", "benchmark", "size", "grain", "instructions", "d1_misses", "ll_misses")


class ProtectionStore(BenchStore):
    """A store taking one protection run's rows as they are measured: an
    interrupted run keeps them, and its row stays unfinished."""

    def start(self, schemes, benchmarks, places, reps, instructions, skipped):
        cur = self.conn.execute(
            "INSERT INTO protection_runs (host, harness_version, schemes, benchmarks, places, reps,"
            " instructions, skipped, started) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (host(), version("trebuchet"), ",".join(schemes), ",".join(benchmarks),
             ",".join(places), reps, int(instructions),
             "\n".join(f"{s}: {why}" for s, why in skipped.items()), _now()))
        self.conn.commit()
        self.run = cur.lastrowid
        return self.run

    def add(self, m):
        """Stores one measurement: a dict of RESULT_COLUMNS."""
        self._insert("protection_results", RESULT_COLUMNS, m)

    def add_count(self, m):
        """Stores callgrind's count of one instance: a dict of COUNT_COLUMNS."""
        self._insert("protection_instructions", COUNT_COLUMNS, m)

    def _insert(self, table, columns, m):
        self.conn.execute(
            f"INSERT INTO {table} (run_id, {', '.join(columns)})"
            f" VALUES (?{', ?' * len(columns)})", (self.run, *(m[c] for c in columns)))
        self.conn.commit()

    def finish(self):
        self.conn.execute("UPDATE protection_runs SET finished = ? WHERE id = ?", (_now(), self.run))
        self.conn.commit()


def newest_finished_run(conn):
    """The id of the store's newest finished protection run, or None."""
    try:
        row = conn.execute(
            "SELECT max(id) FROM protection_runs WHERE finished IS NOT NULL").fetchone()
    except sqlite3.OperationalError:   # a store made before protection runs existed
        return None
    return row[0]


def measurements(conn, run):
    """(repetition, scheme, place, benchmark, size, grain, calls, ns) of each
    of run's measurements."""
    return [tuple(r) for r in conn.execute(
        "SELECT repetition, scheme, place, benchmark, size, grain, calls, ns"
        " FROM protection_results WHERE run_id = ? ORDER BY sequence", (run,))]


def counts(conn, run):
    """{(scheme, benchmark, size, grain): (instructions, d1_misses, ll_misses)}."""
    return {tuple(r[:4]): tuple(r[4:]) for r in conn.execute(
        "SELECT scheme, benchmark, size, grain, instructions, d1_misses, ll_misses"
        " FROM protection_instructions WHERE run_id = ?", (run,))}


def run_row(conn, run):
    """The protection_runs row of run as {column: value}."""
    cursor = conn.execute("SELECT * FROM protection_runs WHERE id = ?", (run,))
    return dict(zip([d[0] for d in cursor.description], cursor.fetchone()))
