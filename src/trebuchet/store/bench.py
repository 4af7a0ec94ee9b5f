"""Where `trebuchet bench io` keeps its measurements: the bench_runs and
bench_results tables of schemas/results.sql, in a new store or an existing
store of this schema version (any other version is a one-line error); and
what the study's pages read of them (src/trebuchet/study/bench_stats.py)."""
import os
import sqlite3
import time
from importlib.metadata import version
from pathlib import Path

from trebuchet.core.errors import TrebuchetError
from trebuchet.store import database as store


def _is_new(path):
    """No file yet, an empty file, or a store with no tables and no version."""
    if not path.exists() or path.stat().st_size == 0:
        return True
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            return conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0 and \
                conn.execute("PRAGMA user_version").fetchone()[0] == 0
        finally:
            conn.close()
    except sqlite3.DatabaseError:
        return False   # store.connect says what is wrong with it



def _now():
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def host():
    """The machine, as `trebuchet run` names it: node (system release machine)."""
    u = os.uname()
    return f"{u.nodename} ({u.sysname} {u.release} {u.machine})"


class BenchStore:
    """An open store taking one bench run's rows as they are measured, so
    that an interrupted run keeps what it measured (its row stays
    unfinished, and reports read finished runs only)."""

    def __init__(self, db):
        self.path = Path(db)
        if self.path.is_dir():
            raise TrebuchetError("is a directory, not a store", self.path)
        new = _is_new(self.path)
        if not new:
            store.connect(self.path).close()   # the schema version check, one line
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise TrebuchetError(f"cannot make its folder: {e.strerror}", self.path) from None
        self.lock = store.writer_lock(self.path)
        self.conn = sqlite3.connect(self.path)
        if new:
            self.conn.executescript(store.schema_text())
        self.run = None

    def start(self, libraries, benchmarks, blocks, size_mib, repeat, cold):
        cur = self.conn.execute(
            "INSERT INTO bench_runs (host, harness_version, libraries, benchmarks, blocks,"
            " size_mib, repeat, cold, started) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (host(), version("trebuchet"), ",".join(libraries), ",".join(benchmarks),
             ",".join(map(str, blocks)), size_mib, repeat, int(cold), _now()))
        self.conn.commit()
        self.run = cur.lastrowid
        return self.run

    def add(self, m):
        """Stores one measurement (a dict of bench_results' columns less run_id)."""
        self.conn.execute(
            "INSERT INTO bench_results (run_id, benchmark, block, library, repetition, sequence,"
            " size_bytes, usr_s, sys_s, elapsed_s) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (self.run, m["benchmark"], m["block"], m["library"], m["repetition"], m["sequence"],
             m["size_bytes"], m["usr_s"], m["sys_s"], m["elapsed_s"]))
        self.conn.commit()

    def finish(self):
        self.conn.execute("UPDATE bench_runs SET finished = ? WHERE id = ?", (_now(), self.run))
        self.conn.commit()

    def close(self):
        self.conn.close()
        os.close(self.lock)


def newest_finished_run(conn):
    """The id of the store's newest finished bench run; None when it has
    none (or no bench tables: a store made before bench runs existed)."""
    try:
        row = conn.execute("SELECT max(id) FROM bench_runs WHERE finished IS NOT NULL").fetchone()
    except sqlite3.OperationalError:   # no such table
        return None
    return row[0]


def measurements(conn, run):
    """(benchmark, block, library, repetition, size_bytes, usr_s, sys_s,
    elapsed_s) of each of run's measurements."""
    return conn.execute(
        "SELECT benchmark, block, library, repetition, size_bytes, usr_s, sys_s, elapsed_s"
        " FROM bench_results WHERE run_id = ?", (run,)).fetchall()


def run_row(conn, run):
    """The bench_runs row of run as {column: value}."""
    cursor = conn.execute("SELECT * FROM bench_runs WHERE id = ?", (run,))
    return dict(zip([d[0] for d in cursor.description], cursor.fetchone()))
