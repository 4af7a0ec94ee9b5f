"""The closing text of `trebuchet bench protection` (and of
bench/protection/summarize.py): the paper's instances, schemes in rows,
ratios to the plain call; then the five assertions."""


def _cell(iv):
    return f"{iv.median:.2f} [{iv.low:.2f}-{iv.high:.2f}]"


def as_text(run, every=False):
    """The table of ratios per placement (every instance with every), and
    the assertions."""
    lines = [f"ratios to the plain call, median [interval] over {run.repetitions} repetitions"
             f" (interval coverage {run.confidence_pct:.0f}%)"]
    for place in run.places:
        lines.append(f"\nplace: {place}")
        if every:
            for c in sorted((c for c in run.cells if c.place == place and c.ratio),
                            key=lambda c: (c.bench, c.size, c.grain, c.scheme)):
                lines.append(f"{c.bench}\t{c.size}\t{c.grain}\t{c.scheme}\t"
                             f"{c.ns.median / c.calls:.1f} ns/call\t{_cell(c.ratio)}")
            continue
        ref = run.reference(place)
        lines.append("scheme".ljust(16) + "".join(title.ljust(24) for title, _ in ref))
        for scheme in run.schemes:
            lines.append(scheme.ljust(16) + "".join(
                (_cell(cells[scheme].ratio) if scheme in cells else "-").ljust(24)
                for _, cells in ref))
        lines.append("plain, ns/call".ljust(16) + "".join(
            (f"{cells['none'].ns.median / cells['none'].calls:.0f}" if "none" in cells
             else "-").ljust(24) for _, cells in ref))
    lines.append("\nTR-96-20's assertions:")
    for a in run.assertions:
        lines.append(f"{a.number}. {a.claim} {a.verdict.upper()}\n   the paper: {a.paper}"
                     f"\n   today: {a.today}")
    return "\n".join(lines)
