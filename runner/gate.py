"""`trebuchet gate`: fails a build whose robustness regressed.

The newest finished run of the baseline's target is compared with the
baseline case by case.  The two runs drew the same cases, with the same
values, when their seed, cap, dictionary (and the digest of its values) and
spec digest match; otherwise the comparison means nothing and the gate
stops with exit code 2 naming what differs.  Functions only one side ran
are named and not compared.

A case is a new failure when it fails now (ABORT or RESTART) and passed in
the baseline (it is not listed there: SETUP cases are listed, and never
reached the function).  As CI fuzzers do, only what reproduces counts: each
new failure is run again, on its own, --confirm times; one that fails every
time is confirmed and fails the gate (exit 1), one that does not is flaky,
reported and not counted.  Baseline failures that pass now are fixed, and
the command that writes a new baseline is given."""
import collections
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from trebuchet.reports import baseline as baselines
from trebuchet.reports import metrics, store

from . import build, emit_c, executor, repro, spec as specs
from .errors import TrebuchetError
from .names import outcome_brief

DEFAULT_CONFIRM = 3


@dataclass
class NewFailure:
    function: str
    case: int
    values: list          # "datatype:VALUE" per parameter
    outcome: str          # in the gated run
    signal: int = None
    exit_status: int = None
    reruns: list = field(default_factory=list)  # each confirmation run's record, as
                                                # `repro --json` prints it

    @property
    def failures_on_rerun(self):
        return sum(r["outcome"] in metrics.FAILING for r in self.reruns)

    @property
    def reruns_described(self):
        return [outcome_brief(r["outcome"], r["signal"], r["exit_status"]) for r in self.reruns]

    @property
    def confirmed(self):
        return self.failures_on_rerun == len(self.reruns)

    @property
    def described(self):
        return outcome_brief(self.outcome, self.signal, self.exit_status)

    def call(self):
        return f"{self.function}({', '.join(self.values)})"


@dataclass
class GateResult:
    target: str
    spec: str                 # how repro commands name the target
    baseline: baselines.Baseline
    db: str
    info: metrics.RunInfo     # the gated run
    confirm: int
    compared: dict = field(default_factory=dict)  # function -> cases compared
    not_compared: list = field(default_factory=list)  # functions one side ran
    new: list = field(default_factory=list)       # [NewFailure]
    fixed: list = field(default_factory=list)     # baseline case lines that pass now
    still_failing: int = 0
    seconds: float = 0.0

    @property
    def confirmed(self):
        return [n for n in self.new if n.confirmed]

    @property
    def flaky(self):
        return [n for n in self.new if not n.confirmed]

    @property
    def failed(self):
        return bool(self.confirmed)

    def repro_command(self, case):
        dictionary = self.baseline.run["dictionary"]
        return (f"trebuchet repro --target {self.spec} --function {case.function} --case {case.case}"
                + ("" if dictionary == "ours" else f" --dictionary {dictionary}"))

    def baseline_command(self):
        return (f"trebuchet baseline --db {self.db} --target {self.spec} "
                f"--out {self.baseline.path}")


def _check_parameters(baseline, info, db):
    now = baselines.run_parameters(info)
    differ = [f"{k} ({baseline.run[k]} in the baseline, {now[k]} in run {info.id})"
              for k in baselines.COMPARABLE if baseline.run[k] != now[k]]
    if differ:
        raise TrebuchetError(f"run {info.id} of {baseline.target} cannot be compared with "
                             f"{baseline.path}: its {', '.join(differ)} differ", db)


def _rerun_once(suspects, plugin, timeout_ms, dictionary):
    """Runs the suspects again, each on its own, in an executor of its own."""
    with tempfile.NamedTemporaryFile("w", suffix=".cases") as listing:
        listing.write("".join(f"{n.function} {n.case}\n" for n in suspects))
        listing.flush()
        outcomes = executor.run_cases(plugin, listing.name, timeout_ms / 1000, dictionary)
    for suspect, again in zip(suspects, outcomes):
        suspect.reruns.append(again)


def _rerun(result, plugin, timeout_ms, dictionary):
    """Runs every new failure again, result.confirm times, drawing from the
    run's dictionary."""
    for _ in range(result.confirm):
        _rerun_once(result.new, plugin, timeout_ms, dictionary)


def _spec_for(spec_name, baseline):
    """The spec that runs the baseline's cases again: the one it was made with."""
    try:
        path = specs.find_spec(spec_name)
    except TrebuchetError as e:
        raise TrebuchetError(f"{e}; the baseline names its target '{spec_name}', as "
                             f"`trebuchet baseline --target` was given it: run the gate from "
                             f"the same folder, or name the spec with --target",
                             baseline.path) from None
    spec = specs.load(path)
    if spec.target != baseline.target or spec.digest != baseline.run["spec_digest"]:
        raise TrebuchetError(f"the spec {spec_name} is not the one the baseline was made "
                             f"with (target {spec.target}, digest {spec.digest}); "
                             f"name the right one with --target", spec.path)
    return spec


