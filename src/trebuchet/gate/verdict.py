"""`trebuchet gate`: fails a build whose robustness regressed.

The newest finished run of the baseline's target is compared with the
baseline case by case.  The two runs drew the same cases, with the same
values, when their seed, cap, dictionary (and the digest of its values)
match; otherwise the comparison means nothing and the gate stops with exit
code 2 naming what differs.  The spec is compared function by function, by
each one's C call and datatypes: a function the run adds is listed, not
compared but judged by its contract (a finding of it that violates a
reviewed promise fails the gate, its other findings and a violation of
drafted promises are reported); one that changed is refused alone (exit 2
when nothing else fails), with the command that rebases it; one of the baseline's that the
run did not run stops the gate unless --functions names the ones meant.

A case is a new failure when it fails now (ABORT or RESTART) and passed in
the baseline (it is not listed there: SETUP cases are listed, and never
reached the function).  As CI fuzzers do, only what reproduces counts: each
new failure is run again, on its own, --confirm times; one that fails again
on at least one of them is confirmed and fails the gate (exit 1), one that
fails on none is flaky, reported and not counted (--fail-on-flaky counts
it).  They run again with
the gated run's own spec, so against the library that failed.  Baseline
failures that pass now are fixed, and the command that writes a new
baseline is given (--fail-on-fixed fails until it is run).

A baseline that lists findings gates by finding: each new failure belongs
to a finding of the run (src/trebuchet/findings/signature.py); one of a finding the
baseline knows (by fingerprint) is reported and does not count, and a new
finding fails the gate when one of its new failures is confirmed.  A
promise broken without a crash (a missing error) is a new finding too,
confirmed when its representative case, run again, returns the same way
again.

A finding the baseline lists as known flaky (`trebuchet baseline --flaky`)
never fails the gate: it is listed as such, confirmed or not.

The flaky rule, one for the whole project: what is new is confirmed when
it fails again on at least one of its --confirm reruns (a crash, the same
broken promise, the same Corrupt kind), and flaky when it fails on none of
them; flaky counts only under --fail-on-flaky.  A crash that comes half
the time is thus caught by 7 gates in 8 with three reruns, where "fails on
every rerun" let it pass 7 in 8.  A baseline made before findings gates by case, as above, and
the gate says how to make one that gates by finding.

A baseline that lists cases memcheck checked gates Corrupt too: those
cases are checked again and a new Corrupt defect fails the gate like a new
crash (src/trebuchet/gate/corrupt_verdict.py)."""
import collections
import re
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from trebuchet.findings import signature as findings_model
from trebuchet.findings import storage as findings_store
from trebuchet.core.outcomes import FAILING
from trebuchet.core.outputs import writable_dir
from trebuchet.store.runs import RunInfo, newest_full_run, unfinished_after
from trebuchet.core import platform
from trebuchet.store import database as store, gated
from trebuchet.build import plugins as build
from trebuchet.run import emit_c, repro
from trebuchet.harness import executor
from trebuchet.spec import load as specs
from trebuchet.core.errors import HarnessError, TrebuchetError
from trebuchet.core.readable import outcome_brief, plural

from trebuchet.gate import baseline as baselines, corrupt_verdict as corrupt_gate, places

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
    finding: findings_store.Stored = None       # the run's finding it belongs to
    stored: tuple = None  # a broken promise's case: (outcome, error_reported, errno) stored

    @property
    def failures_on_rerun(self):
        return sum(r["outcome"] in FAILING for r in self.reruns)

    @property
    def reruns_described(self):
        return [outcome_brief(r["outcome"], r["signal"], r["exit_status"]) for r in self.reruns]

    @property
    def confirmed(self):
        """Failed again on a rerun (the flaky rule, above); with none run
        (--confirm 0) the stored outcome is trusted."""
        return not self.reruns or self.failures_on_rerun > 0

    @property
    def described(self):
        return outcome_brief(self.outcome, self.signal, self.exit_status)

    def call(self):
        return f"{self.function}({', '.join(self.values)})"


