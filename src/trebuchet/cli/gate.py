"""The CI gate's commands: baseline, gate and merge."""
import sys

from trebuchet.cli import options
from trebuchet.cli.options import bounded, never_one, say, split, write_failed
from trebuchet.core.errors import TrebuchetError
from trebuchet.core.exitcodes import Exit
from trebuchet.core.outputs import writable
from trebuchet.core.readable import plural
from trebuchet.findings import making as triage
from trebuchet.report import run_line as summary
from trebuchet.spec import load as specs


def add_baseline(sub):
    bl = sub.add_parser(
        "baseline", help="write a target's newest finished run as a reviewable baseline for"
        " `trebuchet gate`",
        description="Writes the newest finished run of the target as a baseline file to commit:"
        " the run's parameters, per function its cases and rates, and every case that did not"
        " pass, one per line, sorted, so that a pull request's diff of it reads case by case."
        " The spec is recorded as the run was given it, and the gate finds it by that again.")
    options.DB.add(bl)
    options.TARGET.add(bl, required=True, help="a target's name (its spec's `target:`),"
                       " or the path of a spec file")
    options.OUT.add(bl, required=True, help="the baseline file to write")
    options.FUNCTIONS.add(bl, metavar="F,G", help="take only these functions from the run"
                          " (a function the spec changed or added, as the gate names it) into"
                          " the baseline --out holds, keeping the others as they are")
    bl.add_argument("--flaky", metavar="FINGERPRINT,...", help="list these findings of the"
                    " newest run (by the fingerprint the gate gives a flaky one) in the baseline"
                    " --out holds as known flaky, so that they never fail the gate; nothing else"
                    " of it changes")
    bl.set_defaults(func=cmd_baseline)


@never_one
def cmd_baseline(args):
    from trebuchet.gate import baseline

    writable(args.out)
    target, spec_name = baseline.stored_target(args.db, args.target)
    if args.flaky and args.functions:
        raise TrebuchetError("--flaky and --functions are two edits of a baseline: one at a time")
    if args.flaky:
        made = baseline.with_flaky(args.out, args.db, target, split(args.flaky))
    else:
        made = baseline.kept_flaky(args.out, baseline.from_store(args.db, target, spec_name))
    if args.functions:
        made = baseline.rebased(args.out, made, split(args.functions))
    text = baseline.dumps(made)
    try:
        with open(args.out, "w") as out:
            out.write(text)
    except OSError as e:
        raise TrebuchetError(f"cannot be written: {e.strerror}", args.out) from None
    kept = len(made.get("flaky") or ())
    print(f"baseline of {target} written to {args.out}"
          + (f" ({plural(kept, 'known flaky finding')})" if kept else ""))
    return Exit.OK


def add_gate(sub):
    gt = sub.add_parser(
        "gate", help="fail (exit 1) when the newest run has confirmed new failures against a"
        " baseline",
        description="Compares the newest finished run of the baseline's target with the"
        " baseline, case by case. A case failing now (ABORT or RESTART) that passed in the"
        " baseline is a new failure; each is run again --confirm times on its own, and only"
        " one that fails again on at least one rerun counts (the others are reported as flaky)."
        " A baseline that"
        " lists findings gates by finding: a new failure of a finding it knows is reported, and"
        " a new finding with a confirmed new failure (or a newly broken error promise) fails."
        " The spec is compared function by function: one the run adds is judged by its contract"
        " (a violation of a reviewed promise fails, its other findings are reported), one whose"
        " call, datatypes or values (a datatype edited) changed is refused alone, with the"
        " command that rebases it."
        " A finding the baseline lists as known flaky (`trebuchet baseline --flaky`) never"
        " fails it."
        " A baseline made after `trebuchet memcheck` lists the cases memcheck checked: the gate"
        " checks them again under memcheck, and a new Corrupt defect (a function, memcheck's"
        " kind and where it struck) confirmed on --confirm reruns fails it too."
        " Exit 1 when a new finding (by case: a new failure) or Corrupt defect is confirmed,"
        " 0 when none is, 2 for"
        " bad input: the run's seed, cap or dictionary differ from the baseline's, a function"
        " changed, the run left out some of the baseline's functions (see --functions), the"
        " newest run holds one shard only, or the baseline is malformed; 3 when the harness or"
        " the store broke.")
    options.DB.add(gt)
    gt.add_argument("--baseline", required=True, help="the file `trebuchet baseline` wrote")
    gt.add_argument("--junit", metavar="FILE", help="write the verdict as JUnit XML")
    gt.add_argument("--sarif", metavar="FILE", help="write confirmed new failures as SARIF 2.1.0")
    gt.add_argument("--confirm", type=bounded(int, 0, 100), default=3, metavar="N",
                    help="runs of each new failure, of which one must fail (default 3; 0 trusts"
                    " the stored outcome)")
    gt.add_argument("--fail-on-fixed", action="store_true", help="fail (exit 1) while the"
                    " baseline lists cases that pass now, so that it is updated with each fix")
    gt.add_argument("--fail-on-flaky", action="store_true", help="fail (exit 1) on flaky new"
                    " failures (by finding: new findings not confirmed) too")
    gt.add_argument("--no-memcheck", action="store_true", help="do not run the cases the"
                    " baseline memchecked under memcheck: Corrupt is gated on what the store"
                    " holds checked already")
    options.FUNCTIONS.add(gt, metavar="F,G", help="the functions meant, when the run holds fewer"
                          " of the baseline's than it lists (without it, that fails)")
    options.TARGET.add(gt, help="the spec to rerun cases with (default: the one the gated run"
                       " was made with)")
    gt.add_argument("--emit-c", metavar="DIR", help="write a standalone C reproducer of each"
                    " confirmed new finding (a baseline without findings: of each of the first"
                    " 20 confirmed new failures) into DIR (new or empty)")
    gt.add_argument("--source-root", metavar="DIR", help="the library's source tree: SARIF"
                    " locations and the source paths of JUnit and the text under it are made"
                    " relative to it (default: the working directory)")
    gt.set_defaults(func=cmd_gate)


