"""The numbers every report, figure, export and gate reads, computed in this
one place from a store's rows, as docs/architecture.md defines them:

  a case fails when its outcome is ABORT or RESTART (core/outcomes.py);
  per function: abort rate = ABORT / (cases - SETUP), likewise restart, and
  failure rate = (ABORT + RESTART) / (cases - SETUP);
  per target: the unweighted mean of its functions' rates (normalized);
  per value of a parameter: how much it raises its function's failure rate
  (ValueStats.raise_pp: the failure rate of the function's cases holding
  that value at that parameter, less that of its cases holding another
  value there).

A store may hold several runs of a target; a report reads the newest
finished run of each target unless told which runs to read.  Templates and
figures only lay out what is computed here."""
import re
import statistics
from dataclasses import asdict, dataclass, field
from typing import Optional

from trebuchet.build import ctype_probe
from trebuchet.core import rates
from trebuchet.core.outcomes import is_failing
from trebuchet.core.rates import wilson
from trebuchet.core.readable import plural, setup_why, stderr_text
from trebuchet.store import repeats, results, slow_cases
from trebuchet.store.runs import RunInfo, report_runs
from trebuchet.study.bench_stats import bench_runs
from trebuchet.study.protection_stats import protection_runs

from trebuchet.findings import storage as findings_store

# The reference study's published figures (DeVale & Koopman, DSN 2001).
STUDY = {
    "sfio_normalized_abort": 5.61,
    "sfio_functions": 36,
    "sfio_cases": 186389,
    "robust_sfio_abort": 0.44,
    "robust_sfio_functions": 8,
    "stdio_per_function_range": [0.0, 79.0],
    # the abstract: "SFIO improves robustness by a factor of 3 to 10 over
    # STDIO", over the 20 equivalent pairs of its Figure 1
    "sfio_over_stdio_factor": [3, 10],
    "sfio_stdio_pairs": 20,
    "hardened_functions": ["sfopen", "sfwrite", "sfread", "sfclose", "sffileno", "sfseek",
                           "sfputc", "sfgetc"],
}

# The values of our stream datatypes (FILE, Sfio_t) that are no stream at all:
# the wild pointers they inherit from `pointer`, a stream already closed and
# random bytes.  (VALID, a zeroed page, is left in: a library reads it as a
# stream whose every field is zero.)  Six of them, which SFIO cannot survive,
# are most of why our normalized rates are several times the study's:
# docs/sfio-dictionary.md.  The rate over the cases without any of them is
# set beside the study's.
NOT_A_STREAM = frozenset(f"{datatype}:{value}" for datatype in ("FILE", "Sfio_t")
                         for value in ("NULL", "MINUS_ONE", "ONE", "FREED", "READ_ONLY",
                                       "NO_ACCESS", "UNMAPPED", "MISALIGNED", "CLOSED",
                                       "GARBAGE"))

TOP_VALUES = 5


C_TYPE_WORDS = {"const", "volatile", "unsigned", "signed", "short", "long", "int", "char",
                "void", "float", "double", "struct", "enum", "union"}
TAG_KEYWORDS = {"struct", "enum", "union"}


def _parameter_list(signature):
    """The text between the parentheses of a prototype's parameter list: the
    first "(" that follows a name and opens no pointer (in
    "void (*signal(int, void (*)(int)))(int)" the one after signal), to the
    ")" that closes it."""
    start = next(i for i, ch in enumerate(signature) if ch == "(" and
                 re.search(r"\w\s*$", signature[:i]) and
                 not re.match(r"\s*\*", signature[i + 1:]))
    depth = 0
    for i in range(start, len(signature)):
        depth += (signature[i] == "(") - (signature[i] == ")")
        if depth == 0:
            return signature[start + 1:i]
    return signature[start + 1:]


