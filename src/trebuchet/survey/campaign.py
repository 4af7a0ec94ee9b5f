"""`trebuchet survey` (`make survey`): every library of the survey (a folder
examples/<library>/ holding <library>.yaml and survey.md) run into one
store, a memcheck sample of each, then the report with the survey's page
(src/trebuchet/survey/page.py).

Resumable, and held to a time budget: a library whose spec has a finished
run in the store is not run again; one with an unfinished run is resumed;
when the budget is spent the step under way is interrupted (its run is
stored as far as it got, as Ctrl-C leaves it) and the survey says how far
it got.  Run again, it goes on from there.  Each step is a `trebuchet`
process of its own, so that an interrupted one stops as a user's would.

Nothing here is per library: the same dictionary, cap, seed and memcheck
sample for all (the issue's rule that nothing is tuned to make a number
look better)."""
import contextlib
import functools
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from trebuchet.store import database as store
from trebuchet.store.runs import newest_state_of_spec
from trebuchet.core.readable import plural

from trebuchet.core import paths
from trebuchet.spec import load as specs
from trebuchet.core.errors import TrebuchetError
from trebuchet.core.exitcodes import Exit
from trebuchet.core import stopping

# PASS cases memcheck checks per function: 3 over ten libraries of 20 to 40
# functions is about 900 cases, under a minute on 2 cores at 0.04 s a case
# (docs/memcheck.md); docs/survey.md's figures were made with 3
DEFAULT_SAMPLE = 3
DEFAULT_BUDGET = 3 * 3600  # seconds: the campaigns at their default cap, with room


@dataclass
class Member:
    name: str       # the folder's name
    spec: Path      # examples/<name>/<name>.yaml
    section: Path   # examples/<name>/survey.md: its part of docs/survey.md

    @functools.cached_property
    def loaded(self):
        """The spec, read once: its target and digest are asked for often."""
        return specs.load(self.spec)

    @property
    def target(self):
        return self.loaded.target


def members(folder=None, chosen=None):
    """The survey's libraries, by name; chosen: only these (an unknown one is
    one line, exit 2)."""
    folder = Path(folder or paths.ROOT / "examples")
    if not folder.is_dir():
        raise TrebuchetError("no such folder", folder)
    found = [Member(d.name, d / f"{d.name}.yaml", d / "survey.md")
             for d in sorted(folder.iterdir())
             if (d / "survey.md").is_file() and (d / f"{d.name}.yaml").is_file()]
    if chosen:
        unknown = sorted(set(chosen) - {m.name for m in found})
        if unknown:
            raise TrebuchetError(f"no survey library {', '.join(unknown)} (the survey's: "
                                 f"{', '.join(m.name for m in found) or 'none'})", folder)
        found = [m for m in found if m.name in chosen]
    if not found:
        raise TrebuchetError("no survey library here: a folder <name>/ holding <name>.yaml"
                             " and survey.md", folder)
    return found


def _run_state(db, target, digest):
    """"finished", "unfinished" or None: the store's newest run of target
    made from the spec as it is now (its digest)."""
    if not Path(db).is_file():
        return None
    # the reports' reading: a store of another schema version is one line
    with contextlib.closing(store.connect(db)) as conn:
        return newest_state_of_spec(conn, target, digest)


class Budget:
    """Seconds left of the survey's budget."""
    def __init__(self, seconds):
        self.ends = time.monotonic() + seconds

    @property
    def left(self):
        return max(0.0, self.ends - time.monotonic())


def _step(argv, budget, say):
    """Runs `trebuchet ARGV` in a process of its own; stops it (SIGTERM, which
    it passes on to what it runs: core/stopping.py) when the budget runs out;
    returns its exit code, or None when the budget stopped it.  Ctrl-C or a
    SIGTERM to the survey stops the step the same way and is raised."""
    command = [sys.executable, "-m", "trebuchet.cli.main", *map(str, argv)]
    say("  $ trebuchet " + " ".join(map(str, argv)))
    process = subprocess.Popen(command)
    with stopping.passed_on(process):
        try:
            return process.wait(timeout=budget.left or 0.001)
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGTERM)
            _wait_through_interrupts(process)
            return None
        except KeyboardInterrupt:
            _wait_through_interrupts(process)
            raise


def _wait_through_interrupts(process):
    """Waits for a step told to stop, which keeps what it did first."""
    while True:
        try:
            return process.wait()
        except KeyboardInterrupt:
            continue


def run(db, out, budget_seconds=DEFAULT_BUDGET, sample=DEFAULT_SAMPLE, chosen=None,
        folder=None, say=print, again="the same command"):
    """The survey's steps; returns an exit code (Exit.INTERRUPTED when the
    budget stopped it before the report, saying that again, the command
    given, goes on)."""
    libraries = members(folder, chosen)
    budget = Budget(budget_seconds)
    started = time.monotonic()
    for m in libraries:
        state = _run_state(db, m.target, m.loaded.digest)
        if state == "finished":
            say(f"{m.name}: run stored already")
            continue
        say(f"{m.name}: {'resuming its run' if state else 'running'}")
        rc = _step(["run", "--target", m.spec, "--db", db]
                   + (["--resume"] if state else []), budget, say)
        if rc is None:
            return _stopped(say, budget_seconds, "the run", m.name, again)
        if rc != Exit.OK:
            return rc
    for m in libraries:
        say(f"{m.name}: memcheck, {plural(sample, 'PASS case')} a function")
        rc = _step(["memcheck", "--db", db, "--target", m.target, "--sample", sample,
                    "--quiet"], budget, say)
        if rc is None:
            return _stopped(say, budget_seconds, "memcheck", m.name, again)
        if rc != Exit.OK:
            return rc
    from trebuchet.survey import page as survey_report

    index = survey_report.write(db, out, libraries)
    say(f"survey of {len(libraries)} libraries in {time.monotonic() - started:.0f} s:"
        f" {index}")
    return Exit.OK


def _stopped(say, budget_seconds, what, name, again):
    say(f"the survey's budget ({budget_seconds:g} s) ran out during {what} of {name}; what it"
        f" stored is kept, and {again} goes on from there")
    return Exit.INTERRUPTED
