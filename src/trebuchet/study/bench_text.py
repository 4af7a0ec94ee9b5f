"""The closing table of `trebuchet bench io`: the numbers of
src/trebuchet/report/bench_stats.py (BenchRun) laid out as text, one line per
configuration."""
from trebuchet.study import bench_stats

from trebuchet.study.bench_io import MiB


def _secs(x):
    return f"{x:.3g}" if x >= 0.001 else "0"


def _cell(interval):
    return f"{_secs(interval.median)} [{_secs(interval.low)}, {_secs(interval.high)}]"


def _ratio(interval, flag=False):
    """A ratio [its interval]; with flag, "~1" when the interval holds 1."""
    if interval is None:
        return "-"
    text = f"{interval.median:.3f} [{interval.low:.3f}, {interval.high:.3f}]"
    return text + (" ~1" if flag and interval.contains(1.0) else "")


def as_text(bench):
    """The closing table: per configuration, usr+sys seconds per library
    (median [interval]), elapsed seconds (median), and Robust SFIO's
    usr+sys over SFIO's and over stdio's (median of the per-repetition
    ratios [interval])."""
    libs = bench_stats.LIBRARIES
    head = ["config", "MiB"] + [f"{lib} cpu" for lib in libs] + \
        [f"{lib} el" for lib in libs] + ["robust/sfio cpu", "robust/stdio cpu"]
    rows = []
    for c in bench.configs:
        got = [c.libraries.get(lib) for lib in libs]
        rows.append([c.label, f"{c.size_bytes / MiB:g}"]
                    + [_cell(g.cpu) if g else "-" for g in got]
                    + [_secs(g.elapsed.median) if g else "-" for g in got]
                    + [_ratio(c.robust_over_sfio, True), _ratio(c.robust_over_stdio)])
    widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]
    lines = ["  ".join(v.ljust(w) if i == 0 else v.rjust(w)
                       for i, (v, w) in enumerate(zip(r, widths))) for r in [head] + rows]
    lines.append(f"cpu: usr+sys seconds, el: elapsed seconds; median of {bench.repetitions}"
                 f" repetitions [distribution-free interval, {bench.confidence_pct:.1f}%"
                 " confidence]; ~1: the interval holds 1, no difference shown")
    if bench.study_configs:
        lines.append(f"Robust SFIO / SFIO in usr+sys, mean over the study's {bench.study_configs}"
                     f" configurations: {bench.mean_robust_over_sfio:.3f} (from "
                     f"{bench.best_robust_over_sfio:.3f} to {bench.worst_robust_over_sfio:.3f});"
                     " the study: 0% to 15% slower, 2% on average")
    return "\n".join(lines)
