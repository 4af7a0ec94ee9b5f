"""Builds a target's plugin: generates the shims and compiles them with the
target's own sources into build/targets/NAME/NAME.so.  The plugin is rebuilt
when anything it is made from changes (spec, template, sources, headers,
flags), judged by a digest of all of them kept beside it."""
import hashlib
import subprocess

from . import codegen, paths
from . import spec as spec_module
from .errors import TrebuchetError

# -O2 as programs are built, but no _FORTIFY_SOURCE and no builtins: the
# library's own functions are what is tested, not the compiler's checked or
# inlined replacements.
CFLAGS = ["-O2", "-g", "-fPIC", "-shared", "-fno-builtin", "-U_FORTIFY_SOURCE",
          "-D_GNU_SOURCE", "-Wall", "-Wno-unused-parameter"]


def plugin_path(spec):
    return paths.BUILD / "targets" / spec.target / f"{spec.target}.so"


def link_flags(spec):
    """In the spec's order, which is the order the dynamic linker searches:
    a library listed first is found ahead of those after it."""
    flags = []
    for lib in spec.libraries:
        if "/" in lib:
            own = spec_module.library_file(spec, lib)
            flags += [str(own), f"-Wl,-rpath,{own.parent}"]
            continue
        # found through LD_LIBRARY_PATH, which test processes inherit
        folder = spec_module.library_folder(lib)
        flags += [f"-L{folder}"] * bool(folder)
        flags.append(f"-l:{lib}" if ".so" in lib else f"-l{lib}")
    return flags


def _digest(spec, source, command):
    h = hashlib.sha256(source.encode())
    h.update(" ".join(command).encode())
    inputs = [spec.source_path(s) for s in spec.sources]
    inputs += sorted(p for d in spec.include_dirs for p in d.glob("*.h"))
    inputs += sorted(p for d in paths.INCLUDE_DIRS for p in d.glob("*.h"))
    for p in inputs:
        h.update(p.read_bytes())
    return h.hexdigest()


def build_plugin(spec, quiet=False):
    """Returns the plugin's path, compiling it first if it is stale."""
    out = plugin_path(spec)
    generated = out.with_suffix(".c")
    source = codegen.shim_source(spec)
    command = (["cc"] + CFLAGS + [f"-I{d}" for d in paths.INCLUDE_DIRS]
               + [f"-I{d}" for d in spec.include_dirs] + [str(generated)]
               + [str(spec.source_path(s)) for s in spec.sources]
               + ["-o", str(out)] + link_flags(spec))
    stamp = out.with_suffix(".digest")
    digest = _digest(spec, source, command)
    if out.exists() and stamp.exists() and stamp.read_text() == digest:
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    generated.write_text(source)
    if not quiet:
        print(f"building {out.relative_to(paths.ROOT) if out.is_relative_to(paths.ROOT) else out}")
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        first = next((l for l in result.stderr.splitlines() if "error" in l),
                     result.stderr.strip().splitlines()[-1] if result.stderr.strip() else "")
        raise TrebuchetError(f"the plugin did not compile: {first}", spec.path)
    stamp.write_text(digest)
    return out
