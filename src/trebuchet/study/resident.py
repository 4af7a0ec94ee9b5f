"""Holding files in the page cache while `trebuchet bench io` measures on a
warm cache: each file is mapped shared and its pages locked (mlock), so
the kernel's own reclaim cannot drop them between runs.

Why: "warm" is only as warm as the machine keeps it.  On a virtual machine
that pages out idle memory on its own (a DAMON `pageout` scheme), the
8 GiB input of read8192 was partly dropped while the other configurations
ran, and the next run read those pages from disk: its system time varied
from 0.87 to 1.49 s between neighbouring runs, whatever the library.  A
locked page stays in the cache, so every run costs the copy it measures.

The files are held only when they fit in the memory the kernel reports
available with room to spare (a quarter of it, at least 2 GiB, is left
for everything else), and only where mlock is allowed (root, or a
large enough RLIMIT_MEMLOCK); otherwise nothing is held and the caller
says so.  The locks go with the mappings when the context ends."""
import ctypes
import errno
import mmap
import os
import resource
from contextlib import contextmanager

SPARE_MIN = 2 << 30   # bytes of available memory never locked
SPARE_SHARE = 4       # ... nor less than a quarter of it

_libc = ctypes.CDLL(None, use_errno=True)
_libc.mmap.restype = ctypes.c_void_p
_libc.mmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                       ctypes.c_int, ctypes.c_long)
_libc.mlock.argtypes = (ctypes.c_void_p, ctypes.c_size_t)
_libc.munmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t)
_MAP_FAILED = ctypes.c_void_p(-1).value


def _amount(size):
    """Bytes for a person: MiB below a GiB, GiB with one decimal above."""
    return f"{size / (1 << 30):.1f} GiB" if size >= 1 << 30 else f"{size >> 20} MiB"


def available_bytes():
    """MemAvailable of /proc/meminfo, or 0 where it cannot be read."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _lock(path, size):
    """Maps path shared, read-only, and locks its pages: the address, or
    None with errno's reason."""
    fd = os.open(path, os.O_RDONLY)
    try:
        address = _libc.mmap(None, size, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)
    finally:
        os.close(fd)
    if address in (None, _MAP_FAILED):
        return None, os.strerror(ctypes.get_errno())
    if _libc.mlock(address, size) != 0:
        err = ctypes.get_errno()
        _libc.munmap(address, size)
        return None, _why_not_locked(err)
    return address, None


def _why_not_locked(err):
    """mlock's failure in words: ENOMEM and EPERM mostly mean the
    locked-memory limit, not a shortage of memory."""
    limit = resource.getrlimit(resource.RLIMIT_MEMLOCK)[0]
    if err in (errno.ENOMEM, errno.EPERM) and limit != resource.RLIM_INFINITY:
        return (f"over the locked-memory limit, ulimit -l {limit >> 10} (KiB); root, or a"
                " higher limit, lets it hold them")
    return os.strerror(err)


def _unmap(mapped):
    for address, size in mapped:
        _libc.munmap(address, size)


def _lock_all(sizes):
    """Every file locked, or none: (the mappings, None), or ([], why not)."""
    mapped = []
    for path, size in sizes:
        address, why = _lock(path, size)
        if address is None:
            _unmap(mapped)
            return [], f"mlock of {os.path.basename(path)}, {_amount(size)}: {why}"
        mapped.append((address, size))
    return mapped, None


@contextmanager
def held(paths):
    """Holds the files at paths in memory while the context lasts.  Yields
    None when they are held, else the one-line reason they are not."""
    sizes = [(p, size) for p in paths if (size := os.path.getsize(p)) > 0]
    total = sum(size for _, size in sizes)
    available = available_bytes()
    spare = max(SPARE_MIN, available // SPARE_SHARE)
    if total > available - spare:
        mapped, reason = [], (f"{_amount(total)} of files would leave less than {_amount(spare)}"
                              f" of the {_amount(available)} available")
    else:
        mapped, reason = _lock_all(sizes)
    try:
        yield reason
    finally:
        _unmap(mapped)