@dataclass
class NewFinding:
    """A finding of the gated run that the baseline does not know, with its
    new failures (none for a broken error promise: then its representative
    case is run again instead, as `example`)."""
    finding: findings_store.Stored
    cases: list = field(default_factory=list)  # [NewFailure]
    example: NewFailure = None

    @property
    def confirmed(self):
        if self.cases:
            return any(n.confirmed for n in self.cases)
        stored = self.example.stored
        if stored is None:  # a crash of a function not in the baseline: its case again
            return self.example.confirmed
        reruns = self.example.reruns
        return not reruns or any((r["outcome"], r["error_reported"], r["errno"]) == stored
                                 for r in reruns)

    @property
    def cases_said(self):
        """Its cases in words: the new ones, or all of a function the
        baseline does not know, or the broken promise."""
        if self.cases:
            return plural(len(self.cases), "new case")
        if self.finding.kind in findings_model.PROMISE_KINDS:
            return "a broken promise"
        return plural(self.finding.cases, "case")

    @property
    def representative(self):
        """The case a reproducer shows: the finding's own when it is a new
        failure, else its first confirmed one."""
        if not self.cases:
            return self.example
        own = [n for n in self.cases if (n.function, n.case) ==
               (self.finding.example_function, self.finding.example_case) and n.confirmed]
        return (own or [n for n in self.cases if n.confirmed] or self.cases)[0]


@dataclass
class GateResult:
    target: str
    spec: str                 # the gated run's spec, as repro commands name it
    baseline: baselines.Baseline
    db: str
    info: RunInfo     # the gated run
    confirm: int
    compared: dict = field(default_factory=dict)  # function -> cases compared
    not_in_baseline: list = field(default_factory=list)  # functions the run adds
    changed: list = field(default_factory=list)   # functions whose call or datatypes changed
    revalued: list = field(default_factory=list)  # functions whose cases hand over other values
    left_out: list = field(default_factory=list)  # the baseline's, not in --functions
    new: list = field(default_factory=list)       # [NewFailure]
    fixed: list = field(default_factory=list)     # baseline case lines that pass now
    still_failing: int = 0
    seconds: float = 0.0
    new_findings: list = field(default_factory=list)  # [NewFinding]: by finding only
    analyzed: bool = True  # the gated run's findings were made
    fail_on_fixed: bool = False  # a ratchet: fixed cases fail until the baseline is updated
    fail_on_flaky: bool = False  # flaky new failures (findings) count as confirmed ones
    corrupt: corrupt_gate.CorruptGate = None  # None: the baseline lists no memcheck
    # the findings of the functions the baseline does not know, judged by
    # their contracts ([NewFinding]): a violation of a reviewed promise
    # counts, the others are reported
    unbaselined: list = field(default_factory=list)
    drafted: list = field(default_factory=list)  # [NewFinding] new broken drafted promises
    known_flaky: list = field(default_factory=list)  # [NewFinding] the baseline lists as flaky
    fixed_findings: list = field(default_factory=list)  # baseline finding lines absent now
    source_root: str = None  # --source-root: where the outputs' source paths are relative to

    @property
    def by_finding(self):
        return self.baseline.findings is not None and self.analyzed

    @property
    def confirmed_findings(self):
        return [f for f in self.new_findings if f.confirmed]

    @property
    def of_known_findings(self):
        """New failures of findings the baseline knows: reported, not counted."""
        return [n for n in self.new if n.finding and not _new_to(self.baseline, n.finding)]

    @property
    def confirmed(self):
        return [n for n in self.new if n.confirmed]

    @property
    def flaky(self):
        return [n for n in self.new if not n.confirmed]

    @property
    def flaky_counted(self):
        """The flaky new failures (by finding: findings) --fail-on-flaky counts."""
        if not self.fail_on_flaky:
            return []
        return [f for f in self.new_findings if not f.confirmed] if self.by_finding else self.flaky

    @property
    def violations(self):
        """The findings of functions the baseline does not know that break a
        reviewed promise of their contract."""
        return [g for g in self.unbaselined if g.finding.gating_violation]

    @property
    def violations_counted(self):
        """Those of them that fail the gate: confirmed, or flaky under
        --fail-on-flaky."""
        return [g for g in self.violations if g.confirmed or self.fail_on_flaky]

    @property
    def failures(self):
        """Why the gate fails, one phrase per reason; none: it does not."""
        what = "new finding" if self.by_finding else "new failure"
        confirmed = self.confirmed_findings if self.by_finding else self.confirmed
        broken = [g for g in self.violations if g.confirmed]
        flaky_broken = [g for g in self.violations_counted if not g.confirmed]
        return ([plural(len(confirmed), f"confirmed {what}")] if confirmed else []) + \
            ([f"{plural(len(self.flaky_counted), f'flaky {what}')} (--fail-on-flaky)"]
             if self.flaky_counted else []) + \
            ([f"{plural(len(broken), 'confirmed contract violation')} in functions not in "
              f"the baseline"] if broken else []) + \
            ([f"{plural(len(flaky_broken), 'flaky contract violation')} in functions not in "
              f"the baseline (--fail-on-flaky)"] if flaky_broken else []) + \
            ([f"{plural(len(self.fixed), 'fixed case')} the baseline still lists "
              f"(--fail-on-fixed)"] if self.fail_on_fixed and self.fixed else []) + \
            corrupt_gate.failures(self)

    @property
    def failed(self):
        return bool(self.failures)

    def repro_command(self, case):
        dictionary = self.baseline.run["dictionary"]
        return (f"trebuchet repro --target {self.spec} --function {case.function} --case {case.case}"
                + ("" if dictionary == "ours" else f" --dictionary {dictionary}"))

    @property
    def refused(self):
        """Functions changed in the spec, or whose values changed, since the
        baseline were not gated: without a confirmed regression elsewhere,
        that is the verdict (exit 2)."""
        return bool(self.changed or self.revalued) and not self.failed

    def baseline_command(self, functions=(), flaky=()):
        """The command that writes the baseline from the gated run; with
        functions, that takes only theirs from it; with flaky (findings),
        that lists them in it as known flaky."""
        return (f"trebuchet baseline --db {self.db} --target {self.spec} "
                f"--out {self.baseline.path}"
                + (f" --functions {','.join(functions)}" if functions else "")
                + (f" --flaky {','.join(g.finding.fingerprint for g in flaky)}" if flaky
                   else ""))


