"""Values made by calls (spec/sequences.py), written as C: each a setup
that makes its calls and checks each step's answer by the function's error
convention, as a value's setup written in C does (docs/datatypes.md,
section 5).  The datatype they belong to is copied with them added to its
own values (tb_datatype_with_values), under its own name, so that runs,
`repro --values`, pins and the gate name them as any other value.  The
plugin's shims and a reproducer's repro.c hold the same text."""
import re

from trebuchet.build import codegen
from trebuchet.spec import sequences as spec_sequences
from trebuchet.spec.load import declaration

# the comment opening each step's code, by which a compiler's error there
# is told at the step's line of the spec (build/plugins.py)
STEP_COMMENT = re.compile(r"^\t/\* step (\d+) of (\S+) \*/$")

# the C type of each union tb_arg member, to store a handle in it
MEMBER_TYPE = {"ptr": "void *", "i": "long long", "u": "unsigned long long", "d": "double"}


def _ident(name):
    return re.sub(r"\W", "_", name)


def datatype_symbol(datatype):
    """The copy of a datatype that holds its values made by calls."""
    return f"seq_type_{_ident(datatype)}"


def _setup_name(s):
    return f"seq_{_ident(s.datatype)}_{s.name}"


def symbols(spec):
    """{datatype: C symbol} of the datatypes a plugin lists: the copy of a
    datatype some of whose values are made by calls, else its own."""
    made = {s.datatype for s in spec.sequences}
    return {**codegen.base_symbols(), **spec.datatypes,
            **{d: datatype_symbol(d) for d in made}}


def value_symbol(spec, datatype, value):
    """The C symbol the value datatype:value is built from: the copy for a
    value made by calls, else the datatype's own (which a reproducer
    copies, needing no copy of a datatype none of whose made values it uses)."""
    if any(s.label == f"{datatype}:{value}" for s in spec.sequences):
        return datatype_symbol(datatype)
    return {**codegen.base_symbols(), **spec.datatypes}[datatype]


def needed(spec, labels):
    """The sequences of spec that building the values labels
    ("datatype:VALUE") needs: those, and those their steps name."""
    made = {s.label: s for s in spec.sequences}
    out, todo = [], [label for label in labels if label in made]
    while todo:
        s = made[todo.pop()]
        if s not in out:
            out.append(s)
            todo += [f"{p.datatype}:{v}" for step in s.steps
                     for p, v in spec_sequences.arguments(spec, step)
                     if f"{p.datatype}:{v}" in made]
    return [s for s in spec.sequences if s in out]


def made_values(signatures):
    """(the C of a spec's values made by calls, {datatype: symbol}) for its
    shims (signatures: ctype_probe.Signatures)."""
    spec = signatures.spec
    return c_source(spec, signatures.types, spec.sequences), symbols(spec)


def c_source(spec, types, sequences):
    """The C of sequences (a spec's, or those a reproducer needs): the
    datatypes' copies, their setups, and the constructor that fills the
    copies when the plugin or program is loaded.  types: the spec's C
    types resolved (ctype_probe)."""
    if not sequences:
        return ""
    by_datatype = {}
    for s in sequences:
        by_datatype.setdefault(s.datatype, []).append(s)
    used = sorted({value_symbol(spec, p.datatype, v) for s in sequences for step in s.steps
                   for p, v in spec_sequences.arguments(spec, step)} | {
                       spec.datatypes[d] for d in by_datatype})
    lines = ["/* values made by calls (the spec's `values:`) */"]
    lines += [f"extern const struct tb_datatype {symbol};" for symbol in used
              if not symbol.startswith("seq_type_")]
    lines += [f"static struct tb_datatype {datatype_symbol(d)};" for d in by_datatype]
    lines += [f"static int {_setup_name(s)}(union tb_arg *out);" for s in sequences]
    for d, values in by_datatype.items():
        lines += ["", f"static const struct tb_value seq_values_{_ident(d)}[] = {{"]
        lines += [f'\t{{ .name = "{s.name}", .setup = {_setup_name(s)}, '
                  f'.desc = "{_c_string(s.describe())}" }},' for s in values]
        lines += ["\t{ 0 },", "};"]
    lines += ["", "/* the datatypes, their values made by calls added, before any is listed */",
              "__attribute__((constructor)) static void seq_datatypes(void)", "{"]
    lines += [f"\ttb_datatype_with_values(&{datatype_symbol(d)}, &{spec.datatypes[d]}, "
              f"seq_values_{_ident(d)});" for d in by_datatype]
    lines.append("}")
    for s in sequences:
        lines += [""] + _setup(spec, types, s)
    return "\n".join(lines) + "\n"


