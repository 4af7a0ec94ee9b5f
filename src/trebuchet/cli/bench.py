"""`trebuchet bench`: the study's I/O benchmarks, and how long a report takes."""
import sys
import time

from trebuchet.cli import options
from trebuchet.cli.options import blocks, bounded, names
from trebuchet.core.exitcodes import Exit
from trebuchet.core.outputs import writable
from trebuchet.study import bench_io, bench_protection, bench_text


def add_bench(sub):
    bn = sub.add_parser("bench", help="performance benchmarks (io: the study's I/O benchmarks;"
                        " protection: TR-96-20's protection options; report: how long a"
                        " report takes)")
    suites = bn.add_subparsers(dest="suite", required=True)
    io = suites.add_parser(
        "io", help="the study's I/O benchmarks on stdio, SFIO and Robust SFIO",
        description="Runs the reference study's I/O benchmarks (copyrw, getc, putc, read, revrd,"
        " seekrw, write; the block ones at each --blocks size) and records, one program built"
        " once per library, on stdio, SFIO and Robust SFIO, interleaved in every repetition."
        " Stores usr, sys and elapsed seconds of every run; prints medians with distribution-free"
        " intervals (95% or more from 6 repetitions).")
    io.add_argument("--benchmarks", type=names(bench_io.BENCHMARKS),
                    default=list(bench_io.BENCHMARKS),
                    help=f"comma-separated (default all: {','.join(bench_io.BENCHMARKS)})")
    io.add_argument("--blocks", type=blocks, default=[8192, 757],
                    help="block sizes in bytes of the block benchmarks (default 8192,757)")
    io.add_argument("--size-mib", type=bounded(int, 1, 1 << 20),
                    help="every file's size in MiB (default: per benchmark, what takes"
                    " about 1.5 s of CPU on a warm cache)")
    io.add_argument("--repeat", type=bounded(int, 1, 1000), default=10,
                    help="repetitions, each running every library once (default 10)")
    io.add_argument("--cold", action="store_true",
                    help="drop the page cache before each run (root only)")
    options.DB.add(io)
    io.set_defaults(func=cmd_bench_io)
    add_protection(suites)
    br = suites.add_parser(
        "report", help="how long `trebuchet report` takes over some stores",
        description="Times `trebuchet report` over the stores: the whole command in a process"
        " of its own (one warm-up, then --repeat runs), then one report step by step (reading"
        " the stores, each figure, the pages).  It prints the times; it holds them to no limit.")
    options.DBS.add(br, required=True, help="a store (repeat for several)")
    br.add_argument("--repeat", type=bounded(int, 1, 100), default=3,
                    help="timed runs of the whole command (default 3)")
    br.set_defaults(func=cmd_bench_report)


def cmd_bench_io(args):
    from trebuchet.study import bench_stats
    from trebuchet.store import database as store

    writable(args.db)
    started = time.monotonic()
    try:
        run = bench_io.run(args.db, args.benchmarks, args.blocks, args.size_mib, args.repeat,
                           args.cold, sys.stderr.isatty())
    except KeyboardInterrupt:  # it said what it kept; SIGTERM makes this 143 (cli/main.py)
        return Exit.INTERRUPTED
    bench = bench_stats.bench_summary(store.connect(args.db), run, args.db)
    print(bench_text.as_text(bench))
    print(f"bench io: run {run}, {len(bench.configs)} configurations x 3 libraries x "
          f"{args.repeat} repetitions in {time.monotonic() - started:.0f} s, stored in {args.db}")
    return Exit.OK


def add_protection(suites):
    pr = suites.add_parser(
        "protection", help="TR-96-20's services under each protection scheme",
        description="Runs TR-96-20's benchmarks (nullc, md5, nsieve, tdbm) under every protection"
        " scheme of bench/protection/ at every granularity, interleaved in every repetition, and"
        " stores each measurement as it comes; prints the ratios to the plain call and the"
        " paper's five assertions decided.  A scheme that cannot run here is said and skipped.")
    pr.add_argument("--reps", type=bounded(int, 1, 1000), default=11,
                    help="repetitions, each running every scheme on every instance (default 11)")
    pr.add_argument("--place", choices=("same", "split", "both"), default="same",
                    help="the process schemes' server on the caller's CPU, on a second one,"
                    " or both in every repetition (default same)")
    pr.add_argument("--schemes", type=names(bench_protection.SCHEMES),
                    default=list(bench_protection.SCHEMES),
                    help=f"comma-separated (default all: {','.join(bench_protection.SCHEMES)})")
    pr.add_argument("--benchmarks", type=names(bench_protection.BENCHMARKS),
                    default=list(bench_protection.BENCHMARKS),
                    help=f"comma-separated (default all: {','.join(bench_protection.BENCHMARKS)})")
    pr.add_argument("--instructions", action="store_true",
                    help="also count each in-process scheme's instructions and simulated cache"
                    " misses once, under Valgrind's callgrind")
    pr.add_argument("--tsv", metavar="FILE",
                    help="also write protbench's lines to FILE (bench/protection/summarize.py"
                    " reads them)")
    options.DB.add(pr)
    pr.set_defaults(func=cmd_bench_protection)


def cmd_bench_protection(args):
    from trebuchet.study import protection_stats, protection_text
    from trebuchet.store import database as store

    schemes = args.schemes if "none" in args.schemes else ["none"] + args.schemes
    writable(args.db)
    if args.tsv:
        writable(args.tsv)
    started = time.monotonic()
    places = ["same", "split"] if args.place == "both" else [args.place]
    run = bench_protection.run(args.db, schemes, args.benchmarks, places, args.reps,
                               args.instructions, sys.stderr.isatty(), args.tsv)
    summary = protection_stats.protection_summary(store.connect(args.db), run, args.db)
    print(protection_text.as_text(summary))
    pairs = len(summary.cells) // len(places)
    print(f"bench protection: run {run}, {pairs} scheme x instance pairs x {args.reps}"
          f" repetitions x {len(places)} placement(s) in {time.monotonic() - started:.0f} s,"
          f" stored in {args.db}")
    return Exit.OK


def cmd_bench_report(args):
    from trebuchet.report import bench_report
    from trebuchet.store import database as store

    for db in args.db:
        store.connect(db)  # a missing or foreign store: its one-line error now
    times = bench_report.whole(args.db, args.repeat)
    print(bench_report.as_text(args.db, times, bench_report.steps(args.db)))
    return Exit.OK
