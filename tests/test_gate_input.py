"""What CI hands the gate by mistake: exit 1 says "robustness regressed",
so every file that is not a baseline, and every broken store, must answer
with one line naming the file and exit 2 (bad input) or 3 (the harness or
its store broke), never a traceback and 1."""
import sqlite3

import pytest

from conftest import ROOT, hand_store, trebuchet
from trebuchet.gate import baseline as baselines
from trebuchet.store import database as store

SPEC = "tests/demolib/demolib.yaml"
COUNT = dict(signature="size_t demo_count(const char *s, int c)", datatypes="string int",
             cases=[("string:NULL int:ZERO", "PASS")])


@pytest.fixture
def store_and_baseline(tmp_path):
    db, path = tmp_path / "hand.db", tmp_path / "demolib.baseline"
    hand_store(db, {"demo_count": COUNT}, target="demolib")
    path.write_text(baselines.dumps(baselines.from_store(db, "demolib", SPEC)))
    return db, path


def gate(db, baseline):
    return trebuchet("gate", "--db", db, "--baseline", baseline, "--confirm", "0", cwd=ROOT,
                     check=False)


def one_line(result):
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and not result.stdout, result.stdout + result.stderr
    return lines[0]


def conflicted(text):
    """The baseline as a merge of two branches that both changed it leaves it."""
    lines = text.splitlines(keepends=True)
    return "".join(lines[:3] + ["<<<<<<< HEAD\n", lines[3], "=======\n", lines[3],
                                ">>>>>>> topic\n"] + lines[4:])


@pytest.mark.parametrize("made, said", [
    (lambda db, text: db.read_bytes(), ": a SQLite store, not a baseline"),
    (lambda db, text: bytes(range(256)) * 4, "2: not a baseline: byte 0x80 is not UTF-8 text"),
    (lambda db, text: b"", "empty, not a baseline"),
    (lambda db, text: b"\n \n", "empty, not a baseline"),
    (lambda db, text: conflicted(text).encode(), "4: an unresolved merge conflict ('<<<<<<<')"),
    (lambda db, text: text.replace(baselines.FORMAT, "trebuchet baseline 5").encode(),
     '2: a baseline of format "trebuchet baseline 5", which this trebuchet does not read'
     ' (it reads "trebuchet baseline 1" to "trebuchet baseline 4")'),
], ids=["store", "noise", "empty", "blank", "conflict", "future"])
def test_what_is_not_a_baseline_is_one_line_and_exit_2(store_and_baseline, tmp_path, made,
                                                      said):
    db, good = store_and_baseline
    bad = tmp_path / "bad.baseline"
    bad.write_bytes(made(db, good.read_text()))
    result = gate(db, bad)
    assert result.returncode == 2
    line = one_line(result)
    assert line.startswith(f"trebuchet: {bad}:") and said in line, line
    # the file's own format is quoted as its, never the one expected
    assert "its first key" not in line


def test_a_broken_store_is_a_harness_error_in_one_line(store_and_baseline, tmp_path):
    """A store of the right version whose tables are gone: the store broke
    (exit 3), the gate has no verdict."""
    _, baseline = store_and_baseline
    db = tmp_path / "broken.db"
    with sqlite3.connect(db) as conn:
        conn.execute(f"PRAGMA user_version = {store.schema_version()}")
    result = gate(db, baseline)
    assert result.returncode == 3
    assert one_line(result).startswith(f"trebuchet: {db}: the store is broken (no such table")
