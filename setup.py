"""The package's build (pyproject.toml has its metadata): trebuchet's C parts
compiled when the package is built, so that an installed trebuchet runs from
a read-only folder with nothing left to compile but a user's own plugins.

What plugins compile against (the harness's and datatypes' sources, the
schemas, the built-in targets) goes into the package as trebuchet/share/,
laid out as in a checkout, and beside it share/build/ with the executor and,
where the real SFIO (libgvpr.so.2) is installed, Robust SFIO's library:
src/trebuchet/core/paths.py finds either layout.  They are compiled by the Makefile's
own recipes, so a checkout and an install run one executor built one way.
An editable install (`make build`) skips all this: the checkout is its own."""
import ctypes
import shutil
import subprocess
import tempfile
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = Path(__file__).resolve().parent
# the folders plugins and reproducers are made from, with what they hold
SHARED = {"harness": ["*.c", "*.h"], "datatypes": ["*.c", "*.h"], "schemas": ["*"],
          "docs": ["sfio-dictionary.md"]}
COMPILED = {"executor": "bin/trebuchet-exec", "robust-sfio-library": "lib/librobust_sfio.so",
            "sfio-guarded-library": "lib/libsfio_guarded.so",
            "sfio-proxy-library": "lib/libsfio_proxy.so", "sfio-proxy-server": "lib/sfio-proxy-server",
            "sfio-proxy-usercopy-library": "lib/libsfio_proxy_usercopy.so"}

# the libraries in front of SFIO, built where libgvpr.so.2 is
SFIO_GOALS = ("robust-sfio-library", "sfio-guarded-library", "sfio-proxy-library",
              "sfio-proxy-server", "sfio-proxy-usercopy-library")


def _sfio_installed():
    try:
        ctypes.CDLL("libgvpr.so.2")
    except OSError:
        return False
    return True


class BuildWithExecutor(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        share = Path(self.build_lib) / "trebuchet" / "share"
        for folder, patterns in SHARED.items():
            for pattern in patterns:
                for path in (HERE / folder).glob(pattern):
                    (share / folder).mkdir(parents=True, exist_ok=True)
                    shutil.copy2(path, share / folder)
        shutil.copytree(HERE / "targets", share / "targets", dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("tests"))
        goals = ["executor"] + [*SFIO_GOALS] * _sfio_installed()
        with tempfile.TemporaryDirectory() as build:
            subprocess.run(["make", "-s", "-C", str(HERE), f"BUILD={build}", *goals], check=True)
            for goal in goals:
                made = share / "build" / COMPILED[goal]
                made.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(Path(build) / COMPILED[goal], made)


class CompiledDistribution(Distribution):
    """A wheel for this machine's platform, since it holds an executable."""

    def has_ext_modules(self):
        return True


setup(cmdclass={"build_py": BuildWithExecutor}, distclass=CompiledDistribution)
