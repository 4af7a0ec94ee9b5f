"""`trebuchet memcheck`: a run's PASS cases run again under Valgrind's
memcheck, so that a call that returned but read or wrote memory it must not
is seen: CORRUPT.  Valgrind runs the executor, which forks each case's test
process under it as in a plain run: Valgrind starts once for a batch of
cases (check_cases), and a case's errors are told apart by its test
process's pid, which names its report.

Which errors count, and why the rest are left out:
- kinds: an invalid read or write, a jump to an invalid address, an
  uninitialised value deciding a branch, an invalid or mismatched free
  (KINDS).  Leaks are not defects of one call; an uninitialised byte
  passed to a system call is most often a test value's own (a buffer of
  the dictionary written out), so neither counts.
- where: only during the call, as its stack shows, a frame of the plugin's
  call shim (call_FUNCTION) below it, and no frame of the executor above
  that shim.  Everything the harness does itself (the sandbox, the fork
  servers, building the test values, judging the return) has no such
  stack, so needs no suppression file; memcheck's reports of it are read
  and dropped.
- the library's own errors as memcheck names them: a string or memory
  routine memcheck replaces (vgpreload_memcheck's strlen, memcpy) is
  counted as the library's, since the call made it.

Each case runs in the sandbox of a plain run, at the same level (the
closing line says which).  Valgrind 3.19 (Debian 12) knows none of the new
mount calls (open_tree, move_mount, mount_setattr) and answers ENOSYS; the
executor then makes the same sandbox with mount(2) alone
(harness/isolation_legacy.c).  Valgrind writes a report for each process,
test processes included, into a folder shared with them on purpose
(TREBUCHET_SHARE, left writable at its own path): the sandbox makes the
rest of the filesystem read-only.  What the store records is the case's outcome under memcheck:
a case that no longer passes there (slowed past its timeout, or changed)
is kept as such and judged neither way."""
import collections
import concurrent.futures
import json
import os
import queue
import random
import re
import shutil
import sqlite3
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from trebuchet.memcheck import corrupt
from trebuchet.judge import crash_scale
from trebuchet.core.rates import wilson
from trebuchet.store import database as store
from trebuchet.store import memcheck as memcheck_table
from trebuchet.store.runs import RunInfo
from trebuchet.core.readable import plural

from trebuchet.build import plugins as build
from trebuchet.harness import executor
from trebuchet.core import paths
from trebuchet.core.errors import TrebuchetError
from trebuchet.core import stopping

KINDS = {
    "InvalidRead": "invalid read",
    "InvalidWrite": "invalid write",
    "InvalidJump": "jump to an invalid address",
    "UninitCondition": "uninitialised value decides a branch",
    "InvalidFree": "invalid free",
    "MismatchedFree": "mismatched free",
}
# a call runs 20 to 50 times slower under memcheck: its watchdog is given that
SLOWER = 30
VALGRIND = ["valgrind", "--tool=memcheck", "--trace-children=yes", "--child-silent-after-fork=no",
            "--vgdb=no", "--num-callers=30", "--leak-check=no", "--error-limit=no"]
# cases one Valgrind runs at most (_batches)
BATCH = 50
# PASS cases checked per function unless --sample or --all says otherwise
DEFAULT_SAMPLE = 20


@dataclass
class Checked:
    function: str
    case: int
    outcome: str           # under memcheck
    kind: str = None       # the first counted error's, or None
    what: str = None
    frames: str = None     # "function (object) file:line", one a line
    seconds: float = 0.0
    sandbox: str = None    # the level its executor ran at
    refused: str = None    # why none, where the sandbox was refused

    @property
    def corrupt(self):
        return self.outcome == "PASS" and self.kind is not None

    @property
    def at(self):
        return corrupt.where(self.frames)


def cases_to_check(conn, run, functions, sample, seed):
    """[(function, case)] of the run's PASS cases: at most sample of each
    function (None: all), drawn with seed, in the order they are stored;
    those checked already left out (memcheck resumes)."""
    done = memcheck_table.checked_cases(conn, run)
    by_function = {}
    for function, case in memcheck_table.passed_cases(conn, run):
        if functions is None or function in functions:
            by_function.setdefault(function, []).append(case)
    chosen = []
    for function, cases in by_function.items():
        if sample is not None and len(cases) > sample:
            cases = sorted(random.Random(f"{seed}:{function}").sample(cases, sample))
        chosen += [(function, c) for c in cases if (function, c) not in done]
    return chosen


