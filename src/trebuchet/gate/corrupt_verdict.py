"""Corrupt in the gate: a call that returned but read or wrote memory it
must not, as Valgrind's memcheck saw it (src/trebuchet/memcheck/valgrind.py), fails the
build like a new crash.

A baseline made after `trebuchet memcheck` lists, per function, the PASS
cases memcheck judged, and those it found Corrupt with their kind and the
function the error struck in (src/trebuchet/gate/baseline.py).  The gate runs the same
cases of the gated run under memcheck (those that still pass; a case that
crashes now is a new failure already), unless the store has them checked or
--no-memcheck says not to: a sample drawn afresh would be another sample,
and a Corrupt case found outside the baseline's could be an old one.

A Corrupt defect is its function, memcheck's kind and where it struck
(src/trebuchet/memcheck/corrupt.py, where()): a maintainer fixes one defect, not each case of it.  A
Corrupt case of the gated run is
- still Corrupt when the baseline lists the case so;
- of a known defect when the baseline lists another case with its defect:
  reported, not counted, as a known finding's new cases are;
- else a case of a new defect.  Each new defect's first case runs under
  memcheck again, --confirm times (each rerun a test process of its own
  under one Valgrind; one case, not every one, as for a new crash): confirmed when a rerun is Corrupt with the
  same kind again (the flaky rule, gate/verdict.py), and then the gate fails.
A case the baseline lists as Corrupt that memcheck judged clean now is
fixed (--fail-on-fixed counts it, as it does a fixed crash)."""
import collections
import contextlib
import hashlib
from dataclasses import dataclass, field

from trebuchet.gate import places
from trebuchet.memcheck import corrupt
from trebuchet.store import database as store
from trebuchet.core.readable import plural
from trebuchet.memcheck import valgrind as memcheck


@dataclass
class NewDefect:
    """A Corrupt defect the baseline does not know, with its cases in the
    gated run; the first is the one run again."""
    target: str
    cases: list                                 # [corrupt.JudgedCase]
    reruns: list = field(default_factory=list)  # [memcheck.Checked]

    @property
    def representative(self):
        return self.cases[0]

    @property
    def confirmed(self):
        kind = self.representative.kind
        return not self.reruns or any(r.corrupt and r.kind == kind for r in self.reruns)

    @property
    def title(self):
        c = self.representative
        return f"{memcheck.KINDS[c.kind]} ({c.kind}) in {c.at}"

    @property
    def location(self):
        """FILE:LINE of the frame it struck in, or None (corrupt.JudgedCase)."""
        return self.representative.location

    @property
    def fingerprint(self):
        return fingerprint(self.target, self.representative.defect)

    @property
    def reruns_said(self):
        corrupt = sum(r.corrupt for r in self.reruns)
        return f"Corrupt again on {corrupt} of {len(self.reruns)} reruns" if self.reruns \
            else "not run again (--confirm 0)"


def fingerprint(target, defect):
    """A Corrupt defect's, stable across commits and machines: target and
    defect (function, kind, where), no line."""
    return hashlib.sha256("/".join((target,) + tuple(defect)).encode()).hexdigest()[:16]


@dataclass
class CorruptGate:
    checked: int = 0          # cases of compared functions memcheck judged in the run
    checked_by_gate: int = 0  # of them, checked by this gate
    new: list = field(default_factory=list)    # [NewDefect]
    known: list = field(default_factory=list)  # [corrupt.JudgedCase] new cases of known defects
    still: int = 0            # Corrupt in both
    fixed: list = field(default_factory=list)  # the baseline's Corrupt case lines, clean now
    not_checked: bool = False  # --no-memcheck, and the store held none of the run's
    corrupt_defects: set = field(default_factory=set)  # the defects Corrupt now

    @property
    def confirmed(self):
        return [d for d in self.new if d.confirmed]

    @property
    def flaky(self):
        return [d for d in self.new if not d.confirmed]

    def fixed_defects(self):
        """[(defect, [case lines])] of the baseline's defects with a case
        clean now and none Corrupt now: what code scanning may close."""
        out = {}
        for line in self.fixed:
            defect = defect_of_line(line)
            if defect not in self.corrupt_defects:
                out.setdefault(defect, []).append(line)
        return sorted(out.items())


def _checked_cases(db, run, functions):
    """{(function, case): JudgedCase, clean or Corrupt}: the run's cases of
    functions that memcheck judged."""
    with contextlib.closing(store.connect(db)) as conn:
        return {(c.function, c.case): c for c in corrupt.judged_cases(conn, run)
                if c.function in functions}


