"""Files and folders a command is to write, checked before any work: one
that cannot be made or opened (a read-only file system, /proc, a folder
where a file should be) is bad input said at the start, never a traceback
after a run.  What opens but then fails to be written (/dev/full) the
command says when it writes."""
import tempfile
from pathlib import Path

from trebuchet.core.errors import TrebuchetError


def output(path):
    """A file a command is to write: its folder is made if missing; a folder
    in its place, or one that cannot be made, is a one-line error."""
    path = Path(path)
    if path.is_dir():
        raise TrebuchetError("is a directory, not a file to write", path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise TrebuchetError(f"cannot make its folder: {e.strerror}", path) from None
    return path


def writable(path):
    """output(), and the file opened for writing once, before any work: a
    folder that cannot be made or a file that cannot be opened (a read-only
    file system, /proc) is bad input, said at the start, not after a run.
    A file made to check is removed again.  (What can be opened may still
    fail to be written, /dev/full: the command says so when it writes.)"""
    path = output(path)
    existed = path.exists()
    try:
        with open(path, "a"):
            pass
    except OSError as e:
        raise TrebuchetError(f"cannot be written: {e.strerror}", path) from None
    if not existed:
        path.unlink()
    return path


def writable_dir(path):
    """A folder a command is to write into, made now if missing and a file
    tried in it: one that cannot be is bad input, said before any work."""
    path = Path(path)
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path):
            pass
    except OSError as e:
        raise TrebuchetError(f"cannot be written: {e.strerror}", path) from None
    return path
