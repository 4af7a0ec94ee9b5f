"""`trebuchet init --update`: adds to an existing spec only the drafted
functions it lacks, as text after its last function, so that every line a
person wrote stays as it was (comments included).

A new function whose datatypes the spec does not have (a handle type or a
pair it has no C for) is not added but named, since its datatype's C would
have to be merged into the spec's sources by hand."""
import yaml

from trebuchet.init import render as draft_render
from trebuchet.spec import load as specs
from trebuchet.core import yamlines
from trebuchet.core.errors import TrebuchetError
from trebuchet.core.text_files import read_text


def merge(spec_path, d):
    text = read_text(spec_path)
    data, _ = yamlines.load(text, spec_path)
    node = _functions_node(text, spec_path)
    have = {f.get("name") for f in data.get("functions") or [] if isinstance(f, dict)}
    known = set(specs.base_datatypes()) | set(data.get("datatypes") or {}) | {"span"}
    added, left = [], []
    for f in d.functions:
        if f.name in have:
            continue
        missing = sorted({p.datatype for p in f.params} - known)
        (left.append((f.name, missing)) if missing else added.append(f))
    if added:
        lines = text.splitlines(keepends=True)
        at = node.end_mark.line + (node.end_mark.column > 0)  # after the last item's line
        new = "".join(line + "\n" for f in added for line in draft_render.function_text(f))
        lines.insert(at, new if not lines[at - 1:at] or lines[at - 1].endswith("\n")
                     else "\n" + new)
        spec_path.write_text("".join(lines))
    out = [f"{spec_path}: added {len(added)} functions"
           + (f" ({', '.join(f.name for f in added)})" if added else "")]
    out += [f"not added {name}: needs datatype {', '.join(m)}, which the spec does not have"
            f" (run init without --update to see its draft)" for name, m in left]
    return out


def _functions_node(text, path):
    root = yaml.compose(text, Loader=yamlines.LOADER)
    for key, value in root.value:
        if key.value == "functions" and isinstance(value, yaml.SequenceNode):
            return value
    raise TrebuchetError("has no `functions:` list to add to", path)