def _sort_functions(result, ran, digests, chosen):
    """Which functions are compared: those both sides ran with the same call
    and datatypes.  One the run adds is listed, one changed in the spec is
    refused alone; every one of the baseline's must have run, unless
    --functions (chosen) names the ones meant."""
    baseline, run = result.baseline, result.info.id
    if chosen:
        unknown = [f for f in chosen if f not in ran]
        if unknown:
            raise TrebuchetError(f"--functions names {', '.join(unknown)}, which run {run} did "
                                 f"not run", result.db)
        ran = {f: ran[f] for f in chosen}
        result.left_out = sorted(baseline.functions.keys() - ran.keys())
    missing = sorted(baseline.functions.keys() - ran.keys() - set(result.left_out))
    if missing:
        raise TrebuchetError(f"run {run} ran {len(baseline.functions) - len(missing)} of the "
                             f"baseline's {len(baseline.functions)} functions, not "
                             f"{', '.join(missing)}: run them too, or name the functions meant "
                             f"with --functions", result.db)
    result.not_in_baseline = sorted(ran.keys() - baseline.functions.keys())
    for name in sorted(ran.keys() & baseline.functions.keys()):
        *call, cases = ran[name]
        before = baseline.functions[name]
        if _changed(before, call, baseline.run, result.info):
            result.changed.append(name)
        elif "values" in before and before["values"] != digests[name]:
            result.revalued.append(name)
        elif cases != before["cases"]:
            raise TrebuchetError(f"{name}: run {run} holds {cases} cases, the baseline "
                                 f"{before['cases']}; the runs drew other cases", result.db)
        else:
            result.compared[name] = cases


def _changed(before, call, baseline_run, info):
    """Whether a function's call or datatypes changed since the baseline; a
    baseline written before it listed them has only the whole spec's digest."""
    if "signature" in before:
        return [before[k] for k in baselines.CALL] != call
    return baseline_run["spec_digest"] != info.spec_digest


def _by_function_values(baseline):
    """Whether the baseline has each function's values digest (format 4):
    then a datatype edited (the run's dictionary_digest) refuses the
    functions whose cases now hand over other values, not the whole run."""
    return all("values" in f for f in baseline.functions.values())


