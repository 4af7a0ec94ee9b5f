"""`trebuchet memcheck`: PASS cases run again under Valgrind's memcheck."""
import contextlib
import sys
import time

from trebuchet.cli import options
from trebuchet.cli.options import bounded, split
from trebuchet.core.errors import TrebuchetError
from trebuchet.core.exitcodes import Exit
from trebuchet.core.readable import plural
from trebuchet.findings import making as triage
from trebuchet.memcheck import valgrind as memcheck
from trebuchet.run import campaign
from trebuchet.store.runs import RunInfo, latest_runs


def add_memcheck(sub):
    mc = sub.add_parser(
        "memcheck", help="run PASS cases again under Valgrind's memcheck: CORRUPT where a call"
        " read or wrote memory it must not",
        description="Runs a sample of the PASS cases of each target's newest run (or --target's)"
        " again under Valgrind's memcheck, each on its own, and stores each as CORRUPT when"
        " memcheck saw the call read or write memory it must not (an invalid read or write, a"
        " jump to an invalid address, an uninitialised value deciding a branch, an invalid"
        " free). Resumes where it stopped; prints each function's CORRUPT rate.")
    options.DB.add(mc)
    options.TARGET.add(mc, help="only this target (its newest run)")
    options.FUNCTIONS.add(mc)
    how_many = mc.add_mutually_exclusive_group()
    how_many.add_argument("--sample", type=bounded(int, 1), default=memcheck.DEFAULT_SAMPLE,
                          help="PASS cases checked per function, drawn with --seed (default"
                          f" {memcheck.DEFAULT_SAMPLE})")
    how_many.add_argument("--all", action="store_true", help="every PASS case")
    options.SEED.add(mc, default=1, help="seed of the sample (default 1)")
    options.JOBS.add(mc, help="cases in flight (default the cores)")
    options.QUIET.add(mc, help="the summary alone")
    mc.set_defaults(func=cmd_memcheck)


def cmd_memcheck(args):
    from trebuchet.store import database as store

    functions = split(args.functions)
    args.target = options.target_of(args.target)
    # every run and its spec found first, with the store read-only and then
    # closed: no reader is open while memcheck writes (a read-only reader
    # across a writer's end of WAL mode sees a disk I/O error)
    with contextlib.closing(store.connect(args.db)) as conn:
        runs = {t: r for t, r in latest_runs(conn).items() if args.target in (None, t)}
        if not runs:
            raise TrebuchetError(f"no finished run of target '{args.target}' in this store"
                                 if args.target else "no finished run in this store", args.db)
        chosen = [(target, run, _spec_of(conn, target, run, functions, args.db))
                  for target, run in runs.items()]
    for target, run, spec in chosen:
        progress = _progress(target) if sys.stderr.isatty() and not args.quiet else None
        started = time.monotonic()
        checked = memcheck.run(args.db, run, spec, functions, None if args.all else args.sample,
                               args.seed, args.jobs, progress)
        with contextlib.closing(store.connect(args.db)) as after:
            info = RunInfo.read(after, run)
            print(memcheck.summary_text(after, run, target, info.target_arg))
        if not args.quiet:
            print(f"  ({plural(len(checked), 'case')} checked now in"
                  f" {time.monotonic() - started:.0f} s"
                  + (f"; {memcheck.sandbox_text(checked, info.sandbox)})" if checked else ")"))
    return Exit.OK


def _spec_of(conn, target, run, functions, db):
    """The spec run was made with, having each of functions."""
    spec = triage.spec_of_run(conn, run)
    if spec is None:
        raise TrebuchetError(f"the spec of run {run} (target {target}) is not here: run"
                             " memcheck in the folder the run was made in", db)
    campaign.known_functions(spec, functions, target)
    return spec


def _progress(target):
    def say(done, total):
        print(f"\r{target}: memcheck {done}/{total}", end="\n" if done == total else "",
              file=sys.stderr, flush=True)
    return say
