"""The store side of `trebuchet merge` (src/trebuchet/gate/merge.py): the
shard runs a store holds, what each holds, and the merged run appended to
the output in one transaction, so that a refusal or a kill leaves the
output as it was (or absent) and never a half-merged run."""
import os
import sqlite3
from pathlib import Path

from trebuchet.core.errors import TrebuchetError
from trebuchet.store import database as store

# The tables whose rows are a case's, copied under the merged run's id.
CASE_TABLES = ("results", "crash_sites")


def shard_runs(conn, target=None):
    """[runs row as a dict] of the store's shard runs (of target, when
    given), newest first."""
    where, args = ("AND target = ?", (target,)) if target else ("", ())
    return [dict(r) for r in conn.execute(
        f"SELECT * FROM runs WHERE shards > 1 {where} ORDER BY id DESC", args)]


def run_functions(conn, run):
    """{name: functions row as a dict} of a run."""
    return {r["name"]: dict(r) for r in conn.execute(
        "SELECT * FROM functions WHERE run_id = ?", (run,))}


def stored_per_function(conn, run):
    """{function: how many results the run stored for it}."""
    return dict(conn.execute("SELECT function, count(*) FROM results WHERE run_id = ?"
                             " GROUP BY function", (run,)).fetchall())


def listed_cases(conn, run):
    """[(function, case index)] a --values-file run lists, sorted; [] else."""
    return [tuple(r) for r in conn.execute(
        "SELECT function, case_index FROM listed_cases WHERE run_id = ?"
        " ORDER BY function, case_index", (run,))]


def _is_new(conn):
    """A store with no tables yet: SQLite's new file, or what a merge killed
    before its commit left."""
    return conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0 and \
        conn.execute("PRAGMA user_version").fetchone()[0] == 0


def check_output(out):
    """That out, when it exists, is a store a merged run can be appended to:
    one with no tables yet (taken as new), or a trebuchet store of this
    schema version (store.connect says what is wrong with it otherwise)."""
    if not out.exists():
        return
    try:
        conn = sqlite3.connect(f"file:{out}?mode=ro", uri=True)
        try:
            if _is_new(conn):
                return
        finally:
            conn.close()
    except sqlite3.DatabaseError:
        pass
    store.connect(out).close()


def _insert(conn, table, row):
    conn.execute(f"INSERT INTO {table} ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
                 tuple(row.values()))


def _copy_cases(conn, path, source_run, run_id):
    """Every row of a shard's run in CASE_TABLES, every column, under the
    merged run's id."""
    src = store.connect(path)
    try:
        for table in CASE_TABLES:
            columns = [r[1] for r in src.execute(f"PRAGMA table_info({table})")
                       if r[1] != "run_id"]
            names = ", ".join(columns)
            rows = src.execute(f"SELECT {names} FROM {table} WHERE run_id = ?", (source_run,))
            conn.executemany(f"INSERT INTO {table} (run_id, {names})"
                             f" VALUES (?, {', '.join('?' * len(columns))})",
                             ((run_id, *row) for row in rows))
    finally:
        src.close()


def append_merged_run(out, run, functions, listed, sources):
    """Appends the merged run to the store out (made when new) in one
    transaction: its runs row, its functions rows, the cases it lists, and
    every case of each (store path, run id) of sources; returns its id."""
    out = Path(out)
    existed = out.exists()
    fd = store.writer_lock(out)
    conn = sqlite3.connect(out, isolation_level=None)
    try:
        new = _is_new(conn)
        if new:  # as the executor makes its stores; a kill leaves uncommitted frames unread
            conn.execute("PRAGMA journal_mode=WAL")
        # a new store's tables are made in the run's transaction: a kill
        # before the commit leaves a store with no tables, taken as new
        conn.executescript("BEGIN IMMEDIATE;\n" + (store.schema_text() if new else ""))
        _insert(conn, "runs", run)
        run_id = conn.execute("SELECT last_insert_rowid()").fetchone()[0]
        for f in functions:
            _insert(conn, "functions", dict(f, run_id=run_id))
        conn.executemany("INSERT INTO listed_cases VALUES (?, ?, ?)",
                         ((run_id, f, i) for f, i in listed))
        for path, source_run in sources:
            try:
                _copy_cases(conn, path, source_run, run_id)
            except sqlite3.IntegrityError:
                # the counts added up, yet two shards hold one case
                raise sqlite3.IntegrityError(f"{path} holds a case another shard holds"
                                             " too") from None
        conn.execute("COMMIT")
        conn.execute("PRAGMA journal_mode=DELETE")  # at rest, one file (harness/store.c)
        return run_id
    except sqlite3.Error as e:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        conn.close()
        if not existed:
            out.unlink(missing_ok=True)
        raise TrebuchetError(f"cannot write the merged run: {e}", out) from None
    finally:
        conn.close()
        os.close(fd)
