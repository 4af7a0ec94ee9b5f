"""The report's figures, drawn with matplotlib and readable in black and
white (grey fills and hatching, never colour alone).  Each figure is saved
as PNG and SVG, and each drawing function returns the heights of the bars
it actually drew, read back from the artists, so tests can hold the picture
to the numbers in summary.json."""
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)

DARK = dict(color="0.25", edgecolor="black")
LIGHT = dict(color="white", edgecolor="black", hatch="///")
plt.rcParams.update({"font.size": 9, "svg.hashsalt": "trebuchet", "svg.fonttype": "none"})


def _save(fig, out, name):
    paths = []
    for ext in ("png", "svg"):
        path = Path(out) / f"{name}.{ext}"
        fig.savefig(path, dpi=110, bbox_inches="tight", metadata={"Date": None} if ext == "svg" else {})
        paths.append(path.name)
    plt.close(fig)
    return paths


def _pair_chart(out, name, title, pairs, left_label, right_label, measure):
    """Horizontal bars, two per pair: the left target dark, the right hatched."""
    labels = [f"{p.left.name} / {p.right.name}" if p.left.name != p.right.name else p.left.name
              for p in pairs]
    left = [getattr(p.left, measure) for p in pairs]
    right = [getattr(p.right, measure) for p in pairs]
    fig, ax = plt.subplots(figsize=(7, 0.32 * len(pairs) + 1.2))
    ys = range(len(pairs))
    bars_left = ax.barh([y - 0.2 for y in ys], left, height=0.4, label=left_label, **DARK)
    bars_right = ax.barh([y + 0.2 for y in ys], right, height=0.4, label=right_label, **LIGHT)
    ax.set_yticks(list(ys), labels)
    ax.invert_yaxis()
    ax.set_xlabel(f"{measure.replace('_', ' ')} (%)")
    ax.set_xlim(0, max([100.0] + left + right))
    ax.set_title(title)
    ax.legend(loc="lower right")
    files = _save(fig, out, name)
    return dict(files=files, labels=labels,
                bars={left_label: [round(b.get_width(), 6) for b in bars_left],
                      right_label: [round(b.get_width(), 6) for b in bars_right]})


def pairs_figure(out, report):
    """(a) the study's Figure 1: STDIO vs SFIO failure rate per equivalent pair."""
    if not report.pairs:
        return None
    left = report.pairs[0].left.target
    return _pair_chart(out, "figure_a_pairs", f"{left} vs stdio: failure rate per equivalent pair",
                       report.pairs, left, "stdio", "failure_rate")


def hardened_figure(out, report):
    """(b) the study's Figure 2: SFIO vs Robust SFIO ABORT rate per function."""
    if not report.hardened:
        return None
    return _pair_chart(out, "figure_b_hardened", "sfio vs robust_sfio: ABORT rate per function",
                       report.hardened, "sfio", "robust_sfio", "abort_rate")


def targets_figure(out, report):
    """(c) normalized rates per target, ABORT and RESTART stacked."""
    names = [t.target for t in report.targets]
    aborts = [t.abort_rate for t in report.targets]
    restarts = [t.restart_rate for t in report.targets]
    fig, ax = plt.subplots(figsize=(1.3 * len(names) + 2, 3.2))
    bars_abort = ax.bar(names, aborts, label="ABORT", **DARK)
    bars_restart = ax.bar(names, restarts, bottom=aborts, label="RESTART", **LIGHT)
    ax.set_ylabel("normalized rate (%)")
    ax.set_title("normalized failure rates per target")
    ax.legend()
    files = _save(fig, out, "figure_c_targets")
    return dict(files=files, labels=names,
                bars={"ABORT": [round(b.get_height(), 6) for b in bars_abort],
                      "RESTART": [round(b.get_height(), 6) for b in bars_restart]})


def heatmap_figure(out, summary):
    """(d) function x parameter value: failure rate of the cases holding it."""
    functions = [f for f in summary.functions if f.tested]
    values = sorted({v for f in functions for v in f.value_counts})
    if not functions or not values:
        return None
    grid = [[f.value_failure_rate(v) if v in f.value_counts else float("nan") for v in values]
            for f in functions]
    fig, ax = plt.subplots(figsize=(max(6, 0.16 * len(values) + 2), 0.22 * len(functions) + 1.5))
    # the scale starts below 0 so that 0% is a faint grey and white is left
    # for "not a value of this function's parameters"
    cmap = matplotlib.colormaps["Greys"].copy()
    cmap.set_bad("white")
    image = ax.imshow(grid, cmap=cmap, vmin=-8, vmax=100, aspect="auto", interpolation="nearest")
    ax.set_yticks(range(len(functions)), [f.name for f in functions])
    ax.set_xticks(range(len(values)), values, rotation=90, fontsize=6)
    ax.set_title(f"{summary.target}: failure rate of the cases holding each value (%); "
                 "white: not a value of the function's parameters")
    fig.colorbar(image, ax=ax, fraction=0.02, ticks=[0, 20, 40, 60, 80, 100])
    files = _save(fig, out, f"figure_d_heatmap_{summary.target}")
    return dict(files=files, functions=[f.name for f in functions], values=values)


def draw_all(out, report):
    """Draws every figure that the report's data allows; {name: figure data}."""
    figures = {"a": pairs_figure(out, report), "b": hardened_figure(out, report),
               "c": targets_figure(out, report)}
    for summary in report.targets:
        figures[f"d_{summary.target}"] = heatmap_figure(out, summary)
    return {k: v for k, v in figures.items() if v}
