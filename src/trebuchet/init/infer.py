"""What `trebuchet init` guesses from a header: a datatype per parameter,
the library's handle types with their constructors and destructors, buffer
and length pairs, an error convention per function, and the functions it
cannot draft, with why.

Every rule is here, each with why; each guess says so where it is written
(draft_render.py), so a reviewer knows what to check."""
from dataclasses import dataclass, field

from trebuchet.build.ctype_probe import CType as ProbeType
from trebuchet.build.plugin_check import conversion

MAX_PARAMS = 16  # harness/cases.h TB_MAX_PARAMS, the schema's maxItems

# base integer datatypes by (size, signed): the narrowest that holds the
# parameter's type unchanged, else `int` converted (said with convert: true)
_INTEGER_BASES = {"int": ProbeType("int", "integer", 4, True),
                  "int64": ProbeType("int64_t", "integer", 8, True),
                  "size": ProbeType("size_t", "integer", 8, False)}
_FLOATING_BASES = {4: "float", 8: "double"}
_FD_NAMES = {"fd", "fildes", "filedes", "sock", "sockfd", "socket"}
_PATH_NAMES = {"path", "pathname", "filename", "file", "fname", "filepath"}
_DESTRUCTOR_WORDS = ("free", "destroy", "close", "release", "delete", "dispose", "unref")
_LENGTH_NAMES = {"len", "length", "size", "n", "count", "nbytes", "cap", "capacity",
                 "bufsize", "buflen", "nmemb"}
_LENGTH_ENDINGS = ("len", "length", "size", "capacity", "cap", "count", "bytes")


@dataclass
class Param:
    name: str
    ctype: str
    datatype: str
    convert: bool = False
    note: str = ""  # why, when the datatype is a guess beyond the C type


@dataclass
class Function:
    name: str
    returns: str
    params: list
    error: dict
    error_note: str  # "" when sure; else what to check
    where: str       # header:line
    contract: object = None  # contract_draft.Contract from its documentation, or None


@dataclass
class Handle:
    """An opaque type the library makes and frees: a datatype of its own."""
    name: str       # the datatype's name: the type as the header names it
    ctype: str      # `LZ4F_cctx *`, `XML_Parser`
    key: str        # the record (or void typedef) it points to
    constructors: list = field(default_factory=list)  # [(Function of header, args)]
    destructor: tuple = None                          # (Function of header, args) or None


@dataclass
class Span:
    name: str
    pointer: str   # C types as written
    length: str
    signed: bool   # whether the length can be negative


@dataclass
class Draft:
    functions: list
    skipped: list   # [(name, where, reason)]
    handles: list
    spans: list
    version_expr: str = None


def draft(header, exported, prefix=""):
    """The draft of the header's functions (draft_header.Header) that the
    library exports (a set of names) and that begin with prefix."""
    # a gathered header's function the library does not export is another
    # library's (stdio.h's, beside lzma/*.h): not listed as not drafted
    declared = [f for f in header.functions if f.name.startswith(prefix)
                and (not f.gathered or f.name in exported)]
    skipped, usable = [], []
    for f in declared:
        reason = _unusable(f, exported)
        (skipped.append((f.name, _where(f), reason)) if reason else usable.append(f))
    handles = _handles(usable, header.macros)
    by_key = {h.key: h for h in handles}
    predicates = _error_predicates(usable)
    spans, functions = {}, []
    for f in usable:
        params = _params(f, by_key, spans)
        error, note = _error_convention(f, predicates)
        functions.append(Function(f.name, f.returns.spelling, params, error, note, _where(f)))
    return Draft(functions, skipped, handles, list(spans.values()), _version(usable))


def _where(f):
    return f"{f.file.rsplit('/', 1)[-1]}:{f.line}"


def _unusable(f, exported):
    """Why a function cannot be drafted as it is declared, or None."""
    if f.name not in exported:
        return "not exported by the library (inline, or not built into it)"
    if f.variadic:
        return "variadic: test it in fixed shapes, each with `call:` (docs/your-library.md, stdio's fprintf_int)"
    if len(f.params) > MAX_PARAMS:
        return f"{len(f.params)} parameters: at most {MAX_PARAMS}"
    for what, t in [("returns", f.returns)] + [(f"parameter {p.name}", p.ctype) for p in f.params]:
        if t.kind == "record":
            return f"{what} a struct or union by value ({t.spelling}): no datatype holds one"
        if t.kind == "other" or (t.kind == "integer" and t.size > 8):
            return f"{what} {t.spelling}: no base datatype of this type"
        if t.kind == "floating" and t.size not in _FLOATING_BASES:
            return f"{what} {t.spelling}: no base datatype of this type"
    return None


# ---- handles ----

def _handle_key(t):
    """The opaque type a pointer type points to, or None.  Opaque: a struct
    the headers never define, or a typedef of void (bzip2's BZFILE): the
    caller cannot know what it holds."""
    if t.kind != "pointer":
        return None
    if t.pointee == "record" and not t.complete:
        return t.record
    if t.pointee == "void" and _bare(t.spelling) not in ("void", ""):
        return "typedef " + _bare(t.spelling)
    return None


