"""`trebuchet repro --emit-c DIR`: one case written out as a program of its
own, to attach to a bug report.  DIR builds with a C compiler and the
target's library alone:

  repro.c     the call, by the function's real name with its arguments cast
              to the spec's parameter types, after building each value by
              its name (templates/repro.c.j2);
  support/    trebuchet's own code for those values, copied unchanged: the
              datatype files they come from and whatever those use, found
              by the names each file defines; the target's headers; and
              the test process's world (templates/repro/);
  Makefile    `make` builds ./repro, `make run` runs it (templates/repro.mk.j2);
              the library is linked by its file name from LIBDIRS, which
              `make LIBDIRS=...` sets where it lies elsewhere.

The values are built by the same setup code as in the test process, so
the program ends as the case did, but for the heap layout (repro.c.j2 says
which values that concerns)."""
import re
import shlex
import shutil
from pathlib import Path

from . import build, codegen, paths, spec as specs
from .errors import TrebuchetError
from .names import errno_name, setup_why, signal_name
from .repro import outcome_text
from .spec import declaration

SUPPORT = Path(__file__).parent / "templates" / "repro"
DATATYPES = paths.ROOT / "datatypes"
HANG_SECONDS = 10  # how long `make run` lets a call hang before timeout(1) stops it


def check_destination(out_dir):
    """Bad input found before the case runs: a DIR that holds something.  (A
    library that is not there is found sooner: loading the spec checks it.)"""
    out_dir = Path(out_dir)
    if out_dir.exists() and (not out_dir.is_dir() or any(out_dir.iterdir())):
        raise TrebuchetError("--emit-c wants a new or empty directory", out_dir)


def write(spec, function, result, datatypes, out_dir, target_arg):
    """Writes the reproducer of result (a `repro --json` record) into out_dir;
    returns the line saying how the program should end."""
    out_dir = Path(out_dir)
    params = _params(spec, function, result, datatypes)
    # what the program uses decides what is copied; the header then names it
    roots = [_repro_c(spec, function, result, params, target_arg, [])]
    roots += [p.read_text() for p in sorted(SUPPORT.iterdir())]
    sources = _needed_sources(roots, _candidate_sources(spec))
    # the spec's own headers as it names them (repro.c names them by file name)
    spelled = "".join(f"#include {h}\n" for h in codegen.include_lines(spec))
    headers = _needed_headers(roots + [spelled] + [p.read_text() for p in sources], spec)
    names = [p.name for p in sources + headers] + [p.name for p in SUPPORT.iterdir()]
    clash = {n for n in names if names.count(n) > 1}
    if clash:
        raise TrebuchetError(f"two files named {', '.join(sorted(clash))} would go into "
                             "support/; rename one", spec.path)

    c_files = [f"support/{p.name}" for p in sorted(SUPPORT.glob("*.c"))]
    c_files += [f"support/{p.name}" for p in sources]
    try:
        (out_dir / "support").mkdir(parents=True, exist_ok=True)
        for path in [*sorted(SUPPORT.iterdir()), *sources, *headers]:
            shutil.copyfile(path, out_dir / "support" / path.name)
        (out_dir / "repro.c").write_text(
            _repro_c(spec, function, result, params, target_arg, [p.name for p in sources]))
        (out_dir / "Makefile").write_text(codegen.template("repro.mk.j2").render(
            target=spec.target, name=function.name, case=result["case"], needs=_needs(spec),
            hang_seconds=HANG_SECONDS, cppflags=_cppflags(spec), **_link(spec),
            support_sources=" ".join(c_files)))
    except OSError as e:
        raise TrebuchetError(f"cannot write the reproducer: {e.strerror}", e.filename) from None
    return ending(function, result)


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
    symbols = {**_base_symbols(), **spec.datatypes}
    params = []
    for p, value in zip(function.params, result["values"]):
        name = value.split(":", 1)[1]
        params.append(dict(name=p.name, ctype=p.ctype, value=value, value_name=name,
                           desc=described[p.datatype].get(name), symbol=symbols[p.datatype]))
    return params


