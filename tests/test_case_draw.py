"""Which cases a run draws and which a shard holds, against golden vectors.

Where a function's cross product exceeds the cap, docs/architecture.md's "Test cases"
promises a sample that the same seed gives on every machine; `--shard K/N`
deals the drawn cases round robin over the whole campaign in run order
(harness/cases.h).  Every stored baseline, merged shard and published rate
rests on both, so a change must be one someone meant: here the draw is
written again from its description (splitmix64 seeded by the seed XOR the
FNV-1a hash of the function's name; Floyd's algorithm, each draw uniform in
[0, j] by a 128-bit multiply-high) and pinned by fixed vectors, then held
against harness/cases.c called directly and against what runs store."""
import ctypes
import subprocess

import pytest

from conftest import ROOT, function_cases, query, trebuchet

MASK = (1 << 64) - 1
FNV_OFFSET, FNV_PRIME = 0xcbf29ce484222325, 0x100000001b3


def fnv1a(text, h=FNV_OFFSET):
    for byte in text.encode():
        h = ((h ^ byte) * FNV_PRIME) & MASK
    return h


def splitmix64(state):
    """(next state, output)"""
    state = (state + 0x9e3779b97f4a7c15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & MASK
    z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & MASK
    return state, z ^ (z >> 31)


def draw(total, cap, seed, function):
    """The case indices a run of function draws, ascending."""
    if total <= cap:
        return list(range(total))
    state, chosen = seed ^ fnv1a(function), set()
    for j in range(total - cap, total):
        state, r = splitmix64(state)
        t = (r * (j + 1)) >> 64
        chosen.add(j if t in chosen else t)
    return sorted(chosen)


def deal(drawn, shard, shards):
    """{function: its cases in shard K of N}: drawn is [(function, cases)]
    in run order, each case at its place in the whole campaign."""
    out, place = {}, 0
    for function, cases in drawn:
        out[function] = [c for i, c in enumerate(cases, place) if i % shards == shard - 1]
        place += len(cases)
    return out


# (total, cap, seed, function) -> the cases drawn, worked out once with the
# functions above.  The first is stdio's fwrite at cap 20 and the default
# seed over our dictionary's product, as stores made so far hold it; the
# fourth and fifth draw an index already drawn (Floyd then takes j); the
# third's product is past 2^32, which a 64-bit multiply would overflow.
GOLDEN = {
    (22113, 20, 1, "fwrite"): [77, 914, 1453, 4317, 5023, 5297, 6900, 9775, 10156, 11068, 11661,
                               11733, 12323, 12446, 14592, 14664, 16045, 17551, 19909, 20545],
    (22113, 20, 7, "fread"): [495, 1638, 1859, 2132, 5235, 6941, 9087, 9187, 9308, 9323, 11283,
                              11892, 13102, 15364, 15373, 16064, 16928, 19252, 20470, 20586],
    (1 << 40, 6, 3, "sfwrite"): [476643164961, 692892655908, 760196143775, 843379755222,
                                 882657574926, 1016179093186],
    (12, 5, 0, "g"): [5, 6, 9, 10, 11],
    (100, 90, 2, "st_return"): sorted(set(range(100)) - {11, 16, 17, 29, 41, 42, 52, 59, 82, 88}),
    (10, 10, 1, "f"): list(range(10)),
}


@pytest.mark.parametrize("params", GOLDEN)
def test_the_description_gives_the_golden_vectors(params):
    assert draw(*params) == GOLDEN[params]


def test_the_deal_is_round_robin_over_the_campaign():
    # places 0-3, 4-5 and 6-8 of the campaign
    drawn = [("a", [10, 20, 30, 40]), ("b", [1, 2]), ("c", [7, 8, 9])]
    assert deal(drawn, 1, 3) == {"a": [10, 40], "b": [], "c": [7]}
    assert deal(drawn, 2, 3) == {"a": [20], "b": [1], "c": [8]}
    assert deal(drawn, 3, 3) == {"a": [30], "b": [2], "c": [9]}


@pytest.fixture(scope="module")
def cases_c(tmp_path_factory):
    """harness/cases.c on its own, as a shared object to call."""
    so = tmp_path_factory.mktemp("cases") / "cases.so"
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", f"-I{ROOT / 'harness'}", "-o", str(so),
                    str(ROOT / "harness/cases.c")], check=True)
    lib = ctypes.CDLL(str(so))
    lib.tb_cases_draw.restype = ctypes.c_long
    lib.tb_cases_draw.argtypes = [ctypes.c_uint64, ctypes.c_uint64, ctypes.c_uint64,
                                  ctypes.c_char_p, ctypes.POINTER(ctypes.c_uint64)]
    lib.tb_cases_total.argtypes = [ctypes.POINTER(ctypes.c_int), ctypes.c_int,
                                   ctypes.POINTER(ctypes.c_uint64)]
    lib.tb_cases_shard.restype = ctypes.c_size_t
    lib.tb_cases_shard.argtypes = [ctypes.POINTER(ctypes.c_uint64), ctypes.c_size_t,
                                   ctypes.c_uint64, ctypes.c_int, ctypes.c_int]
    lib.tb_cases_widen.argtypes = [ctypes.POINTER(ctypes.c_uint64), ctypes.c_size_t,
                                   ctypes.POINTER(ctypes.c_int), ctypes.c_int,
                                   ctypes.POINTER(ctypes.POINTER(ctypes.c_int)),
                                   ctypes.POINTER(ctypes.c_int)]
    return lib