def command(plugin, listed, dictionary, timeout_s, folder):
    """(argv, environment) of an executor under memcheck that runs the
    cases listed in the file listed, in a folder of its own: the executor
    makes its scratch directory there (TMPDIR), and Valgrind writes each
    process's report into folder/reports, shared with test processes
    (TREBUCHET_SHARE) since the sandbox leaves that alone writable, at its
    own path, beside their scratch directory.  One fork server (--jobs 1):
    Valgrind names a report by the pid, and every server's processes count
    from 1 in a PID namespace of its own.  --stream: each case's result
    line comes as its test process ends, its report whole."""
    reports = Path(folder) / "reports"
    argv = VALGRIND + ["--xml=yes", f"--xml-file={reports}/%p.xml", executor._exec_path(),
                       "--plugin", str(plugin), "--cases", str(listed), "--stream",
                       "--timeout", str(timeout_s), "--jobs", "1"]
    argv += ["--dictionary", dictionary] if dictionary else []
    return argv, dict(os.environ, TMPDIR=str(folder), TREBUCHET_SHARE=str(reports))


def _need_valgrind():
    if shutil.which(VALGRIND[0]) is None:
        raise TrebuchetError("valgrind is not installed: `apt-get install valgrind` (a gate"
                             " against a baseline that lists memchecked cases needs it too,"
                             " unless --no-memcheck)")


def check_case(plugin, function, case, dictionary, timeout_s, processes=None):
    """Runs one case under a Valgrind of its own, one of processes
    (stopping.Processes, which a stop may end); Checked."""
    return check_cases(plugin, [(function, case)], dictionary, timeout_s, processes)[0]


def check_cases(plugin, cases, dictionary, timeout_s, processes=None, each=None):
    """Runs cases [(function, case)] under one Valgrind, one of processes:
    its start, about a second, is paid once for them all, and each test
    process, forked under it, pays only for its own call.  each(Checked)
    is told of each case as it ends; [Checked], in the order they ended."""
    _need_valgrind()
    checked, again = [], []
    # the scratch directory in a folder of this batch's own: an executor
    # sweeps the scratch left by dead ones, and one under valgrind, whose
    # process is named memcheck-amd64-linux, looks dead to the others
    with tempfile.TemporaryDirectory(prefix="trebuchet-memcheck-") as tmp:
        listed = Path(tmp) / "cases"
        listed.write_text("".join(f"{function} {case}\n" for function, case in cases))
        argv, env = command(plugin, listed, dictionary, timeout_s, tmp)
        reports = _Reports(Path(tmp) / "reports")
        reports.folder.mkdir()

        def ended(line, valgrind_pid):
            if not line.startswith("{"):
                return
            result = json.loads(line)
            if result["pid"] == valgrind_pid:
                # the test process was given, in its PID namespace, the
                # number the executor has outside it: both wrote one report
                again.append((result["function"], result["case"]))
                return
            c = Checked(result["function"], result["case"], result["outcome"],
                        *(reports.first_error(result["pid"], result["function"]) or ()),
                        seconds=result["duration_us"] / 1e6, sandbox=result["sandbox"])
            checked.append(c)
            if each:
                each(c)

        # a case's watchdog is timeout_s; the whole of them, twice over
        done = (processes or stopping.Processes()).run_lines(
            argv, ended, timeout=timeout_s * 2 * len(cases) + 120, env=env)
        if done.returncode != 0 or len(checked) + len(again) != len(cases):
            raise TrebuchetError(f"memcheck of {cases[0][0]} case {cases[0][1]}"
                                 + (f" and {plural(len(cases) - 1, 'more case')}"
                                    if len(cases) > 1 else "") + " failed: "
                                 + (done.stderr.strip().splitlines() or ["no output"])[-1])
        for c in checked:  # the executor says it once, before any case
            c.refused = _refused(done.stderr)
    for function, case in again:
        checked += check_cases(plugin, [(function, case)], dictionary, timeout_s, processes,
                               each)
    return checked


def _refused(stderr):
    """The executor's reason for running without a sandbox, or None."""
    return next((line.split(": ", 1)[1] for line in stderr.splitlines()
                 if line.startswith("trebuchet-exec: no sandbox: ")), None)


class _Reports:
    """The reports Valgrind writes into folder, one a process, named by its
    pid.  A case's are its test process's and those of the processes the
    call forked (a report names its parent: ppid), read when the test
    process has ended."""

    def __init__(self, folder):
        self.folder = folder
        self.parent = {}   # pid: ppid, of every report seen so far

    def first_error(self, pid, function):
        """(kind, what, frames) of the first counted error in the reports of
        test process pid and its descendants, or None."""
        for report in self._of(pid):
            first = _first_error(report, function)
            if first:
                return first
        return None

    def _of(self, pid):
        for path in self.folder.glob("*.xml"):
            child = int(path.stem)
            if child not in self.parent:
                with open(path, "rb") as report:  # the parent is in its first lines
                    found = re.search(rb"<ppid>(\d+)</ppid>", report.read(4096))
                if found:  # else not written yet: read again for the next case
                    self.parent[child] = int(found.group(1))
        family, grew = {pid}, True
        while grew:
            more = {child for child, parent in self.parent.items() if parent in family}
            grew = not more <= family
            family |= more
        return [self.folder / f"{p}.xml" for p in sorted(family)]


