"""A library's public headers as `trebuchet init` reads them: the functions
they declare, each parameter's and return's C type as written and as the
compiler resolves it, the comment before each declaration, and the
object-like macros that stand for one number.

The C front end is libclang (the PyPI `libclang` wheel, which carries its
own shared library), not pycparser over `gcc -E` output: clang parses the
system headers a library's header includes as they are, GNU extensions and
all, so nothing is cleaned or faked; it keeps typedefs as written beside the
canonical type, says whether a struct is complete, keeps the comments a
header documents its functions with, and gives every error a file and line.
The wheel has no compiler headers of its own (stddef.h, stdarg.h), so GCC's
are put on the include path."""
import functools
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from trebuchet.core.errors import TrebuchetError


@dataclass(frozen=True)
class CType:
    """One C type: as written (`LZ4F_cctx *`, `XML_Parser`) and what it is.

    kind: void, integer, floating, pointer, callback (a function pointer),
    record (a struct or union by value), or other (long double, va_list,
    _Complex, ...).  For a pointer, pointee says to what: char, void,
    FILE, record, pointer (a T **), or scalar; record is the struct's
    canonical spelling and complete whether the headers define it."""
    spelling: str
    kind: str
    size: int = 0
    signed: bool = False
    pointee: str = ""
    record: str = ""
    complete: bool = True
    target_record: str = ""  # a T **: the record T is, when T is one
    enum_errors: tuple = ()  # an enum: (name, value) of its members named *ERROR*


@dataclass(frozen=True)
class Param:
    name: str
    ctype: CType


@dataclass(frozen=True)
class Function:
    name: str
    returns: CType
    params: tuple
    variadic: bool
    file: str
    line: int
    comment: str = ""
    gathered: bool = False  # declared by a header the named one includes
    end_line: int = 0       # the declaration's last line (doc_comments.py looks after it)


@dataclass(frozen=True)
class Header:
    functions: tuple  # in the order declared, header by header
    macros: dict      # object-like macro name -> its one number token, as written
    negatives: dict = field(default_factory=dict)  # name -> value of a macro that is a negative number, (-2)


@functools.lru_cache(maxsize=None)
def _compiler_include():
    """GCC's own header folder (stddef.h, stdarg.h), which libclang's wheel lacks."""
    try:
        out = subprocess.run(["cc", "-print-file-name=include"], capture_output=True, text=True)
    except OSError:
        return None
    folder = out.stdout.strip()
    return folder if Path(folder).is_dir() else None


def _clang():
    try:
        from clang import cindex
    except ImportError:
        raise TrebuchetError("`trebuchet init` needs libclang (pip install libclang)") from None
    return cindex


def read(headers, cflags=()):
    """The functions and macros the headers declare (each header parsed with
    cflags, as the plugin will compile it); raises TrebuchetError naming the
    file and line of the first error."""
    functions, macros, negatives = [], {}, {}
    for header in headers:
        path = Path(header)
        if not path.is_file():
            raise TrebuchetError("no such header file", path)
        tu = _parse(path, cflags)
        folder = path.resolve().parent
        for cursor in tu.cursor.get_children():
            where = cursor.location.file
            # the header's own declarations and those of the headers it
            # includes from its folder down (lzma.h is lzma/*.h gathered):
            # the system's headers there too are dropped later, with every
            # name the library's symbol table does not export
            if where is None or not Path(where.name).resolve().is_relative_to(folder):
                continue
            if cursor.kind.name == "FUNCTION_DECL":
                own = Path(where.name).resolve() == path.resolve()
                functions.append(_function(cursor, Path(where.name), gathered=not own))
            elif cursor.kind.name == "MACRO_DEFINITION":
                tokens = [t.spelling for t in cursor.get_tokens()]
                if len(tokens) == 2 and tokens[1][:1].isdigit():
                    macros[tokens[0]] = tokens[1]
                elif _negative_number(tokens[1:]):
                    negatives[tokens[0]] = int("".join(tokens[1:]).strip("()"))
    return Header(tuple(_first_of_each(functions)), macros, negatives)


def _negative_number(tokens):
    """`(-2)`, `-2`: a negative error code as zlib writes it."""
    text = "".join(tokens)
    return bool(tokens) and text.strip("()").startswith("-") and text.strip("()-").isdigit()


def _parse(path, cflags):
    cindex = _clang()
    args = ["-x", "c", "-std=gnu11", "-fparse-all-comments", *cflags]
    if _compiler_include():
        args += ["-isystem", _compiler_include()]
    options = (cindex.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD
               | cindex.TranslationUnit.PARSE_SKIP_FUNCTION_BODIES)
    try:
        tu = cindex.Index.create().parse(str(path), args=args, options=options)
    except cindex.TranslationUnitLoadError:
        raise TrebuchetError("libclang could not read it", path) from None
    for d in tu.diagnostics:
        if d.severity >= cindex.Diagnostic.Error:
            where = d.location.file.name if d.location.file else path
            raise TrebuchetError(f"cannot parse: {d.spelling}", where, d.location.line)
    return tu