def _check_parameters(baseline, info, db):
    now = baselines.run_parameters(info)
    judged_alone = ("dictionary_digest",) if _by_function_values(baseline) else ()
    differ = [f"{k} ({baseline.run[k]} in the baseline, {now[k]} in run {info.id})"
              for k in baselines.COMPARABLE if baseline.run[k] != now[k] and k not in judged_alone]
    if differ:
        edited = "" if baseline.run["dictionary_digest"] == now["dictionary_digest"] else \
            (" (a datatype edited: a baseline of format 4, which `trebuchet baseline` writes"
             " today, refuses only the functions whose values it moved)")
        raise TrebuchetError(f"run {info.id} of {baseline.target} cannot be compared with "
                             f"{baseline.path}: its {', '.join(differ)} differ{edited}", db)


def _rerun_once(suspects, plugin, timeout_ms, dictionary):
    """Runs the suspects again, each on its own, in an executor of its own."""
    with tempfile.NamedTemporaryFile("w", suffix=".cases") as listing:
        listing.write("".join(f"{n.function} {n.case}\n" for n in suspects))
        listing.flush()
        try:
            outcomes = executor.run_cases(plugin, listing.name, timeout_ms / 1000, dictionary)
        except TrebuchetError as e:
            raise HarnessError(f"running new failures again failed: {e}") from None
    for suspect, again in zip(suspects, outcomes, strict=True):  # one each, or no verdict
        suspect.reruns.append(again)


def _rerun(result, plugin, timeout_ms, dictionary):
    """Runs every new failure (and every new broken promise's case) again,
    result.confirm times, drawing from the run's dictionary."""
    cases = result.new + [g.example for g in result.new_findings + result.unbaselined
                          if g.example]
    for _ in range(result.confirm):
        _rerun_once(cases, plugin, timeout_ms, dictionary)


def _rerun_plugin(result, spec):
    """The plugin the gated run's cases run again with: built as that run's
    was, under its sanitizer (`run --sanitizer`), so that a library built
    with AddressSanitizer loads under its runtime and a report it made is
    made again; a plain plugin refused such a library ("ASan runtime does
    not come first") or passed where the run had an ABORT."""
    return build.build_plugin(spec, quiet=True, sanitizer=result.info.sanitizer or None)


def _spec_for(result):
    """The spec that runs the gated run's cases again: the one that run was
    made with (a pull request's spec links the library it built), found
    as --target names it, else as the run recorded it."""
    info = result.info
    try:
        path = specs.find_spec(result.spec)
    except TrebuchetError as e:
        raise TrebuchetError(f"{e}; run {info.id} names its spec '{result.spec}': run the gate "
                             f"from the folder it ran in, or name the spec with --target",
                             result.db) from None
    spec = specs.load(path)
    if spec.target != info.target or spec.digest != info.spec_digest:
        raise TrebuchetError(f"the spec {result.spec} is not the one run {info.id} was made "
                             f"with (target {spec.target}, digest {spec.digest}); "
                             f"name the right one with --target", spec.path)
    return spec


def gate(db, baseline_path, confirm=DEFAULT_CONFIRM, spec_name=None, functions=None,
         fail_on_fixed=False, fail_on_flaky=False, memcheck=True):
    """functions: the ones meant (--functions), when the run holds fewer
    of the baseline's than it lists; memcheck: check the cases the baseline
    memchecked where the store has not (src/trebuchet/gate/corrupt_verdict.py)."""
    started = time.monotonic()
    baseline = baselines.read(baseline_path)
    conn = store.connect(db)
    run = newest_full_run(conn, baseline.target, db)
    newer = unfinished_after(conn, baseline.target, run)
    if newer:
        raise TrebuchetError(f"run {newer[0]} of {baseline.target} (started {newer[1]}) is newer"
                             f" than run {run} and unfinished: the gate reads the newest run."
                             f" Finish it (`trebuchet run --target {spec_name or baseline.spec}"
                             f" --db {db} --resume`) or gate a store without it", db)
    info = RunInfo.read(conn, run)
    _check_parameters(baseline, info, db)
    result = GateResult(baseline.target, spec_name or info.spec or baseline.spec, baseline,
                        str(db), info, confirm, fail_on_fixed=fail_on_fixed,
                        fail_on_flaky=fail_on_flaky)
    _sort_functions(result, gated.function_calls(conn, run), gated.values_digests(conn, run),
                    functions)
    memchecked = {(f, c) for f in result.compared for c in baseline.memchecked(f)}
    values_of = {}  # of the memchecked cases, as the gated run holds them
    for function, index, values, outcome, signal, exit_status in gated.compared_cases(conn, run):
        if function not in result.compared:
            continue
        if (function, index) in memchecked:
            values_of[(function, index)] = values
        before = baseline.failing.get((function, index))
        if outcome in FAILING:
            if before:
                result.still_failing += 1
            elif (function, index) not in baseline.setup:
                result.new.append(NewFailure(function, index, values.split(" ") if values
                                             else [], outcome, signal, exit_status))
        elif outcome == "PASS" and before:
            result.fixed.append(before)
    _check_memchecked(result, memchecked, values_of)
    _attach_findings(conn, run, result)
    conn.close()  # memcheck writes to the store: no reader stays open across it
    if (result.new or result.new_findings or result.unbaselined) and confirm:
        _rerun(result, _rerun_plugin(result, _spec_for(result)),
               info.timeout_ms, baseline.run["dictionary"])
    result.corrupt = corrupt_gate.judge(result, lambda: _spec_for(result), memcheck)
    result.seconds = time.monotonic() - started
    return result


