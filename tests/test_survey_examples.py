"""The survey's libraries (examples/<library>/, docs/survey.md): each spec
runs capped small, and each standalone reproducer kept under
examples/<library>/findings/ builds against the installed library and ends
as its own header says the case ended (trebuchet's `--emit-c` writes that
sentence from the stored outcome; this reads it back and runs the program
from a plain process, not through trebuchet).  A reproducer keeps its
repro.c and Makefile; its support/ is written fresh (examples/support.py,
`make examples-support`), the same files `--emit-c` writes today."""
import re
import shutil
import sqlite3
import subprocess
import sys

import pytest

from conftest import ROOT, trebuchet

EXAMPLES = ROOT / "examples"
# expat has its own test (tests/test_examples.py), at a larger cap
SPECS = sorted(p for p in EXAMPLES.glob("*/*.yaml") if p.parent.name != "expat"
               and p.stem == p.parent.name)
REPRODUCERS = sorted(p.parent for p in EXAMPLES.glob("*/findings/*/repro.c"))
CAP = 5  # cases per function: every function reached, in seconds


@pytest.mark.parametrize("spec", SPECS, ids=[p.parent.name for p in SPECS])
def test_a_survey_spec_runs_capped_small(spec, tmp_path):
    db = tmp_path / "survey.db"
    trebuchet("run", "--target", spec, "--db", db, "--cap", CAP, "--quiet", cwd=tmp_path)
    with sqlite3.connect(db) as conn:
        per_function = conn.execute("SELECT function, count(*), sum(outcome = 'SETUP')"
                                    " FROM results GROUP BY function").fetchall()
    # the issue asks at least 20 functions of each library
    assert len(per_function) >= 20, [f for f, *_ in per_function]
    # a function whose every case fails to build its values tests nothing
    assert [f for f, cases, setup in per_function if setup == cases] == []


# "it dies of signal 11 (SIGSEGV)", "it exits with status 1, from inside the
# call", "the call never returns (...)", "it exits 0 after printing "..."":
# src/trebuchet/run/emit_c.py's endings, as the reproducer's header states one
ENDING = re.compile(r"this program should end the same way:\n \* (?P<text>.*?)\.\n \*\n",
                    re.S)


def fresh_copy(folder, where):
    """The reproducer in folder copied to where, its support/ written there
    anew by `make examples-support`'s script rather than copied (and no
    ./repro a `make` there left)."""
    here = shutil.copytree(folder, where, ignore=shutil.ignore_patterns("support", "repro"))
    made = subprocess.run([sys.executable, EXAMPLES / "support.py", here],
                          capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    return here


def files_under(folder):
    return {p.relative_to(folder): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


# one reproducer per library; curl_easy_escape's header states the address
# the call returned, which may differ elsewhere
EMITTED = [EXAMPLES / "zlib/findings/adler32-null-buf-len-one",
           EXAMPLES / "jansson/findings/json_equal-deep-nesting",
           EXAMPLES / "libarchive/findings/archive_write_fail-not-archive-fatal",
           EXAMPLES / "libcurl/findings/curl_url_set-empty-host-urlencode",
           EXAMPLES / "libyaml/findings/yaml_emitter_open-opened-twice"]
# the command the header says wrote it, as run from the checkout's root
COMMAND = re.compile(r"`trebuchet (repro --target [^`]*)`")


@pytest.mark.parametrize("folder", EMITTED,
                         ids=[f"{p.parent.parent.name}/{p.name}" for p in EMITTED])
def test_a_kept_reproducer_is_what_emit_c_writes_today(folder, tmp_path):
    """Its support/ as written fresh, and its repro.c and Makefile as kept,
    equal what `--emit-c` writes for the same case now: the program kept
    and trebuchet's files it is built with agree."""
    command = COMMAND.search((folder / "repro.c").read_text())[1].split()
    emitted = tmp_path / "emitted"
    trebuchet(*command, "--emit-c", emitted, cwd=ROOT)
    kept = fresh_copy(folder, tmp_path / "kept")
    assert files_under(kept) == files_under(emitted)


def stated_ending(folder):
    found = ENDING.search((folder / "repro.c").read_text())
    assert found, f"{folder}/repro.c states no ending"
    return " ".join(line.lstrip(" *") for line in found["text"].splitlines())


@pytest.mark.parametrize("folder", REPRODUCERS,
                         ids=[f"{p.parent.parent.name}/{p.name}" for p in REPRODUCERS])
def test_a_survey_reproducer_builds_and_ends_as_it_says(folder, tmp_path):
    here = fresh_copy(folder, tmp_path / folder.name)
    built = subprocess.run(["make", "-s", "-C", here], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    said = stated_ending(here)
    ran = subprocess.run(["timeout", "10", "./repro"], cwd=here, capture_output=True, text=True)
    dies = re.match(r"it dies of signal (\d+)", said)
    if dies:
        # timeout(1) passes the child's death on as 128 + its signal
        assert ran.returncode in (-int(dies[1]), 128 + int(dies[1])), (said, ran.stderr)
    elif said.startswith("the call never returns"):
        assert ran.returncode == 124, (said, ran.stderr)
    elif said.startswith("it exits with status"):
        assert ran.returncode == int(re.match(r"it exits with status (\d+)", said)[1]), said
    else:
        printed = re.match(r'it exits 0 after printing "(.*?)"', said)
        assert printed and ran.returncode == 0, (said, ran.stderr)
        # an address may differ from run to run
        if "(an address, which may differ)" not in said:
            assert printed[1] in ran.stdout, (said, ran.stdout)