def _base_symbols():
    """{datatype name: C symbol} of the base datatypes, read from their files."""
    table = re.compile(r"TB_DATATYPE\((\w+)\) = \{[^}]*?\.name = \"([^\"]+)\"", re.S)
    return {name: symbol for path in sorted(DATATYPES.glob("*.c"))
            for symbol, name in table.findall(path.read_text())}


def _copied_includes(spec):
    """The spec's includes as the reproducer's repro.c names them: the
    target's own headers are copied into support/ by file name, so
    `../mylib.h` or `include/mylib.h` is included as "mylib.h" there."""
    return [f'"{Path(h[1:-1]).name}"' if h.startswith('"') else h
            for h in codegen.include_lines(spec)]


def _repro_c(spec, function, result, params, target_arg, copied):
    values = [p["value"] for p in params] + list(function.extra_args)
    pointer = function.returns.endswith("*")
    types = build.c_types(spec)
    floating = codegen.floating_return(function, types)
    unsigned = codegen.unsigned_return(function, types)
    return codegen.template("repro.c.j2").render(
        target=spec.target, target_arg=target_arg, name=function.name, case=result["case"],
        call=function.call, call_text=f"{function.call}({', '.join(values)})", params=params,
        observed=outcome_text(result), ending=ending(function, result), needs=_needs(spec),
        hang_seconds=HANG_SECONDS, copied=copied,
        includes=_copied_includes(spec),
        target_symbols=sorted({p["symbol"] for p in params}),  # a base one may be in no header
        returns=function.returns, ret_declaration=declaration(function.returns, "ret"),
        args=codegen.call_args(function, types),
        floating_return=floating, unsigned_return=unsigned,
        ret_expr="0" if function.returns == "void" else "(double)ret" if floating
        else "(unsigned long long)ret" if unsigned
        else "(long long)(intptr_t)ret" if pointer else "(long long)ret",
        error_expr=_error_expr(function, types))


def _error_expr(function, types):
    """The convention as one C expression over a[], ret and err; a judged
    one (an out-parameter, the handle) declares the parameters it names in a
    statement expression of its own, unguarded: here a fault reading it
    is plain to see.  Only those it names, so that the program compiles
    clean under -Wall -Werror."""
    simple = codegen.error_expr(function, types)
    if simple is not None:
        return simple.replace("out->err", "err")
    judge = codegen.judge_expr(function)
    named = set(re.findall(r"\b[A-Za-z_]\w*\b", judge))
    params = [line for p, line in zip(function.params, codegen.judge_locals(function, types))
              if p.name in named]
    if not params:
        return f"({judge})"
    return "({ const union tb_arg *tb_a = a; " + " ".join(params) + f" ({judge}); }})"


def _cppflags(spec):
    """The spec's compile flags as make reads them: its packages asked of
    pkg-config where the program is built, then its own `cflags`."""
    asked = [f"$(shell pkg-config --cflags {' '.join(spec.pkg_config)})"] * bool(spec.pkg_config)
    return " ".join(asked + [shlex.quote(f) for f in spec.cflags])


def _needs(spec):
    """The libraries the program links, as the header and Makefile name them."""
    if not spec.libraries:
        return "the C library"
    return " and ".join(Path(lib).name for lib in spec.libraries)


def _link(spec):
    """The Makefile's link line: each library by its file name (-l:libx.so.1)
    from the folders it lies in here (LIBDIRS), so that on another machine
    `make LIBDIRS=...` (or LIB=...) says where it lies there; in the spec's
    order, which is the order the linkers search."""
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
    return dict(libdirs=" ".join(folders), libs=" ".join(libs))


def _candidate_sources(spec):
    return sorted(DATATYPES.glob("*.c")) + [spec.source_path(s) for s in spec.sources]


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


def _needed_headers(texts, spec):
    """The project's headers the texts include with quotes, and theirs."""
    dirs = list(paths.INCLUDE_DIRS) + list(spec.include_dirs)
    own = {p.name for p in SUPPORT.iterdir()}
    found, todo = {}, list(texts)
    while todo:
        for name in re.findall(r'^\s*#\s*include\s+"([^"]+)"', todo.pop(), re.M):
            path = next((d / name for d in dirs if (d / name).is_file()), None)
            if name not in own and name not in found and path:
                found[name] = path
                todo.append(path.read_text())
    return sorted(found.values(), key=lambda p: p.name)