@never_one
def cmd_gate(args):
    """Exit codes, in this order: 2 for bad input, outputs included, found
    before any work; then 1 whenever the verdict is "failed", even if an
    output could not be written afterwards (each such one a line); 2 when it
    passed or was refused but an output was not written; else 0."""
    from importlib.metadata import version

    from trebuchet.gate import junit, sarif, verdict as gate

    if args.emit_c:
        gate.claim_reproducers_dir(args.emit_c)
    for path in (args.junit, args.sarif):
        if path:
            writable(path)
    result = gate.gate(args.db, args.baseline, args.confirm, args.target, split(args.functions),
                       args.fail_on_fixed, args.fail_on_flaky, not args.no_memcheck)
    result.source_root = args.source_root
    # the verdict as the text, JUnit and SARIF give it: the reproducers'
    # own run of their cases (--confirm 0 ran none) must not change it
    failed, refused = result.failed, result.refused
    unwritten = 0
    if args.junit:
        unwritten += not _written(args.junit, lambda: junit.write(result, args.junit))
    if args.sarif:
        spec = specs.load(specs.find_spec(result.spec))
        unwritten += not _written(args.sarif, lambda: sarif.write(
            result, spec, version("trebuchet"), args.sarif, args.source_root))
    say(gate.as_text(result))
    written = None
    if args.emit_c:
        try:
            written = gate.emit_reproducers(result, args.emit_c)
        except OSError as e:
            write_failed(args.emit_c, e)
            unwritten += 1
    if written:
        what = "confirmed new finding" if result.by_finding else "confirmed new failure"
        print(f"standalone C reproducers of {plural(written[0], what)} written to "
              f"{args.emit_c}/ ({written[1]} builds and runs the first)")
    if failed:
        return Exit.REGRESSED
    return Exit.INPUT if refused or unwritten else Exit.OK


def _written(path, write):
    """Whether write() wrote path; a line saying why not when it did not."""
    try:
        write()
    except OSError as e:
        write_failed(path, e)
        return False
    return True


def add_merge(sub):
    mg = sub.add_parser(
        "merge", help="join the stores of a campaign's shards (run --shard K/N) into one run",
        description="Joins the newest shard run of each store, shards 1..N of one campaign,"
        " into one finished run appended to --out (a new store, or an existing store of this"
        " schema version). Refuses, exit 2, shards of different campaigns, a shard missing,"
        " given twice or unfinished; then the output is left as it was.")
    mg.add_argument("shards", nargs="+", metavar="SHARD.db", help="the shards' stores")
    options.OUT.add(mg, required=True, metavar="DB", help="the store to write the run to")
    options.TARGET.add(mg, help="the target (needed when the stores hold shard runs of several)")
    mg.set_defaults(func=cmd_merge)


def cmd_merge(args):
    from trebuchet.gate import merge
    from trebuchet.store import database as store

    target, run = merge.merge(args.shards, writable(args.out), args.target)
    spec = triage.spec_of_run(store.connect(args.out), run)
    if spec:
        triage.record(args.out, run, spec)
    else:
        print(f"trebuchet: the spec of {target} is not here: the merged run has no findings"
              f" until `trebuchet findings` is run where it is", file=sys.stderr)
    print(f"merged {len(args.shards)} shards: {summary.line(args.out, target)}")
    return Exit.OK
