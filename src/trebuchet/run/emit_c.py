"""`trebuchet repro --emit-c DIR`: one case written out as a program of its
own, to attach to a bug report.  DIR builds with a C compiler and the
target's library alone:

  repro.c     the call, by the function's real name with its arguments cast
              to the spec's parameter types, after building each value by
              its name (templates/repro.c.j2);
  support/    trebuchet's own code for those values, copied unchanged: the
              datatype files they come from and whatever those use, found
              by the names each file defines; the target's headers and
              sources, in their folders as they include each other
              (_layout); and the test process's world (templates/repro/);
  Makefile    `make` builds ./repro, `make run` runs it (templates/repro.mk.j2);
              the library is linked by its file name; `make LIBDIRS=...`
              says the folder it lies in, where it is not installed.

The values are built by the same setup code as in the test process, so
the program ends as the case did, but for the heap layout (repro.c.j2 says
which values that concerns)."""
import os
import re
import shlex
import shutil
from pathlib import Path

from trebuchet.build import plugins as build, codegen, sequences
from trebuchet.core import paths
from trebuchet.spec import load as specs
from trebuchet.core.errors import TrebuchetError
from trebuchet.core.readable import errno_name, setup_why, signal_name
from trebuchet.run.repro import outcome_text
from trebuchet.spec.load import declaration

SUPPORT = codegen.TEMPLATES / "repro"
HANG_SECONDS = 10  # how long `make run` lets a call hang before timeout(1) stops it


def check_destination(out_dir):
    """Bad input found before the case runs: a DIR that holds something.  (A
    library that is not there is found sooner: loading the spec checks it.)"""
    out_dir = Path(out_dir)
    if out_dir.exists() and (not out_dir.is_dir() or any(out_dir.iterdir())):
        raise TrebuchetError("--emit-c wants a new or empty directory", out_dir)


def write(spec, function, result, datatypes, out_dir, target_arg, promise=None):
    """Writes the reproducer of result (a `repro --json` record) into out_dir,
    its header stating the contract's promise it breaks, when given;
    returns the line saying how the program should end."""
    out_dir = Path(out_dir)
    target_arg = _as_named(target_arg)
    params = _params(spec, function, result, datatypes)
    # what the program uses decides what is copied; the header then names it
    found, layout, include_dirs = _support(
        spec, _repro_c(spec, function, result, params, target_arg, [], promise))
    c_files = [f"support/{p.name}" for p in sorted(SUPPORT.glob("*.c"))]
    c_files += [f"support/{_destination(where, include_dirs)}" for _, where in found]
    headers = sorted(f"support/{dest}" for dest in layout if dest.endswith(".h"))
    # the spec's folders, in the plugin's order, but those support/ itself is
    deeper = [f"support/{include_dirs[d]}" for d in spec.include_dirs
              if include_dirs.get(d, ".") != "."]
    try:
        _copy_support(layout, include_dirs, out_dir)
        (out_dir / "repro.c").write_text(
            _repro_c(spec, function, result, params, target_arg, [p.name for p, _ in found],
                     promise))
        (out_dir / "Makefile").write_text(codegen.template("repro.mk.j2").render(
            target=spec.target, name=function.name, case=result["case"], needs=_needs(spec),
            hang_seconds=HANG_SECONDS, cppflags=_cppflags(spec, include_dirs),
            libs=_link(spec)[1], include_dirs=deeper,
            support_sources=" ".join(c_files), headers=" ".join(headers)))
    except OSError as e:
        raise TrebuchetError(f"cannot write the reproducer: {e.strerror}", e.filename) from None
    return ending(function, result)


def write_support(spec, repro_c, out_dir):
    """Writes into out_dir the support/ that write() wrote beside repro_c
    (the text of a repro.c it wrote for spec): the same files, byte for
    byte, found the same way, since repro.c's header names nothing the
    search reads.  What lets a reproducer be kept without its copies."""
    _, layout, include_dirs = _support(spec, repro_c)
    try:
        _copy_support(layout, include_dirs, Path(out_dir))
    except OSError as e:
        raise TrebuchetError(f"cannot write support/: {e.strerror}", e.filename) from None


