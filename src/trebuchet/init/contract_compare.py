"""A drafted contract compared with a hand-written one, promise by promise
(`make contract-drafts`).

A promise is one (function, kind, parameter, value): kinds are the error
convention (`error`, its `when` the value), `accepts`, `errors` (each value
of each parameter a promised error's `when` names), `undefined` and
`returns`. Two promises agree when all four are the same. The draft's
error convention counts only where it came from the documentation (the
line `# error convention:` above it), not from the return type's guess;
the hand-written spec's always counts.

    python -m trebuchet.init.contract_compare DRAFT.yaml HAND.yaml"""
import sys
from collections import Counter
from pathlib import Path

from trebuchet.core.errors import TrebuchetError
from trebuchet.core.text_files import read_text
from trebuchet.spec import load as specs

KINDS = ("error", "accepts", "errors", "undefined", "returns")


def promises(spec, documented=None):
    """{(function, kind, param, value)} of a loaded spec; documented: the
    functions whose error convention counts (None: every one)."""
    out = set()
    for f in spec.functions:
        if documented is None or f.name in documented:
            out.add((f.name, "error", "", f.error_when))
        c = f.contract
        if c is not None and c.returns:
            out.add((f.name, "returns", "", c.returns))
        for e in (c.errors if c is not None else ()):
            out |= {(f.name, "errors", p, v) for p, values in e.when for v in values}
        for p in f.params:
            out |= {(f.name, "accepts", p.name, v) for v in p.accepts}
            out |= {(f.name, "undefined", p.name, v) for v in p.undefined}
    return out


def documented_conventions(text):
    """The functions of a draft whose `error:` the documentation gave."""
    found, current = set(), None
    for line in text.splitlines():
        if line.startswith("  - name: "):
            current = line.split(":", 1)[1].strip()
        elif line.strip().startswith("# error convention:") and current:
            found.add(current)
    return found


def compare(draft_path, hand_path):
    """The lines of the comparison."""
    draft, hand = specs.load(Path(draft_path)), specs.load(Path(hand_path))
    both = {f.name for f in draft.functions} & {f.name for f in hand.functions}
    drafted = {p for p in promises(draft, documented_conventions(read_text(Path(draft_path))))
               if p[0] in both}
    written = promises(hand)
    agreed, missing, extra = drafted & written, written - drafted, drafted - written
    counts = {name: Counter(p[1] for p in group)
              for name, group in (("agreed", agreed), ("missing", missing), ("extra", extra))}
    lines = [f"{draft.target} drafted ({draft_path}) against {hand.target} ({hand_path}),"
             f" promise by promise",
             f"  functions: {len(draft.functions)} drafted, {len(hand.functions)} hand-written,"
             f" {len(both)} in both (the draft's promises on the others not counted)",
             f"  {'kind':<10} {'agreed':>7} {'missing':>8} {'extra':>6}"]
    for kind in KINDS + ("total",):
        row = [sum(c.values()) if kind == "total" else c[kind] for c in counts.values()]
        lines.append(f"  {kind:<10} {row[0]:>7} {row[1]:>8} {row[2]:>6}")
    if drafted:
        lines.append(f"  of the drafted promises, {len(agreed)} of {len(drafted)} agree"
                     f" ({100 * len(agreed) / len(drafted):.0f}%); of the hand-written,"
                     f" {len(agreed)} of {len(written)} were found"
                     f" ({100 * len(agreed) / max(len(written), 1):.0f}%)")
    lines.append("  extra (each to be read against the documentation):")
    lines += [f"    {' '.join(x for x in p if x)}" for p in sorted(extra)]
    return lines


def main(argv):
    if len(argv) != 2:
        print("usage: python -m trebuchet.init.contract_compare DRAFT.yaml HAND.yaml",
              file=sys.stderr)
        return 2
    try:
        print("\n".join(compare(*argv)))
    except TrebuchetError as e:
        print(f"trebuchet: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
