"""A draft (draft_infer.Draft) written out: the spec's YAML, with every
guess said beside it, and the C of the datatypes it needs (handles made
and freed by the library's own functions, buffer and length pairs).

Written as text, not dumped, so that the comments stay beside what they
are about and the file reads like a hand-written spec."""
import json
import re

from trebuchet.init import contract_render

# a YAML flow scalar that needs quotes: an indicator inside, or a word YAML reads as no string
_PLAIN = re.compile(r"^[A-Za-z_][A-Za-z0-9_ *.]*$")
_YAML_WORDS = {"null", "true", "false", "yes", "no", "on", "off", "~"}


def scalar(text):
    text = str(text)
    if _PLAIN.match(text) and text.lower() not in _YAML_WORDS:
        return text
    return json.dumps(text)


def symbol(name):
    return "tb_type_" + re.sub(r"\W", "_", name).lower()


def spec_text(d, meta, values_file):
    """The spec; meta: target, library, headers, includes, cflags, libraries."""
    out = [f"# Drafted by `trebuchet init` from {', '.join(meta['headers'])} for {meta['library']}.",
           "# Review it before trusting its rates: trebuchet's docs/your-library.md, \"Reviewing",
           "# a draft from trebuchet init\".  `guess:` marks what names suggested, `check:` what the header",
           "# did not say; neither states a contract.  A `contract:` is drafted from the documentation",
           "# (drafted: true), each promise beside the sentence it came from, those in doubt",
           "# commented out: read them against it (docs/contracts.md, section 6).",
           f"# Drafted {len(d.functions)} of {len(d.functions) + len(d.skipped)} functions"
           f" declared{' with prefix ' + meta['prefix'] if meta['prefix'] else ''}."]
    if d.skipped:
        out.append(f"# Not drafted ({len(d.skipped)}):")
        out += [f"#   {name} ({where}): {why}" for name, where, why in d.skipped]
    for h in d.handles:
        made = ", ".join(f.name for f, _ in h.constructors) or "nothing found (check: add values)"
        freed = h.destructor[0].name if h.destructor else "nothing found"
        out.append(f"# Handle {h.name}: made by {made}; freed by {freed}")
    out += [f"target: {meta['target']}",
            f"description: {scalar('drafted from ' + ', '.join(meta['headers']))}"]
    version = f", expr: {scalar(d.version_expr)}" if d.version_expr else ""
    out.append(f"version: {{label: {meta['target']}{version}}}")
    out.append(f"includes: [{', '.join(scalar(i) for i in meta['includes'])}]")
    if meta["cflags"]:
        out.append(f"cflags: [{', '.join(scalar(c) for c in meta['cflags'])}]")
    out.append(f"libraries: [{', '.join(scalar(lib) for lib in meta['libraries'])}]")
    own = [h.name for h in d.handles] + [s.name for s in d.spans]
    if own:
        out.append(f"sources: [{values_file}]")
        out.append("datatypes: {" + ", ".join(f"{n}: {symbol(n)}" for n in own) + "}")
    out += ["", "functions:"]
    for f in d.functions:
        out += function_text(f)
    return "\n".join(out) + "\n"


def function_text(f):
    lines = [f"  # {f.where}", f"  - name: {f.name}", f"    returns: {scalar(f.returns)}"]
    if not f.params:
        lines.append("    params: []")
    else:
        lines.append("    params:")
    for p in f.params:
        convert = ", convert: true" if p.convert else ""
        note = p.note or (f"convert: {p.datatype}'s values as {p.ctype}" if p.convert else "")
        promised, said = contract_render.param_keys(f.contract, p.name)
        lines += said
        lines.append(f"      - {{name: {p.name}, type: {scalar(p.ctype)}, datatype: {p.datatype}"
                     f"{convert}{promised}}}" + (f"   # {note}" if note else ""))
    lines += contract_render.error_lines(f.contract, f.error, f.error_note, _error)
    return lines + contract_render.contract_lines(f.contract)


def _error(error):
    return "{" + ", ".join(f"{k}: {scalar(v) if k != 'value' else v}" for k, v in error.items()) + "}"
