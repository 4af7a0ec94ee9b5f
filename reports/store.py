"""Read access to a trebuchet store, with the schema version check.  The
schema itself is schemas/results.sql; this module only reads it for its
version."""
import re
import sqlite3
from pathlib import Path

from trebuchet.runner import paths
from trebuchet.runner.errors import TrebuchetError


def schema_text():
    return paths.RESULTS_SQL.read_text()


def schema_version():
    match = re.search(r"user_version\s*=\s*(\d+)", schema_text())
    return int(match.group(1))


def connect(db):
    """Opens an existing store read-only after checking its schema version."""
    db = Path(db)
    if not db.is_file():
        raise TrebuchetError("no such store", db)
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        version = conn.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.DatabaseError as e:
        raise TrebuchetError(f"not a trebuchet store ({e})", db) from None
    if version != schema_version():
        raise TrebuchetError(f"store has schema version {version}, this trebuchet reads "
                             f"version {schema_version()}", db)
    conn.row_factory = sqlite3.Row
    return conn
