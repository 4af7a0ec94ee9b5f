"""The commands that run a target's cases: run, repro, build and list."""
import json
import sys
import time
from pathlib import Path

from trebuchet.build import plugins as build
from trebuchet.cli import options
from trebuchet.cli.options import bounded, shard, split
from trebuchet.core.errors import TrebuchetError
from trebuchet.core.exitcodes import Exit
from trebuchet.findings import making as triage, minimise
from trebuchet.harness import executor
from trebuchet.memcheck import valgrind as memcheck
from trebuchet.report import run_line as summary
from trebuchet.run import campaign, emit_c, repro
from trebuchet.spec import load as specs


def add_run(sub):
    run = sub.add_parser("run", help="run a robustness campaign against a target")
    options.TARGET.add(run, required=True, help="a target name, or the path of a spec file")
    options.FUNCTIONS.add(run)
    run.add_argument("--cap", type=bounded(int, 1, options.STORED_MAX), help="most cases per function (default 5000)")
    options.SEED.add(run, help="seed of the case sample (default 1)")
    options.TIMEOUT.add(run, help="seconds of CPU or of sleep before a call is a RESTART"
                        " (default 2)")
    options.JOBS.add(run, help="cases in flight (default twice the cores)")
    options.DB.add(run)
    run.add_argument("--shard", type=shard, metavar="K/N",
                     help="run only shard K of N: a deterministic, balanced 1/N of the cases"
                     " (`trebuchet merge` joins the shards' stores into one run)")
    chosen = run.add_mutually_exclusive_group()
    chosen.add_argument("--pin", action="append", metavar="[FUNCTION.]PARAM=VALUE[,VALUE...]",
                        help="run only the cases whose parameter PARAM (of every function run"
                        " that has one, or of FUNCTION alone) holds one of these values (as"
                        " `repro --values` names them); the rest of the product is drawn as"
                        " usual (repeatable). Without --functions, the functions run are those"
                        " pinned")
    chosen.add_argument("--values-file", metavar="FILE",
                        help="run exactly the cases FILE lists, one a line: FUNCTION then its"
                        " values as `repro --values` takes them (blank lines and # comments"
                        " are skipped)")
    run.add_argument("--resume", action="store_true",
                     help="finish the target's last unfinished run (exit 2 when there is none)")
    run.add_argument("--scratch", help="where the run's scratch directory goes (default $TMPDIR)")
    run.add_argument("--repeat", type=bounded(int, 1, 100), default=1, metavar="N",
                     help="run every case N times; a case whose outcome or signal differs is"
                     " FLAKY (default 1)")
    options.DICTIONARY.add(run, help="the values to draw from: ours (default, stricter) or"
                           " ballista (Ballista's templates, to compare with published Ballista"
                           " figures)")
    run.add_argument("--memory-mb", type=bounded(int, 64), help="address-space limit of a test"
                     " process (default 1024); under --sanitizer address, the largest allocation"
                     " instead")
    options.SANITIZER.add(run, help="build the plugin and the spec's sources with this sanitizer"
                          " and run under its runtime: a report is an ABORT, a finding at its"
                          " source line (the libraries the spec names are linked as built)")
    run.add_argument("--no-sandbox", action="store_true",
                     help="no namespaces around test processes (to compare; the run records it)")
    run.add_argument("--no-crash-sites", action="store_true",
                     help="record no crash site (where a failing case ended) in test processes,"
                     " to compare: outcomes are the same")
    run.add_argument("--no-second-look", action="store_true",
                     help="a call the watchdog stops is RESTART at once, not first run again"
                     " alone at four times the limits: quicker where calls hang, but a call"
                     " that needs about the limit may then flip with the machine's load")
    run.add_argument("--minimise-budget", type=bounded(int, 0, options.STORED_MAX),
                     default=minimise.BUDGET, metavar="N",
                     help="the most cases the findings may run to find what each failure"
                     " needs (docs/findings.md; default %(default)s, 0: none)")
    shown = run.add_mutually_exclusive_group()
    options.QUIET.add(shown, help="no progress display and no summary")
    shown.add_argument("--progress", action="store_true",
                       help="the progress line even when output is not a terminal")
    run.set_defaults(func=cmd_run)


