"""The `trebuchet` command line.  Commands are one table; TrebuchetError
becomes a one-line message and exit code 2, never a traceback.

Exit codes: the table in exitcodes.py."""
import argparse
import contextlib
import functools
import json
import os
import re
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

from trebuchet.study import bench_io, bench_text
from trebuchet.build import plugins as build
from trebuchet.run import emit_c, repeat, repro
from trebuchet.report import run_line as summary
from trebuchet.harness import executor
from trebuchet.spec import load as specs
from trebuchet.init import command as draft_init
from trebuchet.memcheck import valgrind as memcheck
from trebuchet.core import paths
from trebuchet.run import pins as targeted
from trebuchet.harness import sanitizers
from trebuchet.survey import campaign as survey_defaults
from trebuchet.findings import making as triage
from trebuchet.core.errors import HarnessError, TrebuchetError
from trebuchet.core.exitcodes import Exit
from trebuchet.core.readable import plural
from trebuchet.store.runs import RunInfo, latest_runs

DICTIONARIES = ("ours", "ballista")  # datatypes/dictionary.h


def cmd_run(args):
    spec = specs.load(specs.find_spec(args.target))
    functions = _split(args.functions)
    _known_functions(spec, functions, args.target)
    plugin = build.build_plugin(spec, quiet=not sys.stderr.isatty(), sanitizer=args.sanitizer)
    if not args.quiet:
        for note in build.conversions_path(spec, args.sanitizer).read_text().splitlines():
            print(f"trebuchet: converted: {note}")
    if args.resume and args.dictionary is None:
        args.dictionary = _unfinished_dictionary(args.db, spec.target)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="trebuchet-listed-") as tmp:
        pins, listed, functions = _targeted(args, spec, plugin, functions, Path(tmp) / "cases")
        rc = executor.run_campaign(
            plugin, args.db, functions=functions, cap=args.cap, seed=args.seed,
            timeout=args.timeout, jobs=args.jobs, resume=args.resume,
            progress=False if args.quiet else True if args.progress else None,
            scratch=args.scratch, memory_mb=args.memory_mb, shard=args.shard,
            sandbox=not args.no_sandbox,
            spec=args.target if specs.names_a_file(args.target) else None,
            dictionary=args.dictionary, crash_sites=not args.no_crash_sites, pins=pins,
            listed=listed)
    if rc == Exit.OK and args.repeat > 1:
        run = metrics_latest_run(args.db, spec.target)
        rc, flaky = repeat.repeat(args.db, plugin, run, args.repeat, jobs=args.jobs,
                                  scratch=args.scratch, memory_mb=args.memory_mb)
        if rc == Exit.OK and not args.quiet:
            print(f"every case ran {args.repeat} times: {flaky} FLAKY"
                  + (f" (`trebuchet report` lists them)" if flaky else ""))
    if rc in (Exit.OK, Exit.INTERRUPTED, Exit.HARNESS) and Path(args.db).is_file():
        triage.record_latest(args.db, spec, plugin)  # what was stored, stopped or not
    if rc == Exit.OK and not args.quiet:
        print(summary.line(args.db, spec.target, time.monotonic() - started))
    elif rc in (Exit.INTERRUPTED, Exit.HARNESS):
        print(f"trebuchet: the run is stored as far as it got; `trebuchet run --target "
              f"{args.target} --db {args.db} --resume` finishes it", file=sys.stderr)
    return rc


def _targeted(args, spec, plugin, functions, cases_path):
    """--pin and --values-file as the executor takes them: (the runs.pins
    text or None, a "FUNCTION INDEX" file at cases_path or None, the
    functions to run)."""
    if not (args.pin or args.values_file):
        return None, None, functions
    if args.resume:
        raise TrebuchetError("--resume finishes a run with the pins or listed cases it was"
                             " started with: give no --pin or --values-file")
    listed = {f["name"]: f for f in executor.list_functions(plugin, args.dictionary)}
    if args.pin:
        pins = targeted.pins_text(spec, listed, functions or list(listed), args.pin)
        # without --functions, the functions the pins hold
        return pins, None, functions or list(dict.fromkeys(p.split(".")[0] for p in pins.split()))
    if functions:
        raise TrebuchetError("--values-file names the functions it runs: give no --functions")
    cases = targeted.read_values_file(spec, args.values_file, listed)
    cases_path.write_text("".join(f"{f} {i}\n" for f, i in cases))
    return None, cases_path, list(dict.fromkeys(f for f, _ in cases))


