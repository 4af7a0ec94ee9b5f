"""`trebuchet repro`: one case, by index or by its values, run on its own.
A case is named by (target, function, case index); the index is the mixed-
radix number of its value indices, last parameter fastest, as in the executor."""

from . import build, executor
from .errors import TrebuchetError
from .names import signal_name


def case_index(spec, function, values, datatypes):
    """The case index of function for values ("datatype:VALUE" or "VALUE",
    one per parameter)."""
    lists = {d["name"]: [v["name"] for v in d["values"]] for d in datatypes}
    if len(values) != len(function.params):
        raise TrebuchetError(f"{function.name} takes {len(function.params)} values, "
                             f"got {len(values)}", spec.path)
    index = 0
    for param, value in zip(function.params, values):
        name = value.split(":", 1)[1] if ":" in value else value
        if ":" in value and value.split(":", 1)[0] != param.datatype:
            raise TrebuchetError(f"parameter {param.name} is of datatype {param.datatype}, "
                                 f"not {value.split(':', 1)[0]}", spec.path)
        choices = lists[param.datatype]
        if name not in choices:
            raise TrebuchetError(f"datatype {param.datatype} has no value {name}", spec.path)
        index = index * len(choices) + choices.index(name)
    return index


def run_case(spec, function, index, timeout=None, dictionary=None):
    """Runs one case; returns its result as a dict."""
    plugin = build.build_plugin(spec, quiet=True)
    args = ["--plugin", plugin, "--functions", function.name, "--case", index]
    args += executor._dictionary(dictionary)
    if timeout is not None:
        args += ["--timeout", timeout]
    return executor.query(args, spec.path)


def describe(result):
    """One line a person reads: the call, its outcome and what came back."""
    call = f"{result['function']}({', '.join(result['values'])})"
    return f"{call} case {result['case']}: {outcome_text(result)}"


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
        detail = f"parameter {result['setup_param']} could not be built"
    else:
        detail = "did not return before the deadline"
    return f"{outcome}, {detail}"


def datatypes_of(spec, dictionary=None):
    return executor.list_datatypes(build.build_plugin(spec, quiet=True), dictionary)
