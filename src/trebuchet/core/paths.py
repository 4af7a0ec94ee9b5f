"""Where trebuchet's pieces live, read-only and written apart.

ROOT, read only: the headers and datatype sources plugins compile against,
the schemas, the built-in targets, and COMPILED, what was compiled when
trebuchet was built (the executor, Robust SFIO's library).  In a checkout
(developing trebuchet: `make build`, an editable install) it is the
checkout, COMPILED its build/.  Installed (`pip install`), it is the
package's share/ folder, which setup.py fills with the same layout, so that
a spec's `build/lib/librobust_sfio.so` names one file in both.
TREBUCHET_HOME overrides it.

BUILD, written: where plugins, type probes and their digests go.  The
--build-dir option or TREBUCHET_BUILD_DIR; else a checkout's build/; else,
installed, $XDG_CACHE_HOME/trebuchet (~/.cache/trebuchet): an installed
package may be read-only and shared by users, so nothing is written there.
"""
import os
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parents[1]  # src/trebuchet, or site-packages/trebuchet
INSTALLED = (_PACKAGE / "share").is_dir()
ROOT = Path(os.environ.get("TREBUCHET_HOME") or
            (_PACKAGE / "share" if INSTALLED else _PACKAGE.parents[1]))
COMPILED = ROOT / "build"
EXEC = COMPILED / "bin" / "trebuchet-exec"
TARGETS = ROOT / "targets"
SCHEMAS = ROOT / "schemas"
TARGET_SCHEMA = SCHEMAS / "target.schema.json"
RESULTS_SQL = SCHEMAS / "results.sql"
INCLUDE_DIRS = [ROOT / "harness", ROOT / "datatypes"]
BUILD_DIR_VARIABLE = "TREBUCHET_BUILD_DIR"


def _cache():
    xdg = os.environ.get("XDG_CACHE_HOME")
    return Path(xdg if xdg and Path(xdg).is_absolute() else Path.home() / ".cache") / "trebuchet"


def default_build():
    return _cache() if INSTALLED else COMPILED


BUILD = Path(os.environ.get(BUILD_DIR_VARIABLE) or default_build()).resolve()


def use_build_dir(folder):
    """--build-dir: this process's plugins go there, and those of the
    processes it starts (the report's second process) too."""
    global BUILD
    BUILD = Path(folder).resolve()
    os.environ[BUILD_DIR_VARIABLE] = str(BUILD)
