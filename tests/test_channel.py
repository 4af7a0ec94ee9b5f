"""The result channel sealed during the call (harness/channel.h): a library
that writes blindly over every shared mapping of its process (tests/wipe/,
as sodium_pad with a huge block size writes zeros backwards) reaches the
harness's records.  Before the seal that read as PASS, as a value that
could not be built, or stopped the run as a harness failure, depending on
how the function went on; now the first write faults where it is made."""
import sqlite3

from conftest import ROOT, trebuchet

WIPE = ROOT / "tests" / "wipe" / "wipe.yaml"


def test_a_wild_write_over_the_channel_is_an_abort_where_it_is_made(tmp_path):
    db = tmp_path / "wipe.db"
    trebuchet("run", "--target", WIPE, "--db", db, "--quiet")  # finished: exit 0
    with sqlite3.connect(db) as conn:
        outcomes = conn.execute("SELECT function, outcome, signal, count(*) FROM results"
                                " GROUP BY function, outcome, signal").fetchall()
        finished = conn.execute("SELECT count(*) FROM runs WHERE finished IS NOT NULL").fetchone()
    # returning, crashing or exiting afterwards: the write itself is the end
    cases = len(outcomes) and outcomes[0][3]
    assert outcomes == [(f, "ABORT", 11, cases) for f in
                        ("ch_wipe_and_crash", "ch_wipe_and_exit", "ch_wipe_and_return")]
    assert finished == (1,)


def test_its_site_is_the_write_in_the_library():
    shown = trebuchet("repro", "--target", WIPE, "--function", "ch_wipe_and_exit",
                      "--case", "0").stdout
    assert shown.startswith("ch_wipe_and_exit(int:ZERO) case 0: ABORT, signal 11 (SIGSEGV)")
    lines = shown.splitlines()
    source = (ROOT / "tests" / "wipe" / "wipe.c").read_text().splitlines()
    write = next(i for i, line in enumerate(source, 1) if "memset(" in line)
    assert lines[3] == f"  at wipe_shared ({ROOT}/tests/wipe/wipe.c:{write})"
    assert lines[4].startswith(f"  at ch_wipe_and_exit ({ROOT}/tests/wipe/wipe.c:")
