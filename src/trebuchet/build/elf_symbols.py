"""A shared library's exported functions, read from its dynamic symbol
table with binutils' `nm -D` (what the plugin check reads too), and where a
library named by file name or -l name lies."""
import os
from pathlib import Path

from trebuchet.harness import dynamic_symbols
from trebuchet.spec import load as specs
from trebuchet.core.errors import TrebuchetError

_SYSTEM = ("/usr/local/lib", "/usr/lib/x86_64-linux-gnu", "/usr/lib", "/lib/x86_64-linux-gnu",
           "/lib")


def defined(path, functions_only=False):
    """The names a shared object defines in its dynamic symbol table (its
    functions alone: type T, W or i)."""
    return {name for _, kind, name in dynamic_symbols.defined(path)
            if not functions_only or kind in dynamic_symbols.FUNCTION_TYPES}


def locate(name):
    """The file of a library named by a path, a file name (libbz2.so.1.0) or
    an -l name (bz2): a path as given, else LD_LIBRARY_PATH's folders, then
    the system's; raises TrebuchetError when none holds it."""
    if "/" in name:
        if Path(name).is_file():
            return Path(name).resolve()
        raise TrebuchetError("no such library file", name)
    filename = name if ".so" in name else f"lib{name}.so"
    folders = [d for d in os.environ.get("LD_LIBRARY_PATH", "").split(":") if d]
    for folder in [*folders, *_SYSTEM]:
        if (Path(folder) / filename).is_file():
            return (Path(folder) / filename).resolve()
    hint = "" if specs.library_installed(name) else " (is its -dev package installed?)"
    raise TrebuchetError(f"library {name} not found in LD_LIBRARY_PATH or the system's "
                         f"library folders{hint}")
