"""What exploring a spec's handles starts from and steps with: its handle
datatypes (a spec's own datatype that a constructor makes and a function
takes), each one's constructors (functions returning its C type), and its
moves (each function taking the handle, with one value per other
parameter).  A parameter's values are its contract's `accepts`, each a move
of its own; without them, the first value of its datatype that is neither
misuse nor NULL nor left undefined by its documentation, the datatype's own
values before those it inherits (probe.py's preferred)."""
import itertools
import re
from dataclasses import dataclass

from trebuchet.spec import sequences as spec_sequences

# the prefix of the names candidates carry while they are probed
EXPLORING = "EXPLORING_"


@dataclass(frozen=True)
class Move:
    """One call on a handle: the function and its other arguments."""
    call: str
    args: tuple      # ((parameter, VALUE), ...)

    def text(self):
        return f"{self.call}({', '.join(f'{p}={v}' for p, v in self.args)})"


def _spelled(ctype):
    return re.sub(r"\s+", "", ctype)


def handle_ctype(spec, datatype):
    """The C type a datatype's parameters have; None when no function takes one."""
    return next((p.ctype for f in spec.functions for p in f.params if p.datatype == datatype),
                None)


def handle_datatypes(spec):
    """{datatype: [constructor Function, ...]} of the spec's own datatypes
    that a listed function makes and another takes.  Where several share a
    C type (a reader and a writer both `struct archive *`), a constructor
    belongs to the one its name contains (archive_read_new to
    archive_read), or to each when it names none."""
    ctypes = {d: handle_ctype(spec, d) for d in spec.datatypes}
    out = {}
    for datatype, ctype in ctypes.items():
        if ctype is None:
            continue
        sharing = [d for d, c in ctypes.items() if c and _spelled(c) == _spelled(ctype)]
        made = [f for f in spec.functions if _spelled(f.returns) == _spelled(ctype)
                and not any(p.datatype == datatype for p in f.params)]
        mine = [f for f in made if _owner(f.name, sharing) in (datatype, None)]
        if mine:
            out[datatype] = mine
    return out


def siblings(spec, constructors):
    """{datatype: [another datatype, ...]} of the handle datatypes of one C
    type: each offered the other's handles, as a reader is offered where a
    writer is taken."""
    ctypes = {d: _spelled(handle_ctype(spec, d)) for d in constructors}
    return {d: [e for e in constructors if e != d and ctypes[e] == ctypes[d]]
            for d in constructors}


def _owner(name, sharing):
    named = [d for d in sharing if d in name]
    return max(named, key=len) if named else None


def constructor_moves(function, listed, preferred):
    """The ways to call a constructor: Moves with no handle."""
    return [Move(function.name, args) for args in _arguments(function, None, listed, preferred)]


def moves(spec, datatype, listed, preferred):
    """The Moves on a handle of datatype, in the spec's order of functions.
    listed: {function: the function as `list functions` gives it};
    preferred: {datatype: [VALUE, ...]} (probe.py)."""
    out = []
    for f in spec.functions:
        handle = spec_sequences.handle_param(f, datatype, {})
        if handle is not None and f.name in listed:
            out += [Move(f.name, args) for args in _arguments(f, handle, listed, preferred)]
    return out


def _arguments(function, handle, listed, preferred):
    others = [(i, p) for i, p in enumerate(function.params)
              if p is not handle and p.datatype != spec_sequences.SPAN]
    choices = [[(p.name, v) for v in _values(p, listed[function.name]["values"][i], preferred)]
               for i, p in others]
    return [tuple(args) for args in itertools.product(*choices)]


def _values(param, listed_values, preferred):
    if param.accepts:
        return list(param.accepts)
    fitting = [v for v in preferred.get(param.datatype, ())
               if v in listed_values and v not in param.undefined]
    return fitting[:1] or listed_values[:1]
