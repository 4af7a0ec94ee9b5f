"""Shared helpers for the end-to-end suites: they drive the real `trebuchet`
CLI (installed in the project's virtual environment) against real targets."""
import functools
import math
import os
import signal
import re
import select
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TREBUCHET = Path(sys.executable).parent / "trebuchet"


def trebuchet(*args, cwd=None, env=None, check=True, wrap=()):
    """Runs the CLI (under the command wrap, when given); returns the
    CompletedProcess (text output captured)."""
    full_env = dict(os.environ, **(env or {}))
    result = subprocess.run([*map(str, wrap), str(TREBUCHET), *map(str, args)], cwd=cwd,
                            env=full_env,
                            capture_output=True, text=True)
    if check and result.returncode != 0:
        raise AssertionError(f"trebuchet {' '.join(map(str, args))} exited "
                             f"{result.returncode}:\n{result.stderr}")
    return result


def libdirs_said(said):
    """The LIBDIRS= trebuchet says to build an --emit-c reproducer with (where
    the library lies here; the reproducer's Makefile names no folder of this
    machine), as make's arguments: none for an installed library."""
    return re.findall(r"\bLIBDIRS=\S+", said)[:1]


PROGRESS = re.compile(rb"(\d+)/(\d+) cases")


def start_run(db, *args):
    """A run in a session of its own, its progress line on a pipe."""
    return subprocess.Popen([str(TREBUCHET), "run", "--db", str(db), "--progress", *map(str, args)],
                            start_new_session=True, preexec_fn=sigint_default,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def read_progress_until(proc, condition):
    """Reads the run's progress line (blocking) until condition(done, text)."""
    seen = b""
    while True:
        chunk = os.read(proc.stderr.fileno(), 4096)
        assert chunk, f"the run ended first: {seen[-400:]!r}"
        seen += chunk
        last = seen.rsplit(b"\r", 1)[-1]
        counts = PROGRESS.findall(last)
        if counts and condition(int(counts[-1][0]), last):
            return last


def wait_gone(pid):
    """Blocks until pid has exited (a pidfd polls readable then)."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return
    try:
        select.select([fd], [], [])
    finally:
        os.close(fd)


@functools.cache
def ci_schemas():
    """The folder of the schemas CI systems read (Jenkins' junit-10.xsd,
    OASIS's SARIF 2.1.0), fetched by the Makefile's rule that `make test`
    runs, so that a test run some other way checks against the same files."""
    made = subprocess.run(["make", "-s", "-C", str(ROOT), "test-schemas"], capture_output=True,
                          text=True)
    assert made.returncode == 0, made.stdout + made.stderr
    return ROOT / "build/schemas"


@functools.cache
def datatype_values(target=None):
    """{datatype: [value names]} as `trebuchet list datatypes` shows them, so
    that a test's counts follow the datatypes instead of copying their sizes."""
    lines = trebuchet("list", "datatypes", *(["--target", target] if target else [])).stdout
    values = {}
    for line in lines.splitlines():
        if line.startswith(" "):
            values[datatype].append(line.split()[0])
        else:
            datatype = line.split(":")[0]
            values[datatype] = []
    return values


def value_product(*datatypes, target=None):
    """How many tuples of values the datatypes make: a cross product's size."""
    return math.prod(len(datatype_values(target)[d]) for d in datatypes)


@functools.cache
def function_cases(target):
    """{function: cases in its cross product} as `trebuchet list functions` shows them."""
    lines = trebuchet("list", "functions", "--target", target).stdout.splitlines()
    return {line.split()[0].split(".", 1)[1]: int(line.split()[1]) for line in lines}


def campaigns_with_report(root, *runs):
    """Runs each campaign (the arguments of one `trebuchet run`) into one
    store under root and writes the report of them all beside it; returns
    (store, report folder)."""
    db, out = root / "runs.db", root / "report"
    for run in runs:
        trebuchet("run", *run, "--db", db, "--quiet")
    trebuchet("report", "--db", db, "--out", out)
    return db, out


def query(db, sql, *params):
    with sqlite3.connect(db) as conn:
        return conn.execute(sql, params).fetchall()


def hand_store(db, functions, target="demo", dictionary="ours"):
    """Adds a finished run of target to a store (made if need be) by hand,
    to test the numbers' definitions on cases counted by hand: functions is
    {name: dict(signature=, datatypes=, cases=[(value names, outcome[,
    {column: value}])], total=)}, a case's index its place in the list, the
    dict any more of its columns (signal, errno, error_reported), total (the
    cross product) its count unless given."""
    with sqlite3.connect(db) as conn:
        conn.executescript((ROOT / "schemas/results.sql").read_text())
        run = conn.execute(
            "INSERT INTO runs (target, target_version, host, harness_version, seed, cap,"
            " timeout_ms, jobs, functions, started, finished, dictionary, dictionary_digest,"
            " spec_digest) VALUES (?, 'v', 'h', 'v', 1, 10, 1000, 1, ?, '2026-01-01',"
            " '2026-01-01', ?, 'd', 's')", (target, ",".join(functions), dictionary)).lastrowid
        for name, f in functions.items():
            cases = f["cases"]
            conn.execute("INSERT INTO functions (run_id, name, signature, datatypes, cases_total,"
                         " cases_drawn, cases_run) VALUES (?, ?, ?, ?, ?, ?, ?)",
                         (run, name, f["signature"], f["datatypes"], f.get("total", len(cases)),
                          len(cases), len(cases)))
            for i, (values, outcome, *more) in enumerate(cases):
                columns = dict(run_id=run, function=name, case_index=i, value_names=values,
                               outcome=outcome, duration_us=1, **(more[0] if more else {}))
                conn.execute(f"INSERT INTO results ({', '.join(columns)}) VALUES"
                             f" ({', '.join('?' * len(columns))})", list(columns.values()))
    return db


def outcomes(db, run_id=None):
    """{(function, case_index): (outcome, signal, exit_status, errno, error_reported)}"""
    where = "WHERE run_id = ?" if run_id is not None else ""
    rows = query(db, f"SELECT function, case_index, outcome, signal, exit_status, errno,"
                     f" error_reported FROM results {where}", *([run_id] if run_id else []))
    return {(r[0], r[1]): r[2:] for r in rows}


def processes_under(path):
    """PIDs of processes whose working directory lies under path."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cwd = os.readlink(entry / "cwd")
        except OSError:
            continue
        if cwd.startswith(str(path)):
            found.append(int(entry.name))
    return found


@functools.cache
def sandbox_refused():
    """Why no sandbox can be had here (the executor's one line), or None
    where it can: a one-case run asks for one, and its store says which
    level it got.  A container without CAP_SYS_ADMIN, a chroot entered by an
    ordinary user, a kernel that refuses user namespaces: level none."""
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "probe.db"
        run = trebuchet("run", "--target", "selftest", "--functions", "st_return", "--cap", "1",
                        "--db", db, "--quiet")
        if query(db, "SELECT sandbox FROM runs") != [("none",)]:
            return None
        said = run.stderr.strip().splitlines()
        # "trebuchet-exec: no sandbox: REASON; test processes see ..."
        return said[-1].split(": ", 2)[-1].split("; ")[0] if said else "level none"


def needs_sandbox():
    """Skips the calling test, saying why, where no sandbox can be had."""
    why = sandbox_refused()
    if why:
        pytest.skip(f"needs the sandbox, and there is none here ({why})")


def _open_to_all(path):
    """Whether any user may pass through every folder above path and write in it."""
    return all(p.stat().st_mode & 0o001 for p in path.parents) and path.stat().st_mode & 0o002


@pytest.fixture
def share(tmp_path):
    return shared_folder(tmp_path)


def shared_folder(base):
    """The folder test processes share on purpose (TREBUCHET_SHARE), made
    under base.  The sandbox binds it into their scratch directory; without
    one they follow a link to it, which nobody (their user when trebuchet
    runs as root) can follow only where every folder above lets anyone
    through, and pytest's own (/tmp/pytest-of-root) does not."""
    folder = base / "share"
    folder.mkdir()
    folder.chmod(0o777)
    if os.geteuid() == 0 and not _open_to_all(folder):
        why = sandbox_refused()
        if why:
            pytest.skip(f"no sandbox here ({why}), and nobody cannot reach {folder}")
    return folder


@pytest.fixture
def sandbox_dirs(tmp_path):
    """A working directory and a TMPDIR of the test's own, for runs whose
    every trace must stay inside them."""
    cwd, tmp = tmp_path / "cwd", tmp_path / "tmp"
    cwd.mkdir()
    tmp.mkdir()
    tmp.chmod(0o755)
    return cwd, tmp


# A chroot made of the machine's own directories, bound in a mount namespace
# of its own (so nothing of it outlives the command): / is then not a mount
# point, as in a debootstrapped system entered with chroot, and there is no
# /proc unless $3 says so; the checkout ($2) and $TREBUCHET_CHROOT_BIND are
# bound at their own paths.  / is made shared there first, as systemd makes
# it, and the mounts under the chroot's directory counted before and after:
# the sandbox must make none that reach outside the chroot.
CHROOT = r"""
set -e
top=$1 root=$2 proc=$3; shift 3
mount --make-rshared /
for d in usr etc dev; do mkdir -p "$top/$d"; mount --rbind "/$d" "$top/$d"; done
for l in bin lib lib64 sbin; do [ -L "/$l" ] && ln -sfn "$(readlink "/$l")" "$top/$l"; done
for d in "$root" $TREBUCHET_CHROOT_BIND; do mkdir -p "$top$d"; mount --bind "$d" "$top$d"; done
mkdir -p "$top/tmp" "$top/var/tmp" "$top/proc"; chmod 1777 "$top/tmp" "$top/var/tmp"
[ "$proc" = proc ] && mount -t proc proc "$top/proc"
before=$(grep -c " $top" /proc/self/mountinfo)
chroot "$top" "$@"
after=$(grep -c " $top" /proc/self/mountinfo)
[ "$before" = "$after" ] || { echo "the run left $((after - before)) mounts" >&2; exit 9; }
"""


def root_is_a_mount_point():
    """False inside a chroot whose / is a directory, where the tests cannot
    make their own chroot: its mounts could not be kept from the machine's."""
    try:
        with open("/proc/self/mountinfo") as f:
            return any(line.split()[4] == "/" for line in f)
    except OSError:
        return False


def chroot_launcher(tmp, proc=False):
    """launch(argv) for argv run as root in a chroot under tmp (see CHROOT)."""
    top = tmp / f"chroot-{'proc' if proc else 'bare'}"
    top.mkdir(exist_ok=True)
    # the store's folder, and the Python the virtual environment was made from
    python = "" if Path(sys.base_prefix).is_relative_to("/usr") else sys.base_prefix

    def launch(argv):
        return ["env", f"TREBUCHET_CHROOT_BIND={tmp} {python}", "unshare", "-m", "--propagation",
                "private", "sh", "-c", CHROOT, "chroot", str(top), str(ROOT),
                "proc" if proc else "bare", "env", "-i", "PATH=/usr/bin:/bin", *argv]
    return launch


def sigint_default():
    """For a child a test sends Ctrl-C to: SIGINT as a terminal's process
    has it.  A suite started in the background by a shell inherits SIGINT
    ignored, and Python then never raises KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
