"""Read access to a trebuchet store, with the schema version check.  The
schema itself is schemas/results.sql; this module only reads it for its
version."""
import contextlib
import fcntl
import functools
import os
import re
import sqlite3
from pathlib import Path

from trebuchet.core import paths
from trebuchet.core.errors import TrebuchetError


@functools.lru_cache(maxsize=None)
def schema_text():
    """results.sql, read once: every connect checks a store against it."""
    return paths.RESULTS_SQL.read_text()


def schema_version():
    match = re.search(r"user_version\s*=\s*(\d+)", schema_text())
    return int(match.group(1))


class IncompleteStore(TrebuchetError):
    """A store of this schema version missing some of its tables: bad input
    for the commands that read it (exit 2); the gate calls it a broken store
    (exit 3, no verdict), as it calls any store that fails under it."""

    def __init__(self, db, version, missing):
        super().__init__(f"not a whole store of schema version {version}: it has no table "
                         f"{', '.join(missing)}", db)
        self.missing = missing


def schema_tables():
    """The tables a whole store of this schema has."""
    return set(re.findall(r"CREATE TABLE(?: IF NOT EXISTS)? (\w+)", schema_text()))


def connect(db):
    """Opens an existing store read-only after checking it is one: of this
    schema version, with every table of it (a store missing one, edited by
    hand or cut short, is bad input said once here, not a traceback in
    whichever query meets it first)."""
    db = Path(db)
    if not db.is_file():
        raise TrebuchetError("no such store", db)
    if db.stat().st_size == 0:
        raise TrebuchetError("an empty file, not a trebuchet store", db)
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = {name for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as e:
        raise TrebuchetError(f"not a trebuchet store ({e})", db) from None
    if version != schema_version():
        raise TrebuchetError(f"store has schema version {version}, this trebuchet reads "
                             f"version {schema_version()}", db)
    missing = sorted(schema_tables() - tables)
    if missing:
        raise IncompleteStore(db, version, missing)
    conn.row_factory = sqlite3.Row
    return conn


def held(conn):
    """(cases, runs) the store holds."""
    return tuple(conn.execute("SELECT (SELECT count(*) FROM results),"
                              " (SELECT count(*) FROM runs)").fetchone())


def writable(db):
    """Tries a write of the store db before any work: one that cannot be
    written (a read-only file, folder or file system, which SQLite opens
    read-only without a word) is one line here, not an error at the first
    result after minutes of work.  A write of the header, rolled back, is
    what finds all three."""
    with contextlib.closing(sqlite3.connect(db)) as conn:
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            conn.execute("BEGIN IMMEDIATE")
            conn.execute(f"PRAGMA user_version = {int(version)}")
            conn.execute("ROLLBACK")
        except sqlite3.Error as e:
            why = ("its folder is read-only, where SQLite keeps its journal"
                   if getattr(e, "sqlite_errorname", "") == "SQLITE_READONLY_DIRECTORY"
                   else "a read-only store" if "readonly" in str(e) else str(e))
            raise TrebuchetError(f"cannot be written: {why}", db) from None


def writer_lock(path):
    """Takes the one-writer lock `trebuchet run` takes on a store
    (harness/store.c: a flock, independent of SQLite's locks); returns its
    descriptor, held until closed or the process ends."""
    fd = os.open(path, os.O_RDONLY | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise TrebuchetError("is being written by another trebuchet; wait for it to end",
                             path) from None
    return fd
