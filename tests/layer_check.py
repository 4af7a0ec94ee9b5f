"""The package's floors, checked from its imports: each of src/trebuchet's
packages sits on a layer, and a module may import only from its own layer
or below, and never in a circle (one module reaching itself again through
others, or two packages reaching each other).  Imports inside functions
count as much as those at the top: a link hidden in a function is still a
link.  docs/architecture.md draws the same table."""
import ast
from pathlib import Path

# lowest first; packages on one line are peers and may import each other,
# as long as no circle forms between them
LAYERS = (
    ("core",),
    ("harness", "spec", "store"),
    ("build", "run"),
    ("findings", "memcheck", "judge", "init", "states"),
    ("report", "gate", "study", "survey"),
    ("cli",),
)
LEVEL = {package: n for n, packages in enumerate(LAYERS) for package in packages}


def modules(root):
    """{"package.module": path} of the package under root (src/trebuchet)."""
    found = {}
    for path in sorted(Path(root).glob("*/*.py")):
        name = path.stem
        found[f"{path.parent.name}.{name}" if name != "__init__" else path.parent.name] = path
    return found


def imports(root):
    """{"package.module": {"package.module" it imports}}, the package's own only."""
    known = modules(root)
    graph = {}
    for name, path in known.items():
        wanted = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and \
                    node.module.startswith("trebuchet."):
                base = node.module.removeprefix("trebuchet.")
                named = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in known]
                wanted.update(named or ([base] if base in known else []))
            elif isinstance(node, ast.ImportFrom) and node.level:
                raise ValueError(f"{path}:{node.lineno}: a relative import; the floors "
                                 "are read from absolute ones")
            elif isinstance(node, ast.Import):
                wanted.update(a.name.removeprefix("trebuchet.") for a in node.names
                              if a.name.removeprefix("trebuchet.") in known)
        wanted.discard(name)
        graph[name] = wanted
    return graph


def _package(module):
    return module.split(".")[0]


def _circles(graph):
    """The strongly connected parts of graph with more than one node, each
    as a sorted tuple (Tarjan's algorithm)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(tuple(sorted(part)))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def violations(root):
    """Sorted lines, one per broken floor: "upward: a.b -> c.d" (an import
    from a higher layer, or from a package on no layer), "circle: a.b c.d"
    between modules, "package circle: a b" between packages."""
    graph = imports(root)
    found = []
    for source, targets in graph.items():
        for target in targets:
            if _package(source) not in LEVEL or _package(target) not in LEVEL or \
                    LEVEL[_package(target)] > LEVEL[_package(source)]:
                found.append(f"upward: {source} -> {target}")
    found += [f"circle: {' '.join(part)}" for part in _circles(graph)]
    packages = {}
    for source, targets in graph.items():
        packages.setdefault(_package(source), set()).update(
            _package(t) for t in targets if _package(t) != _package(source))
    found += [f"package circle: {' '.join(part)}" for part in _circles(packages)]
    return sorted(found)