def _unfinished_dictionary(db, target):
    """The dictionary of the run --resume finishes, so that it draws from
    it again without being told; None when there is none to find."""
    import sqlite3

    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
            row = conn.execute("SELECT dictionary FROM runs WHERE target = ? AND finished IS NULL"
                               " ORDER BY id DESC LIMIT 1", (target,)).fetchone()
    except sqlite3.Error:
        return None  # the executor says what is wrong with the store
    return row[0] if row else None


def metrics_latest_run(db, target):
    from trebuchet.store import database as store

    return latest_runs(store.connect(db))[target]


def _known_functions(spec, functions, target_arg):
    """Refuses, at the spec's functions, a name the spec does not have."""
    for name in functions or ():
        if not spec.function(name):
            raise TrebuchetError(f"target {spec.target} has no function '{name}' "
                                 f"(`trebuchet list functions --target {target_arg}` lists them)",
                                 spec.path, spec.functions_line)


def cmd_repro(args):
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
    print(json.dumps(repro.as_record(result)) if args.json else repro.describe(result))
    if args.emit_c:
        ending = emit_c.write(spec, function, result, repro.datatypes_of(spec), args.emit_c,
                              args.target)
        print(f"reproducer written to {args.emit_c}\n"
              f"  build: {emit_c.make_command(spec, args.emit_c)}\n"
              f"  run:   {emit_c.make_command(spec, args.emit_c, 'run')}\n"
              f"  as the case did, {ending}",
              file=sys.stderr if args.json else sys.stdout)
    return Exit.OK


def cmd_build(args):
    names = specs.available_targets() if args.all or not args.target else [args.target]
    for name in names:
        path = build.build_plugin(specs.load(specs.find_spec(name)), quiet=args.quiet)
        if not args.quiet:
            print(f"{name}: {path}")
    return Exit.OK


def cmd_init(args):
    for line in draft_init.run(args.headers, args.library, args.out, args.prefix, args.target,
                               args.update):
        print(line)
    return Exit.OK


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


def cmd_export(args):
    from trebuchet.report import export
    from trebuchet.store import database as store

    conn = store.connect(args.db)
    if args.run is not None and not conn.execute("SELECT 1 FROM runs WHERE id = ?",
                                                 (args.run,)).fetchone():
        raise TrebuchetError(f"no run {args.run} in this store", args.db)
    write = export.write_json if args.format == "json" else export.write_csv
    if args.out:
        with open(args.out, "w", newline="") as out:
            write(conn, out, args.run)
    else:
        write(conn, sys.stdout, args.run)
    return Exit.OK


def cmd_report(args):
    from trebuchet.report import writer as report

    started = time.perf_counter()
    index = report.write(args.db or ["trebuchet.db"], args.out)
    print(f"report written to {index} in {time.perf_counter() - started:.1f} s")
    return Exit.OK


def cmd_findings(args):
    from trebuchet.findings import storage as findings_store
    from trebuchet.report import findings_text
    from trebuchet.store import database as store

    conn = store.connect(args.db)
    for target, run in latest_runs(conn).items():
        # a run stored without its findings (merged where its spec was not)
        if args.target in (None, target) and not findings_store.analyzed(conn, run):
            spec = triage.spec_of_run(conn, run)
            if spec:
                triage.record(args.db, run, spec)
    targets = findings_text.summaries(store.connect(args.db), args.db, args.target)
    if args.target and not targets:
        raise TrebuchetError(f"no run of target '{args.target}' in this store", args.db)
    _say(json.dumps(findings_text.as_json(targets), indent=1) if args.json
         else findings_text.as_text(targets))
    return Exit.OK


def cmd_memcheck(args):
    from trebuchet.store import database as store

    functions = _split(args.functions)
    # every run and its spec found first, with the store read-only and then
    # closed: no reader is open while memcheck writes (a read-only reader
    # across a writer's end of WAL mode sees a disk I/O error)
    with contextlib.closing(store.connect(args.db)) as conn:
        runs = {t: r for t, r in latest_runs(conn).items() if args.target in (None, t)}
        if not runs:
            raise TrebuchetError(f"no finished run of target '{args.target}' in this store"
                                 if args.target else "no finished run in this store", args.db)
        chosen = [(target, run, _memcheck_spec(conn, target, run, functions, args.db))
                  for target, run in runs.items()]
    for target, run, spec in chosen:
        progress = _memcheck_progress(target) if sys.stderr.isatty() and not args.quiet else None
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


