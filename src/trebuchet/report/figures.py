"""The report's figures, drawn with matplotlib and readable in black and
white (grey fills and hatching, never colour alone).  Each figure is saved
as PNG and SVG, and each drawing function returns the heights of the bars
it actually drew, read back from the artists, so tests can hold the picture
to the numbers in summary.json."""
import os
from pathlib import Path

from trebuchet.core import paths


# matplotlib's font cache and settings beside the plugins, not in the
# user's ~/.config and ~/.cache: trebuchet writes where it says it does
# (paths.BUILD), and a user whose home is not writable (a service account)
# gets no paragraph about a temporary folder.  A MPLCONFIGDIR of the
# user's own is kept.
os.environ.setdefault("MPLCONFIGDIR", str(paths.BUILD / "matplotlib"))

import matplotlib  # noqa: E402  (after choosing its folder)

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)

DPI = 110
DARK = dict(color="0.25", edgecolor="black")
LIGHT = dict(color="white", edgecolor="black", hatch="///")
plt.rcParams.update({"font.size": 9, "svg.hashsalt": "trebuchet", "svg.fonttype": "none"})


def _save(fig, out, name, placed=False):
    """Saves fig as PNG and SVG, laid out and measured once for both (each
    savefig(bbox_inches="tight") would lay it out and draw it twice more);
    a figure placed by hand (placed) is saved whole, unmeasured."""
    fig.set_dpi(DPI)
    if fig.get_layout_engine():
        fig.get_layout_engine().execute(fig)
        fig.set_layout_engine("none")
    bbox = None if placed else fig.get_tightbbox().padded(plt.rcParams["savefig.pad_inches"])
    paths = []
    for ext in ("png", "svg"):
        path = Path(out) / f"{name}.{ext}"
        fig.savefig(path, dpi=DPI, bbox_inches=bbox,
                    metadata={"Date": None} if ext == "svg" else {})
        paths.append(path.name)
    plt.close(fig)
    return paths


def _pair_chart(out, name, title, pair_set, measure):
    """Horizontal bars, two per pair: the left target dark, the right hatched;
    the legend names the two targets."""
    pairs, labels = pair_set.pairs, pair_set.labels
    left_label, right_label = pair_set.left.target, pair_set.right.target
    left = [getattr(p.left, measure) for p in pairs]
    right = [getattr(p.right, measure) for p in pairs]
    fig, ax = plt.subplots(figsize=(7, 0.32 * len(pairs) + 1.2))
    ys = range(len(pairs))
    bars_left = ax.barh([y - 0.2 for y in ys], left, height=0.4, label=left_label, **DARK)
    bars_right = ax.barh([y + 0.2 for y in ys], right, height=0.4, label=right_label, **LIGHT)
    # each bar's value at its end, so that a 0% bar is seen to be there
    for bars in (bars_left, bars_right):
        ax.bar_label(bars, fmt="%.0f", fontsize=6, padding=2)
    ax.set_yticks(list(ys), labels)
    ax.invert_yaxis()
    ax.set_xlabel(MEASURES[measure])
    ax.set_xlim(0, 100)
    ax.set_title(title)
    ax.legend(loc="lower right")
    files = _save(fig, out, name)
    return dict(files=files, labels=labels, title=title,
                bars={left_label: [round(b.get_width(), 6) for b in bars_left],
                      right_label: [round(b.get_width(), 6) for b in bars_right]})


MEASURES = {"failure_rate": "failure rate: ABORT + RESTART cases over cases less SETUP (%)",
            "abort_rate": "ABORT rate: ABORT cases over cases less SETUP (%)"}


def pairs_figures(out, report):
    """(a) the study's Figure 1: a target (SFIO) vs STDIO, failure rate per
    equivalent pair; one figure per target with stdio equivalents."""
    return {f"a_{s.key}": _pair_chart(
        out, f"figure_a_{s.key}",
        f"{s.left.target} vs {s.right.target}: failure rate per equivalent pair", s,
        "failure_rate") for s in report.equivalents}


