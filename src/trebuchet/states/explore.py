"""The exploration: from each constructor of each handle datatype, every
move applied, one and two steps deep, breadth first, within a budget of
cases.  A state is observed by calling every move of its datatype on it,
one case each: whether the call returned (and then error or not by its
function's convention, and errno after an error), crashed (its signal) or
hung; never a return value, which may be an address.  A state is kept when
its observations differ from every state seen before it (its constructor's
included): a state observed the same as one seen is the same to every next
call, so nothing is explored from it.  The observation of a move on a state
is also the first look at the state that move makes: its step expects the
answer seen (`expect: error` after an error), and a move that crashed or
hung makes no state."""
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from typing import Optional

from trebuchet.core.readable import errno_name, signal_name
from trebuchet.states import moves as moves_module
from trebuchet.states import probe

DEPTH = 2  # moves after the constructor


@dataclass
class State:
    datatype: str
    steps: tuple                        # ((Move, expect), ...), the constructor's first
    parent: Optional["State"] = None
    seen: dict = field(default_factory=dict)   # {Move: observation}
    unmade: bool = False                # its value could not be built (SETUP)
    sibling_of: Optional[str] = None    # made by the constructor of this other datatype

    @property
    def depth(self):
        return len(self.steps) - 1


@dataclass
class Explored:
    kept: list          # [State], in the order found
    states: int         # states observed
    cases: int          # cases run
    stopped: bool       # the budget ran out before the exploration ended
    values: dict        # {datatype: [VALUE, ...]} the spec's plugin lists, candidates left out
    several: set        # {(datatype, function)} called by more than one move
    siblings: list      # [State]: another datatype's fresh handle, offered as this one


def explore(spec, budget):
    """The states of spec's handles, kept (Explored)."""
    constructors = moves_module.handle_datatypes(spec)
    frontier = _roots(spec, constructors)
    done = Explored([], 0, 0, False, {}, set(), _siblings(spec, constructors, frontier))
    seen = set()
    with tempfile.TemporaryDirectory(prefix="trebuchet-states-") as folder:
        for depth in range(DEPTH + 1):
            built = probe.build(spec, list(enumerate(frontier)))
            moves = {d: moves_module.moves(spec, d, built.listed, built.preferred)
                     for d in constructors}
            if not depth:
                _first_build(done, built, moves)
            wanted = _within(frontier, moves, budget - done.cases)
            done.stopped = len(wanted) < sum(len(moves[s.datatype]) for s in frontier)
            results = probe.observe(built, [(s.datatype, n, m) for n, s, m in wanted], folder)
            done.cases += len(results)
            for (_, state, move), result in zip(wanted, results):
                state.unmade |= result["outcome"] == "SETUP"
                state.seen[move] = observation(result)
            news = _new(list({id(s): s for _, s, _ in wanted}.values()), moves, seen, done)
            if done.stopped or depth == DEPTH:
                break
            frontier = [State(s.datatype, s.steps + ((m, expect),), s)
                        for s in news for m in moves[s.datatype]
                        for expect in [_expect(s.seen[m])] if expect]
            if not frontier:
                break
    return done


def _first_build(done, built, moves):
    """What the names of the states written need: the values the spec's
    datatypes have, and which functions several moves call."""
    done.values = {d: [v for v in vs if not v.startswith(moves_module.EXPLORING)]
                   for d, vs in built.values.items()}
    done.several = {(d, c) for d, ms in moves.items()
                    for c, n in Counter(m.call for m in ms).items() if n > 1}


def _within(frontier, moves, left):
    """(number, State, Move) of each case observing the frontier, as far as
    whole states fit in the cases left: a state half observed cannot be
    told apart."""
    wanted = []
    for n, state in enumerate(frontier):
        cases = [(n, state, m) for m in moves[state.datatype]]
        if len(wanted) + len(cases) > left:
            break
        wanted += cases
    return wanted


def _new(states, moves, seen, done):
    """The states observed apart from every one seen before (seen grows);
    those past their constructor are kept.  A state whose value could not
    be made again (a step answered otherwise than when it was observed) is
    left out."""
    news = []
    for state in states:
        key = (state.datatype, tuple(state.seen[m] for m in moves[state.datatype]))
        done.states += 1
        if not state.unmade and key not in seen:
            seen.add(key)
            news.append(state)
            if state.depth:
                done.kept.append(state)
    return news


def _roots(spec, constructors):
    """A state made by each way of calling each constructor; its arguments
    chosen from the explored spec's own plugin, built only when one has any."""
    base = probe.build(spec, []) if any(f.params for fs in constructors.values()
                                        for f in fs) else None
    return [State(d, ((m, "success"),)) for d, functions in constructors.items()
            for f in functions for m in moves_module.constructor_moves(
                f, base and base.listed, base and base.preferred)]


def _siblings(spec, constructors, roots):
    """Each fresh handle of a datatype that shares its C type with another,
    as a value of the other (a reader where a writer is taken): made by a
    constructor of its own, not one that names neither."""
    offered = moves_module.siblings(spec, constructors)
    return [State(d, root.steps, sibling_of=root.datatype) for d in constructors
            for root in roots if root.datatype in offered[d]
            and root.steps[0][0].call not in {f.name for f in constructors[d]}]


def observation(result):
    """What the next call observes of a state, as one short text."""
    outcome = result["outcome"]
    if outcome == "PASS":
        if not result["error_reported"]:
            return "success"
        return f"error {errno_name(result['errno'])}" if result["errno"] else "error"
    if outcome == "ABORT":
        return signal_name(result["signal"]) if result["signal"] > 0 else \
            f"exit {result['exit_status']}"
    return outcome.lower()  # restart: hung; setup: the state was not made


def _expect(seen):
    """The expect of a step whose call answered seen; None: it makes no state."""
    if seen == "success":
        return "success"
    return "error" if seen.startswith("error") else None