def cmd_run(args):
    spec = specs.load(specs.find_spec(args.target))
    asked = campaign.Campaign(
        args.target, args.db, split(args.functions), args.cap, args.seed, args.timeout,
        args.jobs, args.shard, args.pin, args.values_file, args.resume, args.scratch,
        args.repeat, args.dictionary, args.memory_mb, args.sanitizer,
        sandbox=not args.no_sandbox, crash_sites=not args.no_crash_sites,
        second_look=not args.no_second_look, progress=False if args.quiet else True if args.progress else None, quiet=args.quiet,
        spec_path=args.target if specs.names_a_file(args.target) else None)
    ran = campaign.run(spec, asked)
    if ran.flaky is not None and not args.quiet:
        print(f"every case ran {args.repeat} times: {ran.flaky} FLAKY"
              + (" (`trebuchet report` lists them)" if ran.flaky else ""))
    # what was stored, finished or broken off; a run stopped on purpose gets
    # its findings when it is resumed and finished (an unfinished run's are
    # read nowhere), so that Ctrl-C ends it at once
    if ran.code in (Exit.OK, Exit.HARNESS) and Path(args.db).is_file():
        triage.record_latest(args.db, spec, ran.plugin, args.minimise_budget)
    if ran.code == Exit.OK and not args.quiet:
        print(summary.line(args.db, spec.target, time.monotonic() - ran.started))
        for note in triage.unheld_promises(args.db, spec):
            print(note, file=sys.stderr)  # beside the run's output, not in it
    elif ran.code in (Exit.INTERRUPTED, Exit.HARNESS):
        print(f"trebuchet: the run is stored as far as it got; `trebuchet run --target "
              f"{args.target} --db {args.db} --resume` finishes it", file=sys.stderr)
    return ran.code


def add_repro(sub):
    rp = sub.add_parser("repro", help="run one case on its own and show its outcome; --emit-c"
                        " writes it as a standalone C program")
    options.TARGET.add(rp, help="the target's spec or name (with --db: default the store's"
                       " one target)")
    rp.add_argument("--db", help="take the target, dictionary and sanitizer from this store's"
                    " newest finished run of the target, as `trebuchet findings` shows it")
    rp.add_argument("--function", required=True)
    rp.add_argument("--case", type=bounded(int, 0, options.STORED_MAX), help="the case index")
    rp.add_argument("--values", help="the case's values, e.g."
                    " buffer:VALID,size:ONE,size:ONE,FILE:NULL")
    options.TIMEOUT.add(rp)
    options.JSON.add(rp, help="print the result as JSON")
    options.DICTIONARY.add(rp, help="the run's dictionary (default ours)")
    options.SANITIZER.add(rp, help="the run's sanitizer: the case runs under it"
                          " (`run --sanitizer`)")
    rp.add_argument("--memcheck", action="store_true",
                    help="run the case under Valgrind's memcheck and show its first invalid"
                    " access during the call (what made `trebuchet memcheck` call it CORRUPT)")
    rp.add_argument("--emit-c", metavar="DIR",
                    help="also write the case into DIR (new or empty) as a C program that builds"
                    " with the target's library alone: `make -C DIR` builds it (LIBDIRS=... where"
                    " the library is not installed), `make -C DIR run` runs it")
    rp.set_defaults(func=cmd_repro)


def _as_stored(args):
    """--db: the target, dictionary and sanitizer of the store's newest
    finished run of --target (or of its one target), where not given."""
    from trebuchet.store import database as store
    from trebuchet.store.runs import RunInfo, latest_runs

    conn = store.connect(args.db)
    runs = latest_runs(conn)
    if args.target is None and len(runs) != 1:
        raise TrebuchetError(f"holds {len(runs)} targets: name one with --target"
                             f" ({', '.join(runs) or 'none finished'})", args.db)
    name = (specs.load(specs.find_spec(args.target)).target if args.target
            else next(iter(runs)))
    if name not in runs:
        raise TrebuchetError(f"no finished run of {name}", args.db)
    info = RunInfo.read(conn, runs[name])
    args.target = args.target or info.target_arg
    args.dictionary = args.dictionary or info.dictionary
    args.sanitizer = args.sanitizer or info.sanitizer or None


