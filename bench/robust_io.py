"""What Robust SFIO costs against plain SFIO on the I/O benchmarks.

Runs build/bench/robust_io_plain and robust_io_robust (bench/robust_io.c) on
the same file, the two interleaved in every repetition (which goes first
alternates), and prints per benchmark and block size the median of the
per-repetition ratios Robust/SFIO of usr+sys CPU time (the child's rusage),
with the lowest and highest ratio seen, and the median seconds of each.

    python3 bench/robust_io.py [--size-mib N] [--repeat R] [--only getc,putc]
"""
import argparse
import os
import statistics
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BINARIES = {lib: ROOT / "build" / "bench" / f"robust_io_{lib}" for lib in ("plain", "robust")}
BLOCKED = ("copyrw", "read", "revrd", "seekrw", "write")
CONFIGS = [(b, s) for b in BLOCKED[:1] for s in (8192, 757)] + [("getc", 1), ("putc", 1)] + \
    [(b, s) for b in BLOCKED[1:] for s in (8192, 757)] + [("records", 1)]


def make_input(path, mib):
    line = b"".join(bytes([33 + (i * 7) % 90]) for i in range(71)) + b"\n"
    with open(path, "wb") as f:
        f.write(line * (mib * 1024 * 1024 // len(line)))


def cpu_seconds(lib, bench, block, data, out):
    """usr and sys seconds of one run, from the child's own rusage."""
    proc = subprocess.Popen([str(BINARIES[lib]), bench, str(block), data, out],
                            stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    if status:
        raise SystemExit(f"{lib} {bench} {block}: exit status {status}")
    return usage.ru_utime + usage.ru_stime


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mib", type=int, default=128)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--only", default="", help="comma-separated benchmark names")
    args = parser.parse_args()
    configs = [c for c in CONFIGS if not args.only or c[0] in args.only.split(",")]
    with tempfile.TemporaryDirectory(dir=os.environ.get("TMPDIR", "/tmp")) as tmp:
        data, out = os.path.join(tmp, "in.txt"), os.path.join(tmp, "out.txt")
        make_input(data, args.size_mib)
        times = {c: {"plain": [], "robust": []} for c in configs}
        for rep in range(args.repeat):
            order = ("plain", "robust") if rep % 2 == 0 else ("robust", "plain")
            for config in configs:
                for lib in order:
                    times[config][lib].append(cpu_seconds(lib, *config, data, out))
    print(f"{args.size_mib} MiB, {args.repeat} repetitions; usr+sys seconds (medians), "
          "ratio Robust/SFIO: median [min, max] of the per-repetition ratios")
    print(f"{'benchmark':<16}{'SFIO':>8}{'Robust':>8}{'ratio':>8}   range")
    study = []
    for (bench, block), t in times.items():
        ratios = [r / p for p, r in zip(t["plain"], t["robust"])]
        median = statistics.median(ratios)
        if bench != "records":
            study.append(median)
        name = bench if block == 1 else f"{bench} {block}"
        print(f"{name:<16}{statistics.median(t['plain']):8.3f}{statistics.median(t['robust']):8.3f}"
              f"{median:8.3f}   [{min(ratios):.3f}, {max(ratios):.3f}]")
    if study:
        print(f"mean of the study's configurations: {statistics.mean(study):.3f}, "
              f"worst {max(study):.3f}")


if __name__ == "__main__":
    main()
