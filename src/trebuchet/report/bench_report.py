"""`trebuchet bench report`: how long `trebuchet report` takes over some
stores.  First the whole command as a user runs it, in a process of its own
(Python's start and the imports included): one warm-up, then --repeat
runs, their median and range.  Then where one report spends its time, step
by step, written in this process.  It only prints: no limit is held to,
the machine being shared and its speed not the project's."""
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

from trebuchet.report import writer as report
from trebuchet.core.readable import plural


def whole(dbs, repeat):
    """[(elapsed seconds, CPU seconds)] of `trebuchet report` over dbs,
    repeat runs after a warm-up.  The CPU time (user + system, the process
    and its children) says what the elapsed time would be on a machine no
    one else is using."""
    with tempfile.TemporaryDirectory() as out:
        command = [sys.executable, "-m", "trebuchet.cli.main", "report", "--out", out]
        command += [arg for db in dbs for arg in ("--db", str(db))]
        times = []
        for _ in range(repeat + 1):
            before, started = _children_cpu(), time.perf_counter()
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
            times.append((time.perf_counter() - started, _children_cpu() - before))
    return times[1:]


def _children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def steps(dbs):
    """[(step, seconds, counted in the sum)] of one report written in this process."""
    took = []  # (step, seconds, whether this process spent them: in the sum)

    def timed(name, step, seconds=None):
        if step is None:
            took.append((name, seconds, False))  # timed in the other process
            return None
        started = time.perf_counter()
        result = step()
        took.append((name, time.perf_counter() - started, True))
        return result

    with tempfile.TemporaryDirectory() as out:
        report.write(dbs, out, timed)
    return took


def held(dbs):
    """(cases, runs) the stores hold: what a report chooses from (it reads the
    newest run of each target, and the other dictionary's beside it)."""
    from trebuchet.store import database as store

    counts = [store.held(store.connect(db)) for db in dbs]
    return sum(c for c, _ in counts), sum(r for _, r in counts)


def as_text(dbs, times, took):
    elapsed, cpu = [t for t, _ in times], [c for _, c in times]
    cases, runs = held(dbs)
    lines = [f"trebuchet report of {', '.join(map(str, dbs))} ({cases:,} cases in"
             f" {plural(runs, 'run')} stored):",
             f"  whole command, {plural(len(times), 'time')} after a warm-up: median"
             f" {statistics.median(elapsed):.2f} s"
             f" elapsed (min {min(elapsed):.2f}, max {max(elapsed):.2f}),"
             f" {statistics.median(cpu):.2f} s CPU (user + system)",
             f"  load average now: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores",
             "  one report in this process, step by step (elapsed):"]
    lines += [f"    {seconds:6.2f} s  {name}" for name, seconds, _ in took]
    total = sum(seconds for _, seconds, here in took if here)
    lines.append(f"    {total:6.2f} s  in all (not Python's start nor the first imports)")
    return "\n".join(lines)
