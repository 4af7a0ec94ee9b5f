"""A shared library's exported functions, read from its dynamic symbol
table with binutils' `nm -D` (what the plugin check reads too), and where a
library named by file name or -l name lies."""
import os
import subprocess
from pathlib import Path

from trebuchet.spec import load as specs
from trebuchet.core.errors import TrebuchetError

_SYSTEM = ("/usr/local/lib", "/usr/lib/x86_64-linux-gnu", "/usr/lib", "/lib/x86_64-linux-gnu",
           "/lib")


def defined(path, functions_only=False):
    """The names a shared object defines in its dynamic symbol table (its
    functions alone: type T, W or i)."""
    out = subprocess.run(["nm", "-D", "--defined-only", str(path)], capture_output=True,
                         text=True)
    if out.returncode != 0:
        raise TrebuchetError(f"nm cannot read its symbols: {out.stderr.strip()}", path)
    names = set()
    for line in out.stdout.splitlines():
        fields = line.split()
        if fields and (not functions_only or fields[-2] in ("T", "W", "i")):
            names.add(fields[-1].split("@")[0])  # a versioned name: BZ2_bzRead@@...
    return names


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
