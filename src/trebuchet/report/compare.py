"""`trebuchet compare`: two runs of a target, case by case.  The runs come
from two stores, or from one store (its two newest finished runs of the
target).

The same case.  A case index decodes to the same values under any seed or
cap; seed and cap only choose which indices a run draws.  So two runs ran
the same case when both hold a result for the same function and case index
*and* the same value names.  The names are checked because an index decodes
to other values once a datatype has gained or lost a value between the two
builds: such a pair is two different cases, each run by one run only.
Cases run by one run only are counted and never compared: a case the other
run did not draw is no news about the library.

Over the cases both ran, compare reports the per-function rates and their
deltas (metrics.RateDelta), every change of outcome (newly failing: PASS
then ABORT or RESTART; no longer failing; other changes, such as ABORT to
RESTART or anything to or from SETUP), and among cases whose outcome did not
change, a change of signal or exit status (ABORT) or of errno (PASS).

Verdict: the second run regressed when it has cases that fail (ABORT or
RESTART) that passed in the first.  A case that was SETUP in the first run
never reached the function, so it had not passed: it is listed among the
other outcome changes but is no regression."""
import itertools
from dataclasses import dataclass, field

from trebuchet.core.errors import TrebuchetError
from trebuchet.core.readable import outcome_brief

from trebuchet.report import metrics
from trebuchet.core.outcomes import FAILING
from trebuchet.core import readable
from trebuchet.store import findings as findings_tables, results
from trebuchet.store.runs import latest_runs, newest_finished
from trebuchet.core import platform
from trebuchet.store import database as store

FAILING = FAILING
LIST_LIMIT = 20  # cases shown per section without --all

# (key, heading): the sections of changed cases, in the order shown
SECTIONS = [
    ("newly_failing", "newly failing cases (PASS before, ABORT or RESTART now)"),
    ("no_longer_failing", "cases no longer failing (ABORT or RESTART before, PASS now)"),
    ("other_outcome_changes", "other outcome changes"),
    ("signal_changes", "signal or exit status changes (ABORT in both runs)"),
    ("errno_changes", "errno changes (PASS in both runs)"),
    ("flaky", "changes in cases of flaky findings (run again, their shown case ended another"
              " way: not counted as regressions)"),
]

@dataclass(frozen=True)
class Case:
    """One stored result, as much of it as compare looks at."""
    function: str
    index: int
    values: str
    outcome: str
    signal: int = None
    exit_status: int = None
    errno: int = None

    def describe(self):
        return outcome_brief(self.outcome, self.signal, self.exit_status,
                             self.errno if self.outcome == "PASS" else None)

    def as_dict(self):
        return dict(outcome=self.outcome, signal=self.signal, exit_status=self.exit_status,
                    errno=self.errno)


def _section(before, after):
    """The section a pair of results of one case belongs to, or None."""
    if before.outcome != after.outcome:
        if before.outcome == "PASS" and after.outcome in FAILING:
            return "newly_failing"
        if before.outcome in FAILING and after.outcome == "PASS":
            return "no_longer_failing"
        return "other_outcome_changes"
    if before.outcome == "ABORT" and (before.signal, before.exit_status) != \
            (after.signal, after.exit_status):
        return "signal_changes"
    if before.outcome == "PASS" and before.errno != after.errno:
        return "errno_changes"
    return None


@dataclass
class Comparison:
    target: str
    before: dict                  # db, run, seed, cap
    after: dict
    compared: int = 0             # cases both runs ran
    only_before: int = 0          # cases only the first run ran
    only_after: int = 0
    differing_values: int = 0     # (function, index) in both runs, with other values
    deltas: list = field(default_factory=list)  # [metrics.RateDelta], by function
    changes: dict = field(default_factory=lambda: {key: [] for key, _ in SECTIONS})

    @property
    def regressed(self):
        return bool(self.changes["newly_failing"])

    def as_dict(self):
        d = dict(target=self.target, before=self.before, after=self.after,
                 compared=self.compared, only_before=self.only_before,
                 only_after=self.only_after, differing_values=self.differing_values,
                 regressed=self.regressed, functions=[r.as_dict() for r in self.deltas])
        for key, pairs in self.changes.items():
            d[key] = [dict(function=a.function, case=a.index,
                           values=a.values.split(" ") if a.values else [],
                           before=a.as_dict(), after=b.as_dict()) for a, b in pairs]
        return d


def _runs(conn, target, count):
    return list(reversed(newest_finished(conn, target, count)))