def _support(spec, repro_c):
    """What goes into support/ beside the program repro_c (its text):
    ([(C file, where it goes)], {path under support/: {file}}, {folder: its
    path under support/}), _layout says how."""
    roots = [repro_c] + [p.read_text() for p in sorted(SUPPORT.iterdir())]
    candidates = _candidate_sources(spec)
    sources = _needed_sources(roots, list(candidates))
    # the spec's own headers as it names them, which repro.c names so too
    roots.append("".join(f"#include {h}\n" for h in codegen.include_lines(spec)))
    found = [(p, candidates[p]) for p in sources]
    layout, include_dirs = _layout(found + _needed_headers(roots, found, spec))
    for path in sorted(SUPPORT.iterdir()):
        layout.setdefault(path.name, set()).add(path)
    clash = sorted(dest for dest, files in layout.items() if len(files) > 1)
    if clash:
        raise TrebuchetError(f"two files named {', '.join(clash)} would go into "
                             "support/; rename one", spec.path)
    return found, layout, include_dirs


def _copy_support(layout, include_dirs, out_dir):
    for folder in include_dirs.values():
        (out_dir / "support" / folder).mkdir(parents=True, exist_ok=True)
    for dest, (path,) in layout.items():
        (out_dir / "support" / dest).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, out_dir / "support" / dest)


def _as_named(target):
    """The target as repro.c's command names it: a spec's path from the
    folder trebuchet runs in when it lies beneath (a checkout's root in CI),
    which names it so in any checkout."""
    path, here = Path(target), Path.cwd()
    return str(path.relative_to(here)) if path.is_absolute() and here in path.parents \
        else str(target)


def make_command(spec, out_dir, goal=""):
    """How to build the reproducer here: `make -C DIR`, with LIBDIRS naming
    where the library lies when it is not installed.  Said, not written into
    the Makefile, which names no folder of this machine."""
    folders = _link(spec)[0]
    libdirs = f" LIBDIRS={shlex.quote(' '.join(folders))}" if folders else ""
    return f"make -C {out_dir}{libdirs}{' ' + goal if goal else ''}"


# Values that point into freed memory: what the call finds there depends on
# the heap and on where the C library lies, which differ in this program
# (the template's header says how).
FREED_MEMORY = ("FILE:CLOSED", "Sfio_t:CLOSED")


def _freed_memory(result):
    return [v for v in result["values"] if v.endswith(":FREED") or v in FREED_MEMORY]


def ending(function, result):
    """How the program ends when it reproduces the case."""
    freed = _freed_memory(result)
    if freed:
        return (f"{_ending(function, result)}; but {', '.join(freed)} points into freed "
                "memory, so it may end otherwise here (repro.c's header says why)")
    return _ending(function, result)


def _ending(function, result):
    outcome = result["outcome"]
    if outcome == "ABORT" and result["signal"] >= 0:
        return f"it dies of signal {result['signal']} ({signal_name(result['signal'])})"
    if outcome == "ABORT":
        return f"it exits with status {result['exit_status']}, from inside the call"
    if outcome == "RESTART":
        return (f"the call never returns (`make run` stops it after {HANG_SECONDS} s: "
                "exit status 124)")
    if outcome == "SETUP":
        param = function.params[result["setup_param"]].name
        why = setup_why(result["setup_errno"], result["setup_reason"], result["signal"])
        return f"it exits 3: parameter {param} cannot be built ({why})"
    name = f" ({errno_name(result['errno'])})" if result["errno"] else ""
    address = (" (an address, which may differ)"
               if function.returns.endswith("*") and result["ret"] else "")
    return (f"it exits 0 after printing \"{function.call} returned {result['ret']}, errno "
            f"{result['errno']}{name}, error "
            f"{'reported' if result['error_reported'] else 'not reported'}\"{address}")


def _params(spec, function, result, datatypes):
    """Per parameter: its name, C type, value and the datatype table it comes from."""
    described = {d["name"]: {v["name"]: v.get("desc") for v in d["values"]} for d in datatypes}
    params = []
    for p, value in zip(function.params, result["values"]):
        name = value.split(":", 1)[1]
        params.append(dict(name=p.name, ctype=p.ctype, value=value, value_name=name,
                           desc=described[p.datatype].get(name),
                           symbol=sequences.value_symbol(spec, p.datatype, name)))
    return params


