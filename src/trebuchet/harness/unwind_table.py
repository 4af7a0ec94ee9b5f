"""Where the functions of a module begin, from its unwind table.

A stripped library keeps no symbol for its static functions, but it keeps
.eh_frame_hdr, which the unwinder needs: a sorted table of every function
(each FDE's initial location) for a binary search.  So a pc inside a static
function can be named by where that function begins, the same for every
instruction of it: two faults at two lines of one static helper are one
place, not two places a few bytes apart (crash_sites.function_start).

Only the encodings GNU ld writes for x86-64 and the other 64-bit targets
Debian builds are read (a 4-byte pc-relative pointer to .eh_frame, a 4-byte
count, 4-byte data-relative table entries); anything else gives no table,
and the caller names the pc as before."""
import bisect
import functools
import os
import struct

PT_GNU_EH_FRAME = 0x6474E550
_EH_FRAME_PTR = 0x1B   # DW_EH_PE_pcrel | DW_EH_PE_sdata4
_FDE_COUNT = 0x03      # DW_EH_PE_udata4
_TABLE = 0x3B          # DW_EH_PE_datarel | DW_EH_PE_sdata4


def _eh_frame_hdr(data):
    """(file offset, address) of the PT_GNU_EH_FRAME segment of a 64-bit
    little-endian ELF file, or None."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        return None
    phoff, = struct.unpack_from("<Q", data, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    for i in range(phnum):
        p_type, _, p_offset, p_vaddr = struct.unpack_from("<IIQQ", data, phoff + i * phentsize)
        if p_type == PT_GNU_EH_FRAME:
            return p_offset, p_vaddr
    return None


@functools.lru_cache(maxsize=64)
def _starts(path, mtime_ns):  # the file's time in the key: a library rebuilt in place
    try:
        with open(path, "rb") as f:
            data = f.read()
        found = _eh_frame_hdr(data)
        if not found:
            return ()
        offset, address = found
        version, ptr_enc, count_enc, table_enc = data[offset:offset + 4]
        if (version, ptr_enc, count_enc, table_enc) != (1, _EH_FRAME_PTR, _FDE_COUNT, _TABLE):
            return ()
        count, = struct.unpack_from("<I", data, offset + 8)
        table = struct.unpack_from(f"<{2 * count}i", data, offset + 12)
    except (OSError, struct.error, ValueError):
        return ()
    return tuple(sorted(address + start for start in table[0::2]))


def function_start(path, offset):
    """Where the function holding offset (from the module's load base)
    begins, by the module's unwind table; None when it has none, or no
    function covers so low an offset."""
    try:
        starts = _starts(path, os.stat(path).st_mtime_ns)
    except OSError:
        return None
    at = bisect.bisect_right(starts, offset)
    return starts[at - 1] if at else None
