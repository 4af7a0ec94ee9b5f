#!/bin/bash
# What Robust SFIO adds to SFIO in instructions, benchmark by benchmark:
# callgrind's count for the SFIO and the Robust SFIO build of iobench on the
# same input, and their ratio.  Unlike `trebuchet bench io`'s times, the
# counts do not depend on what else the machine is doing, so a change to the
# library can be weighed on a busy machine; they leave out the kernel, so
# they say nothing of system time.
#
#   bench/io/instructions.sh [BENCHMARK[:BLOCK] ...]   (default: all, 8192 and 757)
#
# Run from the checkout after `make build`; needs valgrind.  SIZE_MIB
# (default 8) sizes the input and what each benchmark moves.
set -euo pipefail
cd "$(dirname "$0")/../.."
size=$(( ${SIZE_MIB:-8} << 20 ))
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
.venv/bin/python -c "from trebuchet.study.bench_io import make_input; from pathlib import Path; make_input(Path('$work/input'), $size)"

count() {  # BINARY BENCHMARK BLOCK -> callgrind's instruction total
	valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" \
		"$1" "$2" "$3" "$work/input" "$work/output" "$size" >/dev/null 2>"$work/cg.err"
	rm -f "$work/output"
	sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$work/cg.err"
}

configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(copyrw:8192 copyrw:757 getc putc read:8192 read:757
	revrd:8192 revrd:757 seekrw:8192 seekrw:757 write:8192 write:757 records)
printf '%-12s %14s %14s %8s\n' config sfio robust_sfio ratio
for config in "${configs[@]}"; do
	benchmark=${config%%:*}
	block=${config#*:}
	[ "$block" != "$config" ] || block=8192
	plain=$(count build/bench/io/iobench_sfio "$benchmark" "$block")
	robust=$(count build/bench/io/iobench_robust_sfio "$benchmark" "$block")
	awk -v c="$config" -v p="$plain" -v r="$robust" \
		'BEGIN { printf "%-12s %14d %14d %8.3f\n", c, p, r, r / p }' 
done
