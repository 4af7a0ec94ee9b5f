"""Summarise protbench's lines without a store: the study layer's numbers
(src/trebuchet/study/protection_stats.py), as `trebuchet bench protection`
prints them.

    python3 summarize.py results.tsv [--all]

Without --all: the paper's reference instances, schemes in rows; with
--all, every instance.  Then TR-96-20's five assertions."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

from trebuchet.study import bench_protection, protection_stats, protection_text  # noqa: E402


def main(argv):
    if not argv:
        print(__doc__)
        return 2
    with open(argv[0]) as f:
        rows = [r for r in map(bench_protection.parse, f) if r]
    if not rows:
        print("no measurements")
        return 1
    run = protection_stats.summarize({}, argv[0], [
        (r["rep"], r["scheme"], r["place"], r["bench"], r["size"], r["grain"], r["calls"], r["ns"])
        for r in rows], {})
    print(protection_text.as_text(run, "--all" in argv))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
