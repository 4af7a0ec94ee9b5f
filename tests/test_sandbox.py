"""The sandbox (harness/isolation.c): the selftest target's hostile
functions each try one way out of a run, and from outside the run this test
looks for what got through: a file in /tmp, /var/tmp, /dev/shm, a home,
beside the scratch directory or beside the store; a connection to a
listener on 127.0.0.1; SysV shared memory; a daemon; a signal to a process
of the same user; a fork bomb's processes.  With the sandbox, as root and
as an ordinary user, nothing gets through and nothing is left.  Without
it the same functions get out, which shows each look can see an escape."""
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from conftest import ROOT, needs_sandbox, processes_under, query, trebuchet
from trebuchet.findings import flaky

ESCAPES = ("tmp", "var_tmp", "dev_shm", "home", "above", "store", "connect", "shm",
           "daemon", "signal", "fork_bomb")
SHM_KEY = 0x7eb5e1f  # ST_ESCAPE_SHM_KEY in targets/selftest/selftest.h
SHARED = ("/tmp", "/var/tmp", "/dev/shm")
NOBODY = 65534
EXEC = ROOT / "build" / "bin" / "trebuchet-exec"
PLUGIN = ROOT / "build" / "targets" / "selftest" / "selftest.so"


def escape_files():
    return {p for d in SHARED for p in Path(d).glob("st-escape-*")}


def shm_present():
    lines = Path("/proc/sysvipc/shm").read_text().splitlines()[1:]
    return any(int(line.split()[0]) == SHM_KEY for line in lines)


def remove_shm():
    """As root, or where root may not (no CAP_SYS_ADMIN: a container), as
    nobody, whose test process made it."""
    if not shm_present():
        return
    if subprocess.run(["ipcrm", "-M", str(SHM_KEY)], capture_output=True).returncode:
        subprocess.run(["runuser", "-u", "nobody", "--", "ipcrm", "-M", str(SHM_KEY)], check=True)


def daemons():
    found = []
    for comm in Path("/proc").glob("[0-9]*/comm"):
        try:
            if comm.read_text().strip() == "st-escape-d":
                found.append(int(comm.parent.name))
        except OSError:
            pass
    return found


def bait_parent():
    """A folder for the bait that the sandbox's private /tmp, /var/tmp and
    /dev/shm do not hide: the build folder, unless the checkout itself lies
    in one of them (a clone in /tmp), then /var/lib (as root)."""
    for folder in (ROOT / "build", Path("/var/lib")):
        inside_shared = any(folder.resolve().is_relative_to(d) for d in SHARED)
        if not inside_shared and os.access(folder, os.W_OK):
            return folder
    pytest.skip("no writable folder outside /tmp, /var/tmp and /dev/shm for the bait")


class Bait:
    """What the hostile functions reach for, laid out as selftest.h says: a
    base directory outside /tmp (so that the sandbox's private /tmp does not
    hide it) holding tmp/ (the scratch directory's parent, with the
    listener's port and the pid of a process of the test processes' user)
    and store/; both world-writable, as /tmp is, so that only the sandbox
    stands between a test process and them."""

    def __init__(self):
        self.base = Path(tempfile.mkdtemp(prefix="escape-", dir=bait_parent()))
        self.tmp, self.store = self.base / "tmp", self.base / "store"
        for d in (self.base, self.tmp, self.store):
            d.mkdir(exist_ok=True)
            d.chmod(0o1777)
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        (self.tmp / "st-escape.port").write_text(str(self.listener.getsockname()[1]))
        # the test processes' user: nobody when the harness runs as root
        self.sleeper = subprocess.Popen(["sleep", "600"], user=NOBODY, group=NOBODY,
                                        extra_groups=[])
        (self.tmp / "st-escape.pid").write_text(str(self.sleeper.pid))
        remove_shm()
        self.files_before = escape_files()

    def connections(self):
        self.listener.setblocking(False)
        n = 0
        while True:
            try:
                self.listener.accept()[0].close()
                n += 1
            except BlockingIOError:
                return n

    def leftover_files(self):
        """Files the run left outside: in the shared directories, and in the
        base directory anything but the bait and the store."""
        bait = {self.tmp, self.store, self.tmp / "st-escape.port", self.tmp / "st-escape.pid"}
        here = {p for p in self.base.rglob("*") if p not in bait and not p.name.startswith("s.db")}
        return sorted(map(str, (escape_files() - self.files_before) | here))

    def traces(self):
        """Each escape that got through, by what it left outside."""
        files = "\n".join(self.leftover_files())
        got = {name for name in ("tmp", "var-tmp", "dev-shm", "home", "above", "store")
               if f"st-escape-{name}-" in files}
        got = {name.replace("-", "_") for name in got}
        if self.connections():
            got.add("connect")
        if shm_present():
            got.add("shm")
        if self.sleeper.poll() is not None:
            got.add("signal")
        if daemons():
            got.add("daemon")
        if processes_under(self.base):
            got.add("fork_bomb")
        return got

    def clean(self):
        for p in escape_files() - self.files_before:
            p.unlink()
        remove_shm()
        for pid in daemons() + processes_under(self.base):
            os.kill(pid, 9)
        self.sleeper.kill()
        self.sleeper.wait()
        self.listener.close()
        shutil.rmtree(self.base)


