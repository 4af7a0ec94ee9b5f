"""A spec names the library under test as a library's own repository has
it: by a path relative to the spec (so the same spec works in any checkout,
a laptop's or a CI runner's), or by file name through LD_LIBRARY_PATH."""
import shutil
import subprocess

import pytest

from conftest import ROOT, query, trebuchet

SPEC = """target: {target}
version: {{label: demolib, expr: demo_version()}}
includes: [demolib.h]
libraries: [{library}]
functions:
  - name: demo_count
    returns: size_t
    params:
      - {{name: s, type: const char *, datatype: string}}
      - {{name: c, type: int, datatype: int}}
    error: {{when: none}}
"""


@pytest.fixture
def repository(tmp_path):
    """A library's repository: its source, its build, a spec in robustness/."""
    (tmp_path / "build").mkdir()
    (tmp_path / "robustness").mkdir()
    shutil.copy(ROOT / "tests/demolib/demolib.h", tmp_path / "robustness")
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", str(tmp_path / "build/libdemo.so.1"),
                    str(ROOT / "tests/demolib/demolib.c")], check=True)
    return tmp_path


def write_spec(repository, target, library):
    spec = repository / "robustness" / f"{target}.yaml"
    spec.write_text(SPEC.format(target=target, library=library))
    return spec


def test_a_library_path_is_relative_to_the_spec(repository):
    spec = write_spec(repository, "demo_relative", "../build/libdemo.so.1")
    db = repository / "t.db"
    trebuchet("run", "--target", spec, "--db", db, "--quiet", cwd=repository)
    assert query(db, "SELECT target_version FROM runs") == [("demolib 1",)]


def test_a_library_found_through_ld_library_path(repository):
    spec = write_spec(repository, "demo_ld_path", "libdemo.so.1")
    db = repository / "t.db"
    missing = trebuchet("run", "--target", spec, "--db", db, check=False)
    assert missing.returncode == 2 and "libdemo.so.1' is not installed" in missing.stderr
    trebuchet("run", "--target", spec, "--db", db, "--quiet",
              env={"LD_LIBRARY_PATH": str(repository / "build")})
    assert query(db, "SELECT count(*) FROM results WHERE outcome = 'ABORT'")[0][0] > 0


def test_a_library_path_not_built_names_where_it_was_looked_for(repository):
    spec = write_spec(repository, "demo_missing", "build/libdemo.so.1")
    result = trebuchet("run", "--target", spec, "--db", repository / "t.db", check=False)
    assert result.returncode == 2
    assert f"not at {repository / 'robustness/build/libdemo.so.1'} nor " \
           f"{ROOT / 'build/libdemo.so.1'}" in result.stderr
