"""The numbers every report, figure, export and gate reads, computed in this
one place from a store's rows, as DESIGN.md defines them:

  per function: abort rate = ABORT / (cases - SETUP), likewise restart, and
  failure rate = (ABORT + RESTART) / (cases - SETUP);
  per target: the unweighted mean of its functions' rates (normalized).

A store may hold several runs of a target; a report reads the newest
finished run of each target unless told which runs to read."""
from collections import Counter
from dataclasses import asdict, dataclass, field

# The reference study's published figures (DeVale & Koopman, DSN 2001).
STUDY = {
    "sfio_normalized_abort": 5.61,
    "sfio_functions": 36,
    "sfio_cases": 186389,
    "robust_sfio_abort": 0.44,
    "robust_sfio_functions": 8,
    "stdio_per_function_range": [0.0, 79.0],
    "hardened_functions": ["sfopen", "sfwrite", "sfread", "sfclose", "sffileno", "sfseek",
                           "sfputc", "sfgetc"],
}

TOP_VALUES = 5


def _rate(part, whole):
    return 100.0 * part / whole if whole else 0.0


@dataclass
class FunctionStats:
    target: str
    run: int
    name: str
    signature: str
    cases: int = 0
    passed: int = 0
    aborts: int = 0
    restarts: int = 0
    setups: int = 0
    signals: dict = field(default_factory=dict)        # signal number -> count
    failing_values: list = field(default_factory=list)  # [(value, failing cases)]
    value_counts: dict = field(default_factory=dict)    # value -> [failing, tested]

    @property
    def tested(self):
        return self.cases - self.setups

    @property
    def abort_rate(self):
        return _rate(self.aborts, self.tested)

    @property
    def restart_rate(self):
        return _rate(self.restarts, self.tested)

    @property
    def failure_rate(self):
        return _rate(self.aborts + self.restarts, self.tested)

    def value_failure_rate(self, value):
        failing, tested = self.value_counts.get(value, (0, 0))
        return _rate(failing, tested)

    def as_dict(self):
        d = asdict(self)
        del d["value_counts"]
        d.update(abort_rate=self.abort_rate, restart_rate=self.restart_rate,
                 failure_rate=self.failure_rate, signals={str(k): v for k, v in self.signals.items()})
        return d


@dataclass
class TargetSummary:
    target: str
    run: int
    db: str
    target_version: str
    functions: list  # [FunctionStats], by name

    def _mean(self, attr):
        rates = [getattr(f, attr) for f in self.functions if f.tested]
        return sum(rates) / len(rates) if rates else 0.0

    @property
    def abort_rate(self):
        return self._mean("abort_rate")

    @property
    def restart_rate(self):
        return self._mean("restart_rate")

    @property
    def failure_rate(self):
        return self._mean("failure_rate")

    @property
    def cases(self):
        return sum(f.cases for f in self.functions)

    def function(self, name):
        return next((f for f in self.functions if f.name == name), None)

    def as_dict(self):
        return dict(target=self.target, run=self.run, db=self.db,
                    target_version=self.target_version, functions=len(self.functions),
                    cases=self.cases, abort_rate=self.abort_rate,
                    restart_rate=self.restart_rate, failure_rate=self.failure_rate)


@dataclass
class Pair:
    """An SFIO-side function and its stdio equivalent, side by side."""
    left: FunctionStats
    right: FunctionStats

    def as_dict(self):
        return dict(left_target=self.left.target, left=self.left.name,
                    right_target=self.right.target, right=self.right.name,
                    left_failure_rate=self.left.failure_rate,
                    right_failure_rate=self.right.failure_rate,
                    left_abort_rate=self.left.abort_rate,
                    right_abort_rate=self.right.abort_rate)


def latest_runs(conn):
    """{target: run id} of the newest finished run of each target."""
    rows = conn.execute("SELECT target, max(id) FROM runs WHERE finished IS NOT NULL"
                        " GROUP BY target ORDER BY target")
    return {target: run for target, run in rows}


