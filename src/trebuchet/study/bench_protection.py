"""`trebuchet bench protection`: TR-96-20's services under each protection
scheme (bench/protection/), driven through `protbench run` and stored.

Each repetition runs protbench once per placement (`--reps 1 --first-rep
R`): every benchmark instance under every scheme, the schemes' order
rotated by the repetition (protbench.c), the placements' order too.  Each
line protbench prints is stored as it arrives, so a stopped run keeps what
it measured.  A scheme that cannot run here (pkey without `pku`, rust or
wasm without its library) is said once and left out.  With instructions, each
in-process scheme then runs each benchmark once more under callgrind,
which counts the instructions of the calls alone (`--toggle-collect=invoke`,
one dump per measurement) and simulates the caches."""
import os
import sys
import tempfile
import time
from pathlib import Path

from trebuchet.core import paths, stopping
from trebuchet.core.errors import TrebuchetError
from trebuchet.core.exitcodes import Exit

SCHEMES = ("none", "checks", "guard-mask", "guard-nomask", "guard-once", "process-copy",
           "process-shm", "pageprot", "pkey", "kernel-floor", "rust", "wasm-copy", "wasm-shared")
BENCHMARKS = ("nullc", "md5", "nsieve", "tdbm")
PLACES = ("same", "split")
# the schemes whose service runs in a server: callgrind counts the caller
# only, so their counts would leave the service out
SERVER_SCHEMES = ("process-copy", "process-shm")
COLUMNS = ("rep", "scheme", "place", "bench", "size", "grain", "calls", "ns", "ns_per_call",
           "check")


class _Failed(TrebuchetError):
    exit_code = Exit.HARNESS


def driver():
    path = paths.COMPILED / "bench" / "protection" / "protbench"
    if not path.exists():
        raise TrebuchetError(f"{path} is not built: run `make build`")
    return path


def availability(protbench):
    """{scheme: why it cannot run here} for the schemes `protbench list`
    says are unavailable."""
    listed = stopping.run([str(protbench), "list"])
    if listed.returncode:
        raise _Failed(f"protbench list failed: {listed.stderr.strip()}")
    out = {}
    for line in listed.stdout.splitlines():
        name, state, why = (line.split("\t") + ["", ""])[:3]
        if state == "unavailable":
            out[name] = why
    return out


def parse(line):
    """A measurement line of protbench as {column: value}, or None for a
    comment or the header."""
    if line.startswith("#") or line.startswith("rep\t") or not line.strip():
        return None
    fields = line.rstrip("\n").split("\t")
    if len(fields) != len(COLUMNS):
        raise _Failed(f"protbench printed a line of {len(fields)} fields, not {len(COLUMNS)}:"
                      f" {line.strip()}")
    row = dict(zip(COLUMNS, fields))
    for k in ("rep", "size", "grain", "calls", "ns"):
        row[k] = int(row[k])
    return row


def _protbench(argv, on_line):
    """Runs protbench, calling on_line with each line as it is printed; a
    stop (Ctrl-C, SIGTERM) ends it and is raised."""
    import subprocess
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    with stopping.passed_on(process):
        try:
            for line in process.stdout:
                on_line(line)
            err = process.stderr.read()
            process.wait()
        except BaseException:
            process.kill()
            process.wait()
            raise
    if process.returncode:
        raise _Failed(f"{' '.join(argv[1:3])} failed ({process.returncode}):"
                      f" {err.strip().splitlines()[-1] if err.strip() else 'no message'}")


def measure(store, protbench, schemes, benchmarks, places, reps, progress, tsv=None):
    """The repetitions, each line stored as it arrives (and written to tsv,
    an open file, when given: protbench's lines, its header once)."""
    sequence = 0
    for rep in range(1, reps + 1):
        shift = rep % len(places)
        for place in places[shift:] + places[:shift]:
            progress(f"repetition {rep}/{reps}, place {place}, {sequence} measurements stored")

            def store_line(line, place=place):
                nonlocal sequence
                if tsv and (sequence == 0 or not line.startswith("rep\t")):
                    tsv.write(line)
                    tsv.flush()
                row = parse(line)
                if row is None:
                    return
                sequence += 1
                store.add(dict(repetition=row["rep"], sequence=sequence, scheme=row["scheme"],
                               place=row["place"], benchmark=row["bench"], size=row["size"],
                               grain=row["grain"], calls=row["calls"], ns=row["ns"],
                               result=row["check"]))
            _protbench([str(protbench), "run", "--reps", "1", "--first-rep", str(rep),
                        "--schemes", ",".join(schemes), "--bench", ",".join(benchmarks),
                        "--place", place], store_line)
    return sequence


