"""The protection bench's schemes (bench/protection/): each returns what the
plain call returns on every benchmark, and the schemes that promise it turn
a fault in the service into an error return the caller carries on from.

Runs the built driver only (protbench), building it with make when it is
missing; the Rust scheme is built and tested where cargo is, the wasm ones
where clang, wasm-ld and wasm2c are (make bench-protection installs them).  Expected
results come from Python's own md5 and sieve, and from a dict standing for
the database."""
import hashlib
import os
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "build", "bench", "protection")
PROTBENCH = os.path.join(OUT, "protbench")
WORDS = "/usr/share/dict/american-english"
SENTINEL_EXIT = 77          # protbench fault: the fault reached the caller's own handler
SVC_EFAULT, SVC_ECRASH = -14, -32
TDBM_KEY_MAX = 51
# the schemes that must catch a fault in the service, and the error each gives
CATCHING = {"guard-mask": SVC_EFAULT, "guard-nomask": SVC_EFAULT, "guard-once": SVC_EFAULT,
            "process-copy": SVC_ECRASH, "process-shm": SVC_ECRASH, "rust": SVC_EFAULT,
            "wasm-copy": SVC_EFAULT, "wasm-shared": SVC_EFAULT}
WASM_TOOLS = ("clang", "wasm-ld", "wasm2c")


@pytest.fixture(scope="module")
def protbench():
    subprocess.run(["make", "-s", "--no-print-directory", "protection-c"], cwd=ROOT, check=True)
    if shutil.which("cargo"):
        subprocess.run(["make", "-s", "--no-print-directory", "protection-rust"], cwd=ROOT, check=True)
    if all(shutil.which(tool) for tool in WASM_TOOLS):
        subprocess.run(["make", "-s", "--no-print-directory", "protection-wasm"], cwd=ROOT, check=True)
    return PROTBENCH


@pytest.fixture(scope="module")
def schemes(protbench):
    """the schemes available here, by name"""
    out = subprocess.run([protbench, "list"], capture_output=True, text=True, check=True).stdout
    rows = [line.split("\t") for line in out.splitlines()]
    return [name for name, state, _ in rows if state == "available"]


