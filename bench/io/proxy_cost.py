"""What SFIO behind a guarded call and behind a process boundary cost on the
study's I/O benchmarks: iobench built on SFIO, Robust SFIO, sfio_guarded and
sfio_proxy (make build), run in turn
on the same files, REPS times interleaved; prints each benchmark's median
elapsed seconds and the ratios to plain SFIO.  Elapsed, not CPU: the proxy's
server does the work while its caller waits, and the caller's rusage would
leave the server out.  The byte benchmarks (getc, putc) move
256 KiB, the block ones 64 MiB: through the proxy each byte is a round trip.
records is left out: its formats take up to four arguments, and the proxy
passes the one word of the spec's shapes (targets/sfio_proxy/proxy_functions.c).

    python3 bench/io/proxy_cost.py [REPS]
"""
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "src"))
from trebuchet.study import bench_io  # noqa: E402

LIBRARIES = ("sfio", "robust_sfio", "sfio_guarded", "sfio_proxy")
MiB = 1 << 20
BLOCKED = ("copyrw", "read", "revrd", "seekrw", "write")
# (benchmark, block, bytes moved); the byte benchmarks ignore their block
CONFIGS = ([(b, block, 64 * MiB) for b in BLOCKED for block in (8192, 757)]
           + [(b, 1, MiB // 4) for b in ("getc", "putc")])


def elapsed(library, config, files):
    benchmark, block, size = config
    output = files / "out.txt"
    output.unlink(missing_ok=True)
    start = time.monotonic()
    done = subprocess.run([str(ROOT / "build" / "bench" / "io" / f"iobench_{library}"), benchmark,
                           str(block), str(files / "in.txt"), str(output), str(size)],
                          capture_output=True, text=True, check=True)
    return time.monotonic() - start, done.stdout.split(" sum=")[-1]


def main():
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    with tempfile.TemporaryDirectory() as tmp:
        files = Path(tmp)
        bench_io.make_input(files / "in.txt", 64 * MiB)
        print("benchmark\tblock\t" + "\t".join(LIBRARIES) + "\trobust\tguarded\tproxy (each / sfio)")
        for config in CONFIGS:
            times = {lib: [] for lib in LIBRARIES}
            for rep in range(reps):
                sums = set()
                for lib in LIBRARIES[rep % 4:] + LIBRARIES[:rep % 4]:
                    seconds, checksum = elapsed(lib, config, files)
                    times[lib].append(seconds)
                    sums.add(checksum)
                assert len(sums) == 1, f"{config}: the libraries read different bytes"
            median = {lib: statistics.median(t) for lib, t in times.items()}
            print(f"{config[0]}\t{config[1] if config[0] in BLOCKED else '-'}\t" + "\t".join(f"{median[lib]:.4f}" for lib in LIBRARIES)
                  + "".join(f"\t{median[lib] / median['sfio']:.2f}" for lib in LIBRARIES[1:]),
                  flush=True)


if __name__ == "__main__":
    main()