def _first_error(report, function):
    """(kind, what, frames) of the first counted error in one process's
    report, or None."""
    shim = f"call_{function}"
    try:
        root = ET.parse(report).getroot()
    except (ET.ParseError, OSError):
        return None  # a process killed before its report was closed, or none
    for error in root.iter("error"):
        kind = error.findtext("kind")
        stack = error.find("stack")
        if kind not in KINDS or stack is None:
            continue
        frames = [(f.findtext("fn") or "?", f.findtext("obj") or "?", _source(f),
                   f.findtext("line")) for f in stack.findall("frame")]
        at = next((i for i, f in enumerate(frames) if f[0] == shim), None)
        if at is None or any(f[1] == str(paths.EXEC) for f in frames[:at]):
            continue
        what = error.findtext("what") or error.findtext("xwhat/text") or ""
        aux = error.findtext("auxwhat") or error.findtext("xauxwhat/text")
        return kind, what + (f"; {aux}" if aux else ""), "\n".join(_frame_text(f)
                                                                   for f in frames[:at + 1])
    return None


def _source(frame):
    """A frame's source file, with its folder where memcheck gives it one
    of this machine's: the gate's SARIF places a Corrupt defect on it, as
    findings place a crash."""
    file, folder = frame.findtext("file"), frame.findtext("dir")
    # a folder relative to the library's build tree (glibc's "libio" for
    # libio/clearerr.c) would say a path that exists nowhere here
    return str(Path(folder) / file) if file and folder and Path(folder).is_absolute() else file


def _frame_text(frame):
    fn, obj, file, line = frame
    return f"{fn} ({Path(obj).name})" + (f" {file}:{line}" if file and line else "")


def named_cases(conn, run, cases):
    """Those of cases [(function, case)] that passed in the run and are not
    checked yet: the gate's, which checks the cases its baseline checked."""
    done = memcheck_table.checked_cases(conn, run)
    passed = {tuple(case) for case in memcheck_table.passed_cases(conn, run)}
    return sorted(set(cases) & passed - done)


def run(db, run_id, spec, functions=None, sample=DEFAULT_SAMPLE, seed=1, jobs=None,
        progress=None, cases=None):
    """Checks the run's chosen PASS cases (cases: these [(function, case)]
    alone, where they passed), storing each as it ends (an interrupted
    memcheck goes on where it stopped); returns those checked now,
    [Checked]."""
    conn = store.connect(db)
    info = RunInfo.read(conn, run_id)
    chosen = (cases_to_check(conn, run_id, functions, sample, seed) if cases is None
              else named_cases(conn, run_id, cases))
    conn.close()
    if not chosen:
        return []
    store.writable(db)  # one that cannot be is said before Valgrind runs
    plugin = build.build_plugin(spec, quiet=True)
    timeout_s = timeout_under_memcheck(info.timeout_ms)
    lock = store.writer_lock(db)
    writer = sqlite3.connect(db)
    ended = queue.Queue()  # Checked as each case ends, or a batch's exception
    try:
        batches = _batches(chosen, jobs or os.cpu_count())
        pool = concurrent.futures.ThreadPoolExecutor(min(jobs or os.cpu_count(), len(batches)))
        valgrinds = stopping.Processes()

        def check(batch):
            try:
                check_cases(plugin, batch, info.dictionary, timeout_s, valgrinds, ended.put)
            except BaseException as e:  # noqa: B036 (told to the thread that stores)
                ended.put(e)

        for batch in batches:
            pool.submit(check, batch)
        checked = []
        try:
            while len(checked) < len(chosen):
                c = ended.get()
                if isinstance(c, BaseException):
                    raise c
                checked.append(c)
                memcheck_table.add(writer, run_id, c.function, c.case, c.corrupt, c.outcome,
                                   c.kind, c.what, c.frames, round(c.seconds, 3))
                if progress:
                    progress(len(checked), len(chosen))
        except BaseException:
            # Ctrl-C or SIGTERM (core/stopping.py), or a batch that failed:
            # no queued batch starts a Valgrind of its own, and those running
            # are ended, not waited for; their cases not yet stored were not
            # judged and are checked next time
            valgrinds.end()
            pool.shutdown(wait=True, cancel_futures=True)
            raise
        finally:
            pool.shutdown(wait=True)
    finally:
        writer.close()
        os.close(lock)
    return checked


