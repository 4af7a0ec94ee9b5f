"""Builds a target's plugin: generates the shims and compiles them with the
target's own sources into BUILD/targets/NAME/NAME.so (paths.BUILD).  The plugin is rebuilt
when anything it is made from changes (spec, template, sources, headers,
flags), judged by a digest of all of them kept beside it.

One pipeline, read top to bottom in build_plugin, each stage taking the
one before's result, so that a spec's mistake is found by the first stage
that can see it and a new kind of parameter lands in one obvious place:

  load      spec.load (the caller's)                     -> spec.Spec
  resolve   ctype_probe.resolve_signatures               -> Signatures
  check     plugin_check.check_signatures (refuses types no slot holds)
  generate  codegen.generate, with sequences.made_values   -> Shims
  compile   compile_plugin, here (skipped when fresh)    -> Plugin
  check     plugin_check.check_datatypes                 -> Datatypes
  resolve   ctype_probe.resolve_slots                    -> SlotTypes
  check     plugin_check.check_slot_types                -> conversions

The datatypes' checks come after compiling because a datatype's name,
values and C type are read from the compiled plugin; the slots' types are
resolved only then, since only the datatypes say which they are."""
import hashlib
import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from trebuchet.build import codegen, ctype_probe, plugin_check, sequences
from trebuchet.harness import sanitizers
from trebuchet.core import paths
from trebuchet.spec import load as spec_module
from trebuchet.core.errors import TrebuchetError


def build_plugin(spec, quiet=False, sanitizer=None):
    """Returns the plugin's path, compiling and checking it first if it is
    stale; with sanitizer ("address"), the plugin built for it
    (sanitizers.py)."""
    signatures = ctype_probe.resolve_signatures(spec, _probe(spec))
    plugin_check.check_signatures(signatures)
    shims = codegen.generate(signatures, sequences.made_values(signatures))
    plugin = compile_plugin(shims, quiet, sanitizer)
    if plugin.fresh:
        return plugin.path
    datatypes = plugin_check.check_datatypes(plugin)
    slot_types = ctype_probe.resolve_slots(signatures, datatypes)
    conversions = plugin_check.check_slot_types(slot_types)
    # checked: the conversions for `trebuchet run` to say, then the digest
    conversions_path(spec, sanitizer).write_text("".join(n + "\n" for n in conversions))
    plugin.stamp.write_text(plugin.digest)
    return plugin.path


def c_types(spec):
    """{C type spelling: ctype_probe.CType} of every parameter and return
    type of the spec, as the compiler sees them with the spec's includes
    (the resolve stage alone, for the reproducer)."""
    return ctype_probe.resolve_signatures(spec, _probe(spec)).types


def _probe(spec):
    """A type probe compiled as the plugin is, in the plugin's folder."""
    return ctype_probe.Probe(codegen.include_lines(spec),
                             [*paths.INCLUDE_DIRS, *spec.include_dirs],
                             ["-D_GNU_SOURCE", *spec_module.compile_flags(spec)],
                             _writable(plugin_path(spec).parent))


