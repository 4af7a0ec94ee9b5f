"""The C of a draft's own datatypes (docs/datatypes.md sections 4 to 7):

- a handle: pointer's values (but MISALIGNED: no handle is misaligned),
  then one value per constructor the header has, a value released by its
  destructor, and random bytes;
- a buffer and its length, one value for both (a span).

Constructor and destructor arguments are values of base datatypes, built
by name at setup (`arg("path", "EXISTING", ...)`), so the draft needs no
C of its own for them and a reviewer changes one name to try another."""
from trebuchet.init.render import symbol

_PRELUDE = """\
/*
 * Datatypes drafted by `trebuchet init` for {target}: review them
 * (trebuchet's docs/your-library.md, "Reviewing a draft from trebuchet init").
{summary} */
{includes}#include <stdint.h>
#include <string.h>

#include "datatype.h"

/* a base datatype's value, by name, as a case would build it */
static int arg(const char *type, const char *value, union tb_arg *out)
{{
	static struct tb_value_list list;  /* 8 KiB: off the stack */
	const struct tb_datatype *t = tb_datatype_find(type, NULL);

	if (!t || tb_datatype_flatten(t, &list))
		return tb_setup_fail("no datatype %s", type);
	for (int i = 0; i < list.count; i++)
		if (!strcmp(list.values[i]->name, value))
			return tb_value_build(list.values[i], out);
	return tb_setup_fail("no value %s:%s", type, value);
}}
"""

_HANDLE_HELPERS = """
static int handle(union tb_arg *out, void *h, const char *made_by)
{
	out->ptr = h;
	return h ? 0 : tb_setup_fail("%s gave no handle", made_by);
}

static int setup_garbage(union tb_arg *out)
{
	return (out->ptr = tb_garbage_block(256)) ? 0 : -1;
}
"""

_SPAN_HELPERS = """
/* len bytes of text at the end of a guarded block of block bytes, or NULL */
static int bytes(union tb_arg *out, size_t block, int null, unsigned long long len)
{
	out[0].ptr = null ? NULL : tb_guarded_block(block);
	if (out[0].ptr && block)
		memcpy(out[0].ptr, tb_scratch_text, block < tb_scratch_text_len ? block : tb_scratch_text_len);
	out[1].u = len;
	return null || out[0].ptr ? 0 : -1;
}
"""


def values_text(d, target, includes):
    summary = "".join(f" *   {h.name}: a handle ({h.ctype}) made by the library\n"
                      for h in d.handles)
    summary += "".join(f" *   {s.name}: {s.pointer} and its {s.length} length, one value\n"
                       for s in d.spans)
    heads = "".join(f"#include {i}\n" for i in includes)
    out = [_PRELUDE.format(target=target, summary=summary, includes=heads)]
    if d.handles:
        out.append(_HANDLE_HELPERS)
    for h in d.handles:
        out.append(_handle(h))
    if d.spans:
        out.append(_SPAN_HELPERS)
    for s in d.spans:
        out.append(_span(s))
    return "\n".join(out)


def _call_args(args, params, handle_var):
    """The C arguments of a call from draft_infer's argument choices, and the
    lines building those that are base datatypes' values."""
    built, passed = [], []
    for i, ((how, what), p) in enumerate(zip(args, params)):
        if how == "OUT":
            passed.append(f"&{handle_var}")
        elif how == "HANDLE":
            passed.append(f"({what}){handle_var}")
        elif how == "MACRO":
            passed.append(what)
        else:
            built.append(f'arg("{how}", "{what}", &a[{i}])')
            t = p.ctype
            member = "d" if t.kind == "floating" else "ptr" if t.kind in ("pointer", "callback") \
                else "i" if t.signed else "u"
            passed.append(f"({t.spelling})a[{i}].{member}")
    return built, passed


def _described(f, args):
    shown = {"OUT": lambda w: "&h", "HANDLE": lambda w: "h", "MACRO": lambda w: w}
    return f"{f.name}(" + ", ".join(shown[how](what) if how in shown else f"{how}:{what}"
                                    for how, what in args) + ")"


def _call(f, args, var, var_type, lines, made):
    """Lines calling f with args: made (the handle's variable holds the result)."""
    built, passed = _call_args(args, f.params, var)
    if built:
        lines.append(f"\tunion tb_arg a[{len(args)}];")
    if made and any(how == "OUT" for how, _ in args):
        lines.append(f"\t{var_type} {var} = NULL;")
    if built:
        lines.append(f"\n\tif ({' || '.join(built)})\n\t\treturn -1;")
    call = f"{f.name}({', '.join(passed)})"
    if made and not any(how == "OUT" for how, _ in args):
        lines.append(f"\t{var_type} {var} = {call};")
    else:
        lines.append(f"\t{call};")


