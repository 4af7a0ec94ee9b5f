"""Where the project's pieces live: the checkout the package was installed from
(editable), or TREBUCHET_HOME when set."""
import os
from pathlib import Path

ROOT = Path(os.environ.get("TREBUCHET_HOME", Path(__file__).resolve().parents[1]))
BUILD = ROOT / "build"
EXEC = BUILD / "bin" / "trebuchet-exec"
TARGETS = ROOT / "targets"
SCHEMAS = ROOT / "schemas"
TARGET_SCHEMA = SCHEMAS / "target.schema.json"
RESULTS_SQL = SCHEMAS / "results.sql"
INCLUDE_DIRS = [ROOT / "harness", ROOT / "datatypes"]