def run_escapes(bait, *options, user=None, escapes=ESCAPES, wrap=()):
    """Runs each escape once, as root through the CLI or as user straight
    through the executor (an ordinary user cannot reach the project's
    virtual environment here), under the command wrap when given; returns
    the store."""
    db = bait.store / "s.db"
    functions = ",".join(f"st_escape_{name}" for name in escapes)
    if user is None:
        trebuchet("run", "--target", "selftest", "--functions", functions, "--timeout", "1",
                  "--db", db, "--quiet", *options, cwd=bait.base, env={"TMPDIR": str(bait.tmp)},
                  wrap=wrap)
    else:
        subprocess.run(["runuser", "-u", user, "--", *map(str, wrap), "env",
                        f"TMPDIR={bait.tmp}", str(EXEC),
                        "--plugin", PLUGIN, "--functions", functions, "--timeout", "1",
                        "--db", db, "--quiet", *options], cwd=bait.base, check=True,
                       capture_output=True)
    return db


@pytest.fixture
def bait():
    if os.geteuid() != 0:
        pytest.skip("the bait's process runs as nobody, the test processes' user as root")
    trebuchet("build", "--target", "selftest", "--quiet")
    b = Bait()
    yield b
    b.clean()


def outcome(db, function):
    return query(db, "SELECT outcome, ret, errno FROM results WHERE function = ?",
                 f"st_escape_{function}")[0]


def assert_held(db, bait, level):
    """Nothing of the escapes' run at level got out, nothing is left, and
    inside each met what the sandbox puts there."""
    assert query(db, "SELECT sandbox FROM runs") == [(level,)]
    assert bait.traces() == set()
    assert bait.leftover_files() == []
    assert processes_under(bait.base) == [] and daemons() == []
    # what the functions met inside: no route, no such process, a
    # read-only filesystem above the scratch directory
    assert outcome(db, "connect") == ("PASS", -1, 101)  # ENETUNREACH
    assert outcome(db, "signal") == ("PASS", -1, 3)  # ESRCH
    assert outcome(db, "above") == ("PASS", -1, 30)  # EROFS
    assert outcome(db, "store") == ("PASS", -1, 30)
    # in the run's own /tmp and IPC namespace they did what they meant to
    for name in ("tmp", "var_tmp", "dev_shm", "shm"):
        assert outcome(db, name) == ("PASS", 0, 0), name
    assert outcome(db, "fork_bomb")[0] == "RESTART"


def test_as_root_nothing_gets_out_and_nothing_is_left(bait):
    needs_sandbox()
    assert_held(run_escapes(bait), bait, "full")


def test_without_the_sandbox_the_same_functions_get_out(bait):
    # not the fork bomb: without the sandbox only the process limit holds
    # it, at the cost of every process nobody may have on the machine
    db = run_escapes(bait, "--no-sandbox", escapes=ESCAPES[:-1])
    assert query(db, "SELECT sandbox FROM runs") == [("none",)]
    # nobody's home does not exist and $HOME is the scratch directory; the
    # fork server reaps daemons and kills process groups without a sandbox
    # a chroot's /dev/shm may be a plain directory nobody cannot write in
    # (debootstrap makes it so): nothing to get out to there
    shm_dir = {"dev_shm"} if os.stat("/dev/shm").st_mode & 0o002 else set()
    assert bait.traces() == {"tmp", "var_tmp", "above", "store", "connect", "shm",
                             "signal"} | shm_dir


def user_namespaces_allowed():
    probe = subprocess.run(["runuser", "-u", "nobody", "--", "unshare", "--user", "--map-root-user",
                            "--mount", "--net", "--ipc", "--pid", "--fork", "true"],
                           capture_output=True)
    return os.geteuid() == 0 and probe.returncode == 0


@pytest.mark.skipif(not user_namespaces_allowed(),
                    reason="needs root to become nobody, and unprivileged user namespaces")
def test_as_an_ordinary_user_nothing_gets_out_and_nothing_is_left(bait):
    assert_held(run_escapes(bait, user="nobody"), bait, "user")


