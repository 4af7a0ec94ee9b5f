"""TR-96-20's measures of a `trebuchet bench protection` run: per scheme,
benchmark and granularity the time as a ratio to the plain call of the same
repetition and placement (median and distribution-free interval), the
overhead over it, the log-log slope of overhead against crossings for the
hardware schemes (the paper's Figure 4), and the paper's five assertions
decided with today's figures beside its own."""
import math
import statistics
from dataclasses import asdict, dataclass, field
from typing import Optional

from trebuchet.study import protection_copy_share
from trebuchet.study.bench_stats import Interval, newest_of_each
from trebuchet.study.protection_paper import INSTANCES
from trebuchet.store import protection as tables

# the paper's hardware-based options (a boundary the CPU or kernel keeps)
# and software-based ones, as this bench builds them
HARDWARE = ("process-copy", "process-shm", "pageprot", "pkey", "kernel-floor")
# software fault isolation first, as the paper's break-even reads it (the
# sandbox sharing its data, as the paper's SFI did); checks are paid per
# call, as a crossing is, and wasm-copy copies per call: not the paper's
# software kind
SOFTWARE = ("wasm-shared", "rust")
# the instances the paper's tables quote (Tables 5-7): (bench, size, grain), a title
REFERENCE = [
    (("nullc", 512, 1024), "nullc 1K"),
    (("md5", 524288, 64), "md5 G=64"),
    (("md5", 524288, 512), "md5 G=512"),
    (("md5", 524288, 65536), "md5 G=64K"),
    (("nsieve", 160000, 640), "nsieve 14,683"),
    (("tdbm_i", 512, 1), "tdbm_i 512"),
    (("tdbm_f", 512, 1), "tdbm_f 512"),
    (("tdbm_d", 512, 1), "tdbm_d 512"),
]
PAGE = 4096
# what decides an assertion here (docs/protection.md says why)
SLOPE_BAND = (0.8, 1.2)         # assertion 1: a 45-degree line, give or take
FLAT_BAND = 0.1                 # assertion 2: beta-1 within this of its median
MISS_FACTOR = 1.25              # assertion 3: misses per instruction at most this x the plain call's,
MISS_FLOOR = 1.0                # or at most this many per 1,000 more (under 0.1 cycle an
                                # instruction at 100 cycles a miss)
SHARE_FACTOR = 2.0              # assertion 4: copying's premium per byte, small over large
PAPER_BREAK_EVEN = 1000         # assertion 5: instructions


@dataclass
class Cell:
    """One scheme on one benchmark instance at one placement."""
    place: str
    bench: str
    size: int
    grain: int
    scheme: str
    calls: int
    ns: Interval              # the calls' wall time
    ratio: Optional[Interval]     # over the plain call's, per repetition
    overhead: Optional[Interval]  # ns over the plain call's, per repetition

    def as_dict(self):
        return {k: (v.as_dict() if isinstance(v, Interval) else v)
                for k, v in self.__dict__.items()}


@dataclass
class Assertion:
    number: int
    claim: str
    paper: str
    today: str
    verdict: str              # "holds", "does not hold", "not measured"


