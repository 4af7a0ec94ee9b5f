"""What C types really are, asked of the compiler: a spelling such as
`uLong`, `XML_Size` or `yaml_char_t *` means what the target's headers
typedef it to, so each type is classified by a small probe program compiled
with the spec's own includes, never by how it is spelled.

A type is a `CType`: its kind (pointer, integer or floating), its size in
bytes and, for an integer, whether it is signed.  A function pointer is a
pointer, spelled as C writes it (`int (*)(const void *, const void *)`) or
by a typedef; a function type itself (`typedef int handler(void *)`, no
`*`) is no type a slot holds (None).  An array type (`typedef unsigned
char uuid_t[16]`) is what C makes of it in a parameter: a pointer to its
element (CType.decays), which the shims cast to by `as_passed`.  The probe's answers are
kept beside the plugin, keyed by everything that could change them.

Two of the build's stages (src/trebuchet/build/plugins.py) are here: the spec's own
types (resolve_signatures, before the shims are generated) and the types
the compiled plugin's datatypes give each parameter (resolve_slots)."""
import hashlib
import json
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from trebuchet.core import yamlines
from trebuchet.core.errors import TrebuchetError

# __builtin_classify_type's classes (GCC's typeclass.h)
_KINDS = {1: "integer", 2: "integer", 3: "integer", 4: "integer", 5: "pointer", 8: "floating"}


@dataclass(frozen=True)
class CType:
    spelling: str
    kind: str        # "pointer", "integer" or "floating"
    size: int
    signed: bool
    decays: bool = False  # an array type: a parameter of it is a pointer to its element

    def describe(self):
        if self.kind == "integer":
            return f"{self.spelling}: {'signed' if self.signed else 'unsigned'}, {self.size} bytes"
        return f"{self.spelling}: {self.kind}, {self.size} bytes"


@dataclass(frozen=True)
class Probe:
    """How a probe is compiled: with the spec's includes, include folders
    and flags, as the plugin is; its programs go under folder."""
    includes: list
    include_dirs: list
    cflags: list
    folder: Path


@dataclass(frozen=True)
class Signatures:
    """The spec's parameter and return types, as the compiler sees them
    ({spelling: CType, or None for one no slot or record holds})."""
    spec: object
    probe: Probe
    types: dict


@dataclass(frozen=True)
class SlotTypes:
    """What the compiled plugin's datatypes give each parameter, as the
    compiler sees it: types (the spec's own spellings too) and, for each
    callback pair (parameter's type, datatype's type), whether the two
    are one type."""
    datatypes: object
    types: dict
    same: dict


def spelled(spec):
    """Every parameter and return type the spec spells."""
    return ({p.ctype for f in spec.functions for p in f.params}
            | {f.returns for f in spec.functions if f.returns != "void"})


MISSING_HEADER = re.compile(r"fatal error: (\S+): No such file or directory")


def resolve_signatures(spec, probe):
    try:
        return Signatures(spec, probe, resolve(spelled(spec), probe, "params"))
    except TrebuchetError as e:
        missing = MISSING_HEADER.search(str(e))
        if not missing:
            raise
        # a header the spec's includes name (or one they include) is nowhere
        # the compiler looks: the spec's `includes:` line, not the probe's
        _, lines = yamlines.load(Path(spec.path).read_text(), spec.path)
        raise TrebuchetError(f"the compiler finds no header {missing[1]} (includes, "
                             f"with the spec's cflags: and pkg-config: folders)", spec.path,
                             yamlines.line_of(lines, ("includes",))) from None


def resolve_slots(signatures, datatypes):
    """The types of each slot's datatype (datatypes: plugin_check.Datatypes)
    and of each callback pair.  A pair whose datatype's type did not
    compile is left out: plugin_check refuses that type first."""
    slots = {t for ts in datatypes.slots.values() for t in ts}
    # the spec's own types asked again beside them, so one answer holds both
    types = resolve(slots | set(signatures.types), signatures.probe, "datatypes")
    pairs = [(p.ctype, slot) for _, p, slot in datatypes.callbacks
             if types.get(slot) is not None]
    return SlotTypes(datatypes, types, same_types(pairs, signatures.probe) if pairs else {})


def split_slots(ctype):
    """The C types of a datatype that spans parameters ("void *, size_t"),
    split at the commas outside parentheses."""
    parts, depth, current = [], 0, ""
    for ch in ctype:
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    return parts + [current.strip()]


def as_passed(spelling):
    """The type a parameter spelled so has: an array's adjusted to a
    pointer to its element, by the comma operator's decay (a cast to the
    array type itself is no C)."""
    return f"__typeof__(((void)0, *(__typeof__({spelling}) *)0))"