def hardened_figures(out, report):
    """(b) the study's Figure 2: ABORT rate per function before (the target
    a spec extends: SFIO) and after (the extending build: Robust SFIO)."""
    return {f"b_{s.key}": _pair_chart(
        out, f"figure_b_{s.key}",
        f"{s.left.target} (before) vs {s.right.target} (after): ABORT rate per function", s,
        "abort_rate") for s in report.hardening}


STUDY_BAR = dict(color="0.85", edgecolor="black", hatch="..")


def targets_figure(out, report):
    """(c) normalized rates per target, ABORT and RESTART stacked, and the
    study's published normalized ABORT rate beside ours where it gave one;
    the title and legend name the study only when its bars are drawn."""
    names = [t.target for t in report.targets]
    aborts = [t.abort_rate for t in report.targets]
    restarts = [t.restart_rate for t in report.targets]
    published = {s.target: s.study_value for s in report.study_figures
                 if s.study_value is not None}
    xs = range(len(names))
    fig, ax = plt.subplots(figsize=(1.6 * len(names) + 4, 3.4), layout="constrained")
    width = 0.38
    # ours left of the study's bar where it has one; "ours" said only then
    ours_xs = [x - width / 2 if published else x for x in xs]
    ours = " (ours)" if published else ""
    bars_abort = ax.bar(ours_xs, aborts, width, label="ABORT" + ours, **DARK)
    bars_restart = ax.bar(ours_xs, restarts, width, bottom=aborts, label="RESTART" + ours,
                          **LIGHT)
    study_xs = [x + width / 2 for x, n in zip(xs, names) if n in published]
    bars_study = ax.bar(study_xs, [published[n] for n in names if n in published], width,
                        label="ABORT (the study, DSN 2001)" if published else None,
                        **STUDY_BAR)
    # the ABORT rate, which is what the study's bar is; RESTART apart
    ax.bar_label(bars_restart, labels=[
        f"{t.abort_rate:.2f}" + (f"\n+{t.restart_rate:.2f} RESTART" if t.restart_rate >= 0.005 else "")
        for t in report.targets], fontsize=8)
    ax.bar_label(bars_study, fmt="%.2f", fontsize=8)
    ax.set_xticks(list(xs), names)
    ax.set_ylabel("normalized rate (%)")
    ax.set_title("normalized rates per target" + (": ours and the study's" if published else ""))
    ax.set_ylim(0, 1.1 * max([1.0] + [t.failure_rate for t in report.targets]
                              + list(published.values())))
    legend = ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1))
    files = _save(fig, out, "figure_c_targets")
    study = iter(round(b.get_height(), 6) for b in bars_study)
    return dict(files=files, labels=names, title=ax.get_title(),
                legend=[t.get_text() for t in legend.get_texts()],
                bars={"ABORT": [round(b.get_height(), 6) for b in bars_abort],
                      "RESTART": [round(b.get_height(), 6) for b in bars_restart],
                      "study ABORT": [next(study) if n in published else None for n in names]})


def _heat_rows(summary):
    """{datatype: [(row label, {value name: ValueStats})]}: one row per
    parameter of that datatype, labelled function(parameter)."""
    panels = {}
    for f in summary.functions:
        for param in f.params:
            if param.values:
                panels.setdefault(param.datatype, []).append(
                    (f"{f.name}({param.name})", {v.short: v for v in param.values}))
    return dict(sorted(panels.items()))


# A heat map's geometry, in inches: a row of cells, the figure's width, and
# one character of its 7-point labels (a generous mean, so labels never meet).
HEAT_ROW, HEAT_WIDTH, HEAT_CHAR = 0.17, 9.0, 0.07


