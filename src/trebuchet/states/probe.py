"""Candidate states run as values: written as `values:` of a spec that
extends the explored one (in the build folder, never beside the user's
YAML), built as any spec's plugin, and each observed by calling one move
on it, one case each, through the executor's listed cases."""
import hashlib
from dataclasses import dataclass
from pathlib import Path

import yaml

from trebuchet.build import plugins
from trebuchet.core import paths
from trebuchet.harness import executor
from trebuchet.run import repro
from trebuchet.spec import load as specs
from trebuchet.spec import sequences as spec_sequences
from trebuchet.states.moves import EXPLORING


@dataclass(frozen=True)
class Built:
    spec: object     # the spec of the candidates (spec/load.py's Spec)
    plugin: Path
    listed: dict     # {function: as `list functions` gives it}
    values: dict     # {datatype: [VALUE, ...]}, as the plugin lists them
    preferred: dict  # {datatype: [VALUE, ...]}: a parameter's value without `accepts`, in order


def build(spec, candidates):
    """The plugin holding candidates ([State], each named by its number
    while probed) as values of their datatypes."""
    folder = paths.BUILD / "states" / f"{spec.target}-{_of(spec.path)}"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "exploring.yaml"
    path.write_text(_spec_text(spec, candidates))
    explored = specs.load(path)
    plugin = plugins.build_plugin(explored, quiet=True)
    listed = {f["name"]: f for f in executor.list_functions(plugin)}
    datatypes = executor.list_datatypes(plugin)
    values = {d["name"]: [v["name"] for v in d["values"]] for d in datatypes}
    return Built(explored, plugin, listed, values, {d["name"]: _preferred(d, values)
                                                     for d in datatypes})


def _preferred(datatype, values):
    """Its values that are not misuse, nor NULL (which answers most calls
    with an error or a crash and says nothing of the handle), nor a
    candidate: its own first (a string's SHORT before the MISALIGNED
    pointer it inherits), then those it inherits."""
    inherited = set(values.get(datatype["parent"]) or ())
    fitting = [v["name"] for v in datatype["values"] if not v.get("misuse")
               and v["name"] != "NULL" and not v["name"].startswith(EXPLORING)]
    return ([v for v in fitting if v not in inherited] + [v for v in fitting if v in inherited])


def _of(path):
    return hashlib.sha256(str(path).encode()).hexdigest()[:8]


def name(number):
    return f"{EXPLORING}{number}"


def _spec_text(spec, candidates):
    lines = [f"target: {spec.target}", f"extends: {spec.path}"] + ["values:"] * bool(candidates)
    by_datatype = {}
    for number, state in candidates:
        by_datatype.setdefault(state.datatype, []).append((number, state))
    for datatype, states in by_datatype.items():
        lines.append(f"  {datatype}:")
        for number, state in states:
            lines.append(f"    {name(number)}:")
            lines += [f"      - {step}" for step in step_texts(state)]
    return "\n".join(lines) + "\n"


def step_texts(state):
    """Each step of state as the spec's flow mapping."""
    out = []
    for move, expect in state.steps:
        args = ", ".join(f"{p}: {_scalar(v)}" for p, v in move.args)
        out.append("{call: " + move.call + (f", args: {{{args}}}" if args else "")
                   + ("" if expect == "success" else f", expect: {expect}") + "}")
    return out


def _scalar(value):
    """A value's name as YAML reads it back: quoted where YAML would read
    another thing (YES, ON: booleans); NULL is read back by the loader."""
    return value if value == "NULL" or yaml.safe_load(value) == value else f"'{value}'"


def observe(built, cases, folder):
    """The executor's result (a dict, as `repro --json` gives it) of each
    case: (datatype, candidate's number, Move) calls the move on the
    candidate."""
    listed_file = Path(folder) / "cases"
    listed_file.write_text("".join(f"{move.call} {_index(built, datatype, number, move)}\n"
                                   for datatype, number, move in cases))
    return executor.run_cases(built.plugin, listed_file)


def _index(built, datatype, number, move):
    f = built.spec.function(move.call)
    listed = built.listed[move.call]
    args = dict(move.args)
    handle = spec_sequences.handle_param(f, datatype, args)
    values = [f"{datatype}:{name(number)}" if p is handle else
              f"{p.datatype}:{args[p.name]}" if p.name in args else
              f"{p.datatype}:{listed['values'][i][0]}"  # a span: its one value
              for i, p in enumerate(f.params)]
    return repro.case_index(built.spec, f, values, listed)
