"""`trebuchet init HEADER... --library LIB`: a first spec drafted from a
library's public headers (draft_header reads them, draft_infer guesses,
draft_render and draft_values_c write).

It never overwrites a spec that may have been edited: a spec already at
DIR/TARGET.yaml gets the draft beside it (TARGET.draft.yaml, with its own
TARGET.draft_values.c), or with --update only the functions it lacks
(draft_update)."""
import os
import re
from pathlib import Path

from trebuchet.core.readable import plural

from trebuchet.init import contract_draft, documentation
from trebuchet.init import header as draft_header, infer as draft_infer, render as draft_render, update as draft_update, values_c as draft_values_c
from trebuchet.build import api_coverage, elf_symbols
from trebuchet.core.errors import TrebuchetError

# folders the compiler searches for <...>: a header there is included by its name below them
_SYSTEM_INCLUDE = ("/usr/include/x86_64-linux-gnu", "/usr/local/include", "/usr/include")


def target_name(library):
    """bz2 of libbz2.so.1.0, lz4 of lz4, mylib of ../build/libmylib.so."""
    stem = Path(library).name.split(".so")[0]
    stem = stem[3:] if stem.startswith("lib") else stem
    name = re.sub(r"[^a-z0-9_]", "_", stem.lower()).strip("_")
    return name if name[:1].isalpha() else f"lib_{name}"


def _include(header, out_dir):
    """(the spec's include of a header, the -I it needs or None)."""
    path = Path(header).resolve()
    for folder in _SYSTEM_INCLUDE:
        if path.is_relative_to(folder):
            return f"<{path.relative_to(folder)}>", str(path.relative_to(folder)), None
    if path.parent == out_dir.resolve():
        return f'"{path.name}"', path.name, None
    return f'"{path.name}"', path.name, f"-I{os.path.relpath(path.parent, out_dir.resolve())}"


def _library_entry(library, out_dir):
    """As the spec lists it: a path relative to the spec's folder, else as given."""
    if "/" in library:
        return os.path.relpath(Path(library).resolve(), out_dir.resolve())
    return library


def run(headers, library, out_dir=".", prefix="", target=None, update=False, docs=(),
        look_up_manual=True):
    """Writes the draft; returns the lines to print."""
    out_dir = Path(out_dir)
    lib_file = elf_symbols.locate(library)
    exported = elf_symbols.defined(lib_file, functions_only=True)
    if not exported:
        raise TrebuchetError("exports no function", lib_file)
    included = [_include(h, out_dir) for h in headers]
    cflags = sorted({c for _, _, c in included if c})
    parse_flags = [f"-I{Path(h).resolve().parent}" for h in headers]
    header = draft_header.read(headers, parse_flags)
    d = draft_infer.draft(header, exported, prefix)
    if not d.functions:
        raise TrebuchetError(f"none of the {len(header.functions)} functions the headers declare"
                             f"{' with prefix ' + prefix if prefix else ''} is exported by"
                             f" {lib_file}")
    declared = [f for f in header.functions if f.name in {g.name for g in d.functions}]
    said = documentation.gather(declared, docs, look_up_manual)
    contract_draft.attach(d.functions, declared, said, _error_codes(header))
    target = target or target_name(library)
    out_dir.mkdir(parents=True, exist_ok=True)
    spec_path = out_dir / f"{target}.yaml"
    if spec_path.exists() and update:
        return draft_update.merge(spec_path, d)
    stem = f"{target}.draft" if spec_path.exists() else target
    values_file = f"{stem}_values.c"
    meta = {"target": target, "library": Path(library).name, "prefix": prefix,
            "headers": [Path(h).name for h in headers], "includes": [n for _, n, _ in included],
            "cflags": cflags, "libraries": [_library_entry(library, out_dir)]}
    written = out_dir / f"{stem}.yaml"
    written.write_text(draft_render.spec_text(d, meta, values_file))
    if d.handles or d.spans:
        (out_dir / values_file).write_text(
            draft_values_c.values_text(d, target, [i for i, _, _ in included]))
    return _summary(d, written, spec_path if stem != target else None) + \
        _undeclared(exported, header, prefix)


def _undeclared(exported, header, prefix):
    """The line on what the library exports that the headers read do not
    declare: no draft tests it (build/api_coverage.py says the same of a
    spec, in the report)."""
    declared = {f.name for f in header.functions}
    outside = sorted(name for name in exported - declared if name.startswith(prefix))
    if not outside:
        return [f"every function the library exports"
                f"{' with prefix ' + prefix if prefix else ''} is declared in the headers read"]
    return [f"{plural(len(outside), 'exported function')}"
            f"{' with prefix ' + prefix if prefix else ''} declared in none of the headers read,"
            f" not drafted: {api_coverage.shown(outside)} (a spec lists those it leaves out on"
            f" purpose under leaves_out:, with why)"]


def _error_codes(header):
    """{name: value} of the header's macros that stand for a number: the
    error codes' signs say the convention (Z_STREAM_ERROR (-2),
    SQLITE_ERROR 1), a success code of 0 that any other code is an error."""
    codes = {n: int(v) for n, v in header.macros.items() if v.isdigit()}
    return {**codes, **header.negatives}


def _contracts(d):
    """The line on the contracts drafted from the documentation."""
    contracts = [f.contract for f in d.functions if f.contract is not None]
    read = sum(1 for c in contracts if c.sentences)
    sure = sum(len([p for p in c.values if not p.doubt and p.kind != "undefined"])
               + bool(c.returns) + bool(c.convention and not c.convention.doubt)
               for c in contracts)
    undefined = sum(len(c.sure("undefined")) for c in contracts)
    doubted = sum(len(c.in_doubt()) + bool(c.convention and c.convention.doubt) for c in contracts)
    return (f"documentation found for {read} of {plural(len(d.functions), 'function')}:"
            f" {plural(sure, 'promise')} drafted (drafted: true), {undefined} undefined values,"
            f" {doubted} in doubt written commented out")


def _summary(d, written, kept):
    both = sum(1 for h in d.handles if h.constructors and h.destructor)
    skipped = (f"{len(d.skipped)} not drafted, listed at its top" if d.skipped
               else "none left out")
    lines = [f"drafted {len(d.functions)} of {plural(len(d.functions) + len(d.skipped), 'function')}"
             f" ({skipped}); {plural(len(d.handles), 'handle type')}, {both} with a constructor"
             f" and a destructor; {plural(len(d.spans), 'buffer and length pair')}",
             _contracts(d), f"wrote {written}"]
    if kept:
        lines.append(f"{kept} exists and was left as it is: compare the draft with it, or run"
                     f" again with --update to add only the functions it lacks")
    return lines
