"""Summarise protbench's lines: each scheme's time as a ratio to the plain
call ("none") measured in the same repetition and placement, the median
over repetitions with a distribution-free interval for it (order statistics
of the binomial, about 95%; with fewer than six repetitions it is the range,
and its coverage is printed).

    python3 summarize.py results.tsv [--all] [--min]

Without --all: the paper's reference instances (TR-96-20 Tables 5-7: md5 over
512 KB, nsieve at 14,683 primes, tdbm at 512 words, nullc at 1 KB), schemes
in rows.  With --all: every instance, one line per scheme.  Reads only its
input file; the later `trebuchet bench protection` command replaces it.

--min adds, per instance, the ratio of the fastest repetitions (each
scheme's least time over the plain call's least time): on a machine shared
with other work, the repetitions least disturbed by it."""
import csv
import math
import sys
from collections import defaultdict

# (bench, size, grain) the paper's tables quote, and a title for each
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


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def interval(xs):
    """(lo, hi, coverage): ranks k and n-k+1 with P(Binomial(n, 1/2) < k) <= 2.5%"""
    xs, n = sorted(xs), len(xs)
    k, below = 0, 0.0
    while True:
        nxt = below + math.comb(n, k) / 2 ** n
        if nxt > 0.025:
            break
        below, k = nxt, k + 1
    k = max(k, 1)
    coverage = 1 - 2 * sum(math.comb(n, i) for i in range(k)) / 2 ** n
    return xs[k - 1], xs[n - k], coverage


def load(path):
    with open(path) as f:
        rows = [r for r in csv.DictReader((line for line in f if not line.startswith("#")), delimiter="\t")]
    times = defaultdict(dict)   # (place, bench, size, grain, rep) -> scheme -> ns
    per_call = defaultdict(list)
    for r in rows:
        key = (r["place"], r["bench"], int(r["size"]), int(r["grain"]))
        times[key + (int(r["rep"]),)][r["scheme"]] = int(r["ns"])
        per_call[key + (r["scheme"],)].append(float(r["ns_per_call"]))
    ratios = defaultdict(list)  # (place, bench, size, grain, scheme) -> [ratio per rep]
    for key, by_scheme in times.items():
        base = by_scheme.get("none")
        for scheme, ns in by_scheme.items():
            if base:
                ratios[key[:4] + (scheme,)].append(ns / base)
    return ratios, per_call


def cell(xs):
    lo, hi, _ = interval(xs)
    return f"{median(xs):.2f} [{lo:.2f}-{hi:.2f}]"


def main(argv):
    if not argv:
        print(__doc__)
        return 2
    ratios, per_call = load(argv[0])
    if not ratios:
        print("no measurements")
        return 1
    reps = max(len(v) for v in ratios.values())
    print(f"ratios to the plain call, median [interval] over {reps} repetitions "
          f"(interval coverage {interval(list(range(reps)))[2]:.0%})")
    places = sorted({k[0] for k in ratios})
    schemes = list(dict.fromkeys(k[4] for k in ratios))
    for place in places:
        print(f"\nplace: {place}")
        if "--all" in argv:
            for key in sorted(k for k in ratios if k[0] == place):
                xs = ratios[key]
                print("\t".join(map(str, key[1:])) + f"\t{median(per_call[key]):.1f} ns/call\t{cell(xs)}")
            continue
        wanted = [(inst, title) for inst, title in REFERENCE if (place,) + inst + ("none",) in ratios]
        print("scheme".ljust(14) + "".join(title.ljust(26) for _, title in wanted))
        for scheme in schemes:
            line = scheme.ljust(14)
            for inst, _ in wanted:
                xs = ratios.get((place,) + inst + (scheme,))
                line += (cell(xs) if xs else "-").ljust(26)
            print(line)
        if "--min" in argv:
            print("least/least".ljust(14) + "".join(" ".ljust(26) for _ in wanted))
            for scheme in schemes:
                line = scheme.ljust(14)
                for inst, _ in wanted:
                    key = (place,) + inst
                    xs, base = per_call.get(key + (scheme,)), per_call.get(key + ("none",))
                    line += (f"{min(xs) / min(base):.2f}" if xs and base else "-").ljust(26)
                print(line)
        print("plain call, ns/call".ljust(14) + "".join(
            f"{median(per_call[(place,) + inst + ('none',)]):.0f}".ljust(26) for inst, _ in wanted))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
