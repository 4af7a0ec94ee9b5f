"""Values made by calls: a spec's `values:` gives a datatype of its own
values that are short sequences of the library's own calls on the handle
being made (docs/datatypes.md, section 5).  Here they are read and checked
against the spec's functions, each mistake one line at the spec's file and
line; build/sequences.py writes them as C setups, the mechanism a value
written in C uses.

The first call makes the handle by its return; each later call gets it as
its first parameter of the value's datatype that `args` does not name.
Every other parameter is named by one value of its datatype (a `span`
parameter is filled by the value before it).  `expect` says what the call
must answer by its error convention: success (the default), error, or any."""
import hashlib
import json
from dataclasses import dataclass, field

from trebuchet.core import yamlines
from trebuchet.core.errors import TrebuchetError

SPAN = "span"
# conventions by which no call ever reports an error: `expect: error` could never be met
NEVER_REPORTS = ("none", "null_valid")


@dataclass(frozen=True)
class Step:
    call: str        # a function of the spec, by name
    args: tuple      # ((parameter, VALUE), ...) as written
    expect: str
    where: tuple = field(default=(None, None), compare=False)


@dataclass(frozen=True)
class Sequence:
    """One value of a datatype, made by its steps."""
    datatype: str
    name: str
    steps: tuple
    where: tuple = field(default=(None, None), compare=False)

    @property
    def digest(self):
        """Of what the value is: its calls, their arguments and expectations."""
        text = json.dumps([[s.call, sorted(s.args), s.expect] for s in self.steps],
                          separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:12]

    @property
    def label(self):
        return f"{self.datatype}:{self.name}"

    def describe(self):
        """One line for `list datatypes`: its calls and its digest."""
        calls = ", ".join(s.call + ("" if s.expect == "success" else f" ({s.expect})")
                          for s in self.steps)
        return f"made by calls: {calls} [sequence {self.digest}]"


def read(data, lines, path):
    """The sequences a spec's `values:` states, in its order."""
    out = []
    for datatype, values in (data.get("values") or {}).items():
        for name, steps in values.items():
            out.append(Sequence(datatype, name, tuple(
                Step(s["call"], tuple((s.get("args") or {}).items()), s.get("expect", "success"),
                     (path, yamlines.line_of(lines, ("values", datatype, name, i))))
                for i, s in enumerate(steps)),
                (path, yamlines.line_of(lines, ("values", datatype, name)))))
    return tuple(out)


def handle_param(function, datatype, named):
    """The parameter of function that gets the handle: its first of the
    datatype that `args` (named) leaves out; None when it has none."""
    return next((p for p in function.params if p.datatype == datatype and p.name not in named),
                None)


def check(spec, sequences, base_values):
    """Refuses, at its line, the first step that cannot be made: an unknown
    function, parameter or value (of a base datatype: base_values; the
    target's own are checked once its plugin is built), a call with no
    parameter for the handle, a parameter left without a value, an error
    expected of a function that never reports one, a value made from itself."""
    for s in sequences:
        if s.datatype not in spec.datatypes:
            raise TrebuchetError(f"values: '{s.datatype}' is not one of the spec's own datatypes "
                                 f"(`datatypes:`), whose values calls can make", *s.where)
        for i, step in enumerate(s.steps):
            _check_step(spec, s, i, step, base_values)
    _check_no_circle(spec, sequences)


def _check_step(spec, s, i, step, base_values):
    def fail(message):
        raise TrebuchetError(f"{s.label}, step {i + 1}: {message}", *step.where)

    f = spec.function(step.call)
    if f is None:
        fail(f"unknown function '{step.call}' (a value's calls are functions of the spec)")
    params = {p.name: p for p in f.params}
    named = dict(step.args)
    for name, value in step.args:
        p = params.get(name)
        if p is None:
            fail(f"'{name}' is not a parameter of {f.name} "
                 f"(its parameters: {', '.join(params) or 'none'})")
        if p.datatype == SPAN:
            fail(f"{f.name}({name}) is a `span`: the value of the parameter before it fills it")
        known = base_values.get(p.datatype)
        if known is not None and value not in known:
            fail(f"'{value}' is not a value of datatype {p.datatype}, {f.name}({name})'s")
    if i == 0:
        handle = None
        if f.returns == "void":
            fail(f"{f.name} returns void: the first call makes the handle by its return")
    else:
        handle = handle_param(f, s.datatype, named)
        if handle is None:
            fail(f"{f.name} has no parameter of datatype {s.datatype} left to take the handle "
                 f"being made")
    for p in f.params:
        if p is not handle and p.datatype != SPAN and p.name not in named:
            fail(f"{f.name}({p.name}) needs a value: args: {{{p.name}: VALUE}}")
    if step.expect == "error" and f.error_when in NEVER_REPORTS:
        fail(f"expect: error, but {f.name}'s error convention ({f.error_when}) never reports one")


def _check_no_circle(spec, sequences):
    """A value whose steps name, through others, the value itself could
    never be built."""
    made = {s.label: s for s in sequences}

    def uses(s):
        return [f"{p.datatype}:{value}" for step in s.steps
                for p, value in arguments(spec, step) if f"{p.datatype}:{value}" in made]

    for s in sequences:
        todo, seen = uses(s), set()
        while todo:
            label = todo.pop()
            if label == s.label:
                raise TrebuchetError(f"{s.label} is made from itself, through its arguments",
                                     *s.where)
            if label not in seen:
                seen.add(label)
                todo += uses(made[label])


def arguments(spec, step):
    """(Param, VALUE) of a checked step's named arguments."""
    params = {p.name: p for p in spec.function(step.call).params}
    return [(params[name], value) for name, value in step.args]
