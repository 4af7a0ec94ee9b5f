"""SFIO behind a protection scheme, as targets like any other: the same
cases that kill a test process on plain SFIO come back as SFIO's error value
(errno EFAULT) behind the guarded call, and the test process carries on to
its clean-up."""
import errno

from conftest import query, trebuchet

# a write from a page that cannot be read, and one from no page at all
WILD_WRITES = ("--functions", "sfwrite", "--pin", "f=WRITE", "--pin", "buf=NO_ACCESS,UNMAPPED",
               "--pin", "n=PAGE")
FAULTS = "select outcome, signal, ret, errno, cleanup_failed from results order by case_index"


def test_a_wild_write_kills_plain_sfio(tmp_path):
    db = tmp_path / "plain.db"
    trebuchet("run", "--target", "sfio", *WILD_WRITES, "--db", db, "--quiet")
    assert [row[:2] for row in query(db, FAULTS)] == [("ABORT", 11), ("ABORT", 11)]


def test_the_guarded_call_turns_the_fault_into_an_error_return(tmp_path):
    db = tmp_path / "guarded.db"
    trebuchet("run", "--target", "sfio_guarded", *WILD_WRITES, "--db", db, "--quiet")
    assert query(db, FAULTS) == [("PASS", None, -1, errno.EFAULT, 0)] * 2


def test_an_abort_is_no_fault_and_still_reaches_the_harness(tmp_path):
    """glibc's abort on a double free is SIGABRT: the guard catches only
    SIGSEGV and SIGBUS, and the harness's handler is back in place."""
    db = tmp_path / "guarded.db"
    trebuchet("run", "--target", "sfio_guarded", "--functions", "sfclose", "--pin", "f=FREED",
              "--db", db, "--quiet")
    assert [row[:2] for row in query(db, FAULTS)] == [("ABORT", 6)]
