"""A sanitizer's report in a case's stderr, as its SUMMARY line says it:
the kind of error and where.  The executor has ASan write that line last
(harness/sanitizer.c), so the stored stderr tail holds it; UBSan's report
is one line with no summary, its kind read from its words.

  SUMMARY: AddressSanitizer: heap-buffer-overflow /src/lib.c:24 in f
  SUMMARY: AddressSanitizer: attempting double-free (/lib/libasan.so.8+0xb7e6) in free

The sanitizer writes the place as a module and offset, never symbolized
in the test process (symbolize=0, harness/world.c): a symbolizer there
reads the module by its path, which the sandbox may hide (a checkout under
/tmp, which the mount namespace replaces) or the unprivileged user may not
read (a checkout under /root), so the same case was "lib.c:24 in f" in one
folder and "(lib.so+0x2a15)" in another.  The place is named here, outside
the sandbox, by the crash sites' own reader (symbolize.py): a source line
where the erring code has debug information, else file and line None.  An error noticed inside one
of the sanitizer's interceptors (its free, strlen, snprintf, which stand in
for the C library's) is placed in the sanitizer's own sources: no place of
the library's, so the defect is the function the outermost interceptor on
the crash site's stack stands for.  A report that died before its end
(harness/sanitizer.c) has its kind and "(the report did not finish)"."""
import functools
import re
from dataclasses import dataclass

from trebuchet.harness import crash_sites as symbolize

_SUMMARY = re.compile(
    r"^SUMMARY: (?P<tool>AddressSanitizer|UndefinedBehaviorSanitizer): (?P<kind>.+?)"
    r" (?:(?P<file>[^\s()]+?):(?P<line>[1-9]\d*)(?::\d+)?|\((?P<module>[^)+]+)\+(?P<offset>0x[0-9a-f]+)\)"
    r"|\([^)]*\)|<unknown module>)"
    r"(?: in (?P<function>\S+))?\s*$", re.M)
# Runtimes whose frames are the sanitizer's machinery, never the defect.
RUNTIMES = ("libasan.so", "libubsan.so")


@dataclass(frozen=True)
class Report:
    kind: str           # "heap-buffer-overflow", "double-free", ...
    file: str = None
    line: int = None
    function: str = None

    @property
    def place(self):
        return f"{self.file}:{self.line}" if self.file else None


# UBSan's report, one line (print_stacktrace=0: harness/world.c), no SUMMARY
# when it aborts: "FILE:LINE:COL: runtime error: WHAT"
_RUNTIME_ERROR = re.compile(r"^(?P<file>\S+?):(?P<line>[1-9]\d*):\d+: runtime error: (?P<what>.*)$",
                            re.M)
# UBSan's words, by their start, and the name of the check that says them
# (as -fsanitize= spells it); another message is its own words, masked.
_UB_KINDS = (("signed integer overflow", "signed-integer-overflow"),
             ("negation of", "signed-integer-overflow"),
             ("shift exponent", "shift"), ("left shift of", "shift"),
             ("load of misaligned", "misaligned-access"),
             ("store to misaligned", "misaligned-access"),
             ("member access within misaligned", "misaligned-access"),
             ("division by zero", "integer-divide-by-zero"),
             ("index ", "out-of-bounds-index"),
             ("null pointer passed as argument", "nonnull-argument"),
             ("load of null pointer", "null-pointer-use"),
             ("store to null pointer", "null-pointer-use"),
             ("member access within null pointer", "null-pointer-use"),
             ("applying non-zero offset", "pointer-overflow"),
             ("pointer index expression", "pointer-overflow"),
             ("execution reached an unreachable", "unreachable"))
_MASK = re.compile(r"0x[0-9a-fA-F]+|\b\d+\b")


def _ub_kind(what):
    for start, kind in _UB_KINDS:
        if what.startswith(start):
            return kind
    return _MASK.sub("N", re.split(r"[:,]", what, maxsplit=1)[0])


def parse(stderr):
    """The last SUMMARY line of stderr as a Report, else UBSan's last
    runtime error; None for neither."""
    found = list(_SUMMARY.finditer(stderr or ""))
    if not found:
        ub = list(_RUNTIME_ERROR.finditer(stderr or ""))
        return Report(_ub_kind(ub[-1]["what"]), ub[-1]["file"], int(ub[-1]["line"])) if ub else None
    m = found[-1]
    kind = m["kind"].removeprefix("attempting ")
    if m["module"] and not m["function"]:  # named by no symbolizer (a store of before: by one)
        return Report(kind, *_named(m["module"], int(m["offset"], 16)))
    return Report(kind, m["file"], int(m["line"]) if m["line"] else None, m["function"])


@functools.lru_cache(maxsize=None)
def _named(module, offset):
    """(file, line, function) of a report's "(MODULE+0xOFFSET)": the
    sanitizer prints the address it would have symbolized itself (a return
    address already moved back into its call), so it is looked up as it is."""
    [[frame]] = symbolize.symbolize([[f"{module}+{offset:#x}"]])
    return (frame.file, frame.line, frame.function) if frame.place else (None, None, frame.function)


@functools.lru_cache(maxsize=None)
def is_runtime(module_name):
    return module_name.startswith(RUNTIMES)


_RUNTIME_SOURCE = re.compile(r"(?:^|/)(?:libsanitizer/|(?:sanitizer|asan|ubsan)_[^/]*$)")
_INTERCEPTOR = re.compile(r"^_{2,3}interceptor_(?:trampoline_)?(\w+)$")


def in_runtime(file):
    """Whether a source file is the sanitizer's own (GCC's libsanitizer,
    LLVM's compiler-rt)."""
    return bool(_RUNTIME_SOURCE.search(file))


def intercepted(frames):
    """The C library function the outermost interceptor among frames
    (symbolize.Frame, innermost first) stands for, or None."""
    names = [m[1] for f in frames if f.function and (m := _INTERCEPTOR.match(f.function))]
    return names[-1] if names else None
