"""Where the gate's outputs say a finding strikes: a source file made
relative to the repository (--source-root, default the working directory,
a repository's root in CI), so that SARIF, JUnit and the baseline name the
same file on every checkout, whatever folder it was cloned into."""
from pathlib import Path


def _relative(path, root=None):
    """(the path relative to root, True) when it lies under root; else
    (the path resolved, False).  A relative path that names no file here
    (a library's own source tree, as its debug information names it) stays
    as it is."""
    if not Path(path).is_absolute() and root is None and not Path(path).exists():
        return Path(path), True
    path = Path(path).resolve()
    here = Path(root or Path.cwd()).resolve()
    return (path.relative_to(here), True) if path.is_relative_to(here) else (path, False)


def uri(path, root=None):
    """SARIF's artifact URI: relative under root, else a file:// URI."""
    path, under = _relative(path, root)
    return str(path) if under else path.as_uri()


def place(location, root=None):
    """A finding's FILE:LINE with FILE relative under root (absolute
    elsewhere); None stays None."""
    if not location:
        return location
    file, _, line = location.rpartition(":")
    return f"{_relative(file, root)[0]}:{line}"