def heatmap_figure(out, summary):
    """(d) one panel per datatype: its parameters (function(parameter)) by
    the values that datatype has, shaded by the failure rate of the cases
    holding that value in that parameter.  A target without a failing case
    gets none: every cell would be 0%.  The panels share one bare axes,
    placed by hand in row units: an axes of its own per panel, with its
    ticks and a layout engine to fit them, made this figure ten times as
    slow to draw as any other."""
    panels = _heat_rows(summary)
    if not panels or not any(f.failing for f in summary.functions):
        return None
    # the scale starts below 0 so that 0% is a faint grey and white is left
    # for "not drawn in this run's sample"
    cmap = matplotlib.colormaps["Greys"].copy()
    cmap.set_bad("white")
    left = HEAT_CHAR * max(len(label) for rows in panels.values() for label, _ in rows) + 0.2
    cells_width = HEAT_WIDTH - left - 1.0  # the colour bar's room on the right
    layout, y = [], 0.0
    for datatype, rows in panels.items():
        values = sorted({v for _, by_value in rows for v in by_value})
        # under the cells: the value labels at 45 degrees, their width times sin 45
        below = HEAT_CHAR * max(map(len, values)) * 0.71 / HEAT_ROW + 1.0
        layout.append((datatype, rows, values, y + 1.5))
        y += 1.5 + len(rows) + below
    cells_height, height = HEAT_ROW * y, HEAT_ROW * y + 0.5  # the title's band on top
    fig = plt.figure(figsize=(HEAT_WIDTH, height))
    ax = fig.add_axes([left / HEAT_WIDTH, 0, cells_width / HEAT_WIDTH, cells_height / height])
    ax.set_axis_off()
    ax.set_xlim(0, 1)
    ax.set_ylim(y, 0)
    drawn = {}
    for datatype, rows, values, top in layout:
        grid = [[by_value[v].rate if v in by_value else float("nan") for v in values]
                for _, by_value in rows]
        image = ax.imshow(grid, cmap=cmap, vmin=-8, vmax=100, aspect="auto",
                          interpolation="none", extent=(0, 1, top + len(rows), top))
        ax.text(0, top - 0.4, f"{datatype} parameters", fontsize=8)
        for i, (label, _) in enumerate(rows):
            ax.text(-0.01, top + i + 0.5, label, fontsize=7, ha="right", va="center")
        for j, value in enumerate(values):
            ax.text((j + 0.5) / len(values), top + len(rows) + 0.3, value, fontsize=7,
                    rotation=45, ha="right", va="top", rotation_mode="anchor")
        drawn[datatype] = dict(rows=[label for label, _ in rows], values=values)
    ax.set_ylim(y, 0)  # imshow sets them to its image's
    ax.set_xlim(0, 1)
    title = (f"{summary.target}: failure rate of the cases holding each value, per parameter (%);"
             " white: not drawn in this run's sample")
    fig.suptitle(title, fontsize=9, y=1 - 0.25 / height, va="center")
    # the colour bar beside the first panels, 4 inches tall at most
    bar_height = min(4.0, 0.8 * cells_height)
    bar = fig.add_axes([(HEAT_WIDTH - 0.75) / HEAT_WIDTH, (cells_height - bar_height) / height,
                        0.15 / HEAT_WIDTH, bar_height / height])
    fig.colorbar(image, cax=bar, ticks=[0, 20, 40, 60, 80, 100])
    files = _save(fig, out, f"figure_d_heatmap_{summary.target}", placed=True)
    return dict(files=files, title=title, panels=drawn)


# the three libraries of the I/O benchmarks, told apart without colour
LIBRARY_BARS = {"stdio": dict(color="white", edgecolor="black", hatch="///"),
                "sfio": dict(color="0.25", edgecolor="black"),
                "robust_sfio": dict(color="0.7", edgecolor="black", hatch="..")}
LIBRARY_NAMES = {"stdio": "STDIO (glibc)", "sfio": "SFIO", "robust_sfio": "Robust SFIO"}


def _bench_panel(ax, configs, libs, measure):
    """One panel of grouped bars; returns {library: [bar artists]}."""
    width = 0.8 / len(libs)
    drawn = {}
    for i, lib in enumerate(libs):
        got = [getattr(c.libraries[lib], measure) if lib in c.libraries else None for c in configs]
        xs = [x + (i - (len(libs) - 1) / 2) * width for x in range(len(configs))]
        errors = [[g.median - g.low if g else 0 for g in got],
                  [g.high - g.median if g else 0 for g in got]]
        drawn[lib] = ax.bar(xs, [g.median if g else 0.0 for g in got], width, yerr=errors,
                            capsize=2, label=LIBRARY_NAMES[lib], error_kw=dict(elinewidth=0.8),
                            **LIBRARY_BARS[lib])
    ax.set_xticks(range(len(configs)), [c.label for c in configs], rotation=30, ha="right")
    return drawn