def summarize(conn, target, run, db=""):
    """The TargetSummary of one run, from its raw result rows."""
    version = conn.execute("SELECT target_version FROM runs WHERE id = ?", (run,)).fetchone()[0]
    stats = {}
    for name, signature in conn.execute(
            "SELECT name, signature FROM functions WHERE run_id = ? ORDER BY name", (run,)):
        stats[name] = FunctionStats(target, run, name, signature)
    failing = {name: Counter() for name in stats}
    for function, values, outcome, signal in conn.execute(
            "SELECT function, value_names, outcome, signal FROM results WHERE run_id = ?", (run,)):
        f = stats[function]
        f.cases += 1
        if outcome == "SETUP":
            f.setups += 1
            continue
        failed = outcome in ("ABORT", "RESTART")
        for value in values.split(" "):
            counts = f.value_counts.setdefault(value, [0, 0])
            counts[0] += failed
            counts[1] += 1
        if outcome == "PASS":
            f.passed += 1
        else:
            if outcome == "ABORT":
                f.aborts += 1
                if signal is not None:
                    f.signals[signal] = f.signals.get(signal, 0) + 1
            else:
                f.restarts += 1
            failing[function].update(values.split(" "))
    for name, f in stats.items():
        f.failing_values = failing[name].most_common(TOP_VALUES)
        f.signals = dict(sorted(f.signals.items()))
    return TargetSummary(target, run, str(db), version, list(stats.values()))


def pairs(left, right, equivalents):
    """Pairs of functions present in both summaries; equivalents maps a left
    function name to its right-hand equivalent."""
    out = []
    for name, other in equivalents.items():
        a, b = left.function(name), right.function(other)
        if a and b:
            out.append(Pair(a, b))
    return out


@dataclass
class Report:
    """Everything a report shows, computed once."""
    targets: list                  # [TargetSummary]
    pairs: list                    # [Pair] stdio-equivalent pairs
    hardened: list                 # [Pair] sfio vs robust_sfio, same names
    study: dict = field(default_factory=lambda: dict(STUDY))

    def target(self, name):
        return next((t for t in self.targets if t.target == name), None)

    def as_dict(self):
        return dict(
            study=self.study,
            targets=[t.as_dict() for t in self.targets],
            functions=[f.as_dict() for t in self.targets for f in t.functions],
            pairs=[p.as_dict() for p in self.pairs],
            hardened=[p.as_dict() for p in self.hardened])


def build_report(sources, equivalents_of):
    """sources: [(conn, db path)]; equivalents_of(target) -> {function: stdio
    equivalent}.  The newest finished run of each target found in any store
    is used; a target in several stores is taken from the last."""
    chosen = {}
    for conn, db in sources:
        for target, run in latest_runs(conn).items():
            chosen[target] = summarize(conn, target, run, db)
    targets = [chosen[t] for t in sorted(chosen)]
    stdio = chosen.get("stdio")
    found_pairs, hardened = [], []
    for t in targets:
        if stdio and t.target != "stdio":
            found_pairs += pairs(t, stdio, equivalents_of(t.target))
    sfio, robust = chosen.get("sfio"), chosen.get("robust_sfio")
    if sfio and robust:
        hardened = pairs(sfio, robust, {f.name: f.name for f in sfio.functions})
    return Report(targets, found_pairs, hardened)


@dataclass
class RateDelta:
    """One function's rates in two runs, over the cases both runs ran (as
    `trebuchet compare` pairs them), and how much each rate moved.  Rates
    over the same cases only, so that a delta is made of cases whose outcome
    changed and never of cases one run drew and the other did not."""
    FAILING = ("ABORT", "RESTART")  # the outcomes that count as a failure

    before: FunctionStats
    after: FunctionStats

    @classmethod
    def of_outcomes(cls, target, name, runs, outcome_pairs):
        """runs: (before run, after run); outcome_pairs: [(before outcome,
        after outcome)], one per case both runs ran."""
        sides = [FunctionStats(target, run, name, "") for run in runs]
        for outcomes in outcome_pairs:
            for f, outcome in zip(sides, outcomes):
                f.cases += 1
                f.passed += outcome == "PASS"
                f.aborts += outcome == "ABORT"
                f.restarts += outcome == "RESTART"
                f.setups += outcome == "SETUP"
        return cls(*sides)

    def as_dict(self):
        d = dict(function=self.before.name, cases=self.before.cases)
        for rate in ("abort_rate", "restart_rate", "failure_rate"):
            before, after = getattr(self.before, rate), getattr(self.after, rate)
            d.update({f"before_{rate}": before, f"after_{rate}": after,
                      f"{rate.removesuffix('_rate')}_delta": after - before})
        return d
