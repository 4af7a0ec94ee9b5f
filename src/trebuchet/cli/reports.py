"""The commands that read a store: report, findings, compare and export."""
import json
import sys
import time

from trebuchet.cli import options
from trebuchet.cli.options import say
from trebuchet.core.errors import TrebuchetError
from trebuchet.core.exitcodes import Exit
from trebuchet.core.outputs import writable, writable_dir
from trebuchet.findings import making as triage
from trebuchet.store import runs
from trebuchet.store.runs import latest_runs


def add_report(sub):
    rep = sub.add_parser("report", help="write the HTML report, summary.json, CSV and figures")
    options.DBS.add(rep)
    options.OUT.add(rep, default="report", help="the directory to write (default ./report)")
    rep.set_defaults(func=cmd_report)


def cmd_report(args):
    from trebuchet.report import writer as report

    from trebuchet.store import database as store

    dbs = args.db or ["trebuchet.db"]
    for db in dbs:  # a store that is not one is said before --out is made
        store.connect(db).close()
    writable_dir(args.out)
    started = time.perf_counter()
    index = report.write(dbs, args.out)
    print(f"report written to {index} in {time.perf_counter() - started:.1f} s")
    return Exit.OK


def add_findings(sub):
    fd = sub.add_parser(
        "findings", help="the distinct defects of each target's newest run, contract violations"
        " first",
        description="Lists the findings of the newest run of each target in the store: each"
        " distinct defect (failing cases sharing a crash signature, or a promised error that did"
        " not come), contract violations first, with its trigger, source line, case count, last"
        " words and the command that reproduces its representative case.")
    options.DB.add(fd)
    options.TARGET.add(fd, help="only this target")
    options.JSON.add(fd, help="print them as JSON")
    fd.add_argument("--remake", action="store_true",
                    help="make the findings again from the stored cases (after installing a"
                    " library's debug symbols, or upgrading trebuchet)")
    fd.set_defaults(func=cmd_findings)


def cmd_findings(args):
    from trebuchet.findings import storage as findings_store
    from trebuchet.report import findings_text
    from trebuchet.store import database as store

    args.target = options.target_of(args.target)
    conn = store.connect(args.db)
    for target, run in latest_runs(conn).items():
        # a run stored without its findings (merged where its spec was not)
        if args.target in (None, target) and (args.remake or
                                              not findings_store.analyzed(conn, run)):
            spec = triage.spec_of_run(conn, run)
            if spec:
                triage.record(args.db, run, spec)
    targets = findings_text.summaries(store.connect(args.db), args.db, args.target)
    if not targets:  # as memcheck says it: an unfinished run has no findings yet
        raise TrebuchetError(f"no finished run of target '{args.target}' in this store"
                             if args.target else "no finished run in this store", args.db)
    say(json.dumps(findings_text.as_json(targets), indent=1) if args.json
         else findings_text.as_text(targets))
    return Exit.OK


def add_compare(sub):
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
    options.TARGET.add(cmp, help="the target (needed when the stores hold several)")
    cmp.add_argument("--all", action="store_true", help="list every changed case (default: the"
                     " first few of each kind, and how many were left out)")
    options.JSON.add(cmp, help="print everything as JSON, every case")
    cmp.set_defaults(func=cmd_compare)


def cmd_compare(args):
    from trebuchet.report import compare

    result = compare.compare(args.dbs, args.target)
    say(json.dumps(result.as_dict(), indent=1) if args.json else compare.as_text(result, args.all))
    return Exit.REGRESSED if result.regressed else Exit.OK


def add_export(sub):
    ex = sub.add_parser("export", help="write one record per case as JSON or CSV")
    options.DB.add(ex)
    ex.add_argument("--format", choices=["json", "csv"], default="json")
    ex.add_argument("--run", type=options.bounded(int, 1, options.STORED_MAX),
                    help="only this run (default: every run)")
    options.OUT.add(ex, help="file to write (default: standard output)")
    ex.set_defaults(func=cmd_export)


def cmd_export(args):
    from trebuchet.report import export
    from trebuchet.store import database as store

    if args.out:
        writable(args.out)
    conn = store.connect(args.db)
    if args.run is not None and not runs.exists(conn, args.run):
        raise TrebuchetError(f"no run {args.run} in this store", args.db)
    write = export.write_json if args.format == "json" else export.write_csv
    if args.out:
        try:
            with open(args.out, "w", newline="") as out:
                write(conn, out, args.run)
        except OSError as e:
            raise TrebuchetError(f"cannot be written: {e.strerror}", args.out) from None
    else:
        write(conn, sys.stdout, args.run)
    return Exit.OK
