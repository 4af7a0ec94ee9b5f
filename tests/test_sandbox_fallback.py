"""The sandbox's fallback (harness/isolation_legacy.c): where open_tree,
move_mount and mount_setattr answer ENOSYS, as under Valgrind 3.19, the
same sandbox is made with mount(2) alone.  tests/nosys/nosys.c makes them
answer so with a seccomp filter around an unchanged executor (nothing in
the executor is there for tests only), and test_sandbox.py's escapes are
held as with the new calls, as root and as an ordinary user."""
import platform
import shutil
import subprocess

import pytest

from conftest import ROOT, needs_sandbox
from test_sandbox import assert_held, bait, run_escapes, user_namespaces_allowed  # noqa: F401

pytestmark = pytest.mark.skipif(platform.machine() != "x86_64" or shutil.which("cc") is None,
                                reason="nosys.c filters x86_64's call numbers, built with cc")


@pytest.fixture(scope="module")
def nosys():
    """Built into the build folder, where nobody may run it too (not into
    pytest's own, which only its owner may enter)."""
    program = ROOT / "build" / "tests" / "nosys"
    program.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["cc", "-O2", "-o", program, ROOT / "tests" / "nosys" / "nosys.c"], check=True)
    return program


def test_as_root_the_fallback_holds_every_escape(bait, nosys):
    needs_sandbox()
    assert_held(run_escapes(bait, wrap=[nosys]), bait, "full")


@pytest.mark.skipif(not user_namespaces_allowed(),
                    reason="needs root to become nobody, and unprivileged user namespaces")
def test_as_an_ordinary_user_the_fallback_holds_every_escape(bait, nosys):
    assert_held(run_escapes(bait, user="nobody", wrap=[nosys]), bait, "user")