def _pick(dbs, target):
    """[(conn, run description)] for the two runs to compare."""
    if len(dbs) > 2:
        raise TrebuchetError(f"compare takes two stores, or one holding two runs; got {len(dbs)}")
    conns = [store.connect(db) for db in dbs]
    wanted = 2 if len(dbs) == 1 else 1
    picked = []
    for conn, db in zip(conns, dbs):
        runs = _runs(conn, target, wanted)
        if len(runs) < wanted:
            raise TrebuchetError(f"needs {'two finished runs' if wanted == 2 else 'a finished run'}"
                                 f" of {target}", db)
        picked += [(conn, dict(db=str(db), run=r["id"], seed=r["seed"], cap=r["cap"],
                               **platform.of(dict(r))))
                   for r in runs]
    return picked


def only_target(dbs):
    """The one target the stores have in common (for one store: the one
    target it holds); else the user names it."""
    held = [set(latest_runs(store.connect(db))) for db in dbs]
    shared = set.intersection(*held)
    if len(shared) != 1:
        what = ", ".join(sorted(shared)) or "none"
        raise TrebuchetError(f"name the target to compare with --target (in common: {what})")
    return shared.pop()


def _cases(conn, run):
    return {(r[0], r[1]): Case(*r) for r in results.compared(conn, run["run"])}


def compare(dbs, target=None):
    target = target or only_target(dbs)
    (c1, run1), (c2, run2) = _pick(dbs, target)
    before, after = _cases(c1, run1), _cases(c2, run2)
    result = Comparison(target, run1, run2)
    both = [(before[k], after[k]) for k in sorted(before.keys() & after.keys())]
    same = [(a, b) for a, b in both if a.values == b.values]
    result.compared = len(same)
    result.differing_values = len(both) - len(same)
    result.only_before, result.only_after = len(before) - len(same), len(after) - len(same)
    for name, pairs in itertools.groupby(same, key=lambda pair: pair[0].function):
        outcomes = [(a.outcome, b.outcome) for a, b in pairs]
        result.deltas.append(metrics.RateDelta.of_outcomes(
            target, name, (run1["run"], run2["run"]), outcomes))
    # a case of a finding flaky in either run changes by chance, not by the
    # library's change: apart (findings/flaky.py)
    flaky = findings_tables.flaky_cases(c1, run1["run"]) | findings_tables.flaky_cases(
        c2, run2["run"])
    for a, b in same:
        section = _section(a, b)
        if section:
            result.changes["flaky" if (a.function, a.index) in flaky else section].append((a, b))
    return result


def _run_label(run):
    return f"{run['db']} run {run['run']} (seed {run['seed']}, cap {run['cap']})"


def _header(result):
    lines = [f"{result.target}: {_run_label(result.before)}  ->  {_run_label(result.after)}",
             f"compared {result.compared} cases run in both; not compared: "
             f"{result.only_before} run only in the first, {result.only_after} only in the second"]
    different = platform.difference(result.before, result.after)
    if different:
        lines.append(different)
    if result.differing_values:
        lines.append(f"  ({result.differing_values} of each share a function and case index but"
                     " not their values: the datatypes differ between the two builds)")
    return lines


def _rate_table(result):
    lines = ["", "failure rate over the compared cases:",
             f"{'function':<18} {'cases':>6} {'before':>9} {'after':>9} {'delta':>9}"]
    for d in map(metrics.RateDelta.as_dict, result.deltas):
        lines.append(f"{d['function']:<18} {d['cases']:>6} {d['before_failure_rate']:8.2f}%"
                     f" {d['after_failure_rate']:8.2f}% {d['failure_delta']:+8.2f}%")
    return lines


def _section_lines(heading, pairs, show_all):
    """The heading with its count, then its cases and a blank line, if any."""
    shown = pairs if show_all else pairs[:LIST_LIMIT]
    lines = [f"{heading}: {len(pairs)}"]
    lines += [f"  {a.function} case {a.index}: {a.values}  {a.describe()} -> {b.describe()}"
              for a, b in shown]
    if len(shown) < len(pairs):
        lines.append(f"  ... and {len(pairs) - len(shown)} more (--all lists them)")
    return lines + [""] * bool(pairs)


def as_text(result, show_all=False):
    lines = _header(result) + _rate_table(result) + [""]
    for key, heading in SECTIONS:
        lines += _section_lines(heading, result.changes[key], show_all)
    if lines[-1]:
        lines.append("")
    regressions = len(result.changes["newly_failing"])
    lines.append(f"regressed: {readable.plural(regressions, 'case')} passed in the first run and "
                 f"fail{'s' if regressions == 1 else ''} in the second"
                 if regressions else
                 "not regressed: no case that passed in the first run fails in the second")
    return "\n".join(lines)
