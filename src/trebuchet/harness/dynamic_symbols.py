"""A shared object's dynamic symbol table, read with binutils' `nm -D`:
what even a stripped library still names.  The plugin check reads the
plugin's datatypes from it, `init` a library's exported functions, and the
crash sites name a stripped library's static functions by their nearest
export."""
import functools
import os
import subprocess

from trebuchet.core.errors import TrebuchetError

FUNCTION_TYPES = ("T", "W", "i")  # nm's letters for code: global, weak, indirect


def defined(path):
    """[(address, nm's type letter, name)] of each symbol path defines, by
    address; a versioned name (BZ2_bzRead@@BZIP2_1.0) without its version."""
    try:
        mtime = os.stat(path).st_mtime_ns
    except OSError as e:
        raise TrebuchetError(f"cannot read its symbols: {e.strerror}", path) from None
    return _defined(str(path), mtime)


@functools.lru_cache(maxsize=None)
def _defined(path, mtime_ns):  # the file's time in the key: a plugin is rebuilt in place
    out = subprocess.run(["nm", "-D", "--defined-only", path], capture_output=True, text=True)
    if out.returncode != 0:
        raise TrebuchetError(f"nm cannot read its symbols: {out.stderr.strip()}", path)
    symbols = []
    for line in out.stdout.splitlines():
        fields = line.split()
        if len(fields) == 3:
            symbols.append((int(fields[0], 16), fields[1], fields[2].split("@")[0]))
    return sorted(symbols)