# Runs argv as nobody in a user namespace where no more user namespaces may
# be made (user.max_user_namespaces 0): what an ordinary user meets on a
# machine that does not allow them.  The ids are mapped one to one by a
# helper left outside, which alone may map more than its own.
REFUSING = r"""
import ctypes, os, sys
r, w = os.pipe()
helper = os.fork()
if helper == 0:
    os.close(w)
    os.read(r, 1)
    for name in ("uid_map", "gid_map"):
        with open(f"/proc/{os.getppid()}/{name}", "w") as f:
            f.write("0 0 65536\n")
    os._exit(0)
if ctypes.CDLL(None, use_errno=True).unshare(0x10000000):  # CLONE_NEWUSER
    sys.exit("unshare: " + os.strerror(ctypes.get_errno()))
os.close(w)
os.waitpid(helper, 0)
with open("/proc/sys/user/max_user_namespaces", "w") as f:
    f.write("0")
os.setgroups([])
os.setgid(65534)
os.setuid(65534)
os.execv(sys.argv[1], sys.argv[1:])
"""


def user_namespaces_possible():
    """Whether this process may make a user namespace (a chroot may not)."""
    return subprocess.run(["unshare", "--user", "true"], capture_output=True).returncode == 0


@pytest.mark.skipif(os.geteuid() != 0 or not user_namespaces_possible(),
                    reason="needs root and a user namespace to make the refusing namespace in")
def test_where_namespaces_are_refused_the_run_goes_on_without_and_says_so_once(bait):
    db = bait.store / "s.db"
    result = subprocess.run(
        [sys.executable, "-c", REFUSING, str(EXEC), "--plugin", PLUGIN, "--functions",
         "st_return,st_escape_tmp", "--cap", "20", "--db", db, "--quiet"],
        cwd=bait.base, env={"TMPDIR": str(bait.tmp)}, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines() == [
        "trebuchet-exec: no sandbox: the kernel refused new namespaces (No space left on "
        "device); test processes see the filesystem, network and IPC as this user does, "
        "as before"]
    assert query(db, "SELECT sandbox FROM runs") == [("none",)]
    assert query(db, "SELECT count(*) FROM results") == [(21,)]
    assert bait.traces() == {"tmp"}


def test_a_share_that_is_not_there_is_one_line_and_exit_2(tmp_path):
    missing = tmp_path / "missing"
    result = trebuchet("run", "--target", "selftest", "--functions", "st_return", "--db",
                       tmp_path / "s.db", env={"TREBUCHET_SHARE": str(missing)}, check=False)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"trebuchet-exec: TREBUCHET_SHARE names {missing}: No such file or directory"]


def test_a_scratch_directory_named_relative_is_the_run_s_writable_one(tmp_path, share):
    """--scratch relative to where the run starts, and the share: the
    sandbox finds both, and st_flaky flips its toggle through the share."""
    (tmp_path / "scratch").mkdir()
    toggle = share / "st_flaky.toggle"
    toggle.write_text("1")
    toggle.chmod(0o666)
    trebuchet("run", "--target", "selftest", "--functions", "st_flaky,st_escape_tmp",
              "--scratch", "scratch", "--db", "s.db", "--quiet", cwd=tmp_path,
              env={"TREBUCHET_SHARE": str(share)})
    assert query(tmp_path / "s.db", "SELECT function, outcome, errno FROM results"
                 " ORDER BY function") == [("st_escape_tmp", "PASS", 0), ("st_flaky", "ABORT", None)]
    # flipped by the run, then by each rerun of its flaky finding's case
    flips = 1 + flaky.RERUNS
    assert toggle.read_text() == str((1 + flips) % 2)
    assert query(tmp_path / "s.db", "SELECT flaky IS NOT NULL FROM findings"
                 " WHERE functions = 'st_flaky'") == [(1,)]
    assert list((tmp_path / "scratch").iterdir()) == []


def test_the_run_s_closing_line_names_its_sandbox_and_a_merge_keeps_the_weakest(tmp_path):
    needs_sandbox()
    shards = []
    for k, option in ((1, []), (2, ["--no-sandbox"])):
        shards.append(tmp_path / f"shard-{k}.db")
        line = trebuchet("run", "--target", "selftest", "--functions", "st_return", "--cap", "10",
                         "--shard", f"{k}/2", "--db", shards[-1], *option).stdout
        level = ("full" if os.geteuid() == 0 else "user") if k == 1 else "none"
        assert f"; sandbox {level}; run 1 in " in line
    merged = tmp_path / "merged.db"
    trebuchet("merge", *shards, "--out", merged)
    assert query(merged, "SELECT sandbox FROM runs") == [("none",)]
