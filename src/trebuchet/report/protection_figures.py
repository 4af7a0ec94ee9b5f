"""The protection page's figures: TR-96-20's Figures 2 to 6 drawn again
from a `trebuchet bench protection` run (study/protection_stats.py), told
apart by marker and line style, not colour alone.  Called from figures.py,
which chose matplotlib's folder and backend and hands in its save."""
import matplotlib.pyplot as plt

from trebuchet.study import protection_copy_share
from trebuchet.study.protection_stats import HARDWARE, SOFTWARE

MARKERS = "os^vD<>px*h"
STYLES = ("-", "--", ":", "-.")


def _style(i):
    return dict(marker=MARKERS[i % len(MARKERS)], linestyle=STYLES[i % len(STYLES)],
                color=f"{0.6 * (i % 4) / 3:.2f}", markersize=4, linewidth=1)


def _lines(save, out, name, run, place, bench, vary, schemes, value, title, xlabel, ylabel,
           logy=True):
    """One line per scheme of value(cell) against the varied parameter, on
    log-log axes (log-linear without logy)."""
    series = {scheme: [(getattr(c, vary), value(c)) for c in run.series(place, bench, scheme, vary)]
              for scheme in schemes}
    return _draw(save, out, name, series, 2 if vary == "grain" else 10, title, xlabel, ylabel, logy)


def _draw(save, out, name, series, xbase, title, xlabel, ylabel, logy=True):
    """One line per {label: [(x, y)]}; returns what was drawn, read back
    from the artists."""
    fig, ax = plt.subplots(figsize=(7, 4.2), layout="constrained")
    drawn = {}
    for i, (label, pts) in enumerate(series.items()):
        pts = [(x, y) for x, y in pts if y is not None and (y > 0 or not logy)]
        if not pts:
            continue
        line, = ax.plot(*zip(*pts), label=label, **_style(i))
        drawn[label] = [[float(x), round(float(y), 6)] for x, y in zip(*line.get_data())]
    if not drawn:
        plt.close(fig)
        return None
    ax.set_xscale("log", base=xbase)
    if logy:
        ax.set_yscale("log")
    else:
        ax.axhline(0, color="black", linewidth=0.5)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(True, which="major", linewidth=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.02, 1))
    fig.suptitle(title, fontsize=9)
    return dict(files=save(fig, out, name), title=title, lines=drawn)


def protection_figures(out, report, save):
    """{name: figure}: per protection run and placement, md5's time against
    granularity (Figure 2), tdbm_d's against database size (Figure 3),
    md5's overhead against crossings (Figure 4), its normalized overhead
    against granularity (Figure 5) and copying's cost over sharing's
    against the block (Figure 6)."""
    figures = {}
    for i, run in enumerate(report.protection):
        for place in run.places:
            suffix = (f"_{i + 1}" if len(report.protection) > 1 else "") + \
                ("" if place == run.places[0] else f"_{place}")
            n = run.repetitions
            figures[f"g_protection_md5{suffix}"] = _lines(
                save, out, f"figure_g_protection_md5{suffix}", run, place, "md5", "grain", run.schemes,
                lambda c: c.ns.median / 1e6,
                f"md5 over 512 KB, the paper's Figure 2: execution time against granularity"
                f" (place {place}, median of {n})", "granularity: bytes a call", "time (ms)")
            figures[f"h_protection_tdbm{suffix}"] = _lines(
                save, out, f"figure_h_protection_tdbm{suffix}", run, place, "tdbm_d", "size",
                run.schemes, lambda c: c.ns.median / 1e6,
                f"tdbm_d, the paper's Figure 3: execution time against database size"
                f" (place {place}, median of {n})", "words in the database", "time (ms)")
            figures[f"i_protection_overhead{suffix}"] = _lines(
                save, out, f"figure_i_protection_overhead{suffix}", run, place, "md5", "calls",
                [s for s in HARDWARE if s in run.schemes],
                lambda c: c.overhead.median / 1e3 if c.overhead else None,
                f"md5, the paper's Figure 4: hardware protection's overhead against crossings,"
                f" log-log (place {place}; slope 1 is the paper's 45 degrees)",
                "crossings (calls into the service)", "overhead over the plain call (\u00b5s)")
            figures[f"j_protection_normalized{suffix}"] = _lines(
                save, out, f"figure_j_protection_normalized{suffix}", run, place, "md5", "grain",
                [s for s in SOFTWARE + ("wasm-copy", "checks", "kernel-floor") if s in run.schemes],
                lambda c: c.ratio.median - 1 if c.ratio else None,
                f"md5, the paper's Figure 5: normalized overhead (time over the plain call's,"
                f" less 1) against granularity (place {place}; flat for software protection)",
                "granularity: bytes a call", "normalized overhead", logy=False)
            figures[f"k_protection_copy{suffix}"] = _copying(save, out, f"figure_k_protection_copy{suffix}",
                                                             run, place)
    return figures


def _copying(save, out, name, run, place):
    """Figure 6: copying's cost a call over sharing's against the block, per
    pair of schemes and benchmark whose block a call is the grain."""
    series = {f"{pair}: {bench}": [(c.grain, c.per_call.median / 1e3) for c in protection_copy_share.series(
                  run.copy_share, place, pair, bench)]
              for pair, _, _ in protection_copy_share.PAIRS for bench in protection_copy_share.BLOCK_BENCHES}
    return _draw(save, out, name, series, 2,
                 f"md5 and nullc, the paper's Figure 6: copying's cost a call over sharing's against"
                 f" the block (place {place}, median of {run.repetitions}; Eq. 10 is a slope of 1)",
                 "block: bytes a call", "copying over sharing (\u00b5s a call)")
