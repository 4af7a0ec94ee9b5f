"""Bad input, one row each: every command handed something it cannot use
(text that is not UTF-8, a store cut short or empty, an output it cannot
write, a number a store cannot keep, a pin with an empty value) answers
with one line naming what is wrong and exit 2, never a traceback, and
writes nothing.  The rows are the probes that once ended in a traceback,
were silently accepted, or misled (test_bad_input.py has the specs' and
options' own)."""
import os
import shutil
import sqlite3
import subprocess

import pytest

from conftest import ROOT, TREBUCHET, trebuchet

NOT_UTF8 = b"\xff\xfe"
SELFTEST = ROOT / "targets" / "selftest" / "selftest.yaml"


@pytest.fixture(scope="module")
def here(tmp_path_factory):
    """A folder of inputs: a finished store of one small run, that store cut
    short three ways, and files that are not what they claim."""
    here = tmp_path_factory.mktemp("bad")
    trebuchet("run", "--target", "selftest", "--functions", "st_return", "--cap", "5",
              "--db", here / "ok.db", "--quiet")
    for name, edit in (("nores.db", "DROP TABLE results"),
                       ("unfinished.db", "UPDATE runs SET finished = NULL")):
        shutil.copy(here / "ok.db", here / name)
        with sqlite3.connect(here / name) as conn:
            conn.execute(edit)
    trebuchet("baseline", "--db", here / "ok.db", "--target", "selftest", "--out",
              here / "ok.baseline")
    (here / "empty.db").write_bytes(b"")
    (here / "values.txt").write_bytes(b"st_return ZERO,ZERO,ZERO,ZERO\nst_return " + NOT_UTF8
                                      + b"\n")
    (here / "spec.yaml").write_bytes(b"target: x\n# " + NOT_UTF8 + b"\nfunctions: []\n")
    (here / "dangling.3").write_text(".so man3/gone.3\n")
    (here / "params.yaml").write_text("target: x\nfunctions:\n  - name: f\n    returns: int\n"
                                      "    params: 5\n    error: {when: none}\n")
    return here


HUGE = str(1 << 64)
# (name, command's arguments (here: the inputs' folder), the line's start
# after "trebuchet: ", or a part of it when it starts with "...")
PROBES = [
    ("values file not UTF-8", ["run", "--target", "selftest", "--db", "{here}/x.db",
                               "--values-file", "{here}/values.txt"],
     "{here}/values.txt:2: not UTF-8 text: byte 0xff at column 11"),
    ("spec not UTF-8", ["run", "--target", "{here}/spec.yaml", "--db", "{here}/x.db"],
     "{here}/spec.yaml:2: not UTF-8 text: byte 0xff at column 3"),
    ("params: 5", ["run", "--target", "{here}/params.yaml", "--db", "{here}/x.db"],
     "{here}/params.yaml:"),
    ("store name not UTF-8", ["findings", "--db", os.fsdecode(b"st\xffore.db")],
     "st\\udcffore.db: no such store"),
    ("findings: store without results", ["findings", "--db", "{here}/nores.db"],
     "{here}/nores.db: not a whole store of schema version"),
    ("report: store without results", ["report", "--db", "{here}/nores.db", "--out",
                                       "{here}/report"], "{here}/nores.db: not a whole store"),
    ("export: store without results", ["export", "--db", "{here}/nores.db"],
     "{here}/nores.db: not a whole store"),
    ("compare: store without results", ["compare", "{here}/nores.db", "{here}/ok.db"],
     "{here}/nores.db: not a whole store"),
    ("memcheck: store without results", ["memcheck", "--db", "{here}/nores.db"],
     "{here}/nores.db: not a whole store"),
    ("an empty file as a store", ["findings", "--db", "{here}/empty.db"],
     "{here}/empty.db: an empty file, not a trebuchet store"),
    ("findings: only an unfinished run", ["findings", "--db", "{here}/unfinished.db"],
     "{here}/unfinished.db: no finished run in this store"),
    ("export --run past a store's numbers", ["export", "--db", "{here}/ok.db", "--run", HUGE],
     "argument --run: wants a number at most 9223372036854775807, what a store keeps"),
    ("run --cap past a store's numbers", ["run", "--target", "selftest", "--cap", HUGE],
     "argument --cap: wants a number at most 9223372036854775807, what a store keeps"),
    ("run --seed past a store's numbers", ["run", "--target", "selftest", "--seed", HUGE],
     "argument --seed: wants a number at most 9223372036854775807, what a store keeps"),
    ("repro --case past a store's numbers", ["repro", "--target", "selftest", "--function",
                                             "st_return", "--case", HUGE],
     "argument --case: wants a number at most 9223372036854775807, what a store keeps"),
    ("export --out in /proc", ["export", "--db", "{here}/ok.db", "--out", "/proc/self/no/e.json"],
     "/proc/self/no/e.json: cannot make its folder"),
    ("export --out /dev/full", ["export", "--db", "{here}/ok.db", "--out", "/dev/full"],
     "/dev/full: cannot be written: No space left on device"),
    ("report --out in /proc", ["report", "--db", "{here}/ok.db", "--out", "/proc/self/no"],
     "/proc/self/no: cannot be written"),
    ("merge --out in /proc", ["merge", "{here}/ok.db", "--out", "/proc/self/no.db"],
     "/proc/self/no.db: cannot be written"),
    ("init --out in /proc", ["init", str(ROOT / "tests/latent/latent.h"), "--library",
                             "libc.so.6", "--out", "/proc/self/no"],
     "/proc/self/no: cannot be written"),
    ("init --docs, no such page", ["init", "/usr/include/zlib.h", "--library", "libz.so.1",
                                   "--out", "{here}/drafted", "--docs", "{here}/none.3"],
     "{here}/none.3: cannot read it: No such file or directory"),
    ("init --docs, .so to no page", ["init", "/usr/include/zlib.h", "--library", "libz.so.1",
                                     "--out", "{here}/drafted", "--docs", "{here}/dangling.3"],
     "{here}/dangling.3:1: names man3/gone.3, which is not there"),
    ("bench io --db in /proc", ["bench", "io", "--db", "/proc/self/no.db", "--repeat", "1"],
     "/proc/self/no.db: cannot be written"),
    ("baseline --out in /proc", ["baseline", "--db", "{here}/ok.db", "--target", "selftest",
                                 "--out", "/proc/self/no.baseline"],
     "/proc/self/no.baseline: cannot be written"),
    ("baseline --flaky, no baseline", ["baseline", "--db", "{here}/ok.db", "--target",
                                       "selftest", "--out", "{here}/none.baseline", "--flaky",
                                       "0123456789abcdef"],
     "{here}/none.baseline: No such file or directory"),
    ("baseline --flaky, no such finding", ["baseline", "--db", "{here}/ok.db", "--target",
                                           "selftest", "--out", "{here}/ok.baseline", "--flaky",
                                           "0123456789abcdef"],
     "{here}/ok.db: run 1 of selftest has no finding 0123456789abcdef"),
    ("survey --examples missing", ["survey", "--examples", "{here}/nowhere", "--db",
                                   "{here}/s.db"], "{here}/nowhere: no such folder"),
    ("--pin with an empty value", ["run", "--target", "selftest", "--functions", "st_return",
                                   "--pin", "a=ZERO,,ONE", "--db", "{here}/x.db"],
     "--pin wants PARAM=VALUE[,VALUE...] or FUNCTION.PARAM=VALUE,..., not 'a=ZERO,,ONE'"),
]