def cmd_repro(args):
    if args.db:
        _as_stored(args)
    elif args.target is None:
        raise TrebuchetError("give --target, or --db to take it from a store")
    spec = specs.load(specs.find_spec(args.target))
    function = spec.function(args.function)
    if not function:
        raise TrebuchetError(f"target {spec.target} has no function '{args.function}'", spec.path)
    if (args.case is None) == (args.values is None):
        raise TrebuchetError("give exactly one of --case and --values")
    ballista = args.dictionary not in (None, "ours")
    if ballista and (args.values is not None or args.emit_c):
        raise TrebuchetError("--values and --emit-c know our dictionary only; "
                             "under Ballista's give --case alone")
    if args.emit_c:
        emit_c.check_destination(args.emit_c)
    index = args.case
    if args.values is not None:
        values = args.values.replace(",", " ").split()
        index = repro.case_index(spec, function, values,
                                 repro.listed_function(spec, function, args.dictionary))
    if args.memcheck and (args.sanitizer or args.json or args.emit_c):
        raise TrebuchetError("--memcheck runs the case under Valgrind's memcheck alone: it goes"
                             " with neither --sanitizer, --json nor --emit-c (whose Makefile"
                             " has `make memcheck`)")
    # under --memcheck too: the plain run checks the index and names the
    # values, a few milliseconds beside memcheck's second or so
    result = repro.run_case(spec, function, index, args.timeout, args.dictionary, args.sanitizer)
    if args.memcheck:
        checked = memcheck.check_case(build.build_plugin(spec, quiet=True), function.name,
                                      index, args.dictionary, memcheck.timeout_under_memcheck(
                                          args.timeout * 1000 if args.timeout
                                          else executor.DEFAULT_TIMEOUT_MS))
        print(memcheck.describe(checked, result["values"]))
        return Exit.OK
    promise = triage.broken_promise(spec, repro.as_record(result), args.dictionary)
    if args.json:
        print(json.dumps(dict(repro.as_record(result), breaks=promise)))
    else:
        print(repro.describe(result) + (f"\nit breaks the contract: {promise}" if promise else ""))
    if args.emit_c:
        ending = emit_c.write(spec, function, result, repro.datatypes_of(spec), args.emit_c,
                              args.target, promise)
        print(f"reproducer written to {args.emit_c}\n"
              f"  build: {emit_c.make_command(spec, args.emit_c)}\n"
              f"  run:   {emit_c.make_command(spec, args.emit_c, 'run')}\n"
              f"  as the case did, {ending}",
              file=sys.stderr if args.json else sys.stdout)
    return Exit.OK


def add_build(sub):
    b = sub.add_parser("build", help="build target plugins that are stale")
    options.TARGET.add(b)
    b.add_argument("--all", action="store_true")
    options.QUIET.add(b)
    b.set_defaults(func=cmd_build)


def cmd_build(args):
    names = specs.available_targets() if args.all or not args.target else [args.target]
    for name in names:
        path = build.build_plugin(specs.load(specs.find_spec(name)), quiet=args.quiet)
        if not args.quiet:
            print(f"{name}: {path}")
    return Exit.OK


def add_list(sub):
    ls = sub.add_parser("list", help="list targets, functions or datatypes")
    ls.add_argument("what", choices=["targets", "functions", "datatypes"])
    options.TARGET.add(ls)
    options.DICTIONARY.add(ls, help="whose datatypes (default ours)")
    ls.set_defaults(func=cmd_list)


def cmd_list(args):
    if args.what == "targets":
        for name in specs.available_targets():
            spec = specs.load(specs.find_spec(name))
            print(f"{name:<14} {len(spec.functions):>3} functions  {spec.description}")
    elif args.what == "functions":
        for name in [args.target] if args.target else specs.available_targets():
            spec = specs.load(specs.find_spec(name))
            for f in executor.list_functions(build.build_plugin(spec, quiet=True)):
                print(f"{spec.target}.{f['name']:<18} {f['cases']:>8} cases  {f['signature']}")
    else:
        plugin = None
        if args.target:
            plugin = build.build_plugin(specs.load(specs.find_spec(args.target)), quiet=True)
        for d in executor.list_datatypes(plugin, args.dictionary):
            print(datatype_text(d))
    return Exit.OK


def datatype_text(d):
    """A datatype as `list datatypes` shows it: a line naming it, its C type,
    parent, number of values and dials, then a line per value with its
    description, marked [misuse] where it is (a dial product's values are
    only counted)."""
    parent = f" (inherits {d['parent']})" if d["parent"] else ""
    span = f", spans {d['span']} parameters" if d.get("span", 1) > 1 else ""
    dials = " x ".join(f"{x['name']} ({' '.join(x['choices'])})" for x in d["dials"])
    dials = f"; dials {dials} = {d['product']}" if dials else ""
    # a dial product's values (dotted names) are counted, not listed
    named = [v for v in d["values"] if "." not in v["name"]]
    width = max((len(v["name"]) for v in named), default=0)
    # misuse: no C contract could accept the value (docs/contracts.md)
    rows = [f"    {v['name']:<{width}}  {'[misuse] ' if v.get('misuse') else ''}"
            f"{v['desc'] or ''}".rstrip() for v in named]
    return "\n".join([f"{d['name']}: {d['ctype']}{parent}{span}, {len(d['values'])} values{dials}"]
                     + rows)