def parameter_names(signature):
    """The parameter names of a stored C prototype, in order:
    "size_t fwrite(const void *ptr, size_t size, ...)" -> ["ptr", "size", ...],
    "int (*compar)(const void *, const void *)" -> "compar".  A parameter
    written without a name is called by its position (arg1, ...)."""
    names = []
    for i, param in enumerate(ctype_probe.split_slots(_parameter_list(signature))):
        if param in ("", "void", "..."):
            continue
        pointer = re.search(r"\(\s*\*\s*(?:const\s+)?([A-Za-z_]\w*)?\s*\)", param)
        if pointer:  # a function pointer: its name is inside "(*name)"
            names.append(pointer.group(1) or f"arg{i + 1}")
            continue
        match = re.fullmatch(r"(.*?[\s*])([A-Za-z_]\w*)\s*(\[[^]]*\])?", param)
        kind = match and match.group(1).strip(" *")
        # "enum e", "struct s": the word after the keyword is a tag, not a name
        named = kind and kind not in TAG_KEYWORDS and match.group(2) not in C_TYPE_WORDS
        names.append(match.group(2) if named else f"arg{i + 1}")
    return names


@dataclass
class ValueStats:
    """One test value at one parameter position of a function, and the
    function's other cases: those holding another value at that position."""
    param: str
    value: str          # "datatype:VALUE"
    failing: int = 0
    tested: int = 0     # cases holding it, less SETUP
    others_failing: int = 0
    others_tested: int = 0

    @property
    def rate(self):
        return rates.rate(self.failing, self.tested)

    @property
    def others_rate(self):
        return rates.rate(self.others_failing, self.others_tested)

    @property
    def raise_pp(self):
        """How much the value raises its function's failure rate, in
        percentage points: the failure rate of the cases holding it at this
        parameter less that of the cases holding another value there.  None
        when no case holds another value there: nothing to compare with (a
        value present in every case of a failing function is not thereby
        guilty)."""
        return self.rate - self.others_rate if self.others_tested else None

    @property
    def short(self):
        return self.value.split(":", 1)[-1]

    def as_dict(self):
        return dict(param=self.param, value=self.value, failing=self.failing,
                    tested=self.tested, failure_rate=self.rate,
                    others_failing=self.others_failing, others_tested=self.others_tested,
                    others_failure_rate=self.others_rate, raise_pp=self.raise_pp)


@dataclass
class ParamStats:
    """One parameter of a function and every value it took, by name."""
    name: str
    datatype: str
    values: list = field(default_factory=list)  # [ValueStats]

    def as_dict(self):
        return dict(name=self.name, datatype=self.datatype,
                    values=[v.as_dict() for v in self.values])


@dataclass
class FailingCase:
    """A failing case as a drill-down page lists it."""
    case: int
    values: list        # ["datatype:VALUE"] per parameter
    outcome: str
    signal: Optional[int]
    exit_status: Optional[int]
    stderr: Optional[str] = None  # the end of what it wrote to stderr


