"""A run's findings in the store (schemas/results.sql: findings,
finding_cases, run_values): written once when the run ends
(src/trebuchet/findings/making.py), read by the reports, `trebuchet findings`, export and
the gate."""
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from trebuchet.core.readable import last_line

from trebuchet.harness.crash_sites import above_harness

from trebuchet.core.outcomes import FAILING
from trebuchet.store import findings as tables
from trebuchet.store import results
from trebuchet.findings.signature import DRAFTED, MISUSE


def persist(conn, run, findings, cases, minimised=()):
    """Writes the run's findings, their cases, its values' verdicts and the
    cases run to minimise them (signature.Case), replacing what an earlier
    analysis of the run wrote."""
    values = {}
    for c in cases:
        for i, (v, ok) in enumerate(zip(c.values, c.acceptable)):
            values[(c.function, i, v)] = ok
    rows = []
    for f in findings:
        e = f.example
        rows.append((run, f.id, f.signature, f.fingerprint, f.kind, f.title, ",".join(f.functions),
                     len(f.cases), f.misuse_cases, f.trigger, f.location,
                     f.frames[-1].text if f.frames else None,
                     "\n".join(fr.text for fr in above_harness(e.frames or f.frames)),
                     f.violation, len(f.violating), e.function, e.index, e.stderr,
                     f.cause, f.minimised.index if f.minimised else None, f.flaky))
    tables.replace(conn, run, rows,
                   [(run, c.function, c.index, f.id) for f in findings for c in f.cases],
                   [(run, fn, i, v, int(ok)) for (fn, i, v), ok in values.items()],
                   [(run, c.function, c.index, " ".join(c.values), c.outcome, c.signal,
                     c.site["frames"] if c.site else "") for c in minimised])


@dataclass
class Stored:
    """A finding as the store holds it: what reports, the CLI, export and
    the gate read."""
    run: int
    id: int
    signature: str
    fingerprint: str
    kind: str
    title: str
    functions: list
    cases: int
    misuse_cases: int
    trigger: str
    location: str
    frame: str
    frames: list
    violation: str
    violating_cases: int
    example_function: str
    example_case: int
    stderr: str
    example_values: list = None  # the representative's values, "datatype:VALUE"
    cause: str = None       # what its failure needs ("buf = NULL"), by minimisation
    minimised_case: int = None  # the representative minimised: a case of example_function
    minimised_values: list = None
    flaky: str = None  # its shown case's outcomes run again, when they differed (flaky.py)

    @property
    def shown_case(self):
        """(case index, values) a maintainer is shown and `repro` runs: the
        representative minimised where it was, else as run."""
        if self.minimised_case is not None:
            return self.minimised_case, self.minimised_values
        return self.example_case, self.example_values

    @property
    def is_violation(self):
        return self.violation is not None

    @property
    def drafted(self):
        """A violation of drafted promises only, not yet reviewed: shown,
        and the gate does not fail on it (docs/contracts.md)."""
        return self.is_violation and self.violation.startswith(DRAFTED)

    @property
    def gating_violation(self):
        """A violation of a reviewed promise: what fails the gate in a
        function the baseline does not know."""
        return self.is_violation and not self.drafted

    @property
    def misuse_only(self):
        """Its cause needs a value the contract does not accept (each of its
        cases holds one); signature.py decides, by the cause."""
        return self.signature.endswith(MISUSE) and not self.is_violation

    @property
    def place(self):
        """Where it strikes as people read it: its file and line, relative
        to the working directory when the file lies under it; else its
        naming frame; None when no frame names it."""
        if not self.location:
            return self.frame
        file, _, line = self.location.rpartition(":")
        path = Path(file)
        if path.is_absolute() and path.is_relative_to(Path.cwd()):
            return f"{path.relative_to(Path.cwd())}:{line}"
        return self.location

    @property
    def last_words(self):
        """The representative's last line on stderr, or None."""
        return last_line(self.stderr) or None


def analyzed(conn, run):
    """Whether the run's findings were made: a run never analyzed is not
    one whose findings are none."""
    return tables.made(conn, run)


def stored(conn, run):
    """The run's findings, in their order."""
    return [Stored(r["run_id"], r["id"], r["signature"], r["fingerprint"], r["kind"], r["title"],
                   r["functions"].split(","), r["cases"], r["misuse_cases"], r["trigger"],
                   r["location"], r["frame"], r["frames"].splitlines() if r["frames"] else [],
                   r["violation"], r["violating_cases"], r["example_function"],
                   r["example_case"], r["stderr"],
                   r["example_values"].split(" ") if r["example_values"] else [],
                   r["cause"], r["minimised_case"],
                   r["minimised_values"].split(" ") if r["minimised_values"] else [],
                   r["flaky"])
            for r in tables.rows(conn, run)]


@dataclass
class AcceptableRate:
    """The normalized failure rate over the cases whose values are all
    acceptable, beside the raw one: what a library does with input its
    documentation allows."""
    rate: float          # percent: the mean over functions with such cases, or None
    functions: int       # functions with at least one such case
    cases: int
    failing: int


def acceptance(conn, run):
    """accepts(function, value names): whether the contract accepts every
    value of a case of the run (its values' verdicts, run_values); a value
    without a verdict counts as accepted."""
    verdict = {(fn, i, v): ok for fn, i, v, ok in tables.value_verdicts(conn, run)}
    return lambda function, names: all(verdict.get((function, i, v), 1)
                                       for i, v in enumerate(names))


def acceptable_rate(conn, run):
    accepts = acceptance(conn, run)
    per = defaultdict(lambda: [0, 0])
    for function, values, outcome in results.judged_outcomes(conn, run):
        if accepts(function, values.split(" ") if values else []):
            per[function][0] += 1
            per[function][1] += outcome in FAILING
    rates = [100.0 * f / n for n, f in per.values() if n]
    return AcceptableRate(sum(rates) / len(rates) if rates else None, len(rates),
                          sum(n for n, _ in per.values()), sum(f for _, f in per.values()))


def repro_command(info, function, case):
    """The command that runs one case of a run again (RunInfo)."""
    return (f"trebuchet repro --target {info.target_arg} --function {function} --case {case}"
            + ("" if info.dictionary == "ours" else f" --dictionary {info.dictionary}")
            + (f" --sanitizer {info.sanitizer}" if info.sanitizer else ""))
