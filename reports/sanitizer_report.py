"""A sanitizer's report in a case's stderr, as its SUMMARY line says it:
the kind of error and where.  The executor has ASan write that line last
(harness/sanitizer.c), so the stored stderr tail holds it.

  SUMMARY: AddressSanitizer: heap-buffer-overflow /src/lib.c:24 in f
  SUMMARY: AddressSanitizer: attempting double-free (/lib/libasan.so.8+0xb7e6) in free

The place is a source line where the erring code has debug information;
else a module and offset, or (an error noticed inside one of the
sanitizer's interceptors, free or strlen) the sanitizer's own frame: then
file and line are None and the crash site's frames name the defect."""
import re
from dataclasses import dataclass

_SUMMARY = re.compile(
    r"^SUMMARY: (?P<tool>AddressSanitizer|UndefinedBehaviorSanitizer): (?P<kind>.+?)"
    r" (?:(?P<file>[^\s()]+?):(?P<line>[1-9]\d*)(?::\d+)?|\([^)]*\)|<unknown module>)"
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


def parse(stderr):
    """The last SUMMARY line of stderr as a Report, or None."""
    found = list(_SUMMARY.finditer(stderr or ""))
    if not found:
        return None
    m = found[-1]
    return Report(m["kind"].removeprefix("attempting "), m["file"],
                  int(m["line"]) if m["line"] else None, m["function"])


def is_runtime(module_name):
    return module_name.startswith(RUNTIMES)