def _memcheck_spec(conn, target, run, functions, db):
    """The spec run was made with, having each of functions."""
    spec = triage.spec_of_run(conn, run)
    if spec is None:
        raise TrebuchetError(f"the spec of run {run} (target {target}) is not here: run"
                             " memcheck in the folder the run was made in", db)
    _known_functions(spec, functions, target)
    return spec


def _memcheck_progress(target):
    def say(done, total):
        print(f"\r{target}: memcheck {done}/{total}", end="\n" if done == total else "",
              file=sys.stderr, flush=True)
    return say


def cmd_survey(args):
    from trebuchet.survey import campaign as survey

    return survey.run(args.db, args.out, args.budget, args.sample, _split(args.libraries),
                      args.examples)


def cmd_compare(args):
    from trebuchet.report import compare

    result = compare.compare(args.dbs, args.target)
    _say(json.dumps(result.as_dict(), indent=1) if args.json else compare.as_text(result, args.all))
    return Exit.REGRESSED if result.regressed else Exit.OK


def _never_one(command):
    """For baseline and gate, whose exit 1 CI reads as "robustness
    regressed": an error no check foresaw is a harness error (3) in one
    line, never Python's traceback and 1."""
    @functools.wraps(command)
    def guarded(args):
        try:
            return command(args)
        except (TrebuchetError, KeyboardInterrupt, BrokenPipeError):
            raise
        except sqlite3.DatabaseError as e:
            raise HarnessError(f"the store is broken ({e})", args.db) from None
        except Exception as e:
            raise HarnessError(f"stopped by an error of trebuchet itself, so there is no "
                               f"verdict: {type(e).__name__}: {e}") from None
    return guarded


@_never_one
def cmd_baseline(args):
    from trebuchet.gate import baseline

    target, spec_name = baseline.stored_target(args.db, args.target)
    made = baseline.from_store(args.db, target, spec_name)
    if args.functions:
        made = baseline.rebased(args.out, made, _split(args.functions))
    text = baseline.dumps(made)
    with open(_output(args.out), "w") as out:
        out.write(text)
    print(f"baseline of {target} written to {args.out}")
    return Exit.OK


@_never_one
def cmd_gate(args):
    from importlib.metadata import version

    from trebuchet.gate import junit, sarif, verdict as gate


    if args.emit_c:
        emit_c.check_destination(args.emit_c)
    for path in (args.junit, args.sarif):
        if path:
            _output(path)
    result = gate.gate(args.db, args.baseline, args.confirm, args.target, _split(args.functions),
                       args.fail_on_fixed, args.fail_on_flaky, not args.no_memcheck)
    if args.junit:
        junit.write(result, args.junit)
    if args.sarif:
        spec = specs.load(specs.find_spec(result.spec))
        sarif.write(result, spec, version("trebuchet"), args.sarif, args.source_root)
    _say(gate.as_text(result))
    written = gate.emit_reproducers(result, args.emit_c) if args.emit_c else None
    if written:
        what = "confirmed new finding" if result.by_finding else "confirmed new failure"
        print(f"standalone C reproducers of {plural(written[0], what)} written to "
              f"{args.emit_c}/ ({written[1]} builds and runs the first)")
    return Exit.REGRESSED if result.failed else Exit.INPUT if result.refused else Exit.OK


def cmd_merge(args):
    from trebuchet.gate import merge
    from trebuchet.store import database as store

    target, run = merge.merge(args.shards, _output(args.out), args.target)
    spec = triage.spec_of_run(store.connect(args.out), run)
    if spec:
        triage.record(args.out, run, spec)
    else:
        print(f"trebuchet: the spec of {target} is not here: the merged run has no findings"
              f" until `trebuchet findings` is run where it is", file=sys.stderr)
    print(f"merged {len(args.shards)} shards: {summary.line(args.out, target)}")
    return Exit.OK


def cmd_bench_io(args):
    from trebuchet.report import metrics
    from trebuchet.store import database as store

    started = time.monotonic()
    run = bench_io.run(args.db, args.benchmarks, args.blocks, args.size_mib, args.repeat,
                       args.cold, sys.stderr.isatty())
    bench = metrics.bench_summary(store.connect(args.db), run, args.db)
    print(bench_text.as_text(bench))
    print(f"bench io: run {run}, {len(bench.configs)} configurations x 3 libraries x "
          f"{args.repeat} repetitions in {time.monotonic() - started:.0f} s, stored in {args.db}")
    return Exit.OK


