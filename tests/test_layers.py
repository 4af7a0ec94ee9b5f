"""The package keeps its floors (tests/layer_check.py): no module imports
from a layer above its own, and nothing imports in a circle.  What broke
them is listed below (empty since the layers were mended); an entry that
no longer holds must go, so the list only shrinks."""
import re

import pytest

from conftest import ROOT

import layer_check

PACKAGE = ROOT / "src" / "trebuchet"

# broken floors still to mend, each as violations() names it: none today,
# and a new one is mended, not listed
STILL_BROKEN = set()


def test_every_package_is_on_a_layer():
    packages = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}
    assert packages == set(layer_check.LEVEL)


def test_no_module_imports_upward_or_in_a_circle_but_those_listed():
    found = set(layer_check.violations(PACKAGE))
    assert sorted(found - STILL_BROKEN) == [], "a floor newly broken"
    assert sorted(STILL_BROKEN - found) == [], "mended: take it off STILL_BROKEN"


def _package(root, files):
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    for folder in {(root / n).parent for n in files}:
        (folder / "__init__.py").touch()
    return root


def test_an_upward_import_is_caught_even_inside_a_function(tmp_path):
    root = _package(tmp_path, {
        "core/errors.py": "def f():\n    from trebuchet.cli import main\n",
        "cli/main.py": "from trebuchet.core import errors\n"})
    assert layer_check.violations(root) == ["circle: cli.main core.errors",
                                            "package circle: cli core",
                                            "upward: core.errors -> cli.main"]


def test_peers_may_import_each_other_but_not_in_a_circle(tmp_path):
    root = _package(tmp_path, {
        "report/a.py": "from trebuchet.gate import b\n",
        "gate/b.py": "import trebuchet.study.c\n",
        "study/c.py": "from trebuchet.core.errors import TrebuchetError\n",
        "core/errors.py": ""})
    assert layer_check.violations(root) == []
    (root / "study" / "c.py").write_text("from trebuchet.report.a import x\n")
    assert layer_check.violations(root) == ["circle: gate.b report.a study.c",
                                            "package circle: gate report study"]


def test_a_package_on_no_layer_and_a_relative_import_are_refused(tmp_path):
    root = _package(tmp_path, {"misc/x.py": "from trebuchet.core import y\n", "core/y.py": ""})
    assert layer_check.violations(root) == ["upward: misc.x -> core.y"]
    (root / "core" / "y.py").write_text("from . import z\n")
    with pytest.raises(ValueError, match="relative import"):
        layer_check.violations(root)


# SQL as the Python side writes it: a statement's first words, in capitals
_SQL = re.compile(r"""["'](?:SELECT\s|INSERT\s|UPDATE\s+\w+\s+SET\b|DELETE\s+FROM\b|CREATE\s|"""
                  r"""DROP\s|ALTER\s|PRAGMA\s)""")


def sql_outside_the_store(package):
    """[(module, line)] of SQL text in a module outside store/: every SQL
    statement of the Python side is a named function there, so a schema
    change is met in one package."""
    found = []
    for path in sorted(package.rglob("*.py")):
        if path.relative_to(package).parts[0] == "store":
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if _SQL.search(line):
                found.append((str(path.relative_to(package)), number))
    return found


def test_every_sql_statement_of_the_python_side_is_in_the_store():
    assert sql_outside_the_store(PACKAGE) == []


def test_sql_outside_the_store_is_caught(tmp_path):
    _package(tmp_path, {"report/a.py": 'rows = conn.execute("SELECT x FROM results")\n',
                        "store/b.py": 'conn.execute("DELETE FROM findings")\n',
                        "gate/c.py": 'say("select a baseline")\n'})
    assert sql_outside_the_store(tmp_path) == [("report/a.py", 1)]