def _out_type(args):
    """The type an out-constructor's `T **` points to."""
    spelling = next(what for how, what in args if how == "OUT").strip()
    return spelling[:-1].rstrip() if spelling.endswith("*") else f"__typeof__(*({spelling})0)"


def _handle(h):
    sym = symbol(h.name)
    lines, values = [f"\n/* ---- {h.name} ---- */"], []
    for f, args in h.constructors:
        fn = f"{sym}_{f.name.lower()}"
        var_type = _out_type(args) if any(how == "OUT" for how, _ in args) else f.returns.spelling
        lines.append(f"\nstatic int {fn}(union tb_arg *out)\n{{")
        _call(f, args, "h", var_type, lines, made=True)
        lines.append(f'\treturn handle(out, (void *)h, "{f.name}");\n}}')
        values.append(f'\t{{ .name = "{f.name.upper()}", .setup = {fn},\n'
                      f'\t  .desc = "{_described(f, args)}" }},')
    if h.constructors and h.destructor:
        f, args = h.destructor
        first = f"{sym}_{h.constructors[0][0].name.lower()}"
        lines.append(f"\n/* made, then freed by the library: the address stays, the object is gone */"
                     f"\nstatic int {sym}_released(union tb_arg *out)\n{{")
        lines.append(f"\tvoid *h;\n\n\tif ({first}(out))\n\t\treturn -1;\n\th = out->ptr;")
        _call(f, args, "h", None, lines, made=False)
        lines.append("\treturn 0;\n}")
        values.append(f'\t{{ .name = "RELEASED", .setup = {sym}_released,\n'
                      f'\t  .desc = "{h.constructors[0][0].name}, then {_described(f, args)}",'
                      f" .misuse = 1 }},")
    values.append('\t{ .name = "GARBAGE", .setup = setup_garbage,'
                  ' .desc = "256 random bytes before a guard page", .misuse = 1 },')
    lines.append(f"\n/* No cleanups: the test process ends after the call, which may free the"
                 f" handle itself. */\nstatic const struct tb_value {sym}_values[] = {{")
    lines += values + ["\t{ 0 },", "};"]
    lines.append(f"""
const struct tb_datatype {sym} = {{
	.name = "{h.name}",
	.parent = &tb_type_pointer,
	.skip = (const char *const[]){{ "MISALIGNED", NULL }},
	.misuse = (const char *const[]){{ "READ_ONLY", "VALID", NULL }},  /* bytes, no {h.name} */
	.ctype = "{h.ctype}",
	.values = {sym}_values,
}};""")
    return "\n".join(lines)


def _span(s):
    sym = symbol(s.name)
    largest = (f"(unsigned long long)((1ULL << (8 * sizeof({s.length}) - 1)) - 1)" if s.signed
               else f"(unsigned long long)({s.length})-1")
    shapes = [("EMPTY", "0, 0, 0", "0 bytes before a guard page, length 0"),
              ("PAGE", "4096, 0, 4096", "4096 bytes of text, length 4096"),
              ("PAST_END", "4096, 0, 4097", "4096 bytes, length 4097: one into the guard page"),
              ("HUGE", f"4096, 0, {largest}", f"4096 bytes, the largest {s.length}"),
              ("NULL_ZERO", "0, 1, 0", "NULL, length 0"),
              ("NULL_LEN", "0, 1, 16", "NULL, length 16")]
    if s.signed:
        shapes.insert(4, ("NEGATIVE", "4096, 0, (unsigned long long)-1", "4096 bytes, length -1"))
    lines = [f"\n/* ---- {s.name}: {s.pointer} and its length ---- */"]
    values = []
    for name, call, desc in shapes:
        fn = f"{sym}_{name.lower()}"
        lines.append(f"static int {fn}(union tb_arg *out) {{ return bytes(out, {call}); }}")
        values.append(f'\t{{ .name = "{name}", .setup = {fn}, .desc = "{desc}" }},')
    lines.append(f"\nstatic const struct tb_value {sym}_values[] = {{")
    lines += values + ["\t{ 0 },", "};"]
    lines.append(f"""
const struct tb_datatype {sym} = {{
	.name = "{s.name}",
	.ctype = "{s.pointer}, {s.length}",
	.span = 2,
	.values = {sym}_values,
}};""")
    return "\n".join(lines)
