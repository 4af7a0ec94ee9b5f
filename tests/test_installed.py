"""trebuchet installed as a tool: a wheel built from this checkout, installed
into a fresh virtual environment that is then made read-only, runs a user's
spec, the built-in targets and a report as an unprivileged user (nobody),
with plugins built into that user's cache and nothing written into the
package.  Root is needed to switch users; CI runs as root."""
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from conftest import ROOT

# the system's Python, which nobody may run (a venv made from a Python under
# /root would not be); with python3-venv, which `make build` installs
SYSTEM_PYTHON = Path("/usr/bin/python3")

pytestmark = pytest.mark.skipif(os.geteuid() != 0 or not SYSTEM_PYTHON.exists(),
                                reason="switching to nobody takes root and /usr/bin/python3")


def _tree(top):
    """{path: (size, mtime)} of every file under top."""
    return {p: (p.stat().st_size, p.stat().st_mtime_ns) for p in top.rglob("*") if p.is_file()}


@pytest.fixture(scope="module")
def installed():
    """(venv, the package's files before any run, a folder nobody owns)."""
    top = Path(tempfile.mkdtemp(prefix="trebuchet-installed-"))
    wheels, venv, user = top / "wheels", top / "venv", top / "user"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels),
                    str(ROOT)], check=True)
    [wheel] = wheels.glob("trebuchet-*.whl")
    subprocess.run([str(SYSTEM_PYTHON), "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin/pip"), "install", "-q", str(wheel)], check=True)
    subprocess.run(["chmod", "-R", "a-w", str(venv)], check=True)
    user.mkdir()
    shutil.copytree(ROOT / "examples" / "expat", user / "expat")
    shutil.chown(top, "nobody")
    subprocess.run(["chown", "-R", "nobody", str(user)], check=True)
    yield venv, _tree(venv), user
    subprocess.run(["chmod", "-R", "u+w", str(venv)], check=True)
    shutil.rmtree(top)


def as_nobody(venv, user, *args, **env):
    """trebuchet ARGS as nobody, in user's folder, with a home it cannot
    write (as a service account has) and a bare environment plus env."""
    command = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
               "env", "-i", "PATH=/usr/bin:/bin", "HOME=/nonexistent",
               *(f"{k}={v}" for k, v in env.items()), str(venv / "bin" / "trebuchet"), *args]
    return subprocess.run(command, cwd=user, capture_output=True, text=True, timeout=300)


def test_a_users_spec_runs_from_a_read_only_install_with_plugins_in_the_users_cache(installed):
    venv, before, user = installed
    cache = user / "cache"
    done = as_nobody(venv, user, "run", "--target", "expat/expat.yaml", "--cap", "30",
                     "--db", "expat.db", XDG_CACHE_HOME=cache)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1].startswith("expat: ")
    [plugin] = (cache / "trebuchet" / "targets").glob("expat-*/expat.so")
    assert plugin.stat().st_uid == pwd.getpwnam("nobody").pw_uid
    assert _tree(venv) == before


def test_the_built_in_targets_and_the_report_run_installed(installed):
    venv, before, user = installed
    for target, function in (("stdio", "fclose"), ("sfio", "sfclose"), ("robust_sfio", "sfclose")):
        done = as_nobody(venv, user, "run", "--target", target, "--cap", "5",
                         "--functions", function, "--db", "ours.db", XDG_CACHE_HOME=user / "cache")
        assert done.returncode == 0, (target, done.stderr)
        assert done.stdout.splitlines()[-1].startswith(f"{target}: 5 cases in 1 function")
    done = as_nobody(venv, user, "report", "--db", "ours.db", "--out", "report",
                     XDG_CACHE_HOME=user / "cache")
    assert done.returncode == 0, done.stderr
    # matplotlib's cache beside the plugins, not a paragraph about a temporary one
    assert done.stderr == ""
    assert (user / "report" / "index.html").is_file()
    assert _tree(venv) == before


def test_build_dir_chooses_where_plugins_go_and_an_unwritable_one_is_one_line(installed):
    venv, before, user = installed
    done = as_nobody(venv, user, "run", "--target", "stdio", "--functions", "fclose",
                     "--cap", "3", "--db", "chosen.db", "--build-dir", "chosen")
    assert done.returncode == 0, done.stderr
    assert (user / "chosen" / "targets" / "stdio" / "stdio.so").is_file()
    done = as_nobody(venv, user, "run", "--target", "stdio", "--functions", "fclose",
                     "--cap", "3", "--db", "home.db")
    assert done.returncode == 2
    assert done.stderr == ("trebuchet: cannot write plugins into /nonexistent/.cache/trebuchet:"
                           " Permission denied; choose a folder with --build-dir or"
                           " TREBUCHET_BUILD_DIR\n")
    done = as_nobody(venv, user, "run", "--target", "stdio", "--functions", "fclose",
                     "--cap", "3", "--db", "variable.db", TREBUCHET_BUILD_DIR=user / "variable")
    assert done.returncode == 0, done.stderr
    assert (user / "variable" / "targets" / "stdio" / "stdio.so").is_file()
    assert _tree(venv) == before