@dataclass
class SetupReason:
    """The values of one parameter that could not be built for one reason,
    as a drill-down page lists them."""
    param: str          # its name, or its index where the names are not known
    value: str          # "datatype:VALUE"
    why: str            # core.readable.setup_why's words
    cases: int
    first: int          # the first such case, to reproduce


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
    signals: dict = field(default_factory=dict)         # signal number -> count
    stream_aborts: int = 0   # ABORT cases holding no NOT_A_STREAM value
    stream_tested: int = 0   # cases less SETUP holding no NOT_A_STREAM value
    params: list = field(default_factory=list)          # [ParamStats], in order
    failing_values: list = field(default_factory=list)  # [ValueStats], most raising first
    note: Optional[str] = None        # the spec's `note:`, when the spec is here
    equivalent: Optional[str] = None  # the spec's `equivalent:`, likewise
    cases_total: int = 0     # the full cross product; more than cases: a sample

    @property
    def sampled(self):
        """Whether its cases are a sample of its product (the cap), so its
        rates are estimates and carry intervals."""
        return self.cases_total > self.cases

    def interval(self, part):
        """The 95% Wilson interval of part over the tested cases, for a
        sampled function; None for one run whole (its rate is exact)."""
        return wilson(part, self.tested) if self.sampled else None

    @property
    def abort_interval(self):
        return self.interval(self.aborts)

    @property
    def restart_interval(self):
        return self.interval(self.restarts)

    @property
    def failure_interval(self):
        return self.interval(self.failing)

    def count(self, outcome):
        """Adds one case of this outcome to the counts."""
        self.cases += 1
        self.passed += outcome == "PASS"
        self.aborts += outcome == "ABORT"
        self.restarts += outcome == "RESTART"
        self.setups += outcome == "SETUP"

    @property
    def tested(self):
        return self.cases - self.setups

    @property
    def failing(self):
        return self.aborts + self.restarts

    @property
    def abort_rate(self):
        return rates.rate(self.aborts, self.tested)

    @property
    def restart_rate(self):
        return rates.rate(self.restarts, self.tested)

    @property
    def failure_rate(self):
        return rates.rate(self.failing, self.tested)

    @property
    def stream_abort_rate(self):
        """The ABORT rate over the cases that hand it only real streams."""
        return rates.rate(self.stream_aborts, self.stream_tested)

    def as_dict(self):
        return dict(target=self.target, run=self.run, name=self.name, signature=self.signature,
                    note=self.note, equivalent=self.equivalent,
                    cases=self.cases, passed=self.passed, aborts=self.aborts,
                    restarts=self.restarts, setups=self.setups,
                    abort_rate=self.abort_rate, restart_rate=self.restart_rate,
                    failure_rate=self.failure_rate, stream_abort_rate=self.stream_abort_rate,
                    cases_total=self.cases_total, sampled=self.sampled,
                    abort_interval=self.abort_interval, restart_interval=self.restart_interval,
                    failure_interval=self.failure_interval,
                    signals={str(k): v for k, v in self.signals.items()},
                    failing_values=[v.as_dict() for v in self.failing_values])


FUNCTION_CSV_FIELDS = ("target", "run", "name", "signature", "cases", "passed", "aborts",
                       "restarts", "setups", "abort_rate", "restart_rate", "failure_rate")


@dataclass
class TargetSummary:
    target: str
    run: int
    db: str
    info: RunInfo
    functions: list  # [FunctionStats], by name
    # {function: its stdio equivalent}, in the spec's order; empty when the
    # spec is not here
    equivalents: dict = field(default_factory=dict)
    repeated: int = 1  # how many times each case ran (run --repeat N)
    flaky: list = field(default_factory=list)  # [(function, case index, outcomes)]
    findings: list = field(default_factory=list)  # [findings_store.Stored], in their order
    acceptable: object = None  # findings_store.AcceptableRate: the rate over acceptable values
    # the libraries under test its findings named without debug information
    # (findings/making.py); filled where findings are shown
    undebugged: list = field(default_factory=list)
    slow: list = field(default_factory=list)  # [slow_cases.SlowCase], the slowest first
    # build/api_coverage.Coverage of its spec's libraries, where the spec
    # is here and names some; filled where the report is made
    coverage: object = None

    @property
    def violations(self):
        return [f for f in self.findings if f.is_violation]

    @property
    def acted_findings(self):
        """The findings a maintainer acts on: all but those on misuse only."""
        return [f for f in self.findings if not f.misuse_only]

    @property
    def misuse_findings(self):
        return [f for f in self.findings if f.misuse_only]

    @property
    def misuse_count(self):
        return plural(len(self.misuse_findings), "finding")

    @property
    def findings_count(self):
        return plural(len(self.findings), "finding")

    @property
    def violations_count(self):
        return plural(len(self.violations), "contract violation")

    def repro_command(self, function, case):
        return findings_store.repro_command(self.info, function, case)

    @property
    def target_version(self):
        return self.info.target_version

    @property
    def flaky_count(self):
        return len(self.flaky)

    def mean_over(self, attr, names=None):
        """The unweighted mean of attr over the functions (those in names only,
        if given) that tested any case."""
        return rates.mean(getattr(f, attr) for f in self.functions
                     if f.tested and (names is None or f.name in names))

    @property
    def abort_rate(self):
        return self.mean_over("abort_rate")

    @property
    def restart_rate(self):
        return self.mean_over("restart_rate")

    @property
    def failure_rate(self):
        return self.mean_over("failure_rate")

    @property
    def stream_abort_rate(self):
        """The normalized ABORT rate over the cases with no NOT_A_STREAM value."""
        return rates.mean(f.stream_abort_rate for f in self.functions if f.stream_tested)

    @property
    def min_failure_rate(self):
        return min((f.failure_rate for f in self.functions if f.tested), default=0.0)

    @property
    def max_failure_rate(self):
        return max((f.failure_rate for f in self.functions if f.tested), default=0.0)

    def total(self, attr):
        """A count (cases, passed, aborts, restarts, setups) over the functions."""
        return sum(getattr(f, attr) for f in self.functions)

    @property
    def cases(self):
        return self.total("cases")

    @property
    def function_count(self):
        return len(self.functions)

    def function(self, name):
        return next((f for f in self.functions if f.name == name), None)

    def as_dict(self):
        return dict(target=self.target, run=self.run, db=self.db,
                    target_version=self.target_version, functions=self.function_count,
                    cases=self.cases, abort_rate=self.abort_rate,
                    restart_rate=self.restart_rate, failure_rate=self.failure_rate,
                    stream_abort_rate=self.stream_abort_rate, repeated=self.repeated,
                    flaky=[dict(function=f, case=i, outcomes=o) for f, i, o in self.flaky],
                    findings=len(self.findings), contract_violations=len(self.violations),
                    acceptable_failure_rate=self.acceptable.rate if self.acceptable else None)