def bench_figure(out, name, bench, measure, title, ylabel):
    """Grouped bars, one group per benchmark configuration and one bar per
    library: the median over the repetitions, with a whisker for its
    interval, whose confidence the title gives (the study's Figures 3 and
    4).  Our records benchmark gets a
    panel and a scale of its own, so that it cannot flatten the study's."""
    groups = [g for g in ([c for c in bench.configs if c.in_study],
                          [c for c in bench.configs if not c.in_study]) if g]
    libs = [lib for lib in LIBRARY_BARS if any(lib in c.libraries for c in bench.configs)]
    fig, axes = plt.subplots(1, len(groups), squeeze=False, layout="constrained",
                             figsize=(max(6.0, 0.75 * len(bench.configs) + 3), 3.6),
                             gridspec_kw=dict(width_ratios=[len(g) + 0.5 for g in groups]))
    bars, whiskers = {lib: [] for lib in libs}, {lib: [] for lib in libs}
    for ax, configs in zip(axes[0], groups):
        for lib, drawn in _bench_panel(ax, configs, libs, measure).items():
            bars[lib] += [round(b.get_height(), 6) for b in drawn]
            whiskers[lib] += [[round(getattr(c.libraries[lib], measure).low, 6),
                               round(getattr(c.libraries[lib], measure).high, 6)]
                              if lib in c.libraries else None for c in configs]
    axes[0][0].set_ylabel(ylabel)
    axes[0][-1].legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.02, 1))
    fig.suptitle(title, fontsize=9)
    files = _save(fig, out, name)
    labels = [c.label for g in groups for c in g]
    return dict(files=files, labels=labels, title=title, bars=bars, whiskers=whiskers)


def bench_figures(out, report):
    """(e) the study's Figure 3, elapsed seconds, and (f) its Figure 4,
    usr+sys seconds, per benchmark configuration and library; one pair per
    store holding a bench run."""
    figures = {}
    for i, bench in enumerate(report.bench):
        suffix = f"_{i + 1}" if len(report.bench) > 1 else ""
        n = bench.repetitions
        figures[f"e_bench{suffix}"] = bench_figure(
            out, f"figure_e_bench_elapsed{suffix}", bench, "elapsed",
            f"I/O benchmarks, the study's Figure 3: elapsed time per benchmark and library"
            f" (median of {n}, whiskers: {bench.confidence_pct:.1f}% interval)", "elapsed (s)")
        figures[f"f_bench{suffix}"] = bench_figure(
            out, f"figure_f_bench_cpu{suffix}", bench, "cpu",
            f"I/O benchmarks, the study's Figure 4: processing time, usr + sys, per benchmark"
            f" and library (median of {n}, whiskers: {bench.confidence_pct:.1f}% interval)",
            "usr + sys (s)")
    return figures


def groups(out, report):
    """[(name, draw)]: the figures the report's data allows, in groups, each
    drawn by a call that returns {name: figure data or None}; the heat maps'
    names start with "(d)"."""
    groups = [("(a) pairs", lambda: pairs_figures(out, report)),
              ("(b) before and after", lambda: hardened_figures(out, report))]
    if report.targets:
        groups.append(("(c) targets", lambda: {"c": targets_figure(out, report)}))
    groups += [(f"(d) heat map of {s.target}",
                lambda s=s: {f"d_{s.target}": heatmap_figure(out, s)}) for s in report.targets]
    return groups + [("(e, f) I/O benchmarks", lambda: bench_figures(out, report)),
                     ("(g to k) protection options", lambda: _protection(out, report))]


def _protection(out, report):
    from trebuchet.report.protection_figures import protection_figures
    return protection_figures(out, report, _save)


def draw(some_groups, timed):
    """Draws the groups; {name: figure data}, each name starting with the
    figure's letter, (a) to (k).  timed(name, draw) draws one group (`bench
    report` times each)."""
    figures = {}
    for name, draw_group in some_groups:
        figures.update(timed(name, draw_group))
    return {k: dict(v, letter=k[0]) for k, v in figures.items() if v}
