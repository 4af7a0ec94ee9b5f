"""Frames as the crash sites store them ("MODULE+0xOFFSET") turned into
function, file and line, with elfutils' eu-addr2line: the platform's own
DWARF reader, which also finds a separate debug file by build-id (glibc's,
from Debian's libc6-dbg).  A module without debug information still gives
its exported function names; a frame nothing names stays module + offset.

Line 1 of a site's frames is the faulting instruction itself; the others
are return addresses, which point after their call: those are looked up one
byte earlier, inside the call instruction, so that the line is the call's."""
import functools
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from trebuchet.core.errors import TrebuchetError
from trebuchet.harness import dynamic_symbols

TOOL = "eu-addr2line"
# Modules no finding is named by: the executor, the kernel's vDSO, a pc in no module.
EXECUTOR_MODULE = "trebuchet-exec"
HARNESS_MODULES = (EXECUTOR_MODULE, "linux-vdso.so.1", "[vdso]", "[unknown]")
CHUNK = 400  # addresses per eu-addr2line process
_INLINED = re.compile(r" inlined at .* in \S+$")  # "f inlined at FILE:LINE:COL in g"
_PLACE = re.compile(r"^([^?].*?):([1-9]\d*)(?::\d+)?$")  # file:line, or file:line:column


@dataclass(frozen=True)
class Frame:
    module: str            # the module's path, as the loader knew it
    offset: int            # from the module's load base
    function: str = None   # None when nothing names it
    file: str = None
    line: int = None
    called: bool = False   # trebuchet's call shim, standing for the function it called

    @functools.cached_property
    def module_name(self):  # asked for often: symbolize() shares a Frame among cases
        return os.path.basename(self.module)

    @property
    def place(self):
        """file:line, or None."""
        return f"{self.file}:{self.line}" if self.file and self.line else None

    @property
    def text(self):
        """How a report shows the frame."""
        if self.called:
            return self.function + (f" ({self.place})" if self.place else "")
        where = self.place or self.module_name
        if self.function:
            return f"{self.function} ({where})"
        return f"{self.module_name}+{self.offset:#x}"


DEBUG_ROOT = Path("/usr/lib/debug")  # where Debian's -dbgsym and -dbg packages put debug files


