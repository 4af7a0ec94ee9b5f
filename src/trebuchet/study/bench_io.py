"""`trebuchet bench io`: the study's I/O benchmarks (bench/io/iobench.c)
run on stdio, SFIO and Robust SFIO, measured and stored.

Each measurement is one run of the benchmark program, spawned directly
(no shell) with its output on a file; its usr and sys CPU time are the
rusage wait4 reports for that child, its elapsed time the wall clock from
spawn to reaping.  Every repetition runs every configuration on all three
libraries in turn, in an order rotated from one configuration and one
repetition to the next, so that drift in the machine's load falls on the
three alike.  Before the repetitions, a warm-up runs every configuration
once on each library: it fills the page cache (the default, warm
measurement) and holds the three builds to the same work: the same line
printed (bytes moved, checksum of what was read) and the same output file.
The input is one file of text lines, made once outside any timed run;
a benchmark uses its first SIZE bytes."""
import contextlib
import hashlib
import os
import random
import shutil
import signal
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from trebuchet.study import bench_stats

from trebuchet.core import paths
from trebuchet.study import resident
from trebuchet.core.errors import TrebuchetError
from trebuchet.core.exitcodes import Exit

BENCHMARKS = bench_stats.STUDY_BENCHMARKS + ("records",)
UNBLOCKED = ("getc", "putc", "records")   # byte and record benchmarks: no block size
READS_INPUT = ("copyrw", "getc", "read", "revrd", "seekrw", "records")
FILLS_OUTPUT = ("copyrw", "putc", "write", "records")   # write about SIZE bytes (seekrw: one block)
MiB = 1 << 20

# Default file sizes (MiB): at each, the cheapest library spends about
# 1.5 s of usr+sys on the configuration with a warm page cache, as measured
# on the project's 2-core build machine (5 repetitions at 128 MiB, scaled),
# so that every measurement stands well above the clock's resolution.  A
# warm read costs the kernel one copy per block, so the read benchmarks
# need several GiB where the study (cold, on 2001 disks) used 1000 MB for
# blocks and 250 MB for bytes.
DEFAULT_SIZE_MIB = {
    ("copyrw", 8192): 1536, ("copyrw", 757): 1536,
    ("read", 8192): 8192, ("read", 757): 6144,
    ("revrd", 8192): 6144, ("revrd", 757): 1536,
    ("seekrw", 8192): 3072, ("seekrw", 757): 384,
    ("write", 8192): 2048, ("write", 757): 2048,
    ("getc", 0): 1024, ("putc", 0): 768, ("records", 0): 256,
}
FALLBACK_SIZE_MIB = 1024   # a block size with no measured default
DROP_CACHES = Path("/proc/sys/vm/drop_caches")


@dataclass
class Config:
    """One benchmark at one block size (0 for getc, putc, records)."""
    benchmark: str
    block: int
    size_bytes: int

    @property
    def label(self):
        return f"{self.benchmark} {self.block}" if self.block else self.benchmark


def plan(benchmarks, blocks, size_mib):
    """The configurations to run, in the study's order."""
    configs = []
    for b in benchmarks:
        for block in ([0] if b in UNBLOCKED else blocks):
            mib = size_mib or DEFAULT_SIZE_MIB.get((b, block), FALLBACK_SIZE_MIB)
            configs.append(Config(b, block, mib * MiB))
    return configs


def program(library):
    path = paths.COMPILED / "bench" / "io" / f"iobench_{library}"
    if not path.exists():
        raise TrebuchetError(f"{path} is not built: run `make build`")
    return path