def _rerun(defects, spec_of, result):
    """Runs each new defect's first case under memcheck again, result.confirm
    times, under one Valgrind as `trebuchet memcheck` runs its cases: each
    rerun a test process of its own."""
    if not defects or not result.confirm:
        return
    from trebuchet.build import plugins as build

    plugin = build.build_plugin(spec_of(), quiet=True)
    timeout_s = memcheck.timeout_under_memcheck(result.info.timeout_ms)
    dictionary = result.baseline.run["dictionary"]
    of_case = collections.defaultdict(list)
    for d in defects:
        of_case[(d.representative.function, d.representative.case)].append(d)
    for again in memcheck.check_cases(plugin, list(of_case) * result.confirm, dictionary,
                                      timeout_s):
        for defect in of_case[(again.function, again.case)]:
            defect.reruns.append(again)


def judge(result, spec_of, check=True):
    """The Corrupt part of result's verdict (a GateResult), or None when the
    baseline lists no memcheck.  spec_of() gives the gated run's spec; check:
    run the baseline's memchecked cases under memcheck where the store has
    not (--no-memcheck: False)."""
    baseline, run = result.baseline, result.info.id
    if baseline.corrupt is None:
        return None
    out = CorruptGate()
    wanted = [(f, c) for f in result.compared for c in sorted(baseline.memchecked(f))]
    if check and wanted:
        out.checked_by_gate = len(memcheck.run(result.db, run, spec_of(), cases=wanted))
    now = _checked_cases(result.db, run, result.compared)
    out.checked = len(now)
    out.not_checked = not now and bool(wanted)
    known = {defect_of_line(c) for c in baseline.corrupt.values()}
    new = collections.OrderedDict()
    out.corrupt_defects = {c.defect for c in now.values() if c.corrupt}
    for key, case in sorted(now.items()):
        before = baseline.corrupt.get(key)
        if not case.corrupt:
            if before:
                out.fixed.append(before)
        elif before:
            out.still += 1
        elif case.defect in known:
            out.known.append(case)
        else:
            new.setdefault(case.defect, NewDefect(baseline.target, [])).cases.append(case)
    out.new = list(new.values())
    _rerun(out.new, spec_of, result)
    return out


def defect_of_line(line):
    """The defect of a Corrupt case line of the baseline file."""
    return (line["function"], line["kind"], line["at"])


def text(result, limit):
    """The gate's lines on Corrupt: what memcheck judged, each new defect with
    a case and the command that shows it, known and fixed ones counted."""
    g = result.corrupt
    if g.not_checked:
        return [f"Corrupt not gated: the baseline lists cases memcheck checked, and run "
                f"{result.info.id} has none checked (--no-memcheck); `trebuchet memcheck --db "
                f"{result.db} --target {result.spec}` checks a sample, or drop --no-memcheck"]
    by_gate = f", {g.checked_by_gate} of them by this gate" if g.checked_by_gate else ""
    lines = [f"Corrupt under memcheck: {plural(g.checked, 'case')} checked{by_gate}; "
             f"{plural(len(g.new), 'new defect')}, {len(g.confirmed)} confirmed; "
             f"{plural(len(g.known), 'new Corrupt case')} of defects the baseline knows "
             f"(reported, not counted); {g.still} Corrupt in both"]
    for d in g.new[:limit]:
        c = d.representative
        state = "confirmed" if d.confirmed else "not confirmed (flaky)"
        lines += [f"  {d.title}: {state}, {plural(len(d.cases), 'new case')}"
                  + (f"; at {places.place(d.location, result.source_root)}" if d.location
                     else "") + f"; {d.reruns_said}",
                  f"    {c.call()} case {c.case}: {c.what}",
                  f"    {repro_command(result, c)}"]
    if len(g.new) > limit:
        lines.append(f"  ... and {len(g.new) - limit} more new defects (--junit lists every one)")
    if g.fixed:
        where = ", ".join(f"{f} {n}" for f, n in sorted(collections.Counter(
            c["function"] for c in g.fixed).items()))
        when = "once the new ones are dealt with, " if result.failed else ""
        lines.append(f"  fixed: {plural(len(g.fixed), 'case')} Corrupt in the baseline and "
                     f"clean now ({where}); {when}`{result.baseline_command()}` updates the"
                     f" baseline")
    return lines


def repro_command(result, case):
    return memcheck.repro_command(result.spec, case.function, case.case,
                                  result.baseline.run["dictionary"])


def failures(result):
    """Why Corrupt fails the gate, one phrase per reason."""
    g = result.corrupt
    if g is None:
        return []
    flaky = g.flaky if result.fail_on_flaky else []
    fixed = g.fixed if result.fail_on_fixed else []
    return ([plural(len(g.confirmed), "confirmed new Corrupt defect")] if g.confirmed else []) \
        + ([f"{plural(len(flaky), 'flaky new Corrupt defect')} (--fail-on-flaky)"]
           if flaky else []) \
        + ([f"{plural(len(fixed), 'fixed Corrupt case')} the baseline still lists "
            f"(--fail-on-fixed)"] if fixed else [])


def counted(result):
    """The new defects that fail the gate: the confirmed, and the flaky when
    --fail-on-flaky counts them."""
    g = result.corrupt
    if g is None:
        return []
    return g.confirmed + (g.flaky if result.fail_on_flaky else [])
