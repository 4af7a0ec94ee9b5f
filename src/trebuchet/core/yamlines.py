"""YAML loading that remembers the line of every mapping key and list item,
so that an error anywhere in a spec can name its file and line."""
import yaml

from trebuchet.core.errors import TrebuchetError

# libyaml's parser where PyYAML was built with it: it keeps the same marks
# (lines) and reads a spec some twenty times as fast as the pure Python one
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load(text, path):
    """Returns (data, lines) where lines maps a path tuple such as
    ("functions", 3, "params") to its 1-based line."""
    try:
        node = yaml.compose(text, Loader=LOADER)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise TrebuchetError(f"not valid YAML: {problem}", path,
                             mark.line + 1 if mark else None) from None
    if node is None:
        raise TrebuchetError("empty spec", path)
    lines = {}
    return _build(node, (), lines, path), lines


def _build(node, where, lines, path):
    lines.setdefault(where, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        out = {}
        for key_node, value_node in node.value:
            key = _build(key_node, where, {}, path)
            if key in out:
                raise TrebuchetError(f"duplicate key '{key}'", path, key_node.start_mark.line + 1)
            lines[where + (key,)] = key_node.start_mark.line + 1
            out[key] = _build(value_node, where + (key,), lines, path)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_build(item, where + (i,), lines, path) for i, item in enumerate(node.value)]
    # a scalar: let PyYAML's safe rules decide int, bool, null or string
    return yaml.constructor.SafeConstructor().construct_object(node)


def line_of(lines, where):
    """The line of the deepest known prefix of where."""
    where = tuple(where)
    while where not in lines and where:
        where = where[:-1]
    return lines.get(where)