TARGET_CSV_FIELDS = ("target", "run", "db", "target_version", "functions", "cases",
                     "abort_rate", "restart_rate", "failure_rate")


@dataclass
class Pair:
    """A function of one target and its counterpart in another, side by side."""
    left: FunctionStats
    right: FunctionStats

    @property
    def label(self):
        """The pair's name in a figure: one name when both sides share it."""
        if self.left.name == self.right.name:
            return self.left.name
        return f"{self.left.name} / {self.right.name}"

    def as_dict(self):
        return dict(left_target=self.left.target, left=self.left.name,
                    right_target=self.right.target, right=self.right.name,
                    left_failure_rate=self.left.failure_rate,
                    right_failure_rate=self.right.failure_rate,
                    left_abort_rate=self.left.abort_rate,
                    right_abort_rate=self.right.abort_rate,
                    left_restart_rate=self.left.restart_rate,
                    right_restart_rate=self.right.restart_rate)


PAIR_CSV_FIELDS = ("left_target", "left", "right_target", "right", "left_failure_rate",
                   "right_failure_rate", "left_abort_rate", "right_abort_rate",
                   "left_restart_rate", "right_restart_rate")


@dataclass
class PairSet:
    """Two targets' functions side by side: `equivalent` pairs (a target's
    functions and their stdio equivalents, the study's Figure 1) or
    `hardened` pairs (a target and the build whose spec extends it, same
    names: before and after, the study's Figure 2)."""
    kind: str
    left: TargetSummary
    right: TargetSummary
    pairs: list  # [Pair]

    @property
    def key(self):
        return f"{self.left.target}_vs_{self.right.target}"

    @property
    def labels(self):
        return [p.label for p in self.pairs]


def _dictionary_of(conn, run):
    return RunInfo.read(conn, run).dictionary


def _new_params(f, datatypes):
    """f's parameters, named from its signature, with empty value counts."""
    names = parameter_names(f.signature)
    return [ParamStats(names[i] if i < len(names) else f"arg{i + 1}", datatype)
            for i, datatype in enumerate(datatypes)]


def _count_values(f, counts, values, failed):
    """Adds one tested case's values to f's per-parameter counts; counts
    holds one {value: ValueStats} per parameter."""
    for param, by_value, value in zip(f.params, counts, values):
        stats = by_value.get(value)
        if stats is None:
            stats = by_value[value] = ValueStats(param.name, value)
        stats.failing += failed
        stats.tested += 1