def make_input(path, size):
    """A file of `size` bytes of text lines (words of a fixed seed), which
    records reads as lines and the others as bytes.  Its last byte is a
    newline, so that every library sees the same last line (sfgetr leaves
    an unterminated one to SF_LASTR)."""
    rng = random.Random(1991)
    words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(1, 9)))
             for _ in range(500)]
    lines, length = [], 0
    while length < MiB:
        line = " ".join(rng.choice(words) for _ in range(rng.randint(1, 16))) + "\n"
        lines.append(line)
        length += len(line)
    chunk = "".join(lines).encode()
    with open(path, "wb") as out:
        for _ in range(size // len(chunk)):
            out.write(chunk)
        out.write(chunk[:size % len(chunk)])
        out.seek(size - 1)
        out.write(b"\n")


def check_cold():
    """Whether the page cache may be dropped here: a one-line error if not."""
    try:
        drop_caches()
    except OSError as e:
        raise TrebuchetError(f"--cold cannot drop the page cache ({DROP_CACHES}: {e.strerror});"
                             " it needs root on a machine that allows it. Leave out --cold for"
                             " warm-cache measurements") from None


def drop_caches():
    os.sync()
    with open(DROP_CACHES, "w") as f:
        f.write("3\n")


@dataclass
class Outcome:
    usr: float
    sys: float
    elapsed: float
    said: str       # the line the program printed


def _output(scratch, library):
    """The file a library's runs write."""
    return scratch / f"out-{library}"


def _discard(scratch, library):
    """Removes a library's output file: the next run writes a fresh one."""
    _output(scratch, library).unlink(missing_ok=True)


def _preload_outputs(scratch, libraries, configs):
    """Gives each library's output file the size of the largest output, in
    the page cache.  Timed runs on a warm cache then rewrite pages already
    there (the program does not truncate, iobench.c): with a fresh file per
    run, a write benchmark's system time was mostly the kernel finding new
    pages, and on a virtual machine that hands freed memory back to its host
    it varied fivefold from run to run, whatever the library (write at
    8192 bytes, ten repetitions: 1.05 to 4.72 s of sys on SFIO, 1.08 to
    4.97 s on Robust SFIO)."""
    largest = max((c.size_bytes for c in configs if c.benchmark in FILLS_OUTPUT), default=0)
    zeros = bytes(MiB)
    for library in libraries:
        with open(_output(scratch, library), "wb") as f:
            for _ in range(largest // MiB):
                f.write(zeros)
            f.write(zeros[:largest % MiB])


STOPS = {signal.SIGINT, signal.SIGTERM}


def run_once(library, config, scratch, input_path):
    """One run of the benchmark program, timed: its rusage and wall clock."""
    output = _output(scratch, library)
    said, errors = scratch / f"said-{library}", scratch / f"errors-{library}"
    argv = [str(program(library)), config.benchmark, str(config.block or 1), str(input_path),
            str(output), str(config.size_bytes)]
    # descriptor 0 taken, whatever the caller's: a file the program opens is
    # never given 0, where SFIO would build it in the standard input's struct
    actions = [(os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
               (os.POSIX_SPAWN_OPEN, 1, str(said), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644),
               (os.POSIX_SPAWN_OPEN, 2, str(errors), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)]
    # A stop (Ctrl-C, SIGTERM) waits for the run to end, then takes effect:
    # held off from the spawn to the reaping, it can never leave a child
    # behind nor land between the two.  The child starts with none held.
    # (Ctrl-C reaches the child as well, which ends it at once.)
    held_off = signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
    try:
        started = time.perf_counter()
        pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=actions, setsigmask=())
        _, status, usage = os.wait4(pid, 0)
        elapsed = time.perf_counter() - started
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held_off)
    if not os.WIFEXITED(status) or os.WEXITSTATUS(status):
        why = errors.read_text().strip() or f"wait status {status}"
        raise _Failed(f"{config.label} on {library} failed: {why}")
    return Outcome(usage.ru_utime, usage.ru_stime, elapsed, said.read_text().strip())


class _Failed(TrebuchetError):
    exit_code = Exit.HARNESS


def _digest(path):
    if not path.exists():
        return None
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(MiB):
            h.update(block)
    return h.hexdigest()


def warm_up(configs, libraries, scratch, input_path, show):
    """Every configuration once per library, untimed: fills the page cache
    and checks that the three builds print the same and write the same.
    Returns {(label, library): elapsed}, the ETA's estimate of each run."""
    estimate = {}
    for config in configs:
        seen = {}
        for library in libraries:
            show(f"warm-up: {config.label} on {library}")
            outcome = run_once(library, config, scratch, input_path)
            estimate[config.label, library] = outcome.elapsed
            seen[library] = (outcome.said, _digest(_output(scratch, library)))
            _discard(scratch, library)
        if len(set(seen.values())) > 1:
            raise _Failed(f"{config.label}: the libraries did not do the same work: " +
                          "; ".join(f"{lib} printed '{s}'" for lib, (s, _) in seen.items()))
    return estimate


def rotation(libraries, repetition, index):
    """The libraries' order for one configuration of one repetition: each
    library goes first, second and third equally often."""
    shift = (repetition + index) % len(libraries)
    return list(libraries[shift:]) + list(libraries[:shift])


class Progress:
    """One line on a terminal's stderr, rewritten in place (as `trebuchet
    run`'s); nothing when stderr is not a terminal."""

    def __init__(self, enabled):
        self.enabled = enabled
        self.started = time.monotonic()

    def show(self, text):
        if self.enabled:
            spent = _clock(time.monotonic() - self.started)
            sys.stderr.write(f"\r\033[Kbench io: {text} [{spent}]")
            sys.stderr.flush()

    def done(self):
        if self.enabled:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def _clock(seconds):
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def measure(store, configs, libraries, repeat, cold, scratch, input_path, progress):
    """The repetitions, each measurement stored as it is made; on a warm
    cache with the input and output files held in memory (resident.py)."""
    estimate = warm_up(configs, libraries, scratch, input_path, progress.show)
    if not cold:
        progress.show("writing the output files once")
        _preload_outputs(scratch, libraries, configs)
    files = [p for p in [input_path, *(_output(scratch, lib) for lib in libraries)] if p.exists()]
    with contextlib.nullcontext() if cold else resident.held(files) as not_held:
        if not_held:
            progress.done()
            print(f"trebuchet: bench io: the files are not held in memory ({not_held}); the kernel"
                  " may drop cached pages between runs, and system times then vary more",
                  file=sys.stderr)
        _repetitions(store, configs, libraries, repeat, cold, scratch, input_path, progress,
                     estimate)


def _repetitions(store, configs, libraries, repeat, cold, scratch, input_path, progress,
                 estimate):
    """Every configuration on every library, repeat times, in rotated order."""
    total = repeat * len(configs) * len(libraries)
    left = repeat * sum(estimate.values())
    sequence = 0
    for repetition in range(1, repeat + 1):
        for index, config in enumerate(configs):
            for library in rotation(libraries, repetition, index):
                progress.show(f"{sequence}/{total} runs, repetition {repetition}/{repeat},"
                              f" {config.label} on {library}, ETA {_clock(left)}")
                if cold:
                    # a fresh file: rewriting one not in the cache would
                    # read the old pages first wherever a block is partial
                    _discard(scratch, library)
                    drop_caches()
                outcome = run_once(library, config, scratch, input_path)
                sequence += 1
                left -= estimate[config.label, library]
                store.add(dict(benchmark=config.benchmark, block=config.block, library=library,
                               repetition=repetition, sequence=sequence,
                               size_bytes=config.size_bytes, usr_s=outcome.usr,
                               sys_s=outcome.sys, elapsed_s=outcome.elapsed))
    progress.done()


def run(db, benchmarks, blocks, size_mib, repeat, cold, show_progress):
    """The whole command: returns the stored run's id."""
    from trebuchet.store.bench import BenchStore

    libraries = bench_stats.LIBRARIES
    for library in libraries:
        program(library)
    if cold:
        check_cold()
    configs = plan(benchmarks, blocks, size_mib)
    store = BenchStore(db)
    scratch = Path(tempfile.mkdtemp(prefix="trebuchet-bench-io-"))
    # SIGTERM stops it as Ctrl-C does (core/stopping.py, run_once): the
    # scratch files (GiB of them) go too
    try:
        store.start(libraries, benchmarks, blocks, size_mib, repeat, cold)
        input_path = scratch / "input.txt"
        needed = [c.size_bytes for c in configs if c.benchmark in READS_INPUT]
        progress = Progress(sys.stderr.isatty())
        try:
            if needed:
                progress.show(f"writing a {max(needed) / MiB:.0f} MiB input file")
                make_input(input_path, max(needed))
            measure(store, configs, libraries, repeat, cold, scratch, input_path, progress)
        except KeyboardInterrupt:
            progress.done()
            print(f"trebuchet: bench io stopped; what it measured is stored in {db} as run"
                  f" {store.run}, unfinished (reports read finished runs only)", file=sys.stderr)
            raise
        store.finish()
        return store.run
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
        store.close()
