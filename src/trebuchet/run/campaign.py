"""`trebuchet run`'s campaign, callable without the command line: the spec's
plugin built, the cases it is held to (--pin, --values-file), the executor
run over them, and every case run again --repeat times.  What comes after
(the findings, the last line) is the caller's: they are a layer above."""
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from trebuchet.build import plugins as build
from trebuchet.core.errors import TrebuchetError
from trebuchet.core.exitcodes import Exit
from trebuchet.harness import executor
from trebuchet.run import pins as targeted, repeat
from trebuchet.store import database as store
from trebuchet.store import runs
from trebuchet.store.runs import latest_runs


@dataclass
class Campaign:
    """What a run is asked to do; None leaves a choice to the executor's default."""
    target: str                       # the name or spec path the run was given
    db: str = "trebuchet.db"
    functions: Optional[list] = None  # names, None for all
    cap: Optional[int] = None
    seed: Optional[int] = None
    timeout: Optional[float] = None
    jobs: Optional[int] = None
    shard: Optional[str] = None       # "K/N"
    pins: Optional[list] = None       # --pin's texts
    values_file: Optional[str] = None
    resume: bool = False
    scratch: Optional[str] = None
    repeat: int = 1
    dictionary: Optional[str] = None
    memory_mb: Optional[int] = None
    sanitizer: Optional[str] = None
    sandbox: bool = True
    crash_sites: bool = True
    second_look: bool = True          # a call the watchdog stopped runs again (harness/forkserver.h)
    progress: Optional[bool] = None   # None: on a terminal only
    quiet: bool = False               # no notes (the converted parameters)
    spec_path: Optional[str] = None   # the spec's path when target names a file


@dataclass
class Ran:
    code: int                 # the executor's exit code (core/exitcodes.py)
    plugin: Path
    started: float            # time.monotonic() when the executor started
    flaky: Optional[int] = None  # with --repeat: cases whose outcome or signal differed


def run(spec, asked):
    """Runs the campaign asked of spec (spec/load.py's Spec); a Ran."""
    known_functions(spec, asked.functions, asked.target)
    plugin = build.build_plugin(spec, quiet=not sys.stderr.isatty(), sanitizer=asked.sanitizer)
    if not asked.quiet:
        for note in build.conversions_path(spec, asked.sanitizer).read_text().splitlines():
            print(f"trebuchet: converted: {note}")
    dictionary = asked.dictionary
    if asked.resume and dictionary is None:
        dictionary = unfinished_dictionary(asked.db, spec.target)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="trebuchet-listed-") as tmp:
        pins, listed, functions = _targeted(asked, spec, plugin, dictionary, Path(tmp) / "cases")
        code = executor.run_campaign(
            plugin, asked.db, functions=functions, cap=asked.cap, seed=asked.seed,
            timeout=asked.timeout, jobs=asked.jobs, resume=asked.resume,
            progress=asked.progress, scratch=asked.scratch, memory_mb=asked.memory_mb,
            shard=asked.shard, sandbox=asked.sandbox, spec=asked.spec_path,
            dictionary=dictionary, crash_sites=asked.crash_sites, pins=pins, listed=listed,
            second_look=asked.second_look)
    ran = Ran(code, plugin, started)
    if code == Exit.OK and asked.repeat > 1:
        run_id = latest_runs(store.connect(asked.db))[spec.target]
        ran.code, ran.flaky = repeat.repeat(asked.db, plugin, run_id, asked.repeat,
                                            jobs=asked.jobs, scratch=asked.scratch,
                                            memory_mb=asked.memory_mb)
    return ran


def _targeted(asked, spec, plugin, dictionary, cases_path):
    """--pin and --values-file as the executor takes them: (the runs.pins
    text or None, a "FUNCTION INDEX" file at cases_path or None, the
    functions to run)."""
    functions = asked.functions
    if not (asked.pins or asked.values_file):
        return None, None, functions
    if asked.resume:
        raise TrebuchetError("--resume finishes a run with the pins or listed cases it was"
                             " started with: give no --pin or --values-file")
    listed = {f["name"]: f for f in executor.list_functions(plugin, dictionary)}
    if asked.pins:
        pins = targeted.pins_text(spec, listed, functions or list(listed), asked.pins)
        # without --functions, the functions the pins hold
        return pins, None, functions or list(dict.fromkeys(p.split(".")[0] for p in pins.split()))
    if functions:
        raise TrebuchetError("--values-file names the functions it runs: give no --functions")
    cases = targeted.read_values_file(spec, asked.values_file, listed)
    cases_path.write_text("".join(f"{f} {i}\n" for f, i in cases))
    return None, cases_path, list(dict.fromkeys(f for f, _ in cases))


def unfinished_dictionary(db, target):
    """The dictionary of the run --resume finishes, so that it draws from
    it again without being told; None when there is none to find."""
    import sqlite3

    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
            return runs.unfinished_dictionary(conn, target)
    except sqlite3.Error:
        return None  # the executor says what is wrong with the store


def known_functions(spec, functions, target_arg):
    """Refuses, at the spec's functions, a name the spec does not have."""
    for name in functions or ():
        if not spec.function(name):
            raise TrebuchetError(f"target {spec.target} has no function '{name}' "
                                 f"(`trebuchet list functions --target {target_arg}` lists them)",
                                 spec.path, spec.functions_line)
