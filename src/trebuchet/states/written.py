"""The kept states as the author reads them: each named from its calls
(AFTER_VALVE_CLOSE; VALVE_OPEN_FAILED when its last call answered an
error), written as `values:` into NAME.states.yaml beside the spec, which
the spec includes with `states:` (docs/states.md), and said in one line
each with what tells it apart from the state it was made from."""
import re

from trebuchet.states import probe

HEADER = """\
# States of {target}'s handles that `trebuchet states` explored: each a value
# made by calls, kept because a next call observes it apart from the state
# before it (said above each).  Review them, drop what you would not keep,
# and include this file from {spec} with `states: {name}`.
"""


def names(explored, taken):
    """{id(state): NAME} of the kept states, each UPPER_SNAKE and none of
    taken ({(datatype, VALUE)} the datatypes' values use already); a clash
    gets _2, _3...  A move's arguments are named when its function is
    called by several moves, the constructor when the datatype has several."""
    out, used = {}, set(taken)
    for state in explored.kept + explored.siblings:
        base = _name(state, explored)
        name, n = base, 1
        while (state.datatype, name) in used:
            n += 1
            name = f"{base}_{n}"
        used.add((state.datatype, name))
        out[id(state)] = name
    return out


def _name(state, explored):
    constructor = state.steps[0][0]
    if state.sibling_of:
        return f"SIBLING_{_word(constructor, 'success', True)}"
    words = [_word(m, expect, (state.datatype, m.call) in explored.several)
             for m, expect in state.steps[1:]]
    if len({s.steps[0][0] for s in explored.kept if s.datatype == state.datatype}) > 1:
        words.insert(0, _word(constructor, "success", True))
    text = "_THEN_".join(words)
    return text if state.steps[-1][1] == "error" else f"AFTER_{text}"


def _word(move, expect, with_args):
    word = move.call.upper()
    if with_args:
        word += "".join(f"_{v}" for _, v in move.args)
    word = re.sub(r"[^A-Z0-9_]", "_", word)
    return word + ("_FAILED" if expect == "error" else "")


def apart(state, named):
    """What tells state apart from the one it was made from: each move
    whose observation differs, with what it observes on each; a sibling's
    being another datatype's."""
    if state.sibling_of:
        return [f"a sibling: {state.sibling_of}'s handle ({state.steps[0][0].text()}), "
                f"offered where a {state.datatype} is taken"]
    before = state.parent
    label = named.get(id(before)) or f"{before.steps[0][0].call}'s"
    return [f"{m.text()} {state.seen[m]} ({before.seen.get(m)} on {label})"
            for m in state.seen if state.seen[m] != before.seen.get(m)]


def text(spec, states, named, file_name):
    """The file: states (kept, then siblings) under their datatypes."""
    lines = [HEADER.format(target=spec.target, spec=spec.path.name, name=file_name).rstrip(),
             "values:"]
    for datatype in dict.fromkeys(s.datatype for s in states):
        lines.append(f"  {datatype}:")
        for state in (s for s in states if s.datatype == datatype):
            lines += [f"    # {difference}" for difference in apart(state, named)]
            lines.append(f"    {named[id(state)]}:")
            lines += [f"      - {step}" for step in probe.step_texts(state)]
    return "\n".join(lines) + "\n"