def _check_memchecked(result, memchecked, values_of):
    """That every case the baseline memchecked is a case of the gated run,
    and every one it lists as Corrupt holds the same values there: a case
    past a function's cases, or values of another draw, is a baseline
    edited by hand or from elsewhere, refused before memcheck runs."""
    baseline, run = result.baseline, result.info.id
    for function, case in sorted(memchecked - values_of.keys()):
        raise TrebuchetError(f"functions/{function}/memchecked: case {case} is not a case of "
                             f"{function} in run {run} (it holds {result.compared[function]})",
                             baseline.path)
    for i, ((function, case), line) in enumerate(baseline.corrupt.items() if baseline.corrupt
                                                 else ()):
        now = values_of.get((function, case))
        if now is not None and (now.split(" ") if now else []) != line["values"]:
            raise TrebuchetError(
                f"corrupt_cases/{i}: case {case} of {function} is {' '.join(line['values'])} "
                f"here and {now} in run {run}: not the same case",
                baseline.path, baselines.line_of_entry(baseline.path, "corrupt_cases", i))


def _attach_findings(conn, run, result):
    """Each new failure's finding; by finding, the new findings: those of
    new failures, and broken promises, that the baseline does not know;
    and the findings of the functions the baseline does not know."""
    result.analyzed = findings_store.analyzed(conn, run)
    found = {f.id: f for f in findings_store.stored(conn, run)}
    of_case = {key: found.get(fid) for key, fid in gated.finding_of_cases(conn, run).items()}
    for n in result.new:
        n.finding = of_case.get((n.function, n.case))
    new = {}
    if result.by_finding:
        for n in result.new:
            if n.finding and _new_to(result.baseline, n.finding):
                new.setdefault(n.finding.fingerprint, NewFinding(n.finding)).cases.append(n)
        for f in found.values():
            if f.kind in findings_model.PROMISE_KINDS and f.fingerprint not in \
                    result.baseline.findings and f.example_function in result.compared:
                example = _stored_case(conn, run, f.example_function, f.example_case)
                if f.drafted:  # reported, not counted
                    result.drafted.append(NewFinding(f, example=example))
                else:
                    new[f.fingerprint] = NewFinding(f, example=example)
        result.new_findings = sorted(new.values(), key=lambda g: g.finding.id)
        now = {f.fingerprint for f in found.values()}
        result.fixed_findings = [line for fp, line in sorted(result.baseline.findings.items())
                                 if fp not in now
                                 and set(line["functions"]) <= result.compared.keys()]
    if result.analyzed:
        result.unbaselined = _by_contract(conn, run, result, found.values(), of_case, new)
    listed = result.baseline.flaky or {}
    result.known_flaky = [g for g in result.new_findings + result.unbaselined
                          if g.finding.fingerprint in listed]
    result.new_findings = [g for g in result.new_findings if g not in result.known_flaky]
    result.unbaselined = [g for g in result.unbaselined if g not in result.known_flaky]


