"""Generates a target's call shims (C) from its spec with the jinja2
template templates/shims.c.j2."""
from functools import lru_cache

import jinja2

FLOATING = ("float", "double")


def arg_member(ctype):
    """The union tb_arg member a parameter of C type ctype is read from."""
    if "*" in ctype or "[" in ctype:
        return "ptr"
    if any(word in ctype.split() for word in FLOATING):
        return "d"
    if "unsigned" in ctype or ctype in ("size_t", "uintptr_t", "uint64_t", "uint32_t"):
        return "u"
    return "i"


def error_expr(f):
    """C expression, over `ret`, a[] and out->err, that is 1 when the
    function's error convention says it reported an error."""
    pointer = f.returns.endswith("*")
    when = f.error_when
    if when == "null":
        return "ret == NULL"
    if when == "eof":
        return "ret == EOF"
    if when == "negative":
        return "ret < 0"
    if when == "nonzero":
        return "ret != 0" if not pointer else "ret != NULL"
    if when == "zero":
        return "ret == 0"
    if when == "equals":
        return f"ret == {f.error_value}"
    if when == "less_than_param":
        index = [p.name for p in f.params].index(f.error_param)
        p = f.params[index]
        return f"ret < ({p.ctype})a[{index}].{arg_member(p.ctype)}"
    if when == "errno":
        return "out->err != 0"
    return "0"


@lru_cache(maxsize=None)
def _environment():
    return jinja2.Environment(
        loader=jinja2.PackageLoader("trebuchet.runner", "templates"),
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined)


def template(name):
    """A template of runner/templates (C and Makefile text), compiled once."""
    return _environment().get_template(name)


def call_args(f):
    """The C arguments of f's call: each slot a[i] cast to its parameter's
    type, then the spec's fixed extra arguments."""
    args = [f"({p.ctype})a[{i}].{arg_member(p.ctype)}" for i, p in enumerate(f.params)]
    return ", ".join(args + list(f.extra_args))


def include_lines(spec):
    """The spec's includes as #include operands: quoted when the header is
    the target's own (beside a spec), else from the system."""
    return [f'"{h}"' if any((d / h).is_file() for d in spec.include_dirs) else f"<{h}>"
            for h in spec.includes]


def shim_source(spec):
    functions = []
    for f in spec.functions:
        functions.append(dict(
            name=f.name, call=f.call, returns=f.returns, params=f.params,
            signature=f.signature.replace('"', '\\"'), args=call_args(f),
            pointer_return=f.returns.endswith("*"), error_expr=error_expr(f)))
    return template("shims.c.j2").render(spec=spec, spec_name=spec.path.name,
                                         functions=functions, includes=include_lines(spec))
