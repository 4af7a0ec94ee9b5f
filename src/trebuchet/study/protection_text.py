"""The closing text of `trebuchet bench protection` (and of
bench/protection/summarize.py): the paper's instances, schemes in rows,
ratios to the plain call, software protection's beta-1 beside the paper's
Table 7 and copying over sharing beside its Table 5; then the five
assertions."""


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
        lines += _software_costs(run, place) + _copying(run, place)
    lines.append("\nTR-96-20's assertions:")
    for a in run.assertions:
        lines.append(f"{a.number}. {a.claim} {a.verdict.upper()}\n   the paper: {a.paper}"
                     f"\n   today: {a.today}")
    return "\n".join(lines)


def _beta(iv):
    return f"{iv.median - 1:.2f} [{iv.low - 1:.2f}-{iv.high - 1:.2f}]"


def _software_costs(run, place):
    """beta-1 of each software scheme beside Table 7's SFI figures"""
    rows = run.software_costs(place)
    if not rows:
        return []
    schemes = run.software_columns
    lines = ["\nbeta-1 (ratio - 1) beside Table 7's SFI: in time, median [interval];"
             " in instructions where counted", "instance".ljust(16) +
             "Table 7".ljust(10) + "".join(s.ljust(36) for s in schemes)]
    for title, paper, cells in rows:
        lines.append(title.ljust(16) + f"{paper:.2f}".ljust(10) + "".join(
            (_beta(cells[s].ratio) + _instructions(run, s, cells[s]) if s in cells else "-").ljust(36)
            for s in schemes))
    return lines


def _instructions(run, scheme, cell):
    beta = run.instruction_beta(scheme, cell)
    return "" if beta is None else f", instr. {beta:.2f}"


def _copying(run, place):
    """copying's premium over sharing beside Table 5's"""
    rows = run.table5(place)
    if not rows:
        return []
    pairs = run.copy_pairs
    lines = ["\ncopying over sharing beside Table 5: ns a call [interval], ns a byte of the block",
             "instance".ljust(16) + "Table 5, cycles a byte".ljust(24) + "".join(p.ljust(44) for p in pairs)]
    for title, paper, got in rows:
        cells = []
        for p in pairs:
            c = got.get(p)
            text = "-" if c is None else f"{_cell(c.per_call)}" + (
                f", {c.per_byte.median:.3f}/B" if c.per_byte else "")
            cells.append(text.ljust(44))
        lines.append(title.ljust(16) + f"{paper:.2f}".ljust(24) + "".join(cells))
    return lines