@dataclass
class ProtectionRun:
    info: dict
    db: str
    cells: list                       # [Cell]
    counts: dict                      # {(scheme, bench, size, grain): (instructions, d1, ll)}
    slopes: dict = field(default_factory=dict)   # {(place, scheme): slope on md5}
    assertions: list = field(default_factory=list)
    copy_share: list = field(default_factory=list)   # [CopyShare]: copying over sharing, per pair

    @property
    def places(self):
        """same before split: the first decides the assertions."""
        seen = set(c.place for c in self.cells)
        return [p for p in ("same", "split", "any") if p in seen] + \
            sorted(seen - {"same", "split", "any"})

    @property
    def schemes(self):
        return list(dict.fromkeys(c.scheme for c in self.cells))

    @property
    def repetitions(self):
        return max((c.ns.n for c in self.cells), default=0)

    @property
    def confidence_pct(self):
        return 100 * Interval.of(range(self.repetitions)).coverage if self.repetitions else 0.0

    def cell(self, place, bench, size, grain, scheme):
        return self._index.get((place, bench, size, grain, scheme))

    def __post_init__(self):
        self._index = {(c.place, c.bench, c.size, c.grain, c.scheme): c for c in self.cells}

    def series(self, place, bench, scheme, vary="grain"):
        """The cells of one scheme on one benchmark, by the varied parameter."""
        return sorted((c for c in self.cells if (c.place, c.bench, c.scheme) == (place, bench, scheme)),
                      key=lambda c: getattr(c, vary))

    def reference(self, place):
        """[(title, {scheme: Cell})] of the paper's instances measured here."""
        out = []
        for (bench, size, grain), title in REFERENCE:
            got = {s: self.cell(place, bench, size, grain, s) for s in self.schemes}
            got = {s: c for s, c in got.items() if c and c.ratio}
            if got:
                out.append((title, got))
        return out

    @property
    def software_columns(self):
        """the software schemes measured, and wasm-copy beside them"""
        return [s for s in SOFTWARE + ("wasm-copy",) if s in self.schemes]

    @property
    def copy_pairs(self):
        """the pairs of a copying and a sharing scheme measured"""
        return list(dict.fromkeys(c.pair for c in self.copy_share))

    def software_costs(self, place):
        """[(title, Table 7's beta-1, {scheme: Cell})]: each software scheme
        (and wasm-copy) at Table 7's instances measured here."""
        out = []
        for (bench, size, grain), title, _, paper in INSTANCES:
            got = {s: self.cell(place, bench, size, grain, s) for s in self.software_columns}
            got = {s: c for s, c in got.items() if c and c.ratio}
            if got:
                out.append((title, paper, got))
        return out

    def instruction_beta(self, scheme, cell):
        """beta-1 in instructions: callgrind's count of scheme over the
        plain call's at cell's instance, less one; None where not counted.
        Unlike time, it does not vary from run to run."""
        got = self.counts.get((scheme, cell.bench, cell.size, cell.grain))
        base = self.counts.get(("none", cell.bench, cell.size, cell.grain))
        return got[0] / base[0] - 1 if got and base and base[0] else None

    def table5(self, place):
        return protection_copy_share.table5(self.copy_share, place)

    def as_dict(self):
        return dict(run=self.info, db=self.db, repetitions=self.repetitions,
                    cells=[c.as_dict() for c in self.cells],
                    copy_share=[c.as_dict() for c in self.copy_share],
                    slopes={f"{p}/{s}": v for (p, s), v in self.slopes.items()},
                    assertions=[asdict(a) for a in self.assertions])


def cells_of(rows):
    """[Cell] from measurement rows (repetition, scheme, place, bench, size,
    grain, calls, ns): ratios and overheads paired within a repetition."""
    times = {}
    for rep, scheme, place, bench, size, grain, calls, ns in rows:
        times.setdefault((place, bench, size, grain, scheme), {})[rep] = (calls, ns)
    cells = []
    for (place, bench, size, grain, scheme), by_rep in times.items():
        base = times.get((place, bench, size, grain, "none"), {})
        paired = [(ns, base[rep][1]) for rep, (_, ns) in by_rep.items()
                  if rep in base and base[rep][1] > 0]
        cells.append(Cell(place, bench, size, grain, scheme,
                          max(c for c, _ in by_rep.values()),
                          Interval.of(ns for _, ns in by_rep.values()),
                          Interval.of(ns / b for ns, b in paired) if paired else None,
                          Interval.of(ns - b for ns, b in paired) if paired else None))
    return cells


def loglog_slope(points):
    """The least-squares slope of log y against log x over the points with
    both positive; None with fewer than three."""
    pts = [(math.log(x), math.log(y)) for x, y in points if x > 0 and y > 0]
    if len(pts) < 3:
        return None
    mx = statistics.mean(x for x, _ in pts)
    my = statistics.mean(y for _, y in pts)
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    return sum((x - mx) * (y - my) for x, y in pts) / sxx if sxx else None


def slopes(run):
    """{(place, scheme): the slope of md5's overhead against its calls}, for
    each hardware scheme measured (the paper's Figure 4)."""
    out = {}
    for place in run.places:
        for scheme in [s for s in HARDWARE if s in run.schemes]:
            pts = [(c.calls, c.overhead.median) for c in run.series(place, "md5", scheme)
                   if c.overhead]
            slope = loglog_slope(pts)
            if slope is not None:
                out[place, scheme] = slope
    return out