@pytest.mark.parametrize("name, args, line", PROBES, ids=[p[0] for p in PROBES])
def test_bad_input_is_one_line_and_exit_2(here, name, args, line):
    args = [a.replace("{here}", str(here)) for a in args]
    said = subprocess.run([str(TREBUCHET), *args], capture_output=True, cwd=here)
    err = said.stderr.decode("utf-8", "backslashreplace")
    assert said.returncode == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith("trebuchet: " + line.replace("{here}", str(here))), err
    assert not (here / "x.db").exists() and not (here / "s.db").exists()
    assert not (here / "report").exists()  # a report that failed makes no folder
    assert not list(here.glob("drafted/*"))  # nor a draft


def test_a_store_command_takes_the_target_as_run_does_by_its_spec_s_path(here):
    """`findings --target PATH` once said the store had no such target where
    `run` and `baseline` took the same path."""
    by_name = trebuchet("findings", "--db", here / "ok.db", "--target", "selftest").stdout
    by_path = trebuchet("findings", "--db", here / "ok.db", "--target", SELFTEST).stdout
    assert by_name == by_path and by_name.startswith("selftest (run 1")


@pytest.fixture
def read_only(here, tmp_path):
    """A copy of the finished store in a folder a command cannot write, and
    the prefix that runs a command so: as root, whom permissions do not
    stop, a read-only bind mount in a mount namespace of its own; as
    anyone else, the folder and the store made read-only, as a user's are."""
    folder = tmp_path / "ro"
    folder.mkdir()
    shutil.copy(here / "ok.db", folder / "ok.db")
    if os.geteuid() != 0:
        (folder / "ok.db").chmod(0o444)
        folder.chmod(0o555)
        yield folder / "ok.db", []
        folder.chmod(0o755)
        return
    prefix = ["unshare", "-m", "sh", "-c", 'mount --bind -o ro "$0" "$0" && exec "$@"',
              str(folder)]
    if subprocess.run([*prefix, "true"], capture_output=True).returncode:
        pytest.skip("no mount namespace here for a read-only store")
    yield folder / "ok.db", prefix


def test_memcheck_on_a_store_it_cannot_write_says_so_before_valgrind(read_only):
    """It once ran Valgrind on every case and then ended in a traceback at
    the first result it stored."""
    db, prefix = read_only
    said = subprocess.run([*prefix, str(TREBUCHET), "memcheck", "--db", str(db), "--all"],
                          capture_output=True, text=True)
    assert said.returncode == 2, said.stderr
    assert said.stderr == f"trebuchet: {db}: cannot be written: a read-only store\n"
    assert said.stdout == ""