def _repro_c(spec, function, result, params, target_arg, copied, promise=None):
    values = [p["value"] for p in params] + list(function.extra_args)
    pointer = function.returns.endswith("*")
    types = build.c_types(spec)
    floating = codegen.floating_return(function, types)
    unsigned = codegen.unsigned_return(function, types)
    needed = sequences.needed(spec, [p["value"] for p in params])
    made_symbols = {sequences.datatype_symbol(s.datatype) for s in needed}
    return codegen.template("repro.c.j2").render(
        target=spec.target, target_arg=target_arg, name=function.name, case=result["case"],
        call=function.call, call_text=f"{function.call}({', '.join(values)})", params=params,
        observed=outcome_text(result), ending=ending(function, result), needs=_needs(spec),
        hang_seconds=HANG_SECONDS, copied=copied, promise=promise,
        includes=codegen.include_lines(spec),
        # a base one may be in no header; a datatype's copy is repro.c's own
        target_symbols=sorted({p["symbol"] for p in params} - made_symbols),
        made_values=sequences.c_source(spec, types, needed),
        returns=function.returns, ret_declaration=declaration(function.returns, "ret"),
        args=codegen.call_args(function, types),
        floating_return=floating, unsigned_return=unsigned,
        ret_expr="0" if function.returns == "void" else "(double)ret" if floating
        else "(unsigned long long)ret" if unsigned
        else "(long long)(intptr_t)ret" if pointer else "(long long)ret",
        error_expr=codegen.inline_error_expr(function, types))


def _cppflags(spec, include_dirs):
    """The spec's compile flags as make reads them: its packages asked of
    pkg-config where the program is built, then its own `cflags`, each -I
    naming the folder of support/ its headers were copied into (none, when
    nothing was found there: support/ is then what it would add)."""
    asked = [f"$(shell pkg-config --cflags {' '.join(spec.pkg_config)})"] * bool(spec.pkg_config)
    own = []
    for flag in spec.cflags:
        folder = _include_flag(flag)
        if folder is None:
            own.append(shlex.quote(flag))
        elif include_dirs.get(folder, ".") != ".":
            own.append(f"-Isupport/{include_dirs[folder]}")
    return " ".join(asked + own)


def _include_flag(flag):
    """The folder a `-Ifolder` of the spec's cflags names (its spec made it
    absolute), else None."""
    return Path(flag[2:]) if flag.startswith("-I") and len(flag) > 2 else None


def _needs(spec):
    """The libraries the program links, as the header and Makefile name them."""
    if not spec.libraries:
        return "the C library"
    return " and ".join(Path(lib).name for lib in spec.libraries)


def _link(spec):
    """(the folders the libraries lie in here, the link flags): each library
    by its file name (-l:libx.so.1) in the spec's order, which is the order
    the linkers search; an installed one lies in no folder to name."""
    folders, libs = [], []
    for lib in spec.libraries:
        if "/" in lib:
            own = specs.library_file(spec, lib)
            folder, lib = own.parent, own.name
        else:  # installed, or in a folder of LD_LIBRARY_PATH
            folder = specs.library_folder(lib)
        if folder and str(folder) not in folders:
            folders.append(str(folder))
        libs.append(f"-l:{lib}" if ".so" in lib else f"-l{lib}")
    return folders, " ".join(libs)


def _candidate_sources(spec):
    """{C file that may define what the program uses: where it goes}: the
    datatypes' files flat, the spec's sources as the spec names them."""
    found = {p: (None, p.name) for p in sorted(codegen.DATATYPES.glob("*.c"))}
    for source in spec.sources:
        path = spec.source_path(source)
        if Path(source).is_absolute():  # a base's: under the folder of that base
            folder = next((d for d in spec.include_dirs if d in path.parents), path.parent)
            found[path] = (folder, str(path.relative_to(folder)))
        else:
            found[path] = (spec.folder, os.path.normpath(source))
    return found


def _code(text):
    """C text without its comments, whose words name nothing needed."""
    return re.sub(r"/\*.*?\*/|//[^\n]*", " ", text, flags=re.S)


