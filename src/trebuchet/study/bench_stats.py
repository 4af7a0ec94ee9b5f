"""The study's I/O benchmarks as the report shows them (`trebuchet bench
io`, DSN 2001's performance half): per configuration and library the
medians of usr, sys and elapsed seconds with distribution-free intervals,
and the ratios between libraries, computed here once from a store's rows."""
import math
import statistics
from dataclasses import asdict, dataclass, field
from typing import Optional

from trebuchet.core import rates
from trebuchet.store import bench as bench_tables

LIBRARIES = ("stdio", "sfio", "robust_sfio")

# The study's Table 1 set; its block benchmarks ran at 8 KiB and at 757
# bytes.  `records` is ours (a program that frees memory between I/O calls)
# and stays out of the study's averages.
STUDY_BENCHMARKS = ("copyrw", "getc", "putc", "read", "revrd", "seekrw", "write")
BLOCK_BENCHMARKS = ("copyrw", "read", "revrd", "seekrw", "write")
STUDY_BLOCKS = (8192, 757)

# The study's published performance figures (DSN 2001, section 4 and its
# conclusions; the abstract says 1%).  Its Table 2 and Figures 3-4 are
# Pentium II / Linux 2.2 and Alpha numbers of 2001 hardware, so only these
# relative figures are set beside ours.
STUDY_BENCH = {
    "robust_over_sfio_slower_pct": [0, 15],
    "robust_over_sfio_mean_pct": 2,
    "robust_over_sfio_abstract_pct": 1,
    "robust_vs_stdio_within_pct": 2,
    "robust_vs_stdio_except": "the 757-byte block and copy benchmarks",
    "repetitions": 10,
    "file_mb": {"block": 1000, "byte": 250},
}


@dataclass
class Interval:
    """A median with a 95% distribution-free confidence interval.

    The interval is [x(k), x(n+1-k)] of the sorted sample, k the largest
    rank with P(Binomial(n, 1/2) < k) <= 2.5%: the median lies below x(k)
    only when fewer than k of the n values do.  No assumption about the
    distribution of run times (which is skewed: a busy machine only ever
    adds time).  `coverage` is the interval's exact confidence; below six
    values no pair of order statistics reaches 95%, so the interval is the
    whole range and its coverage says how much less it is."""
    median: float
    low: float
    high: float
    coverage: float
    n: int

    @classmethod
    def of(cls, values):
        xs = sorted(values)
        n = len(xs)
        if not n:
            return cls(0.0, 0.0, 0.0, 0.0, 0)
        below = [math.comb(n, i) / 2 ** n for i in range(n + 1)]  # P(exactly i below)
        k, tail = 1, below[0]
        while k < n // 2 and tail + below[k] <= 0.025:
            tail += below[k]
            k += 1
        return cls(statistics.median(xs), xs[k - 1], xs[n - k], 1 - 2 * tail, n)

    @property
    def width(self):
        return self.high - self.low

    def contains(self, value):
        return self.low <= value <= self.high

    def as_dict(self):
        return asdict(self)


MEASURES_OF_A_RUN = ("usr", "sys", "cpu", "elapsed")   # cpu: usr + sys


@dataclass
class BenchLibrary:
    """One library on one benchmark configuration: a median and interval
    per measure over the repetitions."""
    library: str
    usr: Interval
    sys: Interval
    cpu: Interval
    elapsed: Interval

    def as_dict(self):
        return {m: getattr(self, m).as_dict() for m in MEASURES_OF_A_RUN}


@dataclass
class BenchConfig:
    """One benchmark at one block size (0: a byte or record benchmark)."""
    benchmark: str
    block: int
    size_bytes: int
    libraries: dict          # {library: BenchLibrary}
    robust_over_sfio: Optional[Interval]    # per-repetition usr+sys ratios
    robust_over_stdio: Optional[Interval]
    elapsed_robust_over_sfio: Optional[Interval]

    @property
    def label(self):
        """The study's name for it: read at 8 KiB is "read", at 757 "read757"."""
        return self.benchmark if self.block in (0, 8192) else f"{self.benchmark}{self.block}"

    @property
    def in_study(self):
        return self.benchmark in STUDY_BENCHMARKS and \
            (self.block in STUDY_BLOCKS or self.benchmark not in BLOCK_BENCHMARKS)

    @property
    def ratio_undecided(self):
        """Whether the interval of Robust/SFIO holds 1: the measured
        difference is smaller than the noise, and no claim is made."""
        return self.robust_over_sfio is not None and self.robust_over_sfio.contains(1.0)

    def as_dict(self):
        ratios = {k: (getattr(self, k).as_dict() if getattr(self, k) else None)
                  for k in ("robust_over_sfio", "robust_over_stdio", "elapsed_robust_over_sfio")}
        return dict(benchmark=self.benchmark, block=self.block, label=self.label,
                    size_bytes=self.size_bytes, in_study=self.in_study,
                    ratio_undecided=self.ratio_undecided,
                    libraries={k: v.as_dict() for k, v in self.libraries.items()}, **ratios)