def _probe_line(i, spelling):
    """One type's line of the probe, written out rather than through a
    macro, so that a compiler error lands on its own line.  __typeof__
    makes any spelling a type name that takes a `*` after it: `T *` is no
    type when T is `int (*)(void)`.  An array type is probed as the pointer
    a parameter of it is; a function type decays too, but is told apart
    (its decayed type is its own address's) and stays unclassified."""
    t, d = f"__typeof__({spelling})", as_passed(spelling)
    array = (f"(!__builtin_types_compatible_p({t}, {d}) &&"
             f" !__builtin_types_compatible_p({d}, __typeof__(&*({t} *)0)))")
    u = f"__typeof__(__builtin_choose_expr({array}, *({d} *)0, *({t} *)0))"
    kind = f"__builtin_classify_type(*({u} *)0)"
    signed = f"__builtin_choose_expr({kind} == 5, 0, ({u})-1 < ({u})0)"
    return (f'\tprintf("%d %d %zu %d %d\\n", {i}, {kind}, sizeof({u}), (int){signed},'
            f' (int){array});')


def _program(includes, body):
    """A probe program: the includes, then main printing the body's lines;
    returns its text and the line number of the body's first line."""
    lines = ["#include <stdio.h>", "#include <stddef.h>", "#include <stdint.h>",
             "#include <sys/types.h>"]
    lines += [f"#include {inc}" for inc in includes]
    lines += ["int main(void)", "{"]
    first = len(lines) + 1
    lines += body + ["\treturn 0;", "}"]
    return "\n".join(lines) + "\n", first


def _probe_source(includes, spellings):
    return _program(includes, [_probe_line(i, t) for i, t in enumerate(spellings)])


def same_types(pairs, probe):
    """{(a, b): whether C types a and b are one type to the compiler} (a
    typedef and its spelling are; function pointers of two signatures are
    not).  Each type must be one resolve() answered for."""
    pairs = sorted(set(pairs))
    source, _ = _program(probe.includes, [
        f'\tprintf("%d\\n", __builtin_types_compatible_p(__typeof__({a}), __typeof__({b})));'
        for a, b in pairs])
    folder = probe.folder / "ctypes-callbacks"
    folder.mkdir(parents=True, exist_ok=True)
    c, exe = folder / "same_types.c", folder / "same_types"
    c.write_text(source)
    command = [*_compiler(probe), str(c), "-o", str(exe)]
    subprocess.run(command, capture_output=True, check=True)
    answers = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout
    return {pair: answer == "1" for pair, answer in zip(pairs, answers.split())}


def _compiler(probe):
    return ["cc", "-w", *[f"-I{d}" for d in probe.include_dirs], *probe.cflags]


def resolve(spellings, probe, what):
    """{spelling: CType} for each C type spelled, as the compiler sees it
    with the probe's includes; kept in the probe's folder ctypes-WHAT.  A
    spelling the compiler rejects, or one that is not a scalar (a struct
    passed by value), is returned as None."""
    spellings = sorted(set(spellings))
    source, first = _probe_source(probe.includes, spellings)
    command = _compiler(probe)
    cache_dir = probe.folder / f"ctypes-{what}"
    key = hashlib.sha256((source + " ".join(command)).encode())
    for d in probe.include_dirs:
        for h in sorted(Path(d).glob("*.h")):
            key.update(h.read_bytes())
    cache = cache_dir / "ctypes.json"
    digest = key.hexdigest()
    if cache.exists():
        kept = json.loads(cache.read_text())
        if kept.get("digest") == digest:
            return {s: CType(**t) if t else None for s, t in kept["types"].items()}
    found = _compile_and_run(source, first, spellings, command, cache_dir)
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps({"digest": digest, "types": {
        s: t.__dict__ if t else None for s, t in found.items()}}))
    return found


def _compile_and_run(source, first, spellings, command, folder):
    """Compiles the probe, leaving out each type the compiler rejects."""
    folder.mkdir(parents=True, exist_ok=True)
    c, exe = folder / "ctypes_probe.c", folder / "ctypes_probe"
    bad = set()
    while True:
        text, _ = _probe_source_without(source, first, spellings, bad)
        c.write_text(text)
        out = subprocess.run(command + [str(c), "-o", str(exe)], capture_output=True, text=True)
        if out.returncode == 0:
            break
        lines = {int(n) for n in re.findall(rf"{re.escape(str(c))}:(\d+):\d+: error", out.stderr)}
        failed = {spellings[n - first] for n in lines if 0 <= n - first < len(spellings)}
        if not failed - bad:
            first_error = next((l for l in out.stderr.splitlines() if "error" in l), out.stderr)
            raise TrebuchetError(f"the C types of the spec do not compile: {first_error.strip()}")
        bad |= failed
    run = subprocess.run([str(exe)], capture_output=True, text=True, check=True)
    found = {s: None for s in spellings}
    for line in run.stdout.splitlines():
        i, cls, size, signed, array = map(int, line.split())
        kind = _KINDS.get(cls)
        if kind:
            found[spellings[i]] = CType(spellings[i], kind, size, bool(signed), bool(array))
    return found


def _probe_source_without(source, first, spellings, bad):
    """The probe with the lines of the rejected types blanked (so that the
    line numbers of the others stay put)."""
    lines = source.split("\n")
    for i, s in enumerate(spellings):
        if s in bad:
            lines[first - 1 + i] = ""
    return "\n".join(lines), first