def _defined(text):
    """The names a C file defines at file scope, in our style: a line that
    opens with a type (not static, extern or typedef) and names its
    identifier before "(", "[" or "="; a prototype defines nothing."""
    names = set()
    for line in _code(text).splitlines():
        if not re.match(r"[A-Za-z_]", line) or line.split()[0] in ("static", "extern", "typedef"):
            continue
        m = (re.match(r"TB_DATATYPE\((\w+)\)", line)
             or re.match(r"[^;(=\[]*?\b([A-Za-z_]\w*)\s*[(\[=]", line))
        if m and ("=" in line or not line.rstrip().endswith(";")):
            names.add(m.group(1))
    return names


def _needed_sources(roots, candidates):
    """The candidate files defining what the roots use, and what those use."""
    owner = {}
    for path in candidates:
        for name in _defined(path.read_text()):
            owner.setdefault(name, path)
    needed, todo = set(), list(roots)
    while todo:
        for word in set(re.findall(r"\b[A-Za-z_]\w*\b", _code(todo.pop()))):
            path = owner.get(word)
            if path and path not in needed:
                needed.add(path)
                todo.append(path.read_text())
    return [p for p in candidates if p in needed]


def _needed_headers(texts, files, spec):
    """[(header, where it goes)] of the headers the texts and the files
    ([(path, where it goes)]) include, and theirs, each found where the
    compiler finds it: "x.h" beside its includer first, then "x.h" and <x.h>
    in the folders the plugin is compiled with -I (the system's stay).
    Where a file goes is (None, its name) for trebuchet's own, copied flat,
    else (the folder it is found from, its path from there), which _layout
    places."""
    dirs = [*paths.INCLUDE_DIRS, *spec.include_dirs,
            *filter(None, map(_include_flag, spec.cflags))]
    found = []
    todo = [(text, None, None) for text in texts]
    todo += [(path.read_text(), path, where) for path, where in files]
    while todo:
        text, includer, where = todo.pop()
        for quote, name in re.findall(r'^\s*#\s*include\s*([<"])([^">]+)[">]', text, re.M):
            beside = quote == '"' and includer and includer.parent / name
            if beside and beside.is_file():
                origin, rel = where
                header = beside
                place = (None, Path(name).name) if origin is None \
                    else (origin, os.path.normpath(Path(rel).parent / name))
            else:
                folder = next((d for d in dirs if (d / name).is_file()), None)
                if folder is None:  # the system's, or pkg-config's: the library's own
                    continue
                header = folder / name
                place = (None, Path(name).name) if folder in paths.INCLUDE_DIRS \
                    else (folder, os.path.normpath(name))
            if (header, place) not in found:
                found.append((header, place))
                todo.append((header.read_text(), header, place))
    return found


def _layout(found):
    """found: [(file, where it goes)] (_needed_headers says how).
    Returns ({path under support/: {files}}, {folder: its path under support/}).

    The target's files keep the layout they include each other by, so
    that every `#include "../common/defs.h"` of theirs holds as written:
    each folder they were found from goes as deep under support/ as its
    deepest `..` reaches above it, keeping the names of the folders those
    `..` cross (the spec's robustness/ including "../include/x.h" gives
    support/include/x.h and support/robustness/, a -I of the Makefile);
    the rest of the path, the machine's, is dropped.  Copied, not
    rewritten: the headers stay byte for byte the library's own, which a
    maintainer reading the report can diff, and two config.h of two
    folders need no renaming.  A folder found from at no depth is
    support/ itself, as trebuchet's own files, copied flat."""
    depth = {}
    for _, (origin, rel) in found:
        if origin is not None:
            up = next(i for i, part in enumerate(Path(rel).parts) if part != "..")
            depth[origin] = min(max(depth.get(origin, 0), up), len(origin.parts) - 1)
    include_dirs = {origin: "/".join(origin.parts[len(origin.parts) - up:]) or "."
                    for origin, up in depth.items()}
    layout = {}
    for path, where in found:
        layout.setdefault(_destination(where, include_dirs), set()).add(path)
    return layout, include_dirs


def _destination(where, include_dirs):
    """A file's path under support/ (where: see _needed_headers)."""
    origin, rel = where
    if origin is None:
        return rel
    return os.path.normpath(Path(include_dirs[origin]) / rel)