# A pinned draw (`run --pin`) names its cases in the whole product: counts
# 3 x 4 x 2 with the second parameter held to values 1 and 3 and the third
# to 0 leave 6 cases, (a, 1, 0) and (a, 3, 0) for each a, at a*8 + v*2.
@pytest.mark.parametrize("chosen, expected", [
    ([None, [1, 3], [0]], [2, 6, 10, 14, 18, 22]),
    ([None, None, None], list(range(6))),
    ([[0, 2], [1, 2, 3], [1]], [3, 5, 7, 19, 21, 23]),
])
def test_the_harness_names_pinned_cases_in_the_whole_product(cases_c, chosen, expected):
    counts = (ctypes.c_int * 3)(3, 4, 2)
    lists = (ctypes.POINTER(ctypes.c_int) * 3)(
        *[(ctypes.c_int * len(c))(*c) if c else None for c in chosen])
    sizes = (ctypes.c_int * 3)(*[len(c) if c else 0 for c in chosen])
    cases = (ctypes.c_uint64 * 6)(*range(6))
    cases_c.tb_cases_widen(cases, 6, counts, 3, lists, sizes)
    assert list(cases) == expected


@pytest.mark.parametrize("counts, total", [([3, 1, 2], 6), ([1, 1], 1), ([4, 0, 2], 0)])
def test_the_harness_counts_the_cross_product(cases_c, counts, total):
    got = ctypes.c_uint64(99)
    assert cases_c.tb_cases_total((ctypes.c_int * len(counts))(*counts), len(counts),
                                  ctypes.byref(got)) == 0
    assert got.value == total


@pytest.mark.parametrize("params", GOLDEN)
def test_the_harness_draws_the_golden_vectors(cases_c, params):
    total, cap, seed, function = params
    out = (ctypes.c_uint64 * min(total, cap))()
    n = cases_c.tb_cases_draw(total, cap, seed, function.encode(), out)
    assert list(out[:n]) == GOLDEN[params]


@pytest.mark.parametrize("first, shard", [(0, 1), (0, 3), (4, 2), (5, 2), (7, 3)])
def test_the_harness_deals_as_described(cases_c, first, shard):
    cases = list(range(100, 111))
    array = (ctypes.c_uint64 * len(cases))(*cases)
    kept = cases_c.tb_cases_shard(array, len(cases), first, shard, 3)
    expected = deal([("before", [0] * first), ("f", cases)], shard, 3)["f"]
    assert list(array[:kept]) == expected


# sampled (fwrite, fgets) and not (ungetc), in an order that is not the spec's
FUNCTIONS = ["fwrite", "ungetc", "fgets"]


def stored_cases(db):
    rows = query(db, "SELECT function, case_index FROM results ORDER BY function, case_index")
    out = {}
    for function, case in rows:
        out.setdefault(function, []).append(case)
    return out


def test_runs_store_the_described_draw_and_deal(tmp_path):
    """A run at cap 150 with seed 7, whole and as shard 2 of 3: its cases are
    the description's, over the products `list functions` gives."""
    totals = function_cases("stdio")
    drawn = [(f, draw(totals[f], 150, 7, f)) for f in FUNCTIONS]
    assert totals["ungetc"] <= 150 < min(totals["fwrite"], totals["fgets"])
    run = ("run", "--target", "stdio", "--functions", ",".join(FUNCTIONS), "--cap", "150",
           "--seed", "7", "--quiet")
    trebuchet(*run, "--db", tmp_path / "whole.db")
    assert stored_cases(tmp_path / "whole.db") == dict(drawn)
    trebuchet(*run, "--shard", "2/3", "--db", tmp_path / "shard.db")
    assert stored_cases(tmp_path / "shard.db") == deal(drawn, 2, 3)