def _finish_values(f, counts):
    """Orders each parameter's values by name, counts each value's other
    cases, and picks the TOP_VALUES values that most raise the function's
    failure rate (raise_pp above 0; ties: more failing cases first)."""
    for param, by_value in zip(f.params, counts):
        param.values = sorted(by_value.values(), key=lambda v: v.value)
        for v in param.values:
            v.others_failing = f.failing - v.failing
            v.others_tested = f.tested - v.tested
    candidates = [v for p in f.params for v in p.values if v.raise_pp and v.raise_pp > 0]
    f.failing_values = sorted(candidates, key=lambda v: (-v.raise_pp, -v.failing, v.param,
                                                         v.value))[:TOP_VALUES]


def summarize(conn, target, run, db=""):
    """The TargetSummary of one run, from its raw result rows."""
    stats, counts = {}, {}
    for name, signature, types, total in results.functions(conn, run):
        f = stats[name] = FunctionStats(target, run, name, signature, cases_total=total)
        f.params = _new_params(f, types.split())
        counts[name] = [{} for _ in f.params]
    for function, values, outcome, signal in results.counted(conn, run):
        f = stats[function]
        f.count(outcome)
        if outcome == "SETUP":
            continue
        values = values.split(" ") if values else []
        _count_values(f, counts[function], values, is_failing(outcome))
        if NOT_A_STREAM.isdisjoint(values):
            f.stream_tested += 1
            f.stream_aborts += outcome == "ABORT"
        if outcome == "ABORT" and signal is not None:
            f.signals[signal] = f.signals.get(signal, 0) + 1
    for name, f in stats.items():
        _finish_values(f, counts[name])
        f.signals = dict(sorted(f.signals.items()))
    return TargetSummary(target, run, str(db), RunInfo.read(conn, run), list(stats.values()),
                         repeated=repeats.times(conn, run),
                         flaky=repeats.flaky(conn, run), findings=findings_store.stored(conn, run),
                         acceptable=findings_store.acceptable_rate(conn, run),
                         slow=slow_cases.slow_cases(conn, run))


def failing_cases(conn, run, function, limit):
    """The first `limit` failing cases of a function, by case index."""
    rows = results.failing(conn, run, function, limit)
    return [FailingCase(r[0], r[1].split(" ") if r[1] else [], r[2], r[3], r[4],
                        stderr_text(r[5])) for r in rows]


def setup_reasons(conn, run, function, names=()):
    """Why a function's SETUP cases could not be built: one row per
    (parameter, value, reason), the most cases first; names are its
    parameters' names, in order."""
    groups = {}
    for case, value_names, param, errno, reason, signal in results.setups(conn, run, function):
        values = value_names.split(" ") if value_names else []
        value = values[param] if param is not None and param < len(values) else "?"
        known = param is not None and param < len(names)
        key = (names[param] if known else str(param), value, setup_why(errno, reason, signal))
        count, first = groups.get(key, (0, case))
        groups[key] = (count + 1, first)
    return sorted((SetupReason(*key, count, first) for key, (count, first) in groups.items()),
                  key=lambda r: (-r.cases, r.first))


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
class StudyFigure:
    """One of the study's published figures beside ours, measured alike."""
    target: str
    measure: str          # what is compared, in words
    study: str            # the study's figure, as published
    study_value: Optional[float]  # its number when it is one rate, for figure (c)
    ours: float           # ours, on the same footing
    ours_range: Optional[tuple] = None  # (min, max) when the study gave a range
    functions: int = 0    # how many of our functions ours is over
    ours_streams: Optional[float] = None  # ours over the cases with no NOT_A_STREAM value
    unit: str = "%"       # of ours: a rate in percent, or "x", a factor

    @property
    def template(self):
        """The page's text on why the study's figure and ours differ."""
        return f"study_{self.target.replace(' ', '_')}.html.j2"


