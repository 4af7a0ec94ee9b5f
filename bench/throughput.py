"""The executor's throughput, measured against its floor.

Prints, for one parallelism (default: the executor's own, twice the cores):
  - a bare fork+exit+wait loop in a tiny process (bench/bare_fork.c), and
    for reference the same loop split over as many processes as the executor
    has fork servers (one per core);
  - the executor running selftest's st_return, a function that returns at
    once (every one of its 6561 cases, stored), with its sandbox
    (harness/isolation.c) and without (--no-sandbox), and what the sandbox
    costs; and without crash sites (--no-crash-sites, harness/crashsite.c),
    and what they cost;
  - a whole stdio campaign (5000-case cap), with and without crash sites
    (a third of its cases die, each recording its site);
  - the same campaign as a user waits for it, `trebuchet run` from start to
    its last line (Python's start, the run, the findings, the summary), and
    the share of that the executor does not account for;
and, for the runs with and without crash sites, the CPU time each case
cost (the executor and every process under it), which other work on the
machine disturbs far less than the wall clock; and the ratios the project
holds itself to: engine >= 0.8 x bare, stdio
campaign >= 0.7 x bare and the whole command >= 0.55 x bare, crash sites
cost the engine at most 5%.  Each
figure is the median of --repeat runs, with their range; the bare loops
and the executor runs take turns within each repetition, in an order
rotated between repetitions, so that drift in the machine's load falls on
all of them alike.

    .venv/bin/python bench/throughput.py [--jobs N] [--repeat N] [--skip-stdio]
                                         [--baseline PATH]

--baseline names another build of trebuchet-exec (an earlier commit's, say),
run in the same turns on the same plugin, to measure a change.
"""
import argparse
import os
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXEC = ROOT / "build" / "bin" / "trebuchet-exec"
BARE = ROOT / "build" / "bench" / "bare_fork"
TREBUCHET = Path(sys.executable).parent / "trebuchet"


def plugin(target):
    subprocess.run([str(TREBUCHET), "build", "--target", target, "--quiet"], check=True)
    return ROOT / "build" / "targets" / target / f"{target}.so"


def bare_rate(jobs, count, forkers=1):
    out = subprocess.run([str(BARE), str(jobs), str(count), str(forkers)], check=True,
                         capture_output=True, text=True).stdout
    return float(out.split()[1])


# CPU time of one executor run and every process under it (its fork
# servers reap their test processes, and it reaps them): per case, a
# measure that other work on the machine disturbs far less than wall time.
cpu_per_case = {}


def children_cpu():
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def campaign_rate(target, jobs, extra, executor=EXEC, cpu_key=None):
    """Cases stored per second of wall time, for one whole executor run;
    its CPU µs per case go to cpu_per_case[cpu_key] when given."""
    so = plugin(target)  # built (or found fresh) before the clock starts
    if executor != EXEC:  # another build: its own plugin, of its own plugin ABI
        so = executor.parent.parent / "targets" / target / f"{target}.so"
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        cpu = children_cpu()
        start = time.perf_counter()
        subprocess.run([str(executor), "--plugin", str(so), "--db", str(db),
                        "--jobs", str(jobs), "--quiet", *extra], check=True)
        elapsed = time.perf_counter() - start
        cpu = children_cpu() - cpu
        with sqlite3.connect(db) as conn:
            cases = conn.execute("SELECT count(*) FROM results").fetchone()[0]
    if cpu_key:
        cpu_per_case.setdefault(cpu_key, []).append(1e6 * cpu / cases)
    return cases / elapsed, cases


def whole_command_rate(target, jobs):
    """Cases per second of `trebuchet run --target target`, end to end."""
    plugin(target)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "whole.db"
        start = time.perf_counter()
        subprocess.run([str(TREBUCHET), "run", "--target", target, "--jobs", str(jobs),
                        "--db", str(db), "--quiet"], check=True, stdout=subprocess.DEVNULL)
        elapsed = time.perf_counter() - start
        with sqlite3.connect(db) as conn:
            cases = conn.execute("SELECT count(*) FROM results").fetchone()[0]
    return cases / elapsed


def interleaved(repeat, measures):
    """Each measure's repeat samples, taken in turns: in every repetition
    each runs once, starting one further along than in the one before."""
    names = list(measures)
    samples = {name: [] for name in names}
    for r in range(repeat):
        for name in names[r % len(names):] + names[:r % len(names)]:
            samples[name].append(measures[name]())
    return samples


def turn_cost(measured, without):
    """What measured loses against without, from the median of the turns'
    ratios."""
    return 1 - statistics.median(m / w for m, w in zip(measured, without))