def _by_contract(conn, run, result, found, of_case, new):
    """[NewFinding] of the findings with cases in functions the baseline
    does not know (none known to it, nor new already), each with a case of
    such a function to run again: its representative where that is one."""
    added = set(result.not_in_baseline)
    known = result.baseline.findings or {}
    out = []
    for f in sorted(found, key=lambda f: f.id):
        if not added & set(f.functions) or f.fingerprint in new or \
                (f.fingerprint in known and not _new_to(result.baseline, f)):
            continue
        if f.example_function in added:
            function, index = f.example_function, f.example_case
        else:
            function, index = min(k for k, g in of_case.items() if g is f and k[0] in added)
        out.append(NewFinding(f, example=_stored_case(conn, run, function, index)))
    return out


def _new_to(baseline, finding):
    """Whether the baseline does not know the finding: not by its
    fingerprint, or not as a contract violation (new cases made a known
    crash break a reviewed promise: a new violation)."""
    known = baseline.findings.get(finding.fingerprint)
    return known is None or (finding.gating_violation and not known["violation"])


def _stored_case(conn, run, function, index):
    """A case of the run as a NewFailure to run again (a broken promise's,
    whose stored return it must give again, or a crash's)."""
    values, outcome, signal, exit_status, error_reported, errno = \
        gated.stored_case(conn, run, function, index)
    case = NewFailure(function, index, values.split(" ") if values else [], outcome, signal,
                      exit_status)
    if outcome not in FAILING:
        case.stored = (outcome, error_reported, errno)
    return case


LIST_LIMIT = 50  # cases shown per list in the text; the files carry them all
EMIT_LIMIT = 20  # standalone reproducers written by --emit-c: enough to start on


def reproduced(result):
    """What --emit-c writes a reproducer of: by finding, the representative
    case of each confirmed new finding; by case, the first EMIT_LIMIT
    confirmed new failures."""
    violations = [g.representative for g in result.violations if g.confirmed]
    if result.by_finding:
        return [g.representative for g in result.confirmed_findings] + violations
    return result.confirmed[:EMIT_LIMIT] + violations


# What an earlier gate wrote into its --emit-c folder: only FUNCTION-case-N
# folders, each a reproducer (its repro.c).  A CI workspace reused, or a job
# run again, finds them there, and the next gate replaces them; a folder
# holding anything else is someone else's.
_REPRODUCER = re.compile(r"[A-Za-z_]\w*-case-\d+")


def _earlier_reproducers(out):
    return all(p.is_dir() and _REPRODUCER.fullmatch(p.name) and (p / "repro.c").is_file()
               for p in out.iterdir())


def claim_reproducers_dir(out_dir):
    """--emit-c's folder, before any work: new, empty or an earlier gate's,
    else refused; made now, and a file tried in it, so that one that cannot
    be written is bad input said at the start."""
    out = Path(out_dir)
    if out.exists() and (not out.is_dir() or not _earlier_reproducers(out)):
        raise TrebuchetError("--emit-c wants a new or empty directory, or one where an earlier"
                             " gate wrote its reproducers", out)
    made = not out.exists()
    writable_dir(out)
    if made:  # tried, and left as it was: a passing gate writes no folder
        out.rmdir()


def emit_reproducers(result, out_dir):
    """Writes a standalone C reproducer (`repro --emit-c`) of each case
    reproduced() names into out_dir/FUNCTION-case-N, the crashing inputs a
    CI job keeps as an artifact; returns (how many, the command that builds
    and runs the first here), or None when none was written."""
    chosen = reproduced(result)
    if not chosen:
        return None
    spec = _spec_for(result)
    if any(not n.reruns for n in chosen):  # --confirm 0: none was run again
        _rerun_once(chosen, _rerun_plugin(result, spec), result.info.timeout_ms,
                    result.baseline.run["dictionary"])
    datatypes = repro.datatypes_of(spec)
    for earlier in Path(out_dir).iterdir() if Path(out_dir).is_dir() else ():
        shutil.rmtree(earlier)  # an earlier gate's (claim_reproducers_dir)
    for n in chosen:
        where = Path(out_dir) / f"{n.function}-case-{n.case}"
        emit_c.write(spec, spec.function(n.function), n.reruns[-1], datatypes, where,
                     result.spec)
    first = chosen[0]
    return len(chosen), emit_c.make_command(
        spec, Path(out_dir) / f"{first.function}-case-{first.case}", "run")