def gate(db, baseline_path, confirm=DEFAULT_CONFIRM, spec_name=None):
    started = time.monotonic()
    baseline = baselines.read(baseline_path)
    conn = store.connect(db)
    run = baselines.newest_full_run(conn, baseline.target, db)
    info = metrics.RunInfo.read(conn, run)
    _check_parameters(baseline, info, db)
    result = GateResult(baseline.target, spec_name or baseline.spec, baseline, str(db), info,
                        confirm)
    ran = {name: cases for name, cases in conn.execute(
        "SELECT function, count(*) FROM results WHERE run_id = ? GROUP BY function", (run,))}
    result.not_compared = sorted(ran.keys() ^ baseline.functions.keys())
    for name in sorted(ran.keys() & baseline.functions.keys()):
        if ran[name] != baseline.functions[name]["cases"]:
            raise TrebuchetError(f"{name}: run {run} holds {ran[name]} cases, the baseline "
                                 f"{baseline.functions[name]['cases']}; the runs drew other "
                                 f"cases", db)
        result.compared[name] = ran[name]
    for function, index, values, outcome, signal, exit_status in conn.execute(
            "SELECT function, case_index, value_names, outcome, signal, exit_status"
            " FROM results WHERE run_id = ? ORDER BY function, case_index", (run,)):
        if function not in result.compared:
            continue
        before = baseline.failing.get((function, index))
        if outcome in metrics.FAILING:
            if before:
                result.still_failing += 1
            elif (function, index) not in baseline.setup:
                result.new.append(NewFailure(function, index, values.split(" ") if values
                                             else [], outcome, signal, exit_status))
        elif outcome == "PASS" and before:
            result.fixed.append(before)
    if result.new and confirm:
        _rerun(result, build.build_plugin(_spec_for(result.spec, baseline), quiet=True),
               info.timeout_ms, baseline.run["dictionary"])
    result.seconds = time.monotonic() - started
    return result


LIST_LIMIT = 50  # cases shown per list in the text; the files carry them all
EMIT_LIMIT = 20  # standalone reproducers written by --emit-c: enough to start on


def emit_reproducers(result, out_dir):
    """Writes a standalone C reproducer (`repro --emit-c`) of each of the
    first EMIT_LIMIT confirmed new failures into out_dir/FUNCTION-case-N,
    the crashing inputs a CI job keeps as an artifact; returns the
    directories written."""
    chosen = result.confirmed[:EMIT_LIMIT]
    if not chosen:
        return []
    spec = _spec_for(result.spec, result.baseline)
    if any(not n.reruns for n in chosen):  # --confirm 0: none was run again
        _rerun_once(chosen, build.build_plugin(spec, quiet=True), result.info.timeout_ms,
                    result.baseline.run["dictionary"])
    datatypes = repro.datatypes_of(spec)
    written = []
    for n in chosen:
        where = Path(out_dir) / f"{n.function}-case-{n.case}"
        emit_c.write(spec, spec.function(n.function), n.reruns[-1], datatypes, where,
                     result.spec)
        written.append(where)
    return written


def _plural(count, word):
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _section(items, render, what, where):
    """The lines of the first LIST_LIMIT items (render gives each its lines),
    then how many more there are and where they all are."""
    lines = [line for item in items[:LIST_LIMIT] for line in render(item)]
    if len(items) > LIST_LIMIT:
        lines.append(f"  ... and {len(items) - LIST_LIMIT} more {what} ({where})")
    return lines


def as_text(r):
    """What the gate prints: a CI log's reader sees the verdict and, for each
    confirmed new failure, the command that reproduces it."""
    lines = [f"gate {r.target}: run {r.info.id} of {r.db} ({r.info.target_version}) against "
             f"{r.baseline.path} ({r.baseline.run['library']})",
             f"compared {_plural(sum(r.compared.values()), 'case')} in "
             f"{_plural(len(r.compared), 'function')}; {r.still_failing} failing in both"]
    if r.not_compared:
        lines.append(f"not compared (run by one side only): {', '.join(r.not_compared)}")
    if r.confirm:
        checked = f"each run again {'once' if r.confirm == 1 else f'{r.confirm} times'} on its own"
    else:
        checked = "not run again, as --confirm 0 asks"
    lines.append(f"new failures: {len(r.new)}, {checked}: {len(r.confirmed)} confirmed, "
                 f"{len(r.flaky)} flaky")
    if len(r.confirmed) > LIST_LIMIT:
        counts = collections.Counter(n.function for n in r.confirmed)
        lines.append("  by function: " + ", ".join(f"{f} {c}" for f, c in sorted(counts.items())))
    lines += _section(r.confirmed, lambda n: [
        f"  {n.call()} case {n.case}: {n.described}"
        + (f", failed again on {n.failures_on_rerun} of {len(n.reruns)} reruns" if n.reruns
           else ""),
        f"    {r.repro_command(n)}"], "confirmed", "--junit and --sarif list every one")
    if r.confirmed:
        lines.append("  (a repro command with --emit-c DIR writes a standalone C reproducer"
                     " to attach to a bug report)")
    if r.flaky:
        lines.append("flaky new failures (did not fail every time again; not counted):")
        lines += _section(r.flaky, lambda n: [
            f"  {n.call()} case {n.case}: {n.described}, then {', '.join(n.reruns_described)}"],
            "flaky", "--junit lists every one")
    if r.fixed:
        lines.append(f"fixed: {_plural(len(r.fixed), 'case')} failed in the baseline and pass "
                     f"now; `{r.baseline_command()}` updates the baseline")
        lines += _section(r.fixed, lambda c: [
            f"  {c['function']}({', '.join(c['values'])}) case {c['case']}"],
            "fixed", "the updated baseline's diff shows every one")
    lines.append(f"gate failed: {_plural(len(r.confirmed), 'confirmed new failure')}"
                 if r.failed else "gate passed: no confirmed new failure")
    return "\n".join(lines)
