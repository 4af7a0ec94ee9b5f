"""`trebuchet states`: a spec's handles explored (states/explore.py), the
states kept written beside the spec as NAME.states.yaml, and one line said
per state kept.  The user's YAML is never rewritten: the spec includes the
file with `states:` once its author has reviewed it."""
import time

from trebuchet.core.errors import TrebuchetError
from trebuchet.spec import load as specs
from trebuchet.states import explore, moves, written


def states_path(spec):
    return spec.path.with_name(f"{spec.path.stem}.states.yaml")


def run(target, budget, replace):
    """Explores target's spec within budget cases; yields the lines to say."""
    spec = specs.load(specs.find_spec(target))
    out = states_path(spec)
    if out.exists() and not replace:
        raise TrebuchetError(f"{out.name} is there already, from an earlier exploration: "
                             f"give --replace to write it again", out)
    if not moves.handle_datatypes(spec):
        raise TrebuchetError("no handle to explore: none of the spec's own datatypes "
                             "(`datatypes:`) is returned by one of its functions and taken by "
                             "another", spec.path, spec.functions_line)
    started = time.monotonic()
    explored = explore.explore(spec, budget)
    replaced = {s.label for s in spec.sequences if s.where[0] == out.resolve()}
    taken = {(d, v) for d, vs in explored.values.items() for v in vs
             if f"{d}:{v}" not in replaced}
    named = written.names(explored, taken)
    written_states = explored.kept + explored.siblings
    for state in written_states:
        yield f"{state.datatype}:{named[id(state)]}: {'; '.join(written.apart(state, named))}"
    seconds = time.monotonic() - started
    cost = (f"{len(explored.kept)} of {explored.states} states kept, {explored.cases} cases, "
            f"{seconds:.1f} s"
            + (f"; the budget of {budget} cases ran out" if explored.stopped else ""))
    if not written_states:
        yield f"no state apart from the constructors' ({cost}); nothing written"
        return
    out.write_text(written.text(spec, written_states, named, out.name))
    yield f"{cost}; written to {out} (include it with `states: {out.name}`)"
