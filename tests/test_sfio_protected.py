"""SFIO behind a protection scheme, as targets like any other: the same
cases that kill a test process on plain SFIO come back as SFIO's error value
(errno EFAULT) behind the guarded call, and the test process carries on to
its clean-up."""
import errno
import subprocess

import pytest

from conftest import ROOT, query, trebuchet

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


def test_the_process_boundary_copies_a_wild_buffer_through_the_kernel(tmp_path):
    """The proxy copies the caller's buffer with process_vm_readv: the wild
    pointer is EFAULT there, and the valid one is written by the server."""
    db = tmp_path / "proxy.db"
    trebuchet("run", "--target", "sfio_proxy", "--functions", "sfwrite", "--pin", "f=WRITE",
              "--pin", "buf=NO_ACCESS,BUF_PAGE",
              "--pin", "n=PAGE", "--db", db, "--quiet")
    assert sorted(query(db, "select value_names, outcome, ret, errno from results")) == [
        ("Sfio_t:WRITE Void_t:BUF_PAGE size:PAGE", "PASS", 4096, 0),
        ("Sfio_t:WRITE Void_t:NO_ACCESS size:PAGE", "PASS", -1, errno.EFAULT)]


def test_a_copy_in_the_callers_own_code_kills_the_caller_instead(tmp_path):
    db = tmp_path / "usercopy.db"
    trebuchet("run", "--target", "sfio_proxy_usercopy", "--functions", "sfwrite", "--pin", "f=WRITE",
              "--pin", "buf=NO_ACCESS", "--pin", "n=PAGE", "--db", db, "--quiet")
    assert [row[:2] for row in query(db, FAULTS)] == [("ABORT", 11)]


def test_the_handle_table_refuses_a_stream_the_server_never_handed_out(tmp_path):
    """A closed stream, random bytes, a freed block: none is a handle of the
    server's, and each is answered EBADF without the server touching it."""
    db = tmp_path / "proxy.db"
    trebuchet("run", "--target", "sfio_proxy", "--functions", "sfread",
              "--pin", "f=CLOSED,GARBAGE,FREED,READ", "--pin", "buf=BUF_PAGE", "--pin", "n=ONE",
              "--db", db, "--quiet")
    rows = dict((names.split()[0], rest) for names, *rest in
                query(db, "select value_names, outcome, ret, errno from results"))
    refused = ["PASS", -1, errno.EBADF]
    assert rows == {"Sfio_t:CLOSED": refused, "Sfio_t:GARBAGE": refused, "Sfio_t:FREED": refused,
                    "Sfio_t:READ": ["PASS", 1, 0]}


def test_a_server_that_dies_is_an_error_return_and_the_caller_carries_on(tmp_path):
    """sfgetc(NULL) is SFIO's macro on a NULL stream: the server dies of it,
    the call fails with ECONNRESET, and the test process goes on to its
    clean-up, on a server started again."""
    db = tmp_path / "proxy.db"
    trebuchet("run", "--target", "sfio_proxy", "--functions", "sfgetc,sfputc", "--pin", "f=NULL",
              "--pin", "c=ONE", "--db", db, "--quiet")
    assert query(db, FAULTS) == [("PASS", None, -1, errno.ECONNRESET, 0)] * 2


# what the stream a fault hit is worth afterwards: behind the guard, SFIO
# left it locked mid-call and it refuses every call; the proxy never let
# the fault happen, and it writes on
SAME_STREAM = {"guarded": -1, "proxy": 5}


@pytest.mark.parametrize("scheme", ["guarded", "proxy"])
def test_the_caller_carries_on_with_its_own_handler_in_place(scheme, tmp_path):
    """A program of its own, not a campaign: after the wild write fails,
    another stream writes and reads back, and the caller's own SIGSEGV
    handler is the one in place."""
    program = tmp_path / "carry_on"
    library = {"guarded": ["-lsfio_guarded", "-l:libgvpr.so.2"], "proxy": ["-lsfio_proxy"]}[scheme]
    subprocess.run(["cc", "-D_GNU_SOURCE", f"-D{scheme.upper()}", f"-I{ROOT}/targets/sfio_{scheme}",
                    f"-I{ROOT}/targets/sfio", "-o", str(program),
                    str(ROOT / "tests" / "sfio_protected" / "carry_on.c"), f"-L{ROOT}/build/lib",
                    f"-Wl,-rpath,{ROOT}/build/lib", *library], check=True)
    ran = subprocess.run([str(program)], cwd=tmp_path, capture_output=True, text=True, timeout=30)
    assert (ran.returncode, ran.stdout) == (
        0, f"wild=-1 Bad address\nsame={SAME_STREAM[scheme]} other=5 read=5 hello\nhandler=own close=0\n")
