"""Generates a target's call shims (C) from its spec with the jinja2
template templates/shims.c.j2: the build's generate stage
(src/trebuchet/build/plugins.py); the reproducer's repro.c borrows its pieces."""
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import jinja2

from trebuchet.build import ctype_probe
from trebuchet.core import paths
from trebuchet.spec.load import declaration


def passed(ctype, types):
    """The type a parameter's slot is cast to: its own, or for an array
    type the pointer C passes (ctype_probe.as_passed)."""
    t = types.get(ctype)
    return ctype_probe.as_passed(ctype) if t is not None and t.decays else ctype


def arg_member(ctype, types):
    """The union tb_arg member a parameter of C type ctype is read from,
    chosen by what the type really is (types: ctype_probe.resolve's
    answers), never by its spelling: a typedef of double is read from .d."""
    t = types[ctype]
    if t.kind == "pointer":
        return "ptr"
    if t.kind == "floating":
        return "d"
    return "i" if t.signed else "u"


# The error conventions that read past the return value (an out-parameter,
# the handle, the stream): a judge reads them after the call returned
# (harness/judge.c).  The others read the return value and errno in the call
# shim.  What each means: the schema's description and the table in
# docs/your-library.md.
JUDGED = ("short_count", "out_param", "expr")


def error_expr(f, types):
    """C expression, over `ret`, a[] and out->err, that is 1 when the
    function's error convention says it reported an error; None for a
    convention judged after the call (judge_expr)."""
    pointer = f.returns.endswith("*")
    when = f.error_when
    if when == "null":
        return "ret == NULL"
    if when == "eof":
        return "ret == EOF"
    if when == "negative":
        return "ret < 0"
    if when == "zero_or_negative":
        return "ret <= 0"
    if when == "nonzero":
        return "ret != 0" if not pointer else "ret != NULL"
    if when == "zero":
        return "ret == 0"
    if when == "equals":
        return f"ret == {f.error_value}"
    if when == "less_than_param":
        index = [p.name for p in f.params].index(f.error_param)
        p = f.params[index]
        return f"ret < ({passed(p.ctype, types)})a[{index}].{arg_member(p.ctype, types)}"
    if when == "errno":
        return "out->err != 0"
    if when in JUDGED:
        return None
    return "0"  # none, null_valid


def judge_expr(f):
    """For a judged convention: C expression over the parameters (by their
    names), `ret` and `err` (errno after the call)."""
    if f.error_when == "short_count":
        return f"(ret < {f.error_param}) && !({f.error_eof})"
    if f.error_when == "out_param":
        return f"*{f.error_param} != {f.error_value or 0}"
    return f.error_expr


# the base datatypes' files
DATATYPES = paths.ROOT / "datatypes"


def inline_error_expr(function, types):
    """The convention as one C expression over a[], ret and err; a judged
    one (an out-parameter, the handle) declares the parameters it names in a
    statement expression of its own, unguarded: here a fault reading it
    is plain to see.  Only those it names, so that the program compiles
    clean under -Wall -Werror."""
    simple = error_expr(function, types)
    if simple is not None:
        return simple.replace("out->err", "err")
    judge = judge_expr(function)
    named = set(re.findall(r"\b[A-Za-z_]\w*\b", judge))
    params = [line for p, line in zip(function.params, judge_locals(function, types))
              if p.name in named]
    if not params:
        return f"({judge})"
    return "({ const union tb_arg *tb_a = a; " + " ".join(params) + f" ({judge}); }})"


@lru_cache(maxsize=None)
def base_symbols():
    """{datatype name: C symbol} of the base datatypes, read from their files."""
    table = re.compile(r"TB_DATATYPE\((\w+)\) = \{[^}]*?\.name = \"([^\"]+)\"", re.S)
    return {name: symbol for path in sorted(DATATYPES.glob("*.c"))
            for symbol, name in table.findall(path.read_text())}


def floating_return(f, types):
    """Whether f returns a floating type (kept as a double's bits in .ret)."""
    t = types.get(f.returns)
    return t is not None and t.kind == "floating"


def unsigned_return(f, types):
    """Whether f returns a 64-bit unsigned integer (.ret's bits read
    unsigned); narrower unsigned ones fit .ret's signed 64 bits as they are."""
    t = types.get(f.returns)
    return t is not None and t.kind == "integer" and not t.signed and t.size == 8


def judge_locals(f, types):
    """The judge's declarations: each parameter under its own name, ret."""
    lines = [f"{declaration(passed(p.ctype, types), p.name)} = "
             f"({passed(p.ctype, types)})tb_a[{i}].{arg_member(p.ctype, types)};"
             for i, p in enumerate(f.params)]
    ret = declaration(f.returns, "ret")
    if floating_return(f, types):
        lines.append(f"{ret} = ({f.returns})tb_bits_double(tb_c->ret);")
    elif f.returns != "void":
        cast = "(intptr_t)" if f.returns.endswith("*") else ""
        lines.append(f"{ret} = ({f.returns}){cast}tb_c->ret;")
    lines.append("int err = tb_c->err;")
    return lines


# the shims' and the reproducers' templates, data of this package
TEMPLATES = Path(__file__).parent / "templates"


@lru_cache(maxsize=None)
def _environment():
    return jinja2.Environment(
        loader=jinja2.PackageLoader("trebuchet.build", "templates"),
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined)


def template(name):
    """A template of build/templates (C and Makefile text), compiled once."""
    return _environment().get_template(name)


def call_args(f, types):
    """The C arguments of f's call: each slot a[i] cast to its parameter's
    type, then the spec's fixed extra arguments."""
    args = [f"({passed(p.ctype, types)})a[{i}].{arg_member(p.ctype, types)}"
            for i, p in enumerate(f.params)]
    return ", ".join(args + list(f.extra_args))


def include_lines(spec):
    """The spec's includes as #include operands: quoted when the header is
    the target's own (beside a spec), else from the system."""
    return [f'"{h}"' if any((d / h).is_file() for d in spec.include_dirs) else f"<{h}>"
            for h in spec.includes]


def narrow_widths(f, types):
    """Per parameter: its size in bytes when the spec accepts a conversion
    (`convert: true`), so that values equal once converted run once; else 0."""
    return [types[p.ctype].size if p.convert else 0 for p in f.params]


@dataclass(frozen=True)
class Shims:
    """The call shims' C, generated from the spec."""
    spec: object
    source: str


def generate(signatures, made_values):
    """The shims of a spec whose types were resolved and checked
    (signatures: ctype_probe.Signatures), with made_values, the C of its
    values made by calls and the datatype symbols they give
    (build/sequences.py)."""
    return Shims(signatures.spec, shim_source(signatures.spec, signatures.types, *made_values))


def shim_source(spec, types, sequences_c, symbols):
    functions = []
    for f in spec.functions:
        functions.append(dict(
            name=f.name, call=f.call, returns=f.returns, params=f.params,
            signature=f.signature.replace('"', '\\"'), args=call_args(f, types),
            ret=declaration(f.returns, "ret"),
            pointer_return=f.returns.endswith("*"), error_expr=error_expr(f, types),
            judge=judge_expr(f) if f.error_when in JUDGED else None,
            judge_locals=judge_locals(f, types),
            narrow=narrow_widths(f, types), floating_return=floating_return(f, types),
            unsigned_return=unsigned_return(f, types)))
    return template("shims.c.j2").render(
        spec=spec, spec_name=spec.path.name, functions=functions, includes=include_lines(spec),
        sequences=sequences_c, symbols=symbols)