def _factor_figure(equivalents):
    """The study's headline, SFIO's robustness over STDIO's as a factor:
    STDIO's failure rate over SFIO's, per equivalent pair (pairs where SFIO
    never fails have no factor)."""
    sets = [s for s in equivalents if (s.left.target, s.right.target) == ("sfio", "stdio")]
    if not sets:
        return None
    factors = sorted(p.right.failure_rate / p.left.failure_rate for p in sets[0].pairs
                     if p.left.failure_rate > 0)
    if not factors:
        return None
    low, high = STUDY["sfio_over_stdio_factor"]
    return StudyFigure("sfio vs stdio", "STDIO's failure rate over SFIO's, per equivalent pair",
                       f"{low} to {high} over {STUDY['sfio_stdio_pairs']} pairs", None,
                       statistics.median(factors), (factors[0], factors[-1]), len(factors),
                       unit="x")


def study_figures(targets, equivalents=()):
    """[StudyFigure] for the study's targets present in `targets`, and its
    SFIO-over-STDIO factor when `equivalents` pair sfio with stdio."""
    by_name = {t.target: t for t in targets}
    out = []
    stdio = by_name.get("stdio")
    if stdio:
        low, high = STUDY["stdio_per_function_range"]
        out.append(StudyFigure("stdio", "per-function failure rate", f"{low:.0f}% to {high:.0f}%",
                               None, stdio.failure_rate,
                               (stdio.min_failure_rate, stdio.max_failure_rate),
                               len(stdio.functions)))
    sfio = by_name.get("sfio")
    if sfio:
        out.append(StudyFigure("sfio", "normalized ABORT rate",
                               f"{STUDY['sfio_normalized_abort']}% over "
                               f"{STUDY['sfio_functions']} functions",
                               STUDY["sfio_normalized_abort"], sfio.abort_rate,
                               functions=len(sfio.functions),
                               ours_streams=sfio.stream_abort_rate))
    robust = by_name.get("robust_sfio")
    hardened = set(STUDY["hardened_functions"])
    compared = robust and sum(f.name in hardened for f in robust.functions)
    if compared:  # a run of none of the 8 has nothing to set beside the study's
        out.append(StudyFigure("robust_sfio", "normalized ABORT rate of the 8 hardened functions",
                               f"{STUDY['robust_sfio_abort']}% over "
                               f"{STUDY['robust_sfio_functions']} functions",
                               STUDY["robust_sfio_abort"],
                               robust.mean_over("abort_rate", hardened), functions=compared))
    factor = _factor_figure(equivalents)
    if factor:
        out.append(factor)
    return out


@dataclass
class Report:
    """Everything a report shows, computed once."""
    targets: list                  # [TargetSummary]
    equivalents: list              # [PairSet] a target vs stdio, per equivalent pair
    hardening: list                # [PairSet] a target vs the build that extends it
    study: dict = field(default_factory=lambda: dict(STUDY))
    bench: list = field(default_factory=list)  # [BenchRun] the newest of each store
    protection: list = field(default_factory=list)  # [ProtectionRun] the newest of each store
    # [dictionaries.DictionaryColumn]: sfio and stdio under each dictionary
    dictionaries: list = field(default_factory=list)
    silent: list = field(default_factory=list)     # [crash_scale.ScaleTarget]
    hindering: list = field(default_factory=list)  # [crash_scale.ScaleTarget]
    corrupt: list = field(default_factory=list)    # [crash_scale.ScaleTarget]
    study_figures: list = field(init=False)  # [StudyFigure]

    def __post_init__(self):
        self.study_figures = study_figures(self.targets, self.equivalents)

    @property
    def pairs(self):
        return [p for s in self.equivalents for p in s.pairs]

    @property
    def hardened(self):
        return [p for s in self.hardening for p in s.pairs]

    def target(self, name):
        return next((t for t in self.targets if t.target == name), None)

    @property
    def crash_scale(self):
        """Silent, Hindering, then Corrupt, each target under each dictionary."""
        return self.silent + self.hindering + self.corrupt

    @property
    def dictionaries_differ(self):
        """Whether a study target was run under a dictionary not ours: the
        side-by-side table then says something the body does not."""
        return any(d.dictionary != "ours" for d in self.dictionaries)

    def as_dict(self):
        return dict(
            study=self.study,
            study_figures=[asdict(s) for s in self.study_figures],
            targets=[t.as_dict() for t in self.targets],
            runs=[asdict(t.info) for t in self.targets],
            functions=[f.as_dict() for t in self.targets for f in t.functions],
            parameters=[dict(target=t.target, function=f.name, **p.as_dict())
                        for t in self.targets for f in t.functions for p in f.params],
            pairs=[p.as_dict() for p in self.pairs],
            hardened=[p.as_dict() for p in self.hardened],
            bench=[b.as_dict() for b in self.bench],
            protection=[p.as_dict() for p in self.protection],
            dictionaries=[d.as_dict() for d in self.dictionaries],
            silent=[s.as_dict() for s in self.silent],
            hindering=[s.as_dict() for s in self.hindering],
            corrupt=[s.as_dict() for s in self.corrupt])


