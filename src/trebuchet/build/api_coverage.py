"""Which functions of a library a spec tests: the functions its libraries
export (their dynamic symbol tables, as `init` reads them) against the
functions the spec calls and those it leaves out on purpose (`leaves_out:`,
each with why).  What is left is untested, and `init` and the report say
so: a defect in a function no spec calls is found by no run.  A spec's
function calls its `call:` (stdio's fprintf_int calls fprintf), by default
its name.

A spec that names no library (stdio tests the C library itself) has no
coverage to tell: the C library exports some 3,000 functions, and a spec
of it means to test a few dozen.  A spec loads only where its libraries
are (spec/load.py checks), so each is read here."""
from dataclasses import dataclass

from trebuchet.build import elf_symbols
from trebuchet.spec import load as spec_load

# names shown where a list would be longer; the rest counted
SHOWN = 12


@dataclass(frozen=True)
class Coverage:
    exported: frozenset   # the functions the libraries export
    tested: frozenset     # those the spec calls
    left_out: dict        # {name: why} of those it leaves out on purpose

    @property
    def untested(self):
        """Exported, neither called nor left out on purpose, by name."""
        return sorted(self.exported - self.tested - set(self.left_out))

    def text(self):
        """One line, as `init` prints it and the report shows it."""
        untested = self.untested
        line = (f"the spec tests {len(self.tested)} of the {len(self.exported)} functions its"
                f" libraries export")
        if self.left_out:
            line += f", leaves out {len(self.left_out)} on purpose"
        return line + (f"; untested: {shown(untested)}" if untested else "; none untested")


def shown(names):
    """names, the first SHOWN of them written out and the rest counted."""
    more = len(names) - SHOWN
    return ", ".join(names[:SHOWN]) + (f" and {more} more" if more > 0 else "")


def of_spec(spec):
    """The spec's Coverage, or None when it names no library."""
    if not spec.libraries:
        return None
    exported = set()
    for lib in spec.libraries:
        path = spec_load.library_file(spec, lib) if "/" in lib else elf_symbols.locate(lib)
        exported |= elf_symbols.defined(path, functions_only=True)
    tested = {f.call for f in spec.functions} & exported
    left_out = {name: why for name, why in spec.leaves_out.items() if name in exported}
    return Coverage(frozenset(exported), frozenset(tested), left_out)
