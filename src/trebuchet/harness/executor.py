"""Runs trebuchet-exec, the C executor, for a built plugin."""
import json
import subprocess
import sys

from trebuchet.core import paths
from trebuchet.harness import sanitizers
from trebuchet.core.errors import TrebuchetError
from trebuchet.core.exitcodes import Exit
from trebuchet.core.readable import signal_name, stderr_text
from trebuchet.core import stopping

# A case's watchdog when no --timeout is given: the executor's own default
# (harness/options.c), which Python needs where it times a case itself
# (`repro --memcheck`); tests/test_memcheck.py reads it back from there.
DEFAULT_TIMEOUT_MS = 2000


def _exec_path():
    if not paths.EXEC.exists():
        how = "install trebuchet again" if paths.INSTALLED else "run `make build`"
        raise TrebuchetError(f"{paths.EXEC} is not built: {how}")
    return str(paths.EXEC)


def run_campaign(plugin, db, functions=None, cap=None, seed=None, timeout=None, jobs=None,
                 resume=False, progress=None, scratch=None, memory_mb=None, shard=None,
                 spec=None, sandbox=True, dictionary=None, crash_sites=True, pins=None,
                 listed=None, second_look=True):
    """Runs the campaign; returns the executor's exit code (exitcodes.Exit).
    spec: the spec's path as the user gave it, stored with the run so that
    the repro commands a report prints name the target as the run did.
    crash_sites=False: test processes record no crash site (to show that
    outcomes are the same without).  second_look=False: a call the watchdog
    stops is RESTART at once (harness/forkserver.h).
    pins: the runs.pins text of `run --pin` (src/trebuchet/run/pins.py); listed: a
    file of "FUNCTION INDEX" lines, the only cases to run (--values-file).
    A plugin built for a sanitizer runs under its runtime; under ASan with
    no address-space limit: memory_mb becomes the largest allocation
    (sanitizers.executor_env).
    The executor dies with this process (it asks for SIGTERM when its
    parent dies); if it is killed, that is a harness failure."""
    argv = [_exec_path(), "--plugin", str(plugin), "--db", str(db)]
    env = sanitizers.executor_env(plugin, memory_mb)
    if sanitizers.of_plugin(plugin) in sanitizers.SHADOW:
        memory_mb = None
    options = {"--functions": ",".join(functions) if functions else None, "--cap": cap,
               "--seed": seed, "--timeout": timeout, "--jobs": jobs, "--scratch": scratch,
               "--memory-mb": memory_mb, "--shard": shard, "--spec": spec,
               "--dictionary": dictionary, "--pins": pins or None, "--listed": listed}
    for flag, value in options.items():
        if value is not None:
            argv += [flag, str(value)]
    if resume:
        argv.append("--resume")
    if not sandbox:
        argv.append("--no-sandbox")
    if not crash_sites:
        argv.append("--no-crash-sites")
    if not second_look:
        argv.append("--no-second-look")
    if progress is not None:
        argv.append("--progress" if progress else "--quiet")
    sys.stdout.flush()
    proc = subprocess.Popen(argv, env=env)
    with stopping.passed_on(proc):
        while True:
            try:
                rc = proc.wait()
                break
            except KeyboardInterrupt:
                # the executor got the same Ctrl-C (or the SIGTERM passed on):
                # it stores what it has, stops its test processes and exits
                # 130; wait for it to finish that
                continue
    if rc < 0:
        if sys.stderr.isatty():
            print(file=sys.stderr)  # off the progress line it left
        print(f"trebuchet: trebuchet-exec was killed by {signal_name(-rc)}; what it "
              f"stored is kept", file=sys.stderr)
        return Exit.HARNESS
    return rc


def _output(args, path=None):
    """What trebuchet-exec run with args prints; its one-line error becomes a
    TrebuchetError naming path."""
    plugin = args[args.index("--plugin") + 1] if "--plugin" in args else None
    out = subprocess.run([_exec_path(), *map(str, args)], capture_output=True, text=True,
                         env=plugin and sanitizers.executor_env(plugin))
    if out.returncode:
        raise TrebuchetError(out.stderr.strip().removeprefix("trebuchet-exec: "), path)
    return out.stdout


def query(args, path=None):
    """The one JSON value trebuchet-exec run with args prints."""
    return _with_stderr_text(json.loads(_output(args, path)))


def _with_stderr_text(result):
    """A case's result with its \"stderr\" as text.  The executor writes
    the bytes one code point each (harness/repro.c); they are read back as
    bytes and decoded as the store's are (stderr_text)."""
    if isinstance(result, dict) and "stderr" in result:
        result["stderr"] = stderr_text(result["stderr"].encode("latin-1"))
    return result


def run_cases(plugin, cases_file, timeout=None, dictionary=None):
    """Runs the cases listed in cases_file ("FUNCTION INDEX" lines), each on
    its own; returns their results (dicts, as `repro --json` prints them) in
    the order listed."""
    args = ["--plugin", plugin, "--cases", cases_file] + _dictionary(dictionary)
    if timeout is not None:
        args += ["--timeout", timeout]
    return [_with_stderr_text(json.loads(line)) for line in _output(args).splitlines()]


def _dictionary(dictionary):
    return ["--dictionary", dictionary] if dictionary else []


def list_functions(plugin, dictionary=None):
    return query(["--plugin", plugin, "--list"] + _dictionary(dictionary))


def list_datatypes(plugin=None, dictionary=None):
    return query(["--list-datatypes"] + (["--plugin", plugin] if plugin else [])
                 + _dictionary(dictionary))
