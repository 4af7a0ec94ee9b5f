"""Which functions of a library a spec leaves untested, said by `init` and
the report (build/api_coverage.py).  A small library built here exports
four functions and hides a fifth (static); its header declares three of
them.  Counted by hand: init drafts the three and names the fourth as
declared in no header read; a spec that calls one by its name and one
through `call:`, and leaves one out on purpose, tests 2 of 4, leaves out 1,
and leaves cov_internal untested."""
import subprocess

import pytest

from conftest import trebuchet
from trebuchet.build import api_coverage
from trebuchet.spec import load as specs

SOURCE = """
int cov_open(int flags) { return flags < 0 ? -1 : 3; }
int cov_read(int fd) { return fd == 3 ? 0 : -1; }
int cov_close(int fd) { return fd == 3 ? 0 : -1; }
static int cov_helper(int x) { return x * 2; }
int cov_internal(int x) { return cov_helper(x); }
"""
HEADER = "int cov_open(int flags);\nint cov_read(int fd);\nint cov_close(int fd);\n"
SPEC = """target: cov
includes: [cov.h]
cflags: [-I.]
libraries: [lib/libcov.so]
leaves_out:
  cov_open: "a constructor: every other function is given its handle"
functions:
  - name: cov_read
    returns: int
    params:
      - {name: fd, type: int, datatype: int}
    error: {when: negative}
  - name: close_twice
    call: cov_close
    returns: int
    params:
      - {name: fd, type: int, datatype: int}
    error: {when: negative}
"""
LINE = ("the spec tests 2 of the 4 functions its libraries export, leaves out 1 on purpose;"
        " untested: cov_internal")


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cov")
    (folder / "lib").mkdir()
    (folder / "cov.c").write_text(SOURCE)
    (folder / "cov.h").write_text(HEADER)
    subprocess.run(["cc", "-shared", "-fPIC", "-o", folder / "lib" / "libcov.so",
                    folder / "cov.c"], check=True)
    (folder / "cov.yaml").write_text(SPEC)
    return folder


def test_init_names_what_the_library_exports_and_no_header_declares(library, tmp_path):
    out = trebuchet("init", library / "cov.h", "--library", library / "lib" / "libcov.so",
                    "--out", tmp_path).stdout
    assert out.splitlines()[0].startswith("drafted 3 of 3 functions")
    assert ("1 exported function declared in none of the headers read, not drafted: cov_internal"
            " (a spec lists those it leaves out on purpose under leaves_out:, with why)") in out


def test_a_spec_tests_what_it_calls_and_leaves_out_what_it_says(library):
    coverage = api_coverage.of_spec(specs.load(library / "cov.yaml"))
    assert coverage.exported == {"cov_open", "cov_read", "cov_close", "cov_internal"}
    assert coverage.tested == {"cov_read", "cov_close"}  # close_twice calls cov_close
    assert coverage.untested == ["cov_internal"]
    assert coverage.text() == LINE
    # a spec of the C library itself names no library: nothing to tell
    assert api_coverage.of_spec(specs.load(specs.find_spec("stdio"))) is None


def test_the_report_says_it_beside_the_findings(library, tmp_path):
    db = tmp_path / "cov.db"
    trebuchet("run", "--target", library / "cov.yaml", "--db", db, "--quiet", cwd=library)
    trebuchet("report", "--db", db, "--out", tmp_path / "report", cwd=library)
    page = (tmp_path / "report" / "index.html").read_text()
    assert f'<p class="muted">API coverage: {LINE}.</p>' in page


def test_a_long_list_is_cut_and_counted():
    names = [f"f{i:02d}" for i in range(15)]
    assert api_coverage.shown(names) == ", ".join(names[:12]) + " and 3 more"
    assert api_coverage.shown(names[:12]) == ", ".join(names[:12])