def _batches(chosen, jobs):
    """chosen cut into runs of consecutive cases, one Valgrind each: at
    least one a job, so that every core works, and at most BATCH cases in
    each, so that a stop loses little and the PID namespace's numbers stay
    low (check_cases: where one is the executor's own, the case runs
    again)."""
    n = max(min(jobs, len(chosen)), -(-len(chosen) // BATCH))
    size = -(-len(chosen) // n)
    return [chosen[i:i + size] for i in range(0, len(chosen), size)]


def sandbox_text(checked, run_level):
    """The sandbox the cases ran in, as a run's closing line says it
    ("sandbox full"; with how many at each level where they differ), and
    where the executor was refused one, how many and its reason."""
    levels = collections.Counter(c.sandbox for c in checked)
    text = "sandbox " + ", ".join(f"{level} ({n})" if len(levels) > 1 else level
                                  for level, n in levels.most_common())
    refused = [c for c in checked if c.refused]
    if refused:
        text += (f"; {plural(len(refused), 'case')} refused one (the run's: {run_level}):"
                 f" {refused[0].refused}")
    return text


def timeout_under_memcheck(timeout_ms):
    """A case's watchdog under memcheck, in seconds: the run's, SLOWER times."""
    return timeout_ms / 1000 * SLOWER


def kinds(conn, run_id):
    """[(kind, cases, an example (function, case, what, frames))], most
    common first; the example is the kind's first case by function and
    case number."""
    return memcheck_table.kinds(conn, run_id)


def repro_command(target_arg, function, case, dictionary=None):
    """The command that shows one case's first error under memcheck again."""
    return (f"trebuchet repro --memcheck --target {target_arg} --function {function}"
            f" --case {case}" + (f" --dictionary {dictionary}" if dictionary not in (None, "ours")
                                 else ""))


def describe(checked, values):
    """What `repro --memcheck` prints: the call, its outcome under memcheck
    and, when Corrupt, the first error with its stack."""
    call = f"{checked.function}({', '.join(values)}) case {checked.case}"
    if not checked.corrupt:
        return (f"{call}: {checked.outcome} under memcheck"
                + (", no invalid access during the call" if checked.outcome == "PASS" else
                   " (judged neither way: it did not pass there)"))
    frames = "\n".join(f"  at {f}" for f in checked.frames.splitlines())
    return (f"{call}: CORRUPT under memcheck, {KINDS[checked.kind]} ({checked.kind}) in"
            f" {checked.at}\n  {checked.what}\n{frames}")


def summary_text(conn, run_id, target, target_arg):
    """What `trebuchet memcheck` prints: each function's CORRUPT rate over
    the cases it judged (src/trebuchet/memcheck/corrupt.py, as the report counts them),
    their mean (normalized, as the study's rates are), and the kinds seen
    with an example each."""
    checked = memcheck_table.count(conn, run_id)
    if not checked:
        return f"{target}: no case of run {run_id} checked under memcheck"
    unjudged = memcheck_table.unjudged_by_function(conn, run_id)
    functions = corrupt.judged_functions(conn, run_id, target)
    names = memcheck_table.functions(conn, run_id)
    lines = [f"{target} (run {run_id}): {plural(checked, 'PASS case')} checked under memcheck in"
             f" {plural(len(names), 'function')}, {sum(f.count for f in functions)} CORRUPT;"
             f" normalized CORRUPT rate {crash_scale.Judged(functions).rate:.2f}%"]
    for f in functions:
        low, high = wilson(f.count, f.judged)
        lines.append(f"  {f.name}: {f.count} of {f.judged} CORRUPT, {f.rate:.1f}%"
                     f" (95% interval {low:.1f}% to {high:.1f}%)"
                     + (f"; {unjudged[f.name]} no longer PASS under memcheck"
                        if f.name in unjudged else ""))
    judged = {f.name for f in functions}
    for name in sorted(names - judged):  # every case checked changed outcome there
        lines.append(f"  {name}: none judged; {plural(unjudged[name], 'case')} no longer PASS"
                     f" under memcheck")
    dictionary = RunInfo.read(conn, run_id).dictionary
    for kind, n, (function, case, what, frames) in kinds(conn, run_id):
        lines.append(f"  {KINDS[kind]} ({kind}): {plural(n, 'case')}, e.g. {function} case {case}:"
                     f" {what}")
        lines += [f"      {frame}" for frame in frames.splitlines()]
        lines.append(f"      {repro_command(target_arg, function, case, dictionary)}")
    return "\n".join(lines)