def _record_key(t):
    """Any struct a pointer points to: one the header defines is a handle
    too when the library has both a constructor and a destructor of it
    (LZ4_stream_t, exposed only so that it can be placed statically)."""
    return _handle_key(t) or (t.record if t.kind == "pointer" and t.pointee == "record" else None)


def _bare(spelling):
    """`const LZ4F_cctx *` -> LZ4F_cctx: the type a handle's datatype is named by."""
    words = [w for w in spelling.replace("*", " ").split() if w not in ("const", "volatile",
                                                                          "restrict", "struct")]
    return "_".join(words)


def _handles(functions, macros):
    found = {}
    for f in functions:
        for t in [f.returns] + [p.ctype for p in f.params]:
            key = _record_key(t)
            if key and (key not in found or "const" in found[key].ctype):
                # named as the header writes it, without const where it can be
                found[key] = Handle(_bare(t.spelling), t.spelling.replace("const ", ""), key)
    for h in found.values():
        freers = []
        for f in functions:
            args = _constructor_args(f, h, found, macros)
            if args is not None:
                h.constructors.append((f, args))
            args = _destructor_args(f, h, found)
            if args is not None:
                freers.append((f, args))
        # the destructor takes the handle alone where one does (XML_ParserFree,
        # not XML_FreeContentModel), and is named most like a constructor
        freers.sort(key=lambda fa: (len(fa[0].params), -max(
            [_common(fa[0].name, c.name) for c, _ in h.constructors] or [0])))
        h.destructor = freers[0] if freers else None
    opaque = {_handle_key(t) for f in functions for t in [f.returns] + [p.ctype for p in f.params]}
    return [h for h in found.values()
            if h.key in opaque or (h.constructors and h.destructor)]


def _common(a, b):
    return next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))


def _is_destructor_name(name):
    return any(w in name.lower() for w in _DESTRUCTOR_WORDS)


def _constructor_args(f, h, handles, macros):
    """The arguments f is called with to make a handle h, when f is a
    constructor of it: it returns h's pointer, or fills an `h **` (the
    slot written OUT), from arguments that are not handles themselves."""
    if _is_destructor_name(f.name):
        return None
    returns = _record_key(f.returns) == h.key
    outs = [p for p in f.params if p.ctype.kind == "pointer" and p.ctype.pointee == "pointer"
            and (p.ctype.target_record == h.key
                 or "typedef " + _bare(p.ctype.spelling) == h.key)]
    if returns == bool(outs) or len(outs) > 1:
        return None
    args = []
    for p in f.params:
        if outs and p is outs[0]:
            args.append(("OUT", p.ctype.spelling))
            continue
        arg = _default_arg(p, handles, macros)
        if arg is None:
            return None
        args.append(arg)
    return args


def _destructor_args(f, h, handles):
    """f frees h when its name says so and it takes one h."""
    if not _is_destructor_name(f.name):
        return None
    mine = [p for p in f.params if _record_key(p.ctype) == h.key]
    if len(mine) != 1:
        return None
    args = []
    for p in f.params:
        arg = ("HANDLE", p.ctype.spelling) if p is mine[0] else _default_arg(p, handles, {})
        if arg is None:
            return None
        args.append(arg)
    return args


def _default_arg(p, handles, macros):
    """An argument of a constructor or destructor: a macro the parameter's
    name names (`version` -> LZ4F_VERSION), else a base datatype's value a
    caller would plausibly pass (datatype, VALUE); None for a handle of
    another type, which this draft does not chain."""
    t = p.ctype
    if _handle_key(t) in handles:
        return None
    if t.kind == "integer" and p.name:
        wanted = p.name.replace("_", "").lower()
        named = sorted(m for m in macros
                       if m.replace("_", "").lower().endswith(wanted) and len(wanted) > 2)
        if named:
            return ("MACRO", named[0])
    datatype = _base_datatype(p.name, t)[0]
    value = {"int": "ONE", "int64": "ONE", "size": "PAGE", "fd": "FILE_RDWR",
             "float": "ZERO", "double": "ZERO", "FILE": "READ", "path": "EXISTING",
             "mode": "R", "string": "NULL", "callback": "NULL"}.get(datatype)
    if value is None:  # buffer: a page, for a status written back; a struct's options: NULL
        value = "NULL" if t.pointee in ("record", "pointer") else "BUF_PAGE"
    return (datatype, value)


# ---- parameters ----