def _fmt(x, digits=2):
    return f"{x:.{digits}f}"


def assertion_1(run):
    claim = "Hardware protection costs in proportion to the crossings into the service."
    paper = "overhead against invocations rises at 45 degrees on log-log axes (Figure 4, md5): slope 1"
    if not run.slopes:
        return Assertion(1, claim, paper, "no hardware scheme measured at three md5 granularities",
                         "not measured")
    today = "; ".join(f"{s} ({p}) {_fmt(v)}" for (p, s), v in run.slopes.items())
    ok = all(SLOPE_BAND[0] <= v <= SLOPE_BAND[1] for v in run.slopes.values())
    return Assertion(1, claim, paper, f"fitted slopes on md5: {today}",
                     "holds" if ok else "does not hold")


def assertion_2(run):
    claim = ("Software protection costs in proportion to the instructions run in the service:"
             " its normalized overhead (beta-1) is constant.")
    paper = "beta-1 flat across md5's granularities (Figure 5); 0.24 to 0.88 by benchmark (Table 7, SFI)"
    parts, ok, seen = [], True, False
    for place in run.places[:1]:
        for scheme in [s for s in SOFTWARE if s in run.schemes]:
            betas = [c.ratio.median - 1 for c in run.series(place, "md5", scheme) if c.ratio]
            if len(betas) < 2:
                continue
            seen = True
            mid = statistics.median(betas)
            flat = all(abs(b - mid) <= FLAT_BAND for b in betas)
            ok = ok and flat
            refs = [f"{title} {_fmt(cells[scheme].ratio.median - 1)}"
                    for title, cells in run.reference(place) if scheme in cells]
            parts.append(f"{scheme}: beta-1 {_fmt(min(betas))} to {_fmt(max(betas))} over md5's"
                         f" {len(betas)} granularities" + (f" ({', '.join(refs)})" if refs else ""))
    if not seen:
        return Assertion(2, claim, paper, "no software scheme measured on md5", "not measured")
    return Assertion(2, claim, paper, "; ".join(parts), "holds" if ok else "does not hold")


def assertion_3(run):
    claim = "The effect of protection on the memory system is not very significant."
    paper = "memory cycles per instruction (MCPI) much the same under every scheme (Tables 3, 4)"
    if not run.counts:
        return Assertion(3, claim, paper, "needs callgrind's cache simulation: run with"
                         " --instructions", "not measured")
    worst = None   # the largest excess over what is allowed, at the paper's instances
    for (bench, size, grain), title in REFERENCE:
        base = run.counts.get(("none", bench, size, grain))
        if not base or not base[0]:
            continue
        plain = (base[1] + base[2]) / base[0] * 1000
        for scheme in run.schemes:
            got = run.counts.get((scheme, bench, size, grain))
            if scheme == "none" or not got or not got[0]:
                continue
            mine = (got[1] + got[2]) / got[0] * 1000
            excess = mine - max(MISS_FACTOR * plain, plain + MISS_FLOOR)
            if worst is None or excess > worst[0]:
                worst = (excess, scheme, title, mine, plain)
    if worst is None:
        return Assertion(3, claim, paper, "no scheme counted beside the plain call at the paper's"
                         " instances", "not measured")
    excess, scheme, title, mine, plain = worst
    return Assertion(3, claim, paper,
                     f"simulated cache misses per 1,000 instructions at the paper's instances, the"
                     f" largest change: {scheme} on {title}, {_fmt(mine)} against the plain"
                     f" call's {_fmt(plain)}",
                     "holds" if excess <= 0 else "does not hold")


def _copy_premium(run, place, cell):
    """Copying's ns per byte sent over sharing's, at one nullc instance."""
    share = run.cell(place, cell.bench, cell.size, cell.grain, "process-shm")
    if not share or not cell.overhead or not share.overhead:
        return None
    return (cell.ns.median - share.ns.median) / (cell.calls * cell.grain)