def cmd_bench_report(args):
    from trebuchet.study import bench_report
    from trebuchet.store import database as store

    for db in args.db:
        store.connect(db)  # a missing or foreign store: its one-line error now
    times = bench_report.whole(args.db, args.repeat)
    print(bench_report.as_text(args.db, times, bench_report.steps(args.db)))
    return Exit.OK


def _output(path):
    """A file a command is to write: its folder is made if missing; a folder
    in its place, or one that cannot be made, is a one-line error."""
    path = Path(path)
    if path.is_dir():
        raise TrebuchetError("is a directory, not a file to write", path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise TrebuchetError(f"cannot make its folder: {e.strerror}", path) from None
    return path


def _say(text):
    """Prints a verdict's text.  A reader gone early (`| head`) changes no
    exit code: the rest goes to /dev/null."""
    try:
        print(text, flush=True)
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _split(text):
    return [s for s in text.split(",") if s] if text else None


class _Parser(argparse.ArgumentParser):
    """Usage errors in one line, as every input error (the usage is --help's)."""

    def error(self, message):
        print(f"trebuchet: {message} (see `{self.prog} --help`)", file=sys.stderr)
        sys.exit(Exit.INPUT)


def _bounded(kind, low, high=None, low_open=False):
    """An argparse type: a number of kind in [low, high] ((low, high] when
    low_open), else a one-line error saying what is wanted."""
    def convert(text):
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or (value <= low if low_open else value < low) or \
                (high is not None and value > high):
            wanted = f"above {low}" if low_open else f"at least {low}"
            wanted += f" and at most {high}" if high is not None else ""
            raise argparse.ArgumentTypeError(f"wants a {'whole ' if kind is int else ''}"
                                             f"number {wanted}, not '{text}'")
        return value
    return convert


def _target_name(text):
    """A target's name as the schema has it (^[a-z][a-z0-9_]*$)."""
    if not re.fullmatch(r"[a-z][a-z0-9_]*", text):
        raise argparse.ArgumentTypeError(f"{text!r}: lower-case letters, digits and _, from a"
                                         f" letter")
    return text


def _names(known):
    """An argparse type: a comma-separated selection from known, in known's
    order, each once."""
    def convert(text):
        names = [n for n in text.split(",") if n]
        unknown = [n for n in names if n not in known]
        if unknown or not names:
            raise argparse.ArgumentTypeError(
                f"wants some of {','.join(known)}, not '{','.join(unknown) or text}'")
        return [n for n in known if n in names]
    return convert


def _blocks(text):
    """An argparse type: comma-separated block sizes in bytes, each 1 to 16 MiB."""
    sizes = []
    for part in text.split(","):
        if not part.isdigit() or not 1 <= int(part) <= 1 << 24:
            raise argparse.ArgumentTypeError(
                f"wants block sizes in bytes (1 to {1 << 24}), comma-separated, not '{text}'")
        sizes.append(int(part))
    return list(dict.fromkeys(sizes))


def _shard(text):
    """An argparse type: K/N with 1 <= K <= N, kept as the text."""
    k, _, n = text.partition("/")
    if not (k.isdigit() and n.isdigit() and 1 <= int(k) <= int(n)):
        raise argparse.ArgumentTypeError(f"wants K/N with 1 <= K <= N, not '{text}'")
    return f"{int(k)}/{int(n)}"


def _parser():
    from importlib.metadata import version
    p = _Parser(prog="trebuchet", description="API robustness testing for C libraries.")
    p.add_argument("--version", action="version", version=f"trebuchet {version('trebuchet')}")
    sub = p.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", help="run a robustness campaign against a target")
    run.add_argument("--target", required=True, help="a target name, or the path of a spec file")
    run.add_argument("--functions", help="comma-separated functions (default: all)")
    run.add_argument("--cap", type=_bounded(int, 1), help="most cases per function (default 5000)")
    run.add_argument("--seed", type=_bounded(int, 0), help="seed of the case sample (default 1)")
    run.add_argument("--timeout", type=_bounded(float, 0, 3600, low_open=True),
                     help="seconds of CPU or of sleep before a call is a RESTART (default 2)")
    run.add_argument("--jobs", type=_bounded(int, 1, 256), help="cases in flight (default twice the cores)")
    run.add_argument("--db", default="trebuchet.db", help="the store (default ./trebuchet.db)")
    run.add_argument("--shard", type=_shard, metavar="K/N",
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
    run.add_argument("--repeat", type=_bounded(int, 1, 100), default=1, metavar="N",
                     help="run every case N times; a case whose outcome or signal differs is"
                     " FLAKY (default 1)")
    run.add_argument("--dictionary", choices=DICTIONARIES,
                     help="the values to draw from: ours (default, stricter) or ballista"
                     " (Ballista's templates, to compare with published Ballista figures)")
    run.add_argument("--memory-mb", type=_bounded(int, 64), help="address-space limit of a test process"
                     " (default 1024); under --sanitizer address, the largest allocation instead")
    run.add_argument("--sanitizer", choices=sanitizers.NAMES,
                     help="build the plugin and the spec's sources with this sanitizer and run"
                     " under its runtime: a report is an ABORT, a finding at its source line"
                     " (the libraries the spec names are linked as built)")
    run.add_argument("--no-sandbox", action="store_true",
                     help="no namespaces around test processes (to compare; the run records it)")
    run.add_argument("--no-crash-sites", action="store_true",
                     help="record no crash site (where a failing case ended) in test processes,"
                     " to compare: outcomes are the same")
    shown = run.add_mutually_exclusive_group()
    shown.add_argument("--quiet", action="store_true", help="no progress display and no summary")
    shown.add_argument("--progress", action="store_true",
                       help="the progress line even when output is not a terminal")
    run.set_defaults(func=cmd_run)

    rp = sub.add_parser("repro", help="run one case on its own and show its outcome; --emit-c"
                        " writes it as a standalone C program")
    rp.add_argument("--target", required=True)
    rp.add_argument("--function", required=True)
    rp.add_argument("--case", type=_bounded(int, 0), help="the case index")
    rp.add_argument("--values", help="the case's values, e.g. buffer:VALID,size:ONE,size:ONE,FILE:NULL")
    rp.add_argument("--timeout", type=_bounded(float, 0, 3600, low_open=True))
    rp.add_argument("--json", action="store_true", help="print the result as JSON")
    rp.add_argument("--dictionary", choices=DICTIONARIES, help="the run's dictionary (default ours)")
    rp.add_argument("--sanitizer", choices=sanitizers.NAMES,
                    help="the run's sanitizer: the case runs under it (`run --sanitizer`)")
    rp.add_argument("--memcheck", action="store_true",
                    help="run the case under Valgrind's memcheck and show its first invalid"
                    " access during the call (what made `trebuchet memcheck` call it CORRUPT)")
    rp.add_argument("--emit-c", metavar="DIR",
                    help="also write the case into DIR (new or empty) as a C program that builds"
                    " with the target's library alone: `make -C DIR` builds it (LIBDIRS=... where"
                    " the library is not installed), `make -C DIR run` runs it")
    rp.set_defaults(func=cmd_repro)

    b = sub.add_parser("build", help="build target plugins that are stale")
    b.add_argument("--target")
    b.add_argument("--all", action="store_true")
    b.add_argument("--quiet", action="store_true")
    b.set_defaults(func=cmd_build)

    it = sub.add_parser(
        "init", help="draft a spec from a library's headers: its functions, datatypes and"
        " handles, each guess marked for review",
        description="Reads the headers with libclang and writes DIR/TARGET.yaml (and"
        " DIR/TARGET_values.c for the handle and buffer-length datatypes it needs): every"
        " function the headers declare that the library exports, a datatype per parameter, a"
        " handle datatype made and freed by the library's own functions, and a guessed error"
        " convention; what it cannot draft is listed at the top. An existing TARGET.yaml is"
        " never overwritten: the draft goes beside it, or --update adds the functions it lacks.")
    it.add_argument("headers", nargs="+", metavar="HEADER", help="the library's public headers")
    it.add_argument("--library", required=True, help="the shared library: a file name"
                    " (libbz2.so.1.0), an -l name (bz2) or a path")
    it.add_argument("--out", default=".", metavar="DIR", help="where to write (default .)")
    it.add_argument("--prefix", default="", help="only functions whose names begin so")
    it.add_argument("--target", type=_target_name, help="the target's name (default: the"
                    " library's, libbz2.so.1.0 -> bz2)")
    it.add_argument("--update", action="store_true", help="add to an existing DIR/TARGET.yaml"
                    " the functions it lacks, leaving the rest as it is")
    it.set_defaults(func=cmd_init)

    ls = sub.add_parser("list", help="list targets, functions or datatypes")
    ls.add_argument("what", choices=["targets", "functions", "datatypes"])
    ls.add_argument("--target")
    ls.add_argument("--dictionary", choices=DICTIONARIES, help="whose datatypes (default ours)")
    ls.set_defaults(func=cmd_list)

    rep = sub.add_parser("report", help="write the HTML report, summary.json, CSV and figures")
    rep.add_argument("--db", action="append", help="a store (repeat for several; default ./trebuchet.db)")
    rep.add_argument("--out", default="report", help="the directory to write (default ./report)")
    rep.set_defaults(func=cmd_report)

    fd = sub.add_parser(
        "findings", help="the distinct defects of each target's newest run, contract violations"
        " first",
        description="Lists the findings of the newest run of each target in the store: each"
        " distinct defect (failing cases sharing a crash signature, or a promised error that did"
        " not come), contract violations first, with its trigger, source line, case count, last"
        " words and the command that reproduces its representative case.")
    fd.add_argument("--db", default="trebuchet.db", help="the store (default ./trebuchet.db)")
    fd.add_argument("--target", help="only this target")
    fd.add_argument("--json", action="store_true", help="print them as JSON")
    fd.set_defaults(func=cmd_findings)

    mc = sub.add_parser(
        "memcheck", help="run PASS cases again under Valgrind's memcheck: CORRUPT where a call"
        " read or wrote memory it must not",
        description="Runs a sample of the PASS cases of each target's newest run (or --target's)"
        " again under Valgrind's memcheck, each on its own, and stores each as CORRUPT when"
        " memcheck saw the call read or write memory it must not (an invalid read or write, a"
        " jump to an invalid address, an uninitialised value deciding a branch, an invalid"
        " free). Resumes where it stopped; prints each function's CORRUPT rate.")
    mc.add_argument("--db", default="trebuchet.db", help="the store (default ./trebuchet.db)")
    mc.add_argument("--target", help="only this target (its newest run)")
    mc.add_argument("--functions", help="comma-separated functions (default: all)")
    how_many = mc.add_mutually_exclusive_group()
    how_many.add_argument("--sample", type=_bounded(int, 1), default=memcheck.DEFAULT_SAMPLE,
                          help="PASS cases checked per function, drawn with --seed (default"
                          f" {memcheck.DEFAULT_SAMPLE})")
    how_many.add_argument("--all", action="store_true", help="every PASS case")
    mc.add_argument("--seed", type=_bounded(int, 0), default=1, help="seed of the sample (default 1)")
    mc.add_argument("--jobs", type=_bounded(int, 1, 256), help="cases in flight (default the cores)")
    mc.add_argument("--quiet", action="store_true", help="the summary alone")
    mc.set_defaults(func=cmd_memcheck)

    sv = sub.add_parser(
        "survey", help="run every library of the survey (examples/*/ with a survey.md) into one"
        " store, a memcheck sample of each, and write the report with its survey page",
        description="Runs each survey library's spec (examples/NAME/NAME.yaml beside a"
        " survey.md) into --db, then `trebuchet memcheck` over --sample PASS cases a function"
        " of each, then the report into --out with survey.html, the libraries side by side,"
        " and survey.md. Resumable: a spec with a finished run in the store is not run again,"
        " an unfinished run is resumed. --budget bounds the whole: when it is spent the step"
        " under way is interrupted, what it stored is kept, and the same command goes on.")
    sv.add_argument("--db", default="survey.db", help="the store (default ./survey.db)")
    sv.add_argument("--out", default="survey-report", help="the report's folder (default"
                    " ./survey-report)")
    sv.add_argument("--budget", type=_bounded(float, 0, low_open=True), metavar="SECONDS",
                    default=survey_defaults.DEFAULT_BUDGET, help="seconds for the whole survey"
                    f" (default {survey_defaults.DEFAULT_BUDGET})")
    sv.add_argument("--sample", type=_bounded(int, 1), default=survey_defaults.DEFAULT_SAMPLE,
                    help="PASS cases memcheck checks per function (default"
                    f" {survey_defaults.DEFAULT_SAMPLE})")
    sv.add_argument("--libraries", metavar="A,B", help="only these of the survey's libraries")
    sv.add_argument("--examples", metavar="DIR", help="where the survey's folders are (default"
                    " the checkout's examples/)")
    sv.set_defaults(func=cmd_survey)

    cmp = sub.add_parser(
        "compare", help="two runs of a target, case by case: rate deltas, changes of outcome,"
        " signal and errno",
        description="Compares two runs of a target over the cases both ran (same function, case"
        " index and values; cases drawn by one run only are counted, not compared): per-function"
        " rate deltas, outcome changes, and signal (ABORT) or errno (PASS) changes where the"
        " outcome stayed. Exit code 1 when the second run has cases that fail (ABORT or RESTART)"
        " and passed in the first, else 0; 2 for bad input.")
    cmp.add_argument("dbs", nargs="+", help="two stores (before, after), or one store: its two"
                     " newest finished runs")
    cmp.add_argument("--target", help="the target (needed when the stores hold several)")
    cmp.add_argument("--all", action="store_true", help="list every changed case (default: the"
                     " first few of each kind, and how many were left out)")
    cmp.add_argument("--json", action="store_true", help="print everything as JSON, every case")
    cmp.set_defaults(func=cmd_compare)

    bl = sub.add_parser(
        "baseline", help="write a target's newest finished run as a reviewable baseline for"
        " `trebuchet gate`",
        description="Writes the newest finished run of the target as a baseline file to commit:"
        " the run's parameters, per function its cases and rates, and every case that did not"
        " pass, one per line, sorted, so that a pull request's diff of it reads case by case."
        " The spec is recorded as the run was given it, and the gate finds it by that again.")
    bl.add_argument("--db", default="trebuchet.db", help="the store (default ./trebuchet.db)")
    bl.add_argument("--target", required=True, help="a target's name (its spec's `target:`),"
                    " or the path of a spec file")
    bl.add_argument("--out", required=True, help="the baseline file to write")
    bl.add_argument("--functions", metavar="F,G", help="take only these functions from the run"
                    " (a function the spec changed or added, as the gate names it) into the"
                    " baseline --out holds, keeping the others as they are")
    bl.set_defaults(func=cmd_baseline)

    gt = sub.add_parser(
        "gate", help="fail (exit 1) when the newest run has confirmed new failures against a"
        " baseline",
        description="Compares the newest finished run of the baseline's target with the"
        " baseline, case by case. A case failing now (ABORT or RESTART) that passed in the"
        " baseline is a new failure; each is run again --confirm times on its own, and only"
        " one that fails every time counts (the others are reported as flaky). A baseline that"
        " lists findings gates by finding: a new failure of a finding it knows is reported, and"
        " a new finding with a confirmed new failure (or a newly broken error promise) fails."
        " The spec is compared function by function: one the run adds is listed, one whose"
        " call or datatypes changed is refused alone, with the command that rebases it."
        " A baseline made after `trebuchet memcheck` lists the cases memcheck checked: the gate"
        " checks them again under memcheck, and a new Corrupt defect (a function, memcheck's"
        " kind and where it struck) confirmed on --confirm reruns fails it too."
        " Exit 1 when a new finding (by case: a new failure) or Corrupt defect is confirmed,"
        " 0 when none is, 2 for"
        " bad input: the run's seed, cap or dictionary differ from the baseline's, a function"
        " changed, the run left out some of the baseline's functions (see --functions), the"
        " newest run holds one shard only, or the baseline is malformed; 3 when the harness or"
        " the store broke.")
    gt.add_argument("--db", default="trebuchet.db", help="the store (default ./trebuchet.db)")
    gt.add_argument("--baseline", required=True, help="the file `trebuchet baseline` wrote")
    gt.add_argument("--junit", metavar="FILE", help="write the verdict as JUnit XML")
    gt.add_argument("--sarif", metavar="FILE", help="write confirmed new failures as SARIF 2.1.0")
    gt.add_argument("--confirm", type=_bounded(int, 0, 100), default=3, metavar="N",
                    help="runs of each new failure that must all fail (default 3; 0 trusts"
                    " the stored outcome)")
    gt.add_argument("--fail-on-fixed", action="store_true", help="fail (exit 1) while the"
                    " baseline lists cases that pass now, so that it is updated with each fix")
    gt.add_argument("--fail-on-flaky", action="store_true", help="fail (exit 1) on flaky new"
                    " failures (by finding: new findings not confirmed) too")
    gt.add_argument("--no-memcheck", action="store_true", help="do not run the cases the"
                    " baseline memchecked under memcheck: Corrupt is gated on what the store"
                    " holds checked already")
    gt.add_argument("--functions", metavar="F,G", help="the functions meant, when the run"
                    " holds fewer of the baseline's than it lists (without it, that fails)")
    gt.add_argument("--target", help="the spec to rerun cases with (default: the one the"
                    " gated run was made with)")
    gt.add_argument("--emit-c", metavar="DIR", help="write a standalone C reproducer of each"
                    " confirmed new finding (a baseline without findings: of each of the first"
                    " 20 confirmed new failures) into DIR (new or empty)")
    gt.add_argument("--source-root", metavar="DIR", help="the library's source tree: SARIF"
                    " locations under it are made relative to it (default: the working"
                    " directory)")
    gt.set_defaults(func=cmd_gate)

    mg = sub.add_parser(
        "merge", help="join the stores of a campaign's shards (run --shard K/N) into one run",
        description="Joins the newest shard run of each store, shards 1..N of one campaign,"
        " into one finished run appended to --out (a new store, or an existing store of this"
        " schema version). Refuses, exit 2, shards of different campaigns, a shard missing,"
        " given twice or unfinished; then the output is left as it was.")
    mg.add_argument("shards", nargs="+", metavar="SHARD.db", help="the shards' stores")
    mg.add_argument("--out", required=True, metavar="DB", help="the store to write the run to")
    mg.add_argument("--target", help="the target (needed when the stores hold shard runs"
                    " of several)")
    mg.set_defaults(func=cmd_merge)

    bn = sub.add_parser("bench", help="performance benchmarks (io: the study's I/O benchmarks;"
                        " report: how long a report takes)")
    suites = bn.add_subparsers(dest="suite", required=True)
    io = suites.add_parser(
        "io", help="the study's I/O benchmarks on stdio, SFIO and Robust SFIO",
        description="Runs the reference study's I/O benchmarks (copyrw, getc, putc, read, revrd,"
        " seekrw, write; the block ones at each --blocks size) and records, one program built"
        " once per library, on stdio, SFIO and Robust SFIO, interleaved in every repetition."
        " Stores usr, sys and elapsed seconds of every run; prints medians with distribution-free"
        " intervals (95% or more from 6 repetitions).")
    io.add_argument("--benchmarks", type=_names(bench_io.BENCHMARKS),
                    default=list(bench_io.BENCHMARKS),
                    help=f"comma-separated (default all: {','.join(bench_io.BENCHMARKS)})")
    io.add_argument("--blocks", type=_blocks, default=[8192, 757],
                    help="block sizes in bytes of the block benchmarks (default 8192,757)")
    io.add_argument("--size-mib", type=_bounded(int, 1, 1 << 20),
                    help="every file's size in MiB (default: per benchmark, what takes"
                    " about 1.5 s of CPU on a warm cache)")
    io.add_argument("--repeat", type=_bounded(int, 1, 1000), default=10,
                    help="repetitions, each running every library once (default 10)")
    io.add_argument("--cold", action="store_true",
                    help="drop the page cache before each run (root only)")
    io.add_argument("--db", default="trebuchet.db", help="the store (default ./trebuchet.db)")
    io.set_defaults(func=cmd_bench_io)
    br = suites.add_parser(
        "report", help="how long `trebuchet report` takes over some stores",
        description="Times `trebuchet report` over the stores: the whole command in a process"
        " of its own (one warm-up, then --repeat runs), then one report step by step (reading"
        " the stores, each figure, the pages).  It prints the times; it holds them to no limit.")
    br.add_argument("--db", action="append", required=True,
                    help="a store (repeat for several)")
    br.add_argument("--repeat", type=_bounded(int, 1, 100), default=3,
                    help="timed runs of the whole command (default 3)")
    br.set_defaults(func=cmd_bench_report)

    ex = sub.add_parser("export", help="write one record per case as JSON or CSV")
    ex.add_argument("--db", default="trebuchet.db")
    ex.add_argument("--format", choices=["json", "csv"], default="json")
    ex.add_argument("--run", type=int, help="only this run (default: every run)")
    ex.add_argument("--out", help="file to write (default: standard output)")
    ex.set_defaults(func=cmd_export)
    _add_build_dir(p)
    return p


def _add_build_dir(parser):
    """--build-dir on every command, which is where a user looks for it."""
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    for command in (c for a in subs for c in a.choices.values()):
        _add_build_dir(command)
    if not subs:
        parser.add_argument("--build-dir", metavar="DIR",
                            help=f"where plugins are built (default ${paths.BUILD_DIR_VARIABLE},"
                                 f" else {paths.default_build()})")


def main(argv=None):
    args = _parser().parse_args(argv)
    if args.build_dir:
        paths.use_build_dir(args.build_dir)
    try:
        return args.func(args)
    except TrebuchetError as e:
        print(f"trebuchet: {e}", file=sys.stderr)
        return e.exit_code
    except KeyboardInterrupt:
        return Exit.INTERRUPTED
    except BrokenPipeError:  # e.g. piped into head
        sys.stderr.close()
        return Exit.OK


if __name__ == "__main__":
    sys.exit(main())