def _writable(folder):
    """folder, made if missing; one line naming it when it cannot be (an
    installed trebuchet run by a user whose home is not writable)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if not os.access(folder, os.W_OK):
            raise PermissionError(13, "Permission denied")
    except OSError as e:
        raise TrebuchetError(f"cannot write plugins into {paths.BUILD}: {e.strerror}; choose a"
                             f" folder with --build-dir or {paths.BUILD_DIR_VARIABLE}") from None
    return folder


def plugin_path(spec, sanitizer=None):
    """BUILD/targets/NAME/NAME.so for a spec of trebuchet's own targets/;
    a spec anywhere else gets a folder named after its path too, so two
    specs with one `target:` name never rebuild each other's plugin.  Built
    for a sanitizer, NAME.asan.so beside it, so that plain and sanitized
    plugins never rebuild each other either."""
    if spec.path == (paths.TARGETS / spec.target / f"{spec.target}.yaml").resolve():
        folder = spec.target
    else:
        folder = f"{spec.target}-{hashlib.sha256(str(spec.path).encode()).hexdigest()[:8]}"
    suffix = f".{sanitizers.SUFFIX[sanitizer]}" if sanitizer else ""
    return paths.BUILD / "targets" / folder / f"{spec.target}{suffix}.so"


def conversions_path(spec, sanitizer=None):
    return plugin_path(spec, sanitizer).with_suffix(".conversions")


@dataclass(frozen=True)
class Plugin:
    """A compiled plugin; fresh when its digest (kept in stamp once it is
    checked) says it was built and checked from the same inputs before."""
    spec: object
    path: Path
    digest: str
    stamp: Path
    fresh: bool


# Warnings that mean the plugin would run other code than its source says:
# a function called without its declaration returns an int, so a pointer
# it returns is cut to 32 bits; a pointer taken as an integer, or as a
# pointer to something else.  Errors, at the source's line.
WARNINGS_THAT_MATTER = ["-Werror=implicit-function-declaration", "-Werror=implicit-int",
                        "-Werror=int-conversion", "-Werror=incompatible-pointer-types",
                        "-Werror=return-type"]

# -O2 as programs are built, but no _FORTIFY_SOURCE and no builtins: the
# library's own functions are what is tested, not the compiler's checked or
# inlined replacements.  -z noseparate-code: the plugin in three mappings,
# not five, since every test process's fork copies (and its exit tears down)
# each mapping a fork server holds (the executor is linked so too: Makefile).
CFLAGS = ["-O2", "-g", "-fPIC", "-shared", "-Wl,-z,noseparate-code", "-fno-builtin",
          "-U_FORTIFY_SOURCE", "-D_GNU_SOURCE", "-Wall", "-Wno-unused-parameter",
          *WARNINGS_THAT_MATTER]


def compile_plugin(shims, quiet, sanitizer=None):
    """Compiles the shims with the target's sources, unless the digest
    kept beside the plugin says nothing changed.  The libraries the spec
    names are linked as they are: a sanitizer's build of theirs is the
    user's to make and name."""
    spec = shims.spec
    out = plugin_path(spec, sanitizer)
    generated = out.with_suffix(".c")
    command = (["cc"] + CFLAGS + sanitizers.cflags(sanitizer)
               + [f"-I{d}" for d in paths.INCLUDE_DIRS]
               + [f"-I{d}" for d in spec.include_dirs] + spec_module.compile_flags(spec)
               + [str(generated)]
               + [str(spec.source_path(s)) for s in spec.sources]
               + ["-o", str(out)] + link_flags(spec))
    stamp = out.with_suffix(".digest")
    digest = _digest(spec, shims.source, command)
    if out.exists() and stamp.exists() and stamp.read_text() == digest:
        return Plugin(spec, out, digest, stamp, fresh=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    generated.write_text(shims.source)
    if not quiet:
        print(f"building {out.relative_to(paths.ROOT) if out.is_relative_to(paths.ROOT) else out}")
    # the compiler's messages in plain ASCII, whatever the user's locale
    result = subprocess.run(command, capture_output=True, text=True,
                            env=dict(os.environ, LC_ALL="C"))
    if result.returncode != 0:
        raise _compile_error(result.stderr, spec, generated)
    return Plugin(spec, out, digest, stamp, fresh=False)


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


COMPILER_ERROR = re.compile(
    r"^(?P<file>[^:\n]+):(?P<line>\d+):\d+: (?:fatal )?error: (?P<what>.*)$", re.M)


def _compile_error(stderr, spec, generated):
    """The compiler's first error as one line at the source's file and line;
    one in the generated shims is the spec's."""
    first = COMPILER_ERROR.search(stderr)
    if not first:
        last = stderr.strip().splitlines()[-1] if stderr.strip() else ""
        return TrebuchetError(f"the plugin did not compile: {last}", spec.path)
    what = f"the plugin did not compile: {first['what']}"
    if first["file"] == str(generated):
        where, part = _spec_line_of_shim(spec, Path(generated), int(first["line"]),
                                         first["what"])
        return TrebuchetError(f"{what} (in the {part} generated from it)", *where)
    return TrebuchetError(what, first["file"], int(first["line"]))


SHIM_OF = re.compile(r"^static (?:void call|int judge)_(\w+)\(")
STEP_OF = sequences.STEP_COMMENT
VERSION_OF = re.compile(r"^static const char \*target_version\(")
ARGUMENT = re.compile(r"\bargument (\d+) of\b")


def _spec_line_of_shim(spec, generated, line, what):
    """Where in the spec an error at line of the generated shims comes from:
    the step of a value made by calls that holds the line, the parameter a
    "passing argument N of" error names, else the function whose shim holds
    the line (its `returns:`), else the spec; and what the line is part of."""
    above = generated.read_text().splitlines()[:line]
    starts = [m for m in (SHIM_OF.match(l) or VERSION_OF.match(l) or STEP_OF.match(l)
                          for l in reversed(above)) if m]
    if starts and starts[0].re is VERSION_OF:  # the spec's version expression
        return (spec.path, spec.version_line), "call shims"
    if starts and starts[0].re is STEP_OF:  # a step of a value made by calls
        made = next(s for s in spec.sequences if s.label == starts[0][2])
        return made.steps[int(starts[0][1]) - 1].where, "value made by calls"
    name = starts[0][1] if starts else None
    f = next((f for f in spec.functions if f.name == name), None)
    if f is None:
        return (spec.path,), "call shims"
    argument = ARGUMENT.search(what)
    if argument and 0 < int(argument[1]) <= len(f.params):
        return f.params[int(argument[1]) - 1].where, "call shims"
    return f.returns_where, "call shims"
