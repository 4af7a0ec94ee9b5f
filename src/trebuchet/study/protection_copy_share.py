"""Copying against sharing, TR-96-20's section 7: what moving a call's data
into the service costs over leaving it where the caller has it, for each
pair of schemes that differ only in that (the process boundary over a
socketpair or in shared memory; the wasm sandbox with the data copied into
its linear memory or already there).  Per repetition, (copying's time less
sharing's) over the calls, so the interval is of the difference itself:
the paper's (C_copy - C_share) / I, its Figure 6 against the block size
and its Table 5 per byte at the instances it quotes."""
import statistics
from dataclasses import dataclass
from typing import Optional

from trebuchet.study.bench_stats import Interval
from trebuchet.study.protection_paper import INSTANCES

# (name, copying scheme, sharing scheme)
PAIRS = (("process", "process-copy", "process-shm"), ("wasm", "wasm-copy", "wasm-shared"))
# the benchmarks whose block a call is the grain (nullc's block, md5's
# piece); nsieve sends no block and tdbm one word, so no figure a byte
BLOCK_BENCHES = ("nullc", "md5")


@dataclass
class CopyShare:
    """One pair on one benchmark instance at one placement."""
    place: str
    pair: str
    bench: str
    size: int
    grain: int
    calls: int
    copy_ns: float                  # copying's median ns a call
    share_ns: float                 # sharing's
    per_call: Interval              # (copying - sharing) / calls, per repetition
    per_byte: Optional[Interval]    # the same over the block's bytes, where a call's block is the grain

    def as_dict(self):
        return {k: (v.as_dict() if isinstance(v, Interval) else v) for k, v in self.__dict__.items()}


def copy_share(rows):
    """[CopyShare] from measurement rows (repetition, scheme, place, bench,
    size, grain, calls, ns), for every instance both of a pair measured."""
    times = {}
    for rep, scheme, place, bench, size, grain, calls, ns in rows:
        times.setdefault((place, bench, size, grain), {}).setdefault(scheme, {})[rep] = (calls, ns)
    out = []
    for (place, bench, size, grain), by_scheme in times.items():
        for pair, copying, sharing in PAIRS:
            copy, share = by_scheme.get(copying, {}), by_scheme.get(sharing, {})
            reps = sorted(set(copy) & set(share))
            if not reps:
                continue
            calls = copy[reps[0]][0]
            diffs = [(copy[r][1] - share[r][1]) / calls for r in reps]
            out.append(CopyShare(
                place, pair, bench, size, grain, calls,
                statistics.median(copy[r][1] / calls for r in reps),
                statistics.median(share[r][1] / calls for r in reps),
                Interval.of(diffs),
                Interval.of(d / grain for d in diffs) if bench in BLOCK_BENCHES else None))
    return sorted(out, key=lambda c: (c.place, c.pair, c.bench, c.size, c.grain))


def series(pairs, place, pair, bench):
    """One pair's CopyShare on one benchmark by grain: a line of Figure 6."""
    return [c for c in pairs if (c.place, c.pair, c.bench) == (place, pair, bench)]


def table5(pairs, place):
    """[(title, the paper's cycles a byte, {pair: CopyShare})] at Table 5's
    instances measured here."""
    index = {(c.place, c.pair, c.bench, c.size, c.grain): c for c in pairs}
    out = []
    for (bench, size, grain), title, paper, _ in INSTANCES:
        got = {pair: index[place, pair, bench, size, grain] for pair, _, _ in PAIRS
               if (place, pair, bench, size, grain) in index}
        if got:
            out.append((title, paper, got))
    return out