def _section(items, render, what, where):
    """The lines of the first LIST_LIMIT items (render gives each its lines),
    then how many more there are and where they all are."""
    lines = [line for item in items[:LIST_LIMIT] for line in render(item)]
    if len(items) > LIST_LIMIT:
        lines.append(f"  ... and {len(items) - LIST_LIMIT} more {what} ({where})")
    return lines


def _finding_lines(r, g, state):
    """A new finding in the text: title, state, where, trigger, the
    promise it breaks, and the command that reproduces it."""
    f = g.finding
    lines = [f"  {'VIOLATION ' if f.is_violation else ''}{f.title}: {state}, {g.cases_said}"
             + (f"; at {places.place(f.location, r.source_root)}" if f.location else ""),
             f"    trigger: {f.trigger}"]
    if f.is_violation:
        lines.append(f"    breaks: {f.violation}")
    return lines + [f"    {r.repro_command(g.representative)}"]


def _contract_text(r):
    """The new findings the baseline lists as known flaky; the findings of
    the functions the baseline does not know, judged by their contracts,
    and new broken promises that are drafted: a violation of a reviewed
    promise counts, the rest is reported."""
    lines = []
    if r.known_flaky:
        lines.append("known flaky findings (the baseline lists them; never counted): " + "; ".join(
            f"{g.finding.title} ({g.cases_said})" for g in r.known_flaky))
    if r.unbaselined:
        confirmed = [g for g in r.violations if g.confirmed]
        lines.append(f"functions not in the baseline, judged by their contracts: "
                     f"{plural(len(r.unbaselined), 'finding')}; "
                     f"{plural(len(r.violations), 'violation')} of a reviewed promise, "
                     f"{len(confirmed)} confirmed")
    for g in r.unbaselined + r.drafted:
        confirmed = "confirmed" if g.confirmed else "not confirmed (flaky)"
        if g.finding.gating_violation:
            state = confirmed
        elif g.finding.drafted:
            state = f"{confirmed} (reported, not counted: the promise it breaks is drafted;" \
                    f" review it and remove `drafted: true` from the spec)"
        else:
            state = f"{confirmed} (reported, not counted: it breaks no promise of the contract)"
        lines += _finding_lines(r, g, state)
    return lines


def _findings_text(r):
    """The rest of the text of a gate by finding."""
    known = r.of_known_findings
    confirmed = r.confirmed_findings
    lines = [f"new findings: {len(r.new_findings)}, {len(confirmed)} confirmed; "
             f"{plural(len(known), 'new failing case')} of findings the baseline knows"
             f" (reported, not counted)"]
    for g in r.new_findings:
        state = "confirmed" if g.confirmed else "not confirmed (flaky)"
        lines += _finding_lines(r, g, state)
        if not g.confirmed:
            lines += _section([c for c in g.cases if c.reruns], lambda c: [
                f"    {c.call()} case {c.case}: {c.described}, then "
                f"{', '.join(c.reruns_described)}"], "flaky", "--junit lists every one")
    not_confirmed = [g for g in r.new_findings if not g.confirmed]
    if not_confirmed:
        lines.append(f"  `{r.baseline_command(flaky=not_confirmed)}` lists "
                     f"{'it' if len(not_confirmed) == 1 else 'them'} in the baseline as known "
                     f"flaky, never to fail the gate")
    if known:
        counts = collections.Counter(n.finding.title for n in known)
        lines.append("  known findings with new cases: " + "; ".join(
            f"{title} ({c})" for title, c in sorted(counts.items())))

    if confirmed:
        lines.append("  (a repro command with --emit-c DIR writes a standalone C reproducer"
                     " to attach to a bug report)")
    if r.fixed:
        lines.append(f"fixed: {plural(len(r.fixed), 'case')} failed in the baseline and pass "
                     f"now; `{r.baseline_command()}` updates the baseline")
    if r.fixed_findings:
        lines.append(f"fixed findings (in the baseline, not in run {r.info.id}; their alerts "
                     f"close): " + "; ".join(f["title"] for f in r.fixed_findings))
    lines += _contract_text(r) + _corrupt_text(r)
    lines.append(_verdict(r, "new finding"))
    return lines


