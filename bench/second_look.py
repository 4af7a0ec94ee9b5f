"""Whether the machine's load flips a verdict, and what the watchdog's second
look costs (harness/forkserver.h: a call stopped by its CPU limit or its
wall-clock deadline runs again alone at four times both before it is
called RESTART).

Runs one campaign (default: sfio, every function at the default cap) twice
with the same seed: at load 0 (nothing of this script's beside it) and at
load 4 (two busy loops per core beside it), each into its own store, then
compares them case by case (outcome and signal) and prints:
  - the cases whose outcome differs between the two loads;
  - per load: how long the run took, how many cases had a second look,
    how many of those passed on it (slow) and how many stayed RESTART,
    and the wall time and CPU time the second looks took.
The machine's own load (other work on it) is printed before each run: "load
0" is this script's, and means nothing on a machine that is busy anyway.

    .venv/bin/python bench/second_look.py [--target sfio] [--cap N]
        [--functions a,b] [--executor PATH] [--keep DIR]

--executor runs another build of trebuchet-exec (an earlier commit's, to
see the flips the second look removes); its stores then have no second
look column, and only the comparison is printed.
"""
import argparse
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXEC = ROOT / "build" / "bin" / "trebuchet-exec"
TREBUCHET = Path(sys.executable).parent / "trebuchet"


def plugin(target, executor):
    if executor == EXEC:
        subprocess.run([str(TREBUCHET), "build", "--target", target, "--quiet"], check=True)
    return executor.parent.parent / "targets" / target / f"{target}.so"


def busy_loops(n):
    """n processes that compute for ever, at the usual priority: they
    compete with the campaign as other users' work does."""
    return [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(n)]


def campaign(args, db, load):
    loops = busy_loops(load * (os.cpu_count() or 1) // 2)
    try:
        print(f"load {load}: machine load average before it {os.getloadavg()[0]:.1f}",
              flush=True)
        start = time.monotonic()
        extra = ["--functions", args.functions] if args.functions else []
        subprocess.run([str(args.executor), "--plugin", str(plugin(args.target, args.executor)),
                        "--db", str(db), "--cap", str(args.cap), "--quiet", *extra], check=True)
        return time.monotonic() - start
    finally:
        for p in loops:
            p.kill()
            p.wait()


def outcomes(db):
    with sqlite3.connect(db) as conn:
        return {(f, i): (o, s) for f, i, o, s in conn.execute(
            "SELECT function, case_index, outcome, signal FROM results")}


def second_looks(db):
    """(cases looked at again, of them PASS, of them RESTART, their wall s, their CPU s)."""
    with sqlite3.connect(db) as conn:
        if "second_look_cpu_us" not in {r[1] for r in conn.execute("PRAGMA table_info(results)")}:
            return None
        return conn.execute(
            "SELECT count(*), total(outcome = 'PASS'), total(outcome = 'RESTART'),"
            " total(duration_us) / 1e6, total(second_look_cpu_us) / 1e6 FROM results"
            " WHERE second_look_cpu_us IS NOT NULL").fetchone()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", default="sfio")
    parser.add_argument("--cap", type=int, default=5000)
    parser.add_argument("--functions")
    parser.add_argument("--executor", type=Path, default=EXEC)
    parser.add_argument("--keep", type=Path, help="a folder to keep the two stores in")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        where = args.keep or Path(tmp)
        where.mkdir(parents=True, exist_ok=True)
        took, stores = {}, {}
        for load in (0, 4):
            stores[load] = where / f"load{load}.db"
            stores[load].unlink(missing_ok=True)
            took[load] = campaign(args, stores[load], load)
        at = {load: outcomes(db) for load, db in stores.items()}
        differing = sorted(k for k in at[0] if at[0][k] != at[4].get(k))
        print(f"{args.target}, cap {args.cap}: {len(at[0])} cases; "
              f"{len(differing)} differ between load 0 and load 4")
        for k in differing[:20]:
            print(f"  {k[0]} case {k[1]}: {at[0][k]} at load 0, {at[4].get(k)} at load 4")
        for load in (0, 4):
            looks = second_looks(stores[load])
            line = f"load {load}: {took[load]:.1f} s"
            if looks:
                n, passed, restarts, wall, cpu = looks
                line += (f"; {n} second looks: {passed:.0f} PASS (slow), {restarts:.0f} RESTART;"
                         f" they took {wall:.1f} s of wall time, {cpu:.1f} s of CPU")
            print(line)


if __name__ == "__main__":
    main()