@functools.lru_cache(maxsize=None)
def has_debug_info(module):
    """Whether eu-addr2line finds DWARF for a module: in the file itself, or
    in a separate debug file found by its build-id.  Without it a finding
    has function names (from the symbol tables) but no file and line."""
    try:
        sections = subprocess.run(["readelf", "-S", "-n", "--wide", str(module)],
                                  capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return True  # not here to read: nothing to say of it
    if " .debug_info " in sections:
        return True
    build_id = re.search(r"Build ID: ([0-9a-f]{2})([0-9a-f]+)", sections)
    return bool(build_id) and (DEBUG_ROOT / ".build-id" / build_id.group(1) /
                               f"{build_id.group(2)}.debug").is_file()


def nearest_export(module, offset):
    """A place inside a module no symbol covers, by the nearest exported
    function: "df_ratio+0x30" after it, else "df_length-0x4d" before the
    first; None when the module exports none.  A rebuild of the same code
    keeps it, and one static function reached from several callers is
    named alike from each."""
    try:
        functions = [(start, name) for start, kind, name in dynamic_symbols.defined(module)
                     if kind in dynamic_symbols.FUNCTION_TYPES]
    except TrebuchetError:
        return None  # not here to read
    before = [(start, name) for start, name in functions if start <= offset]
    if before:
        start, name = before[-1]
        return f"{name}+{offset - start:#x}"
    return f"{functions[0][1]}-{functions[0][0] - offset:#x}" if functions else None


DEBUG_HINT = ("{name} has no debug information: its findings are named from its symbol tables,"
              " without file and line. Install its debug symbols (Debian: its -dbgsym package,"
              " found by build-id), or set DEBUGINFOD_URLS where elfutils has debuginfod, and"
              " make the findings again (trebuchet findings --target {spec} --remake).")


def above_harness(frames):
    """The frames down to the call shim: the executor's below it say
    nothing of the case (`repro` shows the same)."""
    shown = []
    for f in frames:
        if f.module_name in HARNESS_MODULES and shown:
            break
        shown.append(f)
    return shown


def parse(frame):
    """("MODULE", offset) of a stored frame line."""
    module, _, offset = frame.rpartition("+")
    return module, int(offset, 16)


def _clean_path(path):
    """A source path as DWARF joins it, without its ./ detours: glibc's
    './libio/./libio/wgenops.c' and './libio/../libio/libioP.h' are
    'libio/wgenops.c' and 'libio/libioP.h'."""
    parts = [p for p in os.path.normpath(path).split("/") if p not in ("", ".")]
    for n in range(1, len(parts) // 2 + 1):
        if parts[:n] == parts[n:2 * n]:
            parts = parts[n:]
            break
    return ("/" if path.startswith("/") else "") + "/".join(parts)


def _lookup(module, offsets):
    """{offset: (function, file, line)} from eu-addr2line, for one module."""
    found = {}
    if not Path(module).is_file() or not shutil.which(TOOL):
        return found
    offsets = sorted(set(offsets))
    for i in range(0, len(offsets), CHUNK):
        chunk = offsets[i:i + CHUNK]
        out = subprocess.run([TOOL, "-f", "-C", "-e", module] + [f"{o:#x}" for o in chunk],
                             capture_output=True, text=True).stdout.splitlines()
        # two lines per address: the function, then file:line (?? when unknown)
        for offset, function, place in zip(chunk, out[0::2], out[1::2]):
            known = _PLACE.match(place)
            # code inlined into another function is named by the function
            # whose source it is, as its file and line are
            function = _INLINED.sub("", function)
            found[offset] = (None if function.startswith("??") else function,
                             _clean_path(known.group(1)) if known else None,
                             int(known.group(2)) if known else None)
    return found


# {(module, its mtime and size): {offset: names}}: a process that names
# frames again (the findings' minimisation, in batches) asks eu-addr2line
# only for offsets it has not named; a module rebuilt in place is another key
_NAMED = {}


def _named(module, offsets):
    try:
        st = os.stat(module)
    except OSError:
        return {}
    known = _NAMED.setdefault((module, st.st_mtime_ns, st.st_size), {})
    missing = [o for o in offsets if o not in known]
    if missing:
        found = _lookup(module, missing)
        known.update((o, found.get(o, (None, None, None))) for o in missing)
    return known


def symbolize(sites):
    """Frame objects for each site's frame lines (a list of lists of
    "MODULE+0xOFFSET"), in the same shape."""
    wanted = {}
    for text, inner in {(text, depth > 0) for frames in sites
                        for depth, text in enumerate(frames)}:
        module, offset = parse(text)
        wanted.setdefault(module, set()).add(offset - inner)
    names = {module: _named(module, offsets) for module, offsets in wanted.items()}
    # a frame seen in many cases (a third of a campaign may die at one
    # site) is one Frame, made once: Frames are never changed
    made = {}
    result = []
    for frames in sites:
        row = []
        for depth, text in enumerate(frames):
            frame = made.get((text, depth > 0))
            if frame is None:
                module, offset = parse(text)
                frame = made[text, depth > 0] = Frame(
                    module, offset, *names[module].get(offset - (depth > 0), (None, None, None)))
            row.append(frame)
        result.append(row)
    return result


# Compiler clones and aliases of one function: the name a recompile, a
# machine with or without debug information, or another CPU keeps.
_CLONE = re.compile(r"\.(constprop|isra|part|cold|lto_priv)(\.\d+)*$")
_STRING_VARIANT = re.compile(
    r"^_*((?:mem|str|stp|wcs|wmem|raw)[a-z]*?)"
    r"(?:_(?:avx|avx2|avx512|evex|sse2|sse4|ssse3|erms|unaligned|aligned|rtm|vex|nocache)\w*)?$")
_ALIAS = re.compile(r"^__GI_")  # glibc's internal alias, named only by its debug file


# glibc's allocator entry points under the names its debug file gives them
_ALLOCATOR_ENTRY = {"__libc_free": "free", "cfree": "free", "__libc_malloc": "malloc",
                    "__libc_calloc": "calloc", "__libc_realloc": "realloc"}


@functools.lru_cache(maxsize=None)
def canonical(function):
    """The name a finding's signature uses for a function."""
    name = _CLONE.sub("", function)
    name = _ALIAS.sub("", name)
    string = _STRING_VARIANT.match(name)
    name = string.group(1) if string else name
    return _ALLOCATOR_ENTRY.get(name, name)


# The allocator's own functions: where a bad free is noticed, not made.
_ALLOCATOR = frozenset("""
malloc free calloc realloc cfree _int_malloc _int_free _int_realloc __libc_malloc __libc_free
__libc_calloc __libc_realloc unlink_chunk malloc_consolidate tcache_get tcache_put
""".split())


def is_leaf_routine(function):
    """memcpy, strlen and their CPU variants, and the allocator: where a bad
    pointer is dereferenced or a bad block noticed, not where it was handed
    on (the caller names the defect)."""
    name = _ALIAS.sub("", _CLONE.sub("", function))
    return bool(_STRING_VARIANT.match(name)) or name in _ALLOCATOR
