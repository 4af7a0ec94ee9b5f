"""`trebuchet repro`: one case, by index or by its values, run on its own.
A case is named by (target, function, case index); the index is the mixed-
radix number of its value indices, last parameter fastest, as in the executor."""

from trebuchet.build import plugins as build
from trebuchet.harness import crash_sites, executor
from trebuchet.core.errors import TrebuchetError
from trebuchet.core.readable import setup_why, signal_name
from trebuchet.store import slow_cases

STDERR_TAIL = 512  # bytes of a failing case's stderr kept (harness/outcome.h)


def case_index(spec, function, values, listed, where=None):
    """The case index of function for values ("datatype:VALUE" or "VALUE",
    one per parameter); listed: the function as `list functions` gives it,
    with each parameter's values (a converted parameter may have fewer
    than its datatype).  where: the (file, line) an error names (default
    the spec)."""
    where = where or (spec.path,)
    if len(values) != len(function.params):
        raise TrebuchetError(f"{function.name} takes {len(function.params)} values, "
                             f"got {len(values)}", *where)
    index = 0
    for param, value, choices in zip(function.params, values, listed["values"]):
        name = value.split(":", 1)[1] if ":" in value else value
        if ":" in value and value.split(":", 1)[0] != param.datatype:
            raise TrebuchetError(f"parameter {param.name} is of datatype {param.datatype}, "
                                 f"not {value.split(':', 1)[0]}", *where)
        if name not in choices:
            if name in _all_values(spec, param):
                raise TrebuchetError(
                    f"{param.datatype}:{name} is the same as another of its values once "
                    f"converted to {param.ctype} (convert: true), so {function.name}'s "
                    f"{param.name} runs it once, under the first name: one of "
                    f"{', '.join(choices)}", *where)
            raise TrebuchetError(f"datatype {param.datatype} has no value {name}", *where)
        index = index * len(choices) + choices.index(name)
    return index


def run_case(spec, function, index, timeout=None, dictionary=None, sanitizer=None):
    """Runs one case (under sanitizer's runtime, with the plugin built for
    it, when given); returns its result as a dict."""
    plugin = build.build_plugin(spec, quiet=True, sanitizer=sanitizer)
    args = ["--plugin", plugin, "--functions", function.name, "--case", index]
    args += executor._dictionary(dictionary)
    if timeout is not None:
        args += ["--timeout", timeout]
    return executor.query(args, spec.path)


def describe(result):
    """One line a person reads: the call, its outcome and what came back;
    then, for a failing case that wrote to stderr, the end of what it wrote."""
    call = f"{result['function']}({', '.join(result['values'])})"
    line = f"{call} case {result['case']}: {outcome_text(result)}"
    if result.get("frames"):
        line += "\n" + frames_block(result["frames"].splitlines())
    if result.get("stderr"):
        line += "\n" + stderr_block(result["stderr"])
    return line


def as_record(result):
    """The result as `repro --json` prints it: every key it shares with
    `trebuchet export` holds what export would give for the same case, as
    the store keeps it (harness/store.c): no signal, exit status or setup
    parameter is null, not -1; the return value, errno and error are null
    unless the call returned (PASS); frames are a list, null when the case
    left none."""
    record = dict(result)
    for key in ("signal", "exit_status", "setup_param"):
        if record[key] < 0:
            record[key] = None
    # why a value could not be built: errno where its setup returned, the
    # reason where it gave one (the store's NULLs, harness/store.c)
    setup_returned = record["outcome"] == "SETUP" and record["signal"] is None
    record["setup_errno"] = record["setup_errno"] if setup_returned else None
    record["setup_reason"] = record["setup_reason"] or None
    if record["outcome"] != "PASS":
        record.update(ret=None, errno=None, error_reported=None)
    record["frames"] = record["frames"].split("\n") if record.get("frames") else None
    return record


def frames_block(frames):
    """Where a failing case ended, innermost first, symbolized, down to the
    call shim (the executor's frames below it say nothing of the case)."""
    [named] = crash_sites.symbolize([frames])
    shown = crash_sites.above_harness(named)
    return "it ended in:\n" + "\n".join(f"  at {f.text}" for f in shown)


def stderr_block(text):
    """A failing case's stderr as `repro` and the gate print it: a heading,
    then its lines indented."""
    body = "\n".join("  | " + l for l in text.rstrip("\n").split("\n"))
    return f"its stderr ends (the last lines, {STDERR_TAIL} bytes at most):\n{body}"


def outcome_text(result):
    """The outcome and what came with it: "ABORT, signal 11 (SIGSEGV)"."""
    outcome = result["outcome"]
    if outcome == "ABORT" and result["signal"] >= 0:
        detail = f"signal {result['signal']} ({signal_name(result['signal'])})"
    elif outcome == "ABORT":
        detail = f"exit status {result['exit_status']}"
    elif outcome == "PASS":
        detail = (f"returned {result['ret']}, errno {result['errno']}, "
                  f"error {'reported' if result['error_reported'] else 'not reported'}")
    elif outcome == "SETUP":
        detail = (f"parameter {result['setup_param']} could not be built: "
                  f"{setup_why(result['setup_errno'], result['setup_reason'], result['signal'])}")
    else:
        detail = "did not return before the deadline"
    return f"{outcome}, {detail}" + _second_look(result)


def _second_look(result):
    """What the second look said of a call the watchdog stopped at first
    (harness/forkserver.h): run again alone at SECOND_LOOK times the limits."""
    cpu_us = result.get("second_look_cpu_us")
    if cpu_us is None:
        return ""
    alone = f"alone at {slow_cases.SECOND_LOOK}x the limits"
    if result["outcome"] == "RESTART":
        return f", nor when run again {alone}"
    return f"; slow: it returned only when run again {alone}, after {cpu_us / 1e6:.1f} s of CPU"


def listed_function(spec, function, dictionary=None):
    """The function as `list functions` gives it in dictionary."""
    plugin = build.build_plugin(spec, quiet=True)
    return next(f for f in executor.list_functions(plugin, dictionary)
                if f["name"] == function.name)


def _all_values(spec, param):
    datatype = next(d for d in datatypes_of(spec) if d["name"] == param.datatype)
    return [v["name"] for v in datatype["values"]]


def datatypes_of(spec, dictionary=None):
    return executor.list_datatypes(build.build_plugin(spec, quiet=True), dictionary)
