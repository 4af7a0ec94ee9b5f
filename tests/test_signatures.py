"""The signature rule (src/trebuchet/findings/signature.py) against its corpus,
tests/data/signatures/: failing cases written by hand, each with the
signature and title expected of it and why."""
import json
import subprocess
from pathlib import Path

import pytest

from trebuchet.findings import signature as findings
from trebuchet.harness import crash_sites as symbolize

CORPUS = Path(__file__).parent / "data/signatures"


def frame(text):
    """"function@module@file:line" (an unnamed one: "@module+0xOFF@")."""
    function, module, place = text.split("@")
    if not function:
        module, offset = symbolize.parse(module)
        return symbolize.Frame(module, offset)
    file, _, line = place.rpartition(":")
    return symbolize.Frame(module, 0, function, file or None, int(line) if line else None)


@pytest.mark.parametrize("path", sorted(CORPUS.glob("*.json")), ids=lambda p: p.stem)
def test_signature(path):
    entry = json.loads(path.read_text())
    c = entry["case"]
    site = c.get("site")
    case = findings.Case(function=c.get("function", "df_quit"), index=0, values=[],
                         outcome=c["outcome"],
                         signal=c.get("signal"), exit_status=c.get("exit_status"),
                         stderr=c.get("stderr"), site=site,
                         frames=[frame(f) for f in site["frames"]] if site else [])
    made = findings.crash_finding(case, findings._Modules(entry["library"]))
    assert (made.signature, made.title) == (entry["signature"], entry["title"]), entry["why"]


STRIPPED = """
static __attribute__((noinline)) int helper(const char *s) { return s[3]; }
int pub_a(const char *s) { return helper(s) + 1; }
int pub_b(const char *s) { return helper(s) + 2; }
"""


def test_a_static_function_of_a_stripped_library_is_named_by_its_exports(tmp_path):
    """No DWARF, no .symtab: helper() is named by where it begins (its
    unwind table) from the nearest exported function, the same from both
    callers, at any of its instructions, and for a rebuild of the same
    code; the title adds the caller."""
    source = tmp_path / "l.c"
    source.write_text(STRIPPED)
    lib = tmp_path / "libl.so"
    subprocess.run(["cc", "-O1", "-g", "-shared", "-fPIC", "-o", lib, source], check=True)
    assert symbolize.has_debug_info(str(lib))
    symbols = dict(line.split()[::-2] for line in subprocess.run(
        ["nm", lib], capture_output=True, text=True, check=True).stdout.splitlines()
        if len(line.split()) == 3)
    helper, pub_a = int(symbols["helper"], 16), int(symbols["pub_a"], 16)
    subprocess.run(["strip", "--strip-all", lib], check=True)
    made = []
    for caller, inside in (("pub_a", 1), ("pub_b", 3)):  # two instructions of helper
        frames = symbolize.symbolize([[f"{lib}+{helper + inside:#x}",
                                       f"{lib}+{int(symbols[caller], 16) + 5:#x}"]])[0]
        assert frames[0].function is None and frames[1].function == caller
        case = findings.Case(function=caller, index=0, values=[], outcome="ABORT", signal=11,
                             site={"fault_addr": 3, "sp": 1, "stack_depth": 300}, frames=frames)
        made.append(findings.crash_finding(case, findings._Modules(["libl.so"])))
    # named by where helper begins (the unwind table's), not by the pc
    near = (f"pub_a-{pub_a - helper:#x}" if helper < pub_a else
            f"pub_b+{helper - int(symbols['pub_b'], 16):#x}")
    assert made[0].signature == made[1].signature == f"SIGSEGV|libl.so: unnamed, near {near}"
    assert made[0].title == (f"SIGSEGV in a function of libl.so without a symbol (near {near}),"
                             f" called from pub_a")
    symbolize.has_debug_info.cache_clear()
    assert not symbolize.has_debug_info(str(lib))


def test_the_debug_hint_names_the_library_and_the_command_that_remakes():
    hint = symbolize.DEBUG_HINT.format(name="libjson-c.so.5", spec="specs/json-c.yaml")
    assert hint.startswith("libjson-c.so.5 has no debug information")
    assert "-dbgsym" in hint and "DEBUGINFOD_URLS" in hint
    assert hint.endswith("(trebuchet findings --target specs/json-c.yaml --remake).")


def test_findings_rank_as_a_maintainer_reads_them():
    """Violations first; then more functions reached; then size; misuse-only
    last.  (A representative is the least misused case, so a finding that is
    not misuse-only has one of acceptable values: the fewest-misuse key
    orders by cause once causes are minimised.)"""
    def made(name, functions, cases_each, misuse=0, violation=None):
        f = findings.Finding(name, "SIGSEGV", name, [])
        f.cases = [findings.Case(fn, i, ["int:ONE"], "ABORT", acceptable=[not misuse])
                   for fn in functions for i in range(cases_each)]
        f.example = min(f.cases, key=lambda c: c.unacceptable)
        f.violation = violation
        return f
    big = made("big one-function", ["f"], 50)
    shared = made("shared helper", ["f", "g"], 1)
    broken = made("violation", ["f"], 1, violation="accepts s = NULL")
    misuse = made("misuse only", ["f", "g", "h"], 90, misuse=1)
    ordered = sorted([misuse, big, shared, broken], key=findings.rank)
    assert [f.signature for f in ordered] == ["violation", "shared helper", "big one-function",
                                               "misuse only"]