def _c_string(text):
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _setup(spec, types, s):
    first = spec.function(s.steps[0].call)
    lines = [f"/* {s.label}: {_c_comment(s.describe())} */",
             f"static int {_setup_name(s)}(union tb_arg *out)", "{",
             f"\t{declaration(first.returns, 'tb_handle')};", ""]
    for i, step in enumerate(s.steps):
        lines += _step(spec, types, s, i, step)
    member = codegen.arg_member(first.returns, types)
    lines += [f"\tout->{member} = ({MEMBER_TYPE[member]})tb_handle;", "\treturn 0;", "}"]
    return lines


def _c_comment(text):
    return text.replace("*/", "* /")


def _step(spec, types, s, i, step):
    f = spec.function(step.call)
    named = dict(step.args)
    handle = spec_sequences.handle_param(f, s.datatype, named) if i else None
    body = []
    if f.params:
        body.append(f"union tb_arg a[{len(f.params)}];")
    if f.returns != "void":
        body.append(f"{declaration(f.returns, 'ret')};")
    body += ["int err;", ""]
    for k, p in enumerate(f.params):
        if p is handle:
            # passed as the parameter's own type: the compiler refuses a
            # handle of another (-Werror=incompatible-pointer-types)
            member = codegen.arg_member(p.ctype, types)
            passed = codegen.passed(p.ctype, types)
            body.append(f"{{ {declaration(passed, 'tb_as_param')} = tb_handle; "
                        f"a[{k}].{member} = ({MEMBER_TYPE[member]})tb_as_param; }}")
        elif p.name in named:
            symbol = value_symbol(spec, p.datatype, named[p.name])
            body += [f'if (tb_value_named(&{symbol}, "{named[p.name]}", &a[{k}]))',
                     "\treturn -1;"]
    call = f"{f.call}({codegen.call_args(f, types)})"
    body += ["errno = 0;", f"{'ret = ' if f.returns != 'void' else ''}{call};", "err = errno;"]
    if i == 0:
        body.append("tb_handle = ret;")
    body += _expectation(f, types, i, step)
    return ([f"\t/* step {i + 1} of {s.label} */", "\t{"]
            + [f"\t\t{line}" if line else "" for line in body] + ["\t}"])


def _expectation(f, types, i, step):
    """The check of the call's answer, and the reason said when it fails:
    the step, its function, what it returned and what was expected."""
    if step.expect == "any":
        return ["(void)err;"]
    reported = codegen.inline_error_expr(f, types)
    failed = f"!({reported})" if step.expect == "error" else f"({reported})"
    wanted = "an error" if step.expect == "error" else "success"
    got = "no error" if step.expect == "error" else "an error"
    fmt, value = _ret_format(f, types)
    return [f"if ({failed}) {{",
            "\terrno = err;",
            f'\treturn tb_setup_fail("step {i + 1}, {f.call}, returned {fmt}: {got} '
            f'by its convention, where the value needs {wanted}"{value});',
            "}"]


def _ret_format(f, types):
    """printf's format and argument for the return value in a reason."""
    if f.returns == "void":
        return "nothing", ""
    if types[f.returns].kind == "pointer":
        return "%#llx", ", (unsigned long long)(uintptr_t)ret"
    if codegen.floating_return(f, types):
        return "%g", ", (double)ret"
    if codegen.unsigned_return(f, types):
        return "%llu", ", (unsigned long long)ret"
    return "%lld", ", (long long)ret"