def _first_of_each(functions):
    """A function declared twice (a prototype repeated) is listed once."""
    seen = set()
    for f in functions:
        if f.name not in seen:
            seen.add(f.name)
            yield f


def _function(cursor, path, gathered=False):
    t = cursor.type
    variadic = t.kind.name == "FUNCTIONPROTO" and t.is_function_variadic()
    params = tuple(Param(a.spelling, ctype(a.type)) for a in cursor.get_arguments())
    end = cursor.extent.end
    end_line = end.line if end.file and Path(end.file.name) == path else cursor.location.line
    return Function(cursor.spelling, ctype(cursor.result_type), params, variadic,
                    str(path), cursor.location.line, cursor.raw_comment or "", gathered,
                    max(end_line, cursor.location.line))


_INTEGERS = {"BOOL", "CHAR_U", "UCHAR", "CHAR16", "CHAR32", "USHORT", "UINT", "ULONG",
             "ULONGLONG", "CHAR_S", "SCHAR", "WCHAR", "SHORT", "INT", "LONG", "LONGLONG",
             "ENUM"}
_UNSIGNED = {"BOOL", "CHAR_U", "UCHAR", "CHAR16", "CHAR32", "USHORT", "UINT", "ULONG",
             "ULONGLONG"}


def ctype(t):
    """A libclang type as a CType."""
    spelling = t.spelling
    c = t.get_canonical()
    kind = c.kind.name
    if kind == "VOID":
        return CType(spelling, "void")
    if kind in _INTEGERS:
        signed = kind not in _UNSIGNED
        errors = ()
        if kind == "ENUM":
            decl = c.get_declaration()
            signed = decl.enum_type.get_canonical().kind.name not in _UNSIGNED
            errors = tuple((m.spelling, m.enum_value) for m in decl.get_children()
                           if "ERROR" in m.spelling.upper())
        return CType(spelling, "integer", c.get_size(), signed, enum_errors=errors)
    if kind in ("FLOAT", "DOUBLE"):
        return CType(spelling, "floating", c.get_size(), True)
    if kind in ("RECORD", "ELABORATED"):
        return CType(spelling, "record", max(c.get_size(), 0))
    if kind in ("POINTER", "CONSTANTARRAY", "INCOMPLETEARRAY"):
        to = c.get_pointee() if kind == "POINTER" else c.get_array_element_type()
        return _pointer(spelling, t, to)
    return CType(spelling, "other")


def _pointer(spelling, t, to):
    """A pointer, by what it points to."""
    target = to.get_canonical()
    kind = target.kind.name
    if kind in ("FUNCTIONPROTO", "FUNCTIONNOPROTO"):
        return CType(spelling, "callback", 8)
    written = _pointee_as_written(t)
    if written == "FILE":
        return CType(spelling, "pointer", 8, pointee="FILE")
    if kind in ("CHAR_S", "SCHAR", "CHAR_U"):
        return CType(spelling, "pointer", 8, pointee="char")
    if kind == "VOID":
        return CType(spelling, "pointer", 8, pointee="void")
    if kind == "RECORD":
        record = target.get_declaration()
        name = f"{record.kind.name.split('_')[0].lower()} {record.spelling}"
        return CType(spelling, "pointer", 8, pointee="record", record=name,
                     complete=target.get_size() >= 0)
    if kind == "POINTER":
        inner = target.get_pointee().get_canonical()
        record = ""
        if inner.kind.name == "RECORD":
            decl = inner.get_declaration()
            record = f"{decl.kind.name.split('_')[0].lower()} {decl.spelling}"
        return CType(spelling, "pointer", 8, pointee="pointer", target_record=record)
    return CType(spelling, "pointer", 8, pointee="scalar")


def _pointee_as_written(t):
    """What a pointer points to, spelled without qualifiers, through the
    typedefs of the pointer itself (FILE of `FILE *`)."""
    while t.kind.name in ("TYPEDEF", "ELABORATED") and t.get_canonical().kind.name == "POINTER":
        nxt = t.get_named_type() if t.kind.name == "ELABORATED" else \
            t.get_declaration().underlying_typedef_type
        if nxt.spelling == t.spelling:
            break
        t = nxt
    if t.kind.name != "POINTER":
        return ""
    return t.get_pointee().spelling.replace("const ", "").replace("volatile ", "").strip()