def spread(samples, form=".0f"):
    return f"({min(samples):{form}}-{max(samples):{form}})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2 * (os.cpu_count() or 1))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--skip-stdio", action="store_true")
    parser.add_argument("--baseline", type=Path, help="another trebuchet-exec to measure alike")
    args = parser.parse_args()

    engine_cases = 6561
    servers = min(os.cpu_count() or 1, args.jobs)
    st_return = ["--functions", "st_return", "--cap", str(engine_cases)]
    measures = {
        "bare": lambda: bare_rate(args.jobs, engine_cases),
        "bare_split": lambda: bare_rate(args.jobs, engine_cases, servers),
        "engine": lambda: campaign_rate("selftest", args.jobs, st_return, cpu_key="engine")[0],
        "unsandboxed": lambda: campaign_rate("selftest", args.jobs,
                                             st_return + ["--no-sandbox"])[0],
        "no_sites": lambda: campaign_rate("selftest", args.jobs,
                                          st_return + ["--no-crash-sites"],
                                          cpu_key="no_sites")[0],
    }
    if args.baseline:
        measures["baseline"] = lambda: campaign_rate("selftest", args.jobs, st_return,
                                                     args.baseline, cpu_key="baseline")[0]
    samples = interleaved(args.repeat, measures)
    rate = {name: statistics.median(v) for name, v in samples.items()}
    bare, engine, unsandboxed = rate["bare"], rate["engine"], rate["unsandboxed"]
    # the two runs of a repetition shared the machine's state: their ratio
    # is steadier than the ratio of the medians
    cost = turn_cost(samples["engine"], samples["unsandboxed"])
    sites_cost = turn_cost(samples["engine"], samples["no_sites"])
    print(f"parallelism            {args.jobs} cases in flight, {os.cpu_count()} cores, "
          f"medians of {args.repeat}")
    print(f"bare fork+exit+wait    {bare:8.0f} cases/s {spread(samples['bare'])}")
    print(f"  same, {servers} forkers     {rate['bare_split']:8.0f} cases/s {spread(samples['bare_split'])}"
          f"   (reference: the executor forks from {servers} servers)")
    print(f"executor, st_return    {engine:8.0f} cases/s {spread(samples['engine'])}"
          f"   ratio {engine / bare:.2f}  (target >= 0.80)")
    print(f"  same, no sandbox     {unsandboxed:8.0f} cases/s {spread(samples['unsandboxed'])}"
          f"   ratio {unsandboxed / bare:.2f}  (the sandbox costs {100 * cost:+.1f}%, median of"
          f" the turns' ratios)")
    print(f"  same, no crash sites {rate['no_sites']:8.0f} cases/s {spread(samples['no_sites'])}"
          f"   ratio {rate['no_sites'] / bare:.2f}  (crash sites cost {100 * sites_cost:+.1f}%,"
          f" median of the turns' ratios; target <= 5%)")
    print(f"  CPU per case         {statistics.median(cpu_per_case['engine']):8.1f} µs "
          f"{spread(cpu_per_case['engine'], '.1f')} with crash sites, "
          f"{statistics.median(cpu_per_case['no_sites']):.1f} µs "
          f"{spread(cpu_per_case['no_sites'], '.1f')} without (crash sites cost "
          f"{-100 * turn_cost(cpu_per_case['engine'], cpu_per_case['no_sites']):+.1f}% CPU)")
    if args.baseline:
        gain = statistics.median(e / b for e, b in zip(samples["engine"], samples["baseline"]))
        print(f"  baseline {args.baseline}\n"
              f"                       {rate['baseline']:8.0f} cases/s   ratio "
              f"{rate['baseline'] / bare:.2f}  (this build runs {gain:.2f}x its rate, "
              f"median of the turns' ratios)\n"
              f"                       {statistics.median(cpu_per_case['baseline']):8.1f} µs CPU per"
              f" case {spread(cpu_per_case['baseline'], '.1f')}   (this build"
              f" {-100 * turn_cost(cpu_per_case['engine'], cpu_per_case['baseline']):+.1f}% CPU)")
    if not args.skip_stdio:
        cases = {}

        def stdio_rate(extra):
            r, cases["n"] = campaign_rate("stdio", args.jobs, extra,
                                          cpu_key="stdio " + ("no_sites" if extra else "sites"))
            return r
        runs = interleaved(args.repeat, {"sites": lambda: stdio_rate([]),
                                         "no_sites": lambda: stdio_rate(["--no-crash-sites"]),
                                         "whole": lambda: whole_command_rate("stdio", args.jobs)})
        stdio = statistics.median(runs["sites"])
        print(f"stdio campaign         {stdio:8.0f} cases/s {spread(runs['sites'])}"
              f"   ratio {stdio / bare:.2f}  (target >= 0.70; {cases['n']} cases)")
        whole = statistics.median(runs["whole"])
        # the executor's time over the whole command's, in the same turn
        rest = turn_cost(runs["whole"], runs["sites"])
        print(f"  trebuchet run, whole {whole:8.0f} cases/s {spread(runs['whole'])}"
              f"   ratio {whole / bare:.2f}  (target >= 0.55; {100 * rest:.0f}% of it is not the"
              f" executor's: Python's start, the findings, the summary)")
        print(f"  same, no crash sites {statistics.median(runs['no_sites']):8.0f} cases/s "
              f"{spread(runs['no_sites'])}   (crash sites cost"
              f" {100 * turn_cost(runs['sites'], runs['no_sites']):+.1f}%)")
        with_cpu, without_cpu = cpu_per_case["stdio sites"], cpu_per_case["stdio no_sites"]
        print(f"  CPU per case         {statistics.median(with_cpu):8.1f} µs "
              f"{spread(with_cpu, '.1f')} with crash sites, {statistics.median(without_cpu):.1f}"
              f" µs {spread(without_cpu, '.1f')} without (crash sites cost"
              f" {-100 * turn_cost(with_cpu, without_cpu):+.1f}% CPU)")


if __name__ == "__main__":
    main()
