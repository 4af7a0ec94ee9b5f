"""`trebuchet compare`: two runs of a target side by side: per-function rate
deltas, and the failing cases that are new in the second run or gone from
it.  The runs come from two stores, or from one store (its two newest
finished runs of the target)."""
from dataclasses import dataclass, field

from trebuchet.runner.errors import TrebuchetError

from . import metrics, store


@dataclass
class Comparison:
    target: str
    before: str
    after: str
    deltas: list = field(default_factory=list)       # dicts per function
    new_failures: list = field(default_factory=list)  # (function, case, values, outcome)
    vanished_failures: list = field(default_factory=list)

    def as_dict(self):
        return dict(target=self.target, before=self.before, after=self.after,
                    functions=self.deltas,
                    new_failures=[dict(zip(("function", "case", "values", "outcome"), r))
                                  for r in self.new_failures],
                    vanished_failures=[dict(zip(("function", "case", "values", "outcome"), r))
                                       for r in self.vanished_failures])


def _runs(conn, target, count):
    rows = conn.execute("SELECT id FROM runs WHERE target = ? AND finished IS NOT NULL"
                        " ORDER BY id DESC LIMIT ?", (target, count)).fetchall()
    return [r[0] for r in reversed(rows)]


def _failing(conn, run):
    return {(r[0], r[1]): (r[2], r[3]) for r in conn.execute(
        "SELECT function, case_index, value_names, outcome FROM results"
        " WHERE run_id = ? AND outcome IN ('ABORT', 'RESTART')", (run,))}


def _pick(dbs, target):
    """[(conn, run, label)] for the two runs to compare."""
    conns = [store.connect(db) for db in dbs]
    if len(dbs) == 1:
        runs = _runs(conns[0], target, 2)
        if len(runs) < 2:
            raise TrebuchetError(f"needs two finished runs of {target}", dbs[0])
        return [(conns[0], run, f"{dbs[0]} run {run}") for run in runs]
    picked = []
    for conn, db in zip(conns, dbs):
        runs = _runs(conn, target, 1)
        if not runs:
            raise TrebuchetError(f"no finished run of {target}", db)
        picked.append((conn, runs[0], f"{db} run {runs[0]}"))
    return picked


def only_target(dbs):
    targets = set()
    for db in dbs:
        targets |= set(metrics.latest_runs(store.connect(db)))
    if len(targets) != 1:
        raise TrebuchetError("the stores hold several targets: name one with --target")
    return targets.pop()


def compare(dbs, target=None):
    target = target or only_target(dbs)
    (c1, r1, l1), (c2, r2, l2) = _pick(dbs, target)
    before, after = metrics.summarize(c1, target, r1), metrics.summarize(c2, target, r2)
    result = Comparison(target, l1, l2)
    for name in sorted({f.name for f in before.functions} | {f.name for f in after.functions}):
        a, b = before.function(name), after.function(name)
        result.deltas.append(dict(
            function=name,
            before_failure_rate=a.failure_rate if a else None,
            after_failure_rate=b.failure_rate if b else None,
            delta=(b.failure_rate - a.failure_rate) if a and b else None))
    old, new = _failing(c1, r1), _failing(c2, r2)
    result.new_failures = sorted((f, c) + new[(f, c)] for f, c in new.keys() - old.keys())
    result.vanished_failures = sorted((f, c) + old[(f, c)] for f, c in old.keys() - new.keys())
    return result


def as_text(result):
    lines = [f"{result.target}: {result.before}  ->  {result.after}", "",
             f"{'function':<16} {'before':>9} {'after':>9} {'delta':>9}"]
    for d in result.deltas:
        fmt = lambda v: "-" if v is None else f"{v:8.2f}%"  # noqa: E731
        delta = "-" if d["delta"] is None else f"{d['delta']:+8.2f}%"
        lines.append(f"{d['function']:<16} {fmt(d['before_failure_rate']):>9} "
                     f"{fmt(d['after_failure_rate']):>9} {delta:>9}")
    lines += ["", f"new failing cases: {len(result.new_failures)}"]
    lines += [f"  {f} case {c}: {v} {o}" for f, c, v, o in result.new_failures[:50]]
    lines += [f"vanished failing cases: {len(result.vanished_failures)}"]
    lines += [f"  {f} case {c}: {v} {o}" for f, c, v, o in result.vanished_failures[:50]]
    return "\n".join(lines)
