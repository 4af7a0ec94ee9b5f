"""Shared helpers for the end-to-end suites: they drive the real `trebuchet`
CLI (installed in the project's virtual environment) against real targets."""
import functools
import math
import os
import re
import select
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TREBUCHET = Path(sys.executable).parent / "trebuchet"


def trebuchet(*args, cwd=None, env=None, check=True):
    """Runs the CLI; returns the CompletedProcess (text output captured)."""
    full_env = dict(os.environ, **(env or {}))
    result = subprocess.run([str(TREBUCHET), *map(str, args)], cwd=cwd, env=full_env,
                            capture_output=True, text=True)
    if check and result.returncode != 0:
        raise AssertionError(f"trebuchet {' '.join(map(str, args))} exited "
                             f"{result.returncode}:\n{result.stderr}")
    return result


PROGRESS = re.compile(rb"(\d+)/(\d+) cases")


def start_run(db, *args):
    """A run in a session of its own, its progress line on a pipe."""
    return subprocess.Popen([str(TREBUCHET), "run", "--db", str(db), "--progress", *map(str, args)],
                            start_new_session=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)


def read_progress_until(proc, condition):
    """Reads the run's progress line (blocking) until condition(done, text)."""
    seen = b""
    while True:
        chunk = os.read(proc.stderr.fileno(), 4096)
        assert chunk, f"the run ended first: {seen[-400:]!r}"
        seen += chunk
        last = seen.rsplit(b"\r", 1)[-1]
        counts = PROGRESS.findall(last)
        if counts and condition(int(counts[-1][0]), last):
            return last


def wait_gone(pid):
    """Blocks until pid has exited (a pidfd polls readable then)."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return
    try:
        select.select([fd], [], [])
    finally:
        os.close(fd)


@functools.cache
def ci_schemas():
    """The folder of the schemas CI systems read (Jenkins' junit-10.xsd,
    OASIS's SARIF 2.1.0), fetched by the Makefile's rule that `make test`
    runs, so that a test run some other way checks against the same files."""
    made = subprocess.run(["make", "-s", "-C", str(ROOT), "test-schemas"], capture_output=True,
                          text=True)
    assert made.returncode == 0, made.stdout + made.stderr
    return ROOT / "build/schemas"


@functools.cache
def datatype_values(target=None):
    """{datatype: [value names]} as `trebuchet list datatypes` shows them, so
    that a test's counts follow the datatypes instead of copying their sizes."""
    lines = trebuchet("list", "datatypes", *(["--target", target] if target else [])).stdout
    values = {}
    for line in lines.splitlines():
        if line.startswith(" "):
            values[datatype].append(line.split()[0])
        else:
            datatype = line.split(":")[0]
            values[datatype] = []
    return values


def value_product(*datatypes, target=None):
    """How many tuples of values the datatypes make: a cross product's size."""
    return math.prod(len(datatype_values(target)[d]) for d in datatypes)


@functools.cache
def function_cases(target):
    """{function: cases in its cross product} as `trebuchet list functions` shows them."""
    lines = trebuchet("list", "functions", "--target", target).stdout.splitlines()
    return {line.split()[0].split(".", 1)[1]: int(line.split()[1]) for line in lines}


def campaigns_with_report(root, *runs):
    """Runs each campaign (the arguments of one `trebuchet run`) into one
    store under root and writes the report of them all beside it; returns
    (store, report folder)."""
    db, out = root / "runs.db", root / "report"
    for run in runs:
        trebuchet("run", *run, "--db", db, "--quiet")
    trebuchet("report", "--db", db, "--out", out)
    return db, out


def query(db, sql, *params):
    with sqlite3.connect(db) as conn:
        return conn.execute(sql, params).fetchall()


def hand_store(db, functions, target="demo", dictionary="ours"):
    """Adds a finished run of target to a store (made if need be) by hand,
    to test the numbers' definitions on cases counted by hand: functions is
    {name: dict(signature=, datatypes=, cases=[(value names, outcome[,
    {column: value}])], total=)}, a case's index its place in the list, the
    dict any more of its columns (signal, errno, error_reported), total (the
    cross product) its count unless given."""
    with sqlite3.connect(db) as conn:
        conn.executescript((ROOT / "schemas/results.sql").read_text())
        run = conn.execute(
            "INSERT INTO runs (target, target_version, host, harness_version, seed, cap,"
            " timeout_ms, jobs, functions, started, finished, dictionary, dictionary_digest,"
            " spec_digest) VALUES (?, 'v', 'h', 'v', 1, 10, 1000, 1, ?, '2026-01-01',"
            " '2026-01-01', ?, 'd', 's')", (target, ",".join(functions), dictionary)).lastrowid
        for name, f in functions.items():
            cases = f["cases"]
            conn.execute("INSERT INTO functions (run_id, name, signature, datatypes, cases_total,"
                         " cases_drawn, cases_run) VALUES (?, ?, ?, ?, ?, ?, ?)",
                         (run, name, f["signature"], f["datatypes"], f.get("total", len(cases)),
                          len(cases), len(cases)))
            for i, (values, outcome, *more) in enumerate(cases):
                columns = dict(run_id=run, function=name, case_index=i, value_names=values,
                               outcome=outcome, duration_us=1, **(more[0] if more else {}))
                conn.execute(f"INSERT INTO results ({', '.join(columns)}) VALUES"
                             f" ({', '.join('?' * len(columns))})", list(columns.values()))
    return db


def outcomes(db, run_id=None):
    """{(function, case_index): (outcome, signal, exit_status, errno, error_reported)}"""
    where = "WHERE run_id = ?" if run_id is not None else ""
    rows = query(db, f"SELECT function, case_index, outcome, signal, exit_status, errno,"
                     f" error_reported FROM results {where}", *([run_id] if run_id else []))
    return {(r[0], r[1]): r[2:] for r in rows}


def processes_under(path):
    """PIDs of processes whose working directory lies under path."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cwd = os.readlink(entry / "cwd")
        except OSError:
            continue
        if cwd.startswith(str(path)):
            found.append(int(entry.name))
    return found


@pytest.fixture
def sandbox_dirs(tmp_path):
    """A working directory and a TMPDIR of the test's own, for runs whose
    every trace must stay inside them."""
    cwd, tmp = tmp_path / "cwd", tmp_path / "tmp"
    cwd.mkdir()
    tmp.mkdir()
    tmp.chmod(0o755)
    return cwd, tmp