def _base_datatype(name, t):
    """(base datatype, convert, note) of a parameter by its C type, and by
    its name where the type alone cannot tell (an int that is a descriptor,
    a string that is a path or an fopen mode)."""
    lower = (name or "").lower()
    if t.kind == "integer":
        if lower in _FD_NAMES and t.size == 4 and t.signed:
            return "fd", False, f"guess: `{name}` names a file descriptor"
        have = ProbeType(t.spelling, "integer", t.size, t.signed)
        # the base of the same width and signedness first: `int` holds a
        # long unchanged, but would leave its 64-bit values untried
        fits = sorted((n for n, b in _INTEGER_BASES.items() if conversion(have, b) is None),
                      key=lambda n: _INTEGER_BASES[n].size != t.size)
        return (fits[0], False, "") if fits else ("int", True, "")
    if t.kind == "floating":
        return _FLOATING_BASES[t.size], False, ""
    if t.kind == "callback":
        return "callback", False, ""
    if t.pointee == "FILE":
        return "FILE", False, ""
    if t.pointee == "char" and t.spelling.replace(" ", "").startswith("constchar"):
        if lower == "mode":
            return "mode", False, "guess: `mode` names an fopen mode"
        if lower in _PATH_NAMES:
            return "path", False, f"guess: `{name}` names a file"
        return "string", False, ""
    if t.pointee == "char" and "const" in t.spelling.split("*")[0]:
        return "string", False, ""
    if t.pointee == "pointer":
        return "buffer", False, "where the library stores a pointer"
    return "buffer", False, ""


def _params(f, handles, spans):
    params, skip = [], False
    for i, p in enumerate(f.params):
        name = p.name or f"arg{i + 1}"
        if skip:
            params.append(Param(name, p.ctype.spelling, "span"))
            skip = False
            continue
        key = _handle_key(p.ctype) or _record_key(p.ctype)
        if key in handles:
            params.append(Param(name, p.ctype.spelling, handles[key].name))
            continue
        nxt = f.params[i + 1] if i + 1 < len(f.params) else None
        if nxt is not None and _is_span(p, nxt):
            span = _span(p.ctype, nxt.ctype, spans)
            params.append(Param(name, p.ctype.spelling, span.name,
                                note=f"guess: {name} and {nxt.name}, a buffer and its length"))
            skip = True
            continue
        datatype, convert, note = _base_datatype(p.name, p.ctype)
        params.append(Param(name, p.ctype.spelling, datatype, convert, note))
    return params


def _is_span(p, q):
    """A buffer followed by its length, by their types and names (buf/len,
    src/srcSize, dst/dstCapacity, source/sourceLen)."""
    if not (p.ctype.kind == "pointer" and p.ctype.pointee in ("void", "char", "scalar")
            and q.ctype.kind == "integer" and p.name and q.name):
        return False
    if _handle_key(p.ctype):
        return False
    length = q.name.lower()
    stem = p.name.lower()
    for ending in ("buffer", "buf", "ptr", "data"):
        if stem.endswith(ending) and len(stem) > len(ending):
            stem = stem[:-len(ending)]
    return length in _LENGTH_NAMES or (
        length.startswith(stem) and length[len(stem):].lstrip("_").endswith(_LENGTH_ENDINGS))


def _span(pointer, length, spans):
    key = (pointer.spelling, length.spelling)
    if key not in spans:
        words = "_".join(pointer.spelling.replace("*", " ").split() + [_bare(length.spelling)])
        spans[key] = Span(f"bytes_{words}".lower(), *key, length.signed)
    return spans[key]


# ---- error conventions ----

def _error_predicates(functions):
    """{(size, signed): name} of functions that tell whether a code is an
    error (LZ4F_isError(size_t)): a return of that type is judged by them."""
    found = {}
    for f in functions:
        if f.name.lower().replace("_", "").endswith("iserror") and len(f.params) == 1 \
                and f.params[0].ctype.kind == "integer":
            t = f.params[0].ctype
            found.setdefault((t.size, t.signed), f.name)
    return found


def _error_convention(f, predicates):
    """({when: ...}, what to check) guessed from the return type and the
    comment before the declaration."""
    r, comment = f.returns, f.comment.lower()
    if r.kind == "void":
        return {"when": "none"}, ""
    if r.kind == "integer" and (r.size, r.signed) in predicates \
            and predicates[(r.size, r.signed)] != f.name:
        pred = predicates[(r.size, r.signed)]
        return {"when": "expr", "expr": f"{pred}(ret)"}, \
            f"guess: the header's {pred}() judges a {r.spelling}"
    if r.kind in ("pointer", "callback"):
        return {"when": "null"}, "guess: NULL is an error (null_valid if NULL is an answer)"
    if r.kind == "integer" and r.enum_errors:
        name, value = r.enum_errors[0]
        return {"when": "equals", "value": value}, f"guess: {name} is an error"
    if r.kind == "integer" and r.signed and r.size >= 4:
        if "negative" in comment or "< 0" in comment or "<0" in comment:
            return {"when": "negative"}, "guess: the comment speaks of negative values"
        return {"when": "negative"}, "check: a negative value is an error (the header does not say)"
    return {"when": "none"}, f"check: {r.spelling} says no error (the header does not say)"


def _version(functions):
    """A C expression for the library's version string: a function of no
    parameters returning a string, named for a version."""
    for f in functions:
        if not f.params and "version" in f.name.lower() and f.returns.pointee == "char":
            return f"{f.name}()"
    return None