def run(protbench, *args):
    """protbench run's measurement lines, as dicts; at least one per scheme"""
    proc = subprocess.run([protbench, "run", "--warmup", "0", "--place", "any", *args],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = [line.split("\t") for line in proc.stdout.splitlines() if not line.startswith("#")]
    head, rows = lines[0], lines[1:]
    return [dict(zip(head, row)) for row in rows]


def pattern(n):
    """the bytes md5 hashes and nullc's block starts as (protbench.c, fill_pattern)"""
    return bytes(((i * 2654435761) & 0xFFFFFFFF) >> 24 for i in range(n))


def odd_primes(limit):
    """primes 3..limit: what nsieve counts"""
    flags = bytearray([1]) * (limit + 1)
    flags[0:2] = b"\0\0"
    for i in range(2, int(limit ** 0.5) + 1):
        if flags[i]:
            flags[i * i::i] = bytes(len(range(i * i, limit + 1, i)))
    return sum(flags) - 1


def by_check(rows, bench):
    return {(r["scheme"], int(r["size"]), int(r["grain"])): r["check"] for r in rows if r["bench"] == bench}


def test_services_import_nothing(protbench):
    services = os.path.join(OUT, "services.o")
    undefined = subprocess.run(["nm", "-u", services], capture_output=True, text=True, check=True).stdout
    assert undefined.strip() == ""


def test_md5_digests_match_hashlib_under_every_scheme(protbench, schemes):
    expected = hashlib.md5(pattern(512 * 1024)).hexdigest()
    got = by_check(run(protbench, "--bench", "md5", "--grain", "64,100,4096,524288"), "md5")
    assert {scheme for scheme, _, _ in got} == set(schemes)
    assert len(got) == 4 * len(schemes)
    assert set(got.values()) == {expected}


def test_nsieve_counts_match_a_python_sieve_under_every_scheme(protbench, schemes):
    rows = run(protbench, "--bench", "nsieve", "--size", "16384,160000", "--grain", "10,640,100000")
    got = by_check(rows, "nsieve")
    assert len(got) == 6 * len(schemes)
    for (_, limit, _), check in got.items():
        assert check == f"primes={odd_primes(limit)}"


def test_nullc_returns_the_touched_block_under_every_scheme(protbench, schemes):
    got = by_check(run(protbench, "--bench", "nullc", "--grain", "4,4096,65536"), "nullc")
    assert len(got) == 3 * len(schemes)
    calls = 512
    for (_, _, grain), check in got.items():
        # the first byte starts at 0 and comes back one higher from every call
        first = sum(k % 256 for k in range(1, calls + 1))
        assert check == f"pages={calls * -(-grain // 4096)} first={first}"


def fnv1a(word):
    h = 2166136261
    for b in word:
        h = ((h ^ b) * 16777619) & 0xFFFFFFFF
    return h


def tdbm_expected(words, n):
    """protbench's tdbm run, against a dict: its checks for insert, fetch and delete"""
    keys = [words[i * len(words) // n] for i in range(n)]
    db, fresh = {}, 0
    for i, key in enumerate(keys):
        fresh += key not in db
        db[key] = i
    x, mask, hits, values = 88172645463325252, (1 << 64) - 1, 0, 0
    for _ in range(n // 2):
        x ^= (x << 13) & mask
        x ^= x >> 7
        x ^= (x << 17) & mask
        key = keys[x % n]
        if key in db:
            hits, values = hits + 1, values + db[key]
    deleted = 0
    for i in range(1, n, 2):
        if keys[i] in db:
            del db[keys[i]]
            deleted += 1
    contents = sum(fnv1a(k) * (v + 1) for k, v in db.items()) & mask
    return {"tdbm_i": f"new={fresh}", "tdbm_f": f"hits={hits} values={values}",
            "tdbm_d": f"deleted={deleted} count={len(db)} sum={contents}"}


@pytest.fixture(scope="module")
def word_list(tmp_path_factory):
    """Debian's wamerican where it is installed, else a list of our own"""
    if os.path.exists(WORDS):
        return WORDS
    path = tmp_path_factory.mktemp("words") / "words"
    path.write_text("".join(f"w{i:05d}{'x' * (i % 17)}\n" for i in range(5000)))
    return str(path)


def test_tdbm_contents_match_a_dict_under_every_scheme(protbench, schemes, word_list):
    with open(word_list, "rb") as f:
        words = [w for w in f.read().split(b"\n") if 0 < len(w) <= TDBM_KEY_MAX]
    rows = run(protbench, "--bench", "tdbm", "--size", "512,2048", "--words", word_list)
    assert len(rows) == 3 * 2 * len(schemes)
    for n in (512, 2048):
        expected = tdbm_expected(words, n)
        for row in rows:
            if int(row["size"]) == n:
                assert row["check"] == expected[row["bench"]], (row["scheme"], n)


def fault(protbench, scheme, *args):
    return subprocess.run([protbench, "fault", scheme, *args], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("scheme", sorted(CATCHING))
def test_a_fault_in_the_service_becomes_an_error_and_the_caller_carries_on(protbench, schemes, scheme):
    if scheme not in schemes:
        pytest.skip(f"{scheme} is not available here")
    proc = fault(protbench, scheme)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    head, row = (line.split("\t") for line in proc.stdout.splitlines()[-2:])
    got = dict(zip(head, row))
    assert int(got["before"]) >= 0 and int(got["after"]) >= 0
    assert int(got["fault"]) == CATCHING[scheme]
    assert got["handler_kept"] == "1"


def test_without_protection_the_fault_reaches_the_caller(protbench):
    assert fault(protbench, "none").returncode == SENTINEL_EXIT


@pytest.mark.parametrize("scheme", ["guard-mask", "guard-nomask"])
def test_the_guard_gives_the_callers_handler_back_after_the_call(protbench, scheme):
    # a fault after the guarded calls, one of which faulted, reaches the caller's handler
    assert fault(protbench, scheme, "--then-crash").returncode == SENTINEL_EXIT


@pytest.mark.skipif(os.cpu_count() < 2, reason="one CPU: no split placement")
@pytest.mark.parametrize("place", ["same", "split"])
def test_the_process_boundary_runs_in_either_placement(protbench, place):
    proc = subprocess.run([protbench, "run", "--warmup", "0", "--place", place, "--schemes",
                           "none,process-copy,process-shm", "--bench", "md5", "--grain", "4096"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert f"# place {place}" in proc.stdout
    checks = {line.split("\t")[-1] for line in proc.stdout.splitlines()[2:]}
    assert checks == {hashlib.md5(pattern(512 * 1024)).hexdigest()}


@pytest.mark.skipif(shutil.which("cargo") is None, reason="no cargo: the Rust scheme is not built")
def test_the_rust_scheme_is_built_where_cargo_is(schemes):
    assert "rust" in schemes


@pytest.mark.skipif(not all(shutil.which(tool) for tool in WASM_TOOLS),
                    reason="no clang, wasm-ld or wasm2c: the wasm schemes are not built")
def test_the_wasm_schemes_are_built_where_their_toolchain_is(schemes):
    assert {"wasm-copy", "wasm-shared"} <= set(schemes)