def _pairings(targets):
    """The equivalent pair sets (a target whose spec extends no other,
    against stdio) and the hardening pair sets (a run's `extends` target,
    before, against the run's own target, after)."""
    by_name = {t.target: t for t in targets}
    stdio = by_name.get("stdio")
    equivalents, hardening = [], []
    for t in targets:
        base = by_name.get(t.info.extends) if t.info.extends else None
        if base:
            same = pairs(base, t, {f.name: f.name for f in base.functions})
            if same:
                hardening.append(PairSet("hardened", base, t, same))
        elif stdio and t is not stdio and not t.info.extends:
            found = pairs(t, stdio, t.equivalents)
            if found:
                equivalents.append(PairSet("equivalent", t, stdio, found))
    return equivalents, hardening


def build_report(sources, spec_texts):
    """sources: [(conn, db path)]; spec_texts(RunInfo) -> {function:
    {"note": ..., "equivalent": ...}}, what the run's spec says of each
    function (empty when the spec is not here).  The newest finished run of
    each target found in any store is used (in our dictionary, when it has
    one: report_runs); a target in several stores is taken from the last,
    but a run in ours is never replaced by one in another dictionary."""
    chosen = {}
    for conn, db in sources:
        for target, run in report_runs(conn).items():
            held = chosen.get(target)
            if held and held.info.dictionary == "ours" and _dictionary_of(conn, run) != "ours":
                continue
            chosen[target] = summarize(conn, target, run, db)
    targets = [chosen[t] for t in sorted(chosen)]
    for t in targets:
        texts = spec_texts(t.info)
        t.equivalents = {name: text["equivalent"] for name, text in texts.items()
                         if text["equivalent"]}
        for f in t.functions:
            f.note = texts.get(f.name, {}).get("note")
            f.equivalent = texts.get(f.name, {}).get("equivalent")
    found_pairs, hardened = _pairings(targets)
    return Report(targets, found_pairs, hardened, bench=bench_runs(sources),
                  protection=protection_runs(sources))


@dataclass
class RateDelta:
    """One function's rates in two runs, over the cases both runs ran (as
    `trebuchet compare` pairs them), and how much each rate moved.  Rates
    over the same cases only, so that a delta is made of cases whose outcome
    changed and never of cases one run drew and the other did not."""

    before: FunctionStats
    after: FunctionStats

    @classmethod
    def of_outcomes(cls, target, name, runs, outcome_pairs):
        """runs: (before run, after run); outcome_pairs: [(before outcome,
        after outcome)], one per case both runs ran."""
        sides = [FunctionStats(target, run, name, "") for run in runs]
        for outcomes in outcome_pairs:
            for f, outcome in zip(sides, outcomes):
                f.count(outcome)
        return cls(*sides)

    def as_dict(self):
        d = dict(function=self.before.name, cases=self.before.cases)
        for rate in ("abort_rate", "restart_rate", "failure_rate"):
            before, after = getattr(self.before, rate), getattr(self.after, rate)
            d.update({f"before_{rate}": before, f"after_{rate}": after,
                      f"{rate.removesuffix('_rate')}_delta": after - before})
        return d