def _events(path):
    """{event: count} of a callgrind dump's totals."""
    events = totals = None
    for line in Path(path).read_text().splitlines():
        if line.startswith("events:"):
            events = line.split()[1:]
        elif line.startswith(("totals:", "summary:")):
            totals = [int(x) for x in line.split()[1:]]
    if events is None or totals is None:
        raise _Failed(f"callgrind wrote no totals in {path}")
    return dict(zip(events, totals + [0] * (len(events) - len(totals))))


def count(store, protbench, schemes, benchmarks, progress):
    """Callgrind's instructions and simulated cache misses of every instance
    under every in-process scheme, once (no warm-up: the first run of each
    instance is the one counted)."""
    for scheme in [s for s in schemes if s not in SERVER_SCHEMES]:
        for bench in benchmarks:
            progress(f"callgrind: {bench} under {scheme}")
            with tempfile.TemporaryDirectory(prefix="trebuchet-protection-") as scratch:
                lines = []
                _protbench(["valgrind", "--tool=callgrind", "--cache-sim=yes",
                            "--toggle-collect=invoke", "--dump-after=emit",
                            f"--callgrind-out-file={scratch}/cg", str(protbench), "run",
                            "--reps", "1", "--warmup", "0", "--schemes", scheme, "--bench", bench,
                            "--place", "same"],
                           lambda line: lines.append(parse(line)))
                rows = [r for r in lines if r]
                for i, row in enumerate(rows, start=1):
                    ev = _events(f"{scratch}/cg.{i}")
                    store.add_count(dict(
                        scheme=scheme, benchmark=row["bench"], size=row["size"],
                        grain=row["grain"], instructions=ev.get("Ir", 0),
                        d1_misses=ev.get("D1mr", 0) + ev.get("D1mw", 0),
                        ll_misses=ev.get("ILmr", 0) + ev.get("DLmr", 0) + ev.get("DLmw", 0)))


def check_instructions():
    if not any((Path(d) / "valgrind").is_file() for d in os.environ.get("PATH", "").split(":")):
        raise TrebuchetError("--instructions needs Valgrind (Debian: apt-get install valgrind)")


class Progress:
    """One line on a terminal's stderr, rewritten in place; nothing otherwise."""

    def __init__(self, enabled):
        self.enabled = enabled
        self.started = time.monotonic()

    def __call__(self, text):
        if self.enabled:
            sys.stderr.write(f"\r\033[Kbench protection: {text}"
                             f" [{time.monotonic() - self.started:.0f} s]")
            sys.stderr.flush()

    def done(self):
        if self.enabled:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def run(db, schemes, benchmarks, places, reps, instructions, show_progress, tsv=None):
    """The whole command: returns the stored run's id.  tsv: a path to
    write protbench's lines to as well."""
    from trebuchet.store.protection import ProtectionStore

    protbench = driver()
    if instructions:
        check_instructions()
    unavailable = availability(protbench)
    skipped = {s: unavailable[s] for s in schemes if s in unavailable}
    for scheme, why in skipped.items():
        print(f"trebuchet: bench protection: skipping {scheme}: {why}", file=sys.stderr)
    schemes = [s for s in schemes if s not in skipped]
    if not schemes:
        raise TrebuchetError("bench protection: none of the schemes asked for can run here")
    store = ProtectionStore(db)
    progress = Progress(show_progress)
    tsv_file = None
    try:
        store.start(schemes, benchmarks, places, reps, instructions, skipped)
        tsv_file = open(tsv, "w") if tsv else None
        try:
            measure(store, protbench, schemes, benchmarks, list(places), reps, progress, tsv_file)
            if instructions:
                count(store, protbench, schemes, benchmarks, progress)
        except KeyboardInterrupt:
            progress.done()
            print(f"trebuchet: bench protection stopped; what it measured is stored in {db} as"
                  f" run {store.run}, unfinished (reports read finished runs only)",
                  file=sys.stderr)
            raise
        progress.done()
        store.finish()
        return store.run
    finally:
        if tsv_file:
            tsv_file.close()
        store.close()