def assertion_4(run):
    claim = "Sharing data instead of copying it matters up to a page, little for larger blocks."
    paper = ("copying over sharing, cycles a byte: 9.37 for nullc at 1 KB, 8.04 for md5 at 512 B,"
             " 1.20 or less for blocks above a page (Table 5)")
    place = run.places[0] if run.places else None
    got = [(c.grain, _copy_premium(run, place, c)) for c in run.series(place, "nullc", "process-copy")] \
        if place else []
    got = [(g, p) for g, p in got if p is not None]
    small = [p for g, p in got if g <= PAGE]
    large = [p for g, p in got if g > PAGE]
    if not small or not large:
        return Assertion(4, claim, paper, "needs process-copy and process-shm on nullc at blocks"
                         " up to a page and above", "not measured")
    s, l = statistics.median(small), statistics.median(large)
    return Assertion(4, claim, paper,
                     f"copying over sharing, ns a byte on nullc: {s:.3f} at blocks up to a page"
                     f" (median of {len(small)}), {l:.3f} above (median of {len(large)})",
                     "holds" if l <= 0 or s >= SHARE_FACTOR * l else "does not hold")


def _median_over_md5(run, place, scheme, value):
    """The median of value(cell) over md5's granularities, or None."""
    got = [v for v in (value(c) for c in run.series(place, "md5", scheme)) if v is not None]
    return statistics.median(got) if got else None


def assertion_5(run):
    claim = ("Technology favours hardware protection: the service size above which it is cheaper"
             " than software protection falls.")
    paper = ("break-even (alpha-1)T_U / (beta-1) = 175 cycles / 0.17, about 1,000 instructions"
             " (section 8.4)")
    place = run.places[0] if run.places else None
    hw = next((s for s in ("pkey", "pageprot", "process-shm") if s in run.schemes), None)
    sw = next((s for s in SOFTWARE if s in run.schemes), None)
    # medians over md5's granularities: one instance is at the mercy of one noisy repetition
    per_call = hw and _median_over_md5(
        run, place, hw, lambda c: c.overhead.median / c.calls if c.overhead else None)
    beta = sw and _median_over_md5(run, place, sw, lambda c: c.ratio.median - 1 if c.ratio else None)
    if per_call is None or beta is None:
        return Assertion(5, claim, paper, "needs a hardware and a software scheme on md5",
                         "not measured")
    said = f"{hw}'s overhead a call {per_call:.0f} ns, {sw}'s beta-1 {_fmt(beta)} (medians over md5)"
    if beta <= 0:
        return Assertion(5, claim, paper, f"{said}: software protection is no slower than the plain"
                         " call, so cheaper at any service size", "does not hold")
    ns = per_call / beta
    text = f"{said}: break-even at a service of {ns:.0f} ns"
    per_ns = _median_over_md5(run, place, "none", lambda c: (
        run.counts[("none", c.bench, c.size, c.grain)][0] / c.ns.median
        if ("none", c.bench, c.size, c.grain) in run.counts else None))
    if per_ns is None:
        return Assertion(5, claim, paper, text + "; in instructions needs --instructions",
                         "not measured")
    instructions = ns * per_ns
    return Assertion(5, claim, paper, text + f", {instructions:,.0f} instructions (the plain call"
                     f" runs {per_ns:.2f} a ns)",
                     "holds" if instructions <= PAPER_BREAK_EVEN else "does not hold")


def summarize(info, db, rows, counts):
    """The ProtectionRun of measurement rows and callgrind counts."""
    run = ProtectionRun(info, str(db), cells_of(rows), counts,
                        copy_share=protection_copy_share.copy_share(rows))
    run.slopes = slopes(run)
    run.assertions = [f(run) for f in (assertion_1, assertion_2, assertion_3, assertion_4,
                                       assertion_5)]
    return run


def protection_summary(conn, run, db=""):
    """The ProtectionRun of one stored run."""
    return summarize(tables.run_row(conn, run), db, tables.measurements(conn, run),
                     tables.counts(conn, run))


def protection_runs(sources):
    """[ProtectionRun]: the newest finished protection run of each store that has one."""
    return newest_of_each(sources, tables.newest_finished_run, protection_summary)