def _functions_text(r):
    """The functions not compared, each kind with what to do about it."""
    lines = []
    if r.left_out:
        lines.append(f"left out by --functions: {', '.join(r.left_out)}")
    if r.not_in_baseline:
        judged = "judged by their contracts" if r.analyzed else \
            (f"not compared, nor judged by their contracts: run {r.info.id} has no findings "
             f"made (`trebuchet findings --db {r.db}` makes them)")
        lines.append(f"not in the baseline ({judged}): {', '.join(r.not_in_baseline)}; "
                     f"`{r.baseline_command(r.not_in_baseline)}` adds "
                     f"{'it' if len(r.not_in_baseline) == 1 else 'them'}")
    if r.changed:
        lines.append(f"changed in the spec since the baseline (call or datatypes; refused, not "
                     f"compared): {', '.join(r.changed)}")
        lines += [f"  `{r.baseline_command([name])}` rebases {name} on run {r.info.id}"
                  for name in r.changed]
    lines += [f"refused: {name}'s cases hand over other values than in the baseline (a datatype"
              f" edited; not compared): `{r.baseline_command([name])}` rebases it on run "
              f"{r.info.id}" for name in r.revalued]
    return lines


def _corrupt_text(r):
    return corrupt_gate.text(r, LIST_LIMIT) if r.corrupt else []


def _verdict(r, what):
    """The last line: failed, refused (a changed function and nothing
    failed), or passed."""
    if r.failed:
        return f"gate failed: {'; '.join(r.failures)}"
    if r.refused:
        return (f"gate refused: {plural(len(r.changed) + len(r.revalued), 'function')} changed"
                f" since the baseline (call, datatypes or values), and no confirmed {what}"
                f" elsewhere")
    return f"gate passed: no confirmed {what}"


def as_text(r):
    """What the gate prints: a CI log's reader sees the verdict and, for each
    confirmed new failure, the command that reproduces it."""
    lines = [f"gate {r.target}: run {r.info.id} of {r.db} ({r.info.target_version}) against "
             f"{r.baseline.path} ({r.baseline.run['library']})",
             f"compared {plural(sum(r.compared.values()), 'case')} in "
             f"{plural(len(r.compared), 'function')}; {r.still_failing} failing in both"]
    different = platform.difference(r.baseline.run, platform.of(r.info),
                                    ("the baseline", f"run {r.info.id}"))
    if different:
        lines.insert(1, different)
    lines += _functions_text(r)
    if r.confirm:
        checked = f"each run again {'once' if r.confirm == 1 else f'{r.confirm} times'} on its own"
    else:
        checked = "not run again, as --confirm 0 asks"
    lines.append(f"new failures: {len(r.new)}, {checked}: {len(r.confirmed)} confirmed, "
                 f"{len(r.flaky)} flaky")
    if r.by_finding:
        return "\n".join(lines + _findings_text(r))
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
        lines.append("flaky new failures (failed on none of their reruns; "
                     + ("counted, as --fail-on-flaky asks):" if r.fail_on_flaky
                        else "not counted):"))
        lines += _section(r.flaky, lambda n: [
            f"  {n.call()} case {n.case}: {n.described}, then {', '.join(n.reruns_described)}"],
            "flaky", "--junit lists every one")
    if r.fixed:
        lines.append(f"fixed: {plural(len(r.fixed), 'case')} failed in the baseline and pass "
                     f"now; `{r.baseline_command()}` updates the baseline")
        lines += _section(r.fixed, lambda c: [
            f"  {c['function']}({', '.join(c['values'])}) case {c['case']}"],
            "fixed", "the updated baseline's diff shows every one")
    if r.baseline.old_fingerprints:
        lines.append(f"this baseline's findings carry fingerprints of version "
                     f"{r.baseline.old_fingerprints}, and this trebuchet's are version "
                     f"{findings_model.FINGERPRINTS}, so it gates case by case;"
                     f" `{r.baseline_command()}`"
                     f" writes it again")
    elif r.baseline.findings is None:
        lines.append(f"this baseline lists no findings, so it gates case by case; "
                     f"`{r.baseline_command()}` writes one that gates by finding")
    else:
        lines.append(f"run {r.info.id} has no findings made (`trebuchet findings --db {r.db}`"
                     f" makes them), so it is gated case by case")
    lines += _contract_text(r) + _corrupt_text(r)
    lines.append(_verdict(r, "new failure"))
    return "\n".join(lines)