@dataclass
class BenchRun:
    """A `trebuchet bench io` run, every number the report shows of it."""
    info: dict               # its bench_runs row
    db: str
    configs: list            # [BenchConfig], in the study's order
    study: dict = field(default_factory=lambda: dict(STUDY_BENCH))

    def _ratios(self, attr, study_only=True):
        return [getattr(c, attr).median for c in self.configs
                if getattr(c, attr) and (c.in_study or not study_only)]

    @property
    def mean_robust_over_sfio(self):
        """Robust/SFIO in usr+sys, the mean over the study's configurations."""
        return rates.mean(self._ratios("robust_over_sfio"))

    @property
    def worst_robust_over_sfio(self):
        return max(self._ratios("robust_over_sfio"), default=0.0)

    @property
    def best_robust_over_sfio(self):
        return min(self._ratios("robust_over_sfio"), default=0.0)

    @property
    def mean_elapsed_robust_over_sfio(self):
        return rates.mean(self._ratios("elapsed_robust_over_sfio"))

    @property
    def stdio_comparable(self):
        """The configurations the study held to "within 2% of STDIO": all of
        its own but the 757-byte and copy benchmarks."""
        return [c for c in self.configs if c.in_study and c.block != 757
                and c.benchmark != "copyrw" and c.robust_over_stdio]

    @property
    def within_stdio(self):
        """How many of those are within the study's 2% of STDIO (or cheaper)."""
        limit = 1 + STUDY_BENCH["robust_vs_stdio_within_pct"] / 100
        return sum(c.robust_over_stdio.median <= limit for c in self.stdio_comparable)

    @property
    def ours(self):
        """The configurations that are ours, not the study's (records)."""
        return [c for c in self.configs if not c.in_study]

    @property
    def stdio_comparable_count(self):
        return len(self.stdio_comparable)

    @property
    def study_configs(self):
        return sum(c.in_study for c in self.configs)

    @property
    def repetitions(self):
        """The repetitions behind each median (those of SFIO's first)."""
        return self.configs[0].libraries["sfio"].cpu.n if self.configs else 0

    @property
    def confidence_pct(self):
        """The exact confidence of the intervals at that many repetitions."""
        return 100 * self.configs[0].libraries["sfio"].cpu.coverage if self.configs else 0.0

    def as_dict(self):
        return dict(run=self.info, db=self.db, study=self.study,
                    configs=[c.as_dict() for c in self.configs],
                    study_configs=self.study_configs,
                    mean_robust_over_sfio=self.mean_robust_over_sfio,
                    best_robust_over_sfio=self.best_robust_over_sfio,
                    worst_robust_over_sfio=self.worst_robust_over_sfio,
                    mean_elapsed_robust_over_sfio=self.mean_elapsed_robust_over_sfio,
                    stdio_comparable=self.stdio_comparable_count, within_stdio=self.within_stdio,
                    repetitions=self.repetitions, confidence_pct=self.confidence_pct)


def _config_order(benchmark, block):
    """The study's order: its benchmarks alphabetically as Table 1, 8 KiB
    before 757, then ours."""
    known = STUDY_BENCHMARKS + ("records",)
    rank = known.index(benchmark) if benchmark in known else len(known)
    return (rank, benchmark, -block)


def _paired_ratio(rows, top, bottom, measure):
    """The per-repetition ratios top/bottom of a measure: the libraries ran
    interleaved in each repetition, so a pair shares the machine's state."""
    by_rep = {}
    for r in rows:
        by_rep.setdefault(r["repetition"], {})[r["library"]] = r
    ratios = [pair[top][measure] / pair[bottom][measure] for pair in by_rep.values()
              if top in pair and bottom in pair and pair[bottom][measure] > 0]
    return Interval.of(ratios) if ratios else None


def bench_summary(conn, run, db=""):
    """The BenchRun of one bench run, from its raw rows."""
    raw = bench_tables.measurements(conn, run)
    groups = {}
    for b, block, lib, rep, size, usr, sys_, elapsed in raw:
        groups.setdefault((b, block), []).append(dict(
            library=lib, repetition=rep, size=size, usr=usr, sys=sys_, cpu=usr + sys_,
            elapsed=elapsed))
    configs = []
    for (b, block), rows in sorted(groups.items(), key=lambda kv: _config_order(*kv[0])):
        libs = {}
        for lib in LIBRARIES:
            mine = [r for r in rows if r["library"] == lib]
            if mine:
                libs[lib] = BenchLibrary(lib, *(Interval.of(r[m] for r in mine)
                                                for m in MEASURES_OF_A_RUN))
        configs.append(BenchConfig(b, block, max(r["size"] for r in rows), libs,
                                   _paired_ratio(rows, "robust_sfio", "sfio", "cpu"),
                                   _paired_ratio(rows, "robust_sfio", "stdio", "cpu"),
                                   _paired_ratio(rows, "robust_sfio", "sfio", "elapsed")))
    return BenchRun(bench_tables.run_row(conn, run), str(db), configs)


def newest_of_each(sources, newest_finished_run, summary):
    """[summary(conn, run, db)] of the newest finished run of each store
    (conn, db) that has one, newest_finished_run(conn) finding it."""
    out = []
    for conn, db in sources:
        run = newest_finished_run(conn)
        if run is not None:
            out.append(summary(conn, run, db))
    return out


def bench_runs(sources):
    """[BenchRun]: the newest finished bench run of each store that has one."""
    return newest_of_each(sources, bench_tables.newest_finished_run, bench_summary)
