"""Targeted campaigns: `trebuchet run --pin` and `--values-file`.

A pin holds parameters to some of their values; the executor draws from the
product of those and the other parameters' full value lists, and names the
cases by their index in the full product, as every run does.  A values file
lists the cases to run, one a line as `repro --values` takes them.  Both are
resolved here against the function as the plugin lists it (a converted
parameter may have fewer values than its datatype) and handed to the
executor: pins as the runs.pins text (harness/pins.h), listed cases as
"FUNCTION INDEX" lines."""
from trebuchet.core.errors import TrebuchetError
from trebuchet.core.text_files import read_text
from trebuchet.run import repro


def pins_text(spec, listed, functions, pins):
    """The runs.pins text of the --pin arguments pins (["[FUNCTION.]PARAM=
    VALUE[,VALUE...]", ...]) for the selected functions (names, in run
    order); listed: {name: the function as `list functions` gives it}.
    Each pin applies to every selected function with a parameter of that
    name, or to FUNCTION's alone."""
    held = {}  # (function, position) -> [value names]
    for pin in pins:
        target, values = _split(pin)
        among = [target[0]] if len(target) == 2 and target[0] in functions else \
            functions if len(target) == 1 else []
        hits = [(f, i) for f in among for i, p in enumerate(spec.function(f).params)
                if p.name == target[-1]]
        if not hits:
            raise TrebuchetError(f"--pin {pin}: {_nowhere(spec, functions, target)}")
        for f, i in hits:
            if (f, i) in held:
                raise TrebuchetError(f"--pin {pin}: {f}'s {target[-1]} is pinned twice")
            held[f, i] = _values(spec.function(f), i, values, listed[f]["values"][i], pin)
    return " ".join(f"{f}.{spec.function(f).params[i].name}#{i}="
                    + ",".join(f"{spec.function(f).params[i].datatype}:{v}" for v in held[f, i])
                    for f in functions for i in range(len(spec.function(f).params))
                    if (f, i) in held)


def _split(pin):
    """("PARAM",) or ("FUNCTION", "PARAM"), and the value names."""
    target, eq, values = pin.partition("=")
    names = target.split(".")
    if not eq or not all(names) or len(names) > 2 or not all(values.split(",")):
        raise TrebuchetError(f"--pin wants PARAM=VALUE[,VALUE...] or FUNCTION.PARAM=VALUE,...,"
                             f" not '{pin}'")
    return names, values.split(",")


def _nowhere(spec, functions, target):
    if len(target) == 2 and not spec.function(target[0]):
        return f"target {spec.target} has no function {target[0]}"
    if len(target) == 2 and target[0] not in functions:
        return f"{target[0]} is not among the functions run"
    if len(target) == 2:
        return (f"{target[0]} has no parameter {target[1]} (its parameters: "
                f"{', '.join(p.name for p in spec.function(target[0]).params) or 'none'})")
    return f"no function run has a parameter {target[0]}"


def _values(function, position, values, choices, pin):
    """The pinned value names, each once, in the parameter's order."""
    param = function.params[position]
    for value in values:
        datatype, colon, name = value.rpartition(":")
        if (colon and datatype != param.datatype) or name not in choices:
            raise TrebuchetError(f"--pin {pin}: {function.name}'s {param.name} (datatype "
                                 f"{param.datatype}) has no value {value}; it takes "
                                 f"{', '.join(choices)}")
    names = {v.rpartition(":")[2] for v in values}
    return [c for c in choices if c in names]


def read_values_file(spec, path, listed):
    """The cases a values file lists: [(function, case index)], in its
    order; listed: {name: the function as `list functions` gives it}.
    A line is "FUNCTION VALUE,VALUE,..." (as `repro --values` takes them);
    blank lines and # comments are skipped; a bad line is one error naming
    path and line."""
    try:
        lines = read_text(path).splitlines()
    except OSError as e:
        raise TrebuchetError(f"cannot read the values file: {e.strerror}", path) from None
    cases = []
    for number, line in enumerate(lines, 1):
        words = line.split("#", 1)[0].replace(",", " ").split()
        if not words:
            continue
        function = spec.function(words[0])
        if not function:
            raise TrebuchetError(f"target {spec.target} has no function '{words[0]}'",
                                 path, number)
        cases.append((function.name, repro.case_index(spec, function, words[1:],
                                                      listed[function.name], (path, number))))
    if not cases:
        raise TrebuchetError("lists no case", path)
    return cases
