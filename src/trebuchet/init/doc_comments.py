"""The comment that documents each declaration of a header, read from the
header's text: libclang's `raw_comment` knows only a comment before a
declaration, and zlib, bzip2 and others write theirs after it.

A comment belongs to a declaration when nothing but white space, and no
blank line, stands between them:
- a comment on the declaration's own last line, or starting on the next
  line, is its *after* comment (zlib's style; doxygen's `/**<`);
- a comment whose last line is just above the declaration is its *before*
  comment (most headers' style); a doxygen one (`/**`, `///`, `/*!`) may
  stand blank lines above it (yaml.h's).
A comment that touches two declarations (after the first, before the
second) goes to the second, unless it is written after the first's
declaration in the zlib way, with a blank line before the second. Where a
declaration has both, the before comment is taken when it is doxygen
(`/**`, `///`, `/*!`), else the after one, else the before one. Each line
keeps its number so that every sentence drawn from it can be cited."""
import re
from dataclasses import dataclass

_TOKEN = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
_MARKERS = re.compile(r"^\s*(?:/\*+[!<]?|//[/!]?<?|\*+(?!/))?\s?")


@dataclass(frozen=True)
class Comment:
    first: int        # line numbers, 1-based
    last: int
    lines: tuple      # ((line, text without comment markers), ...)
    doxygen: bool
    code_before: bool  # code on its first line before it (a trailing comment)
    line_comment: bool = False  # `//`, merged with the `//` lines right below it


def comments(text):
    """Every comment of a C text, `//` runs on consecutive lines merged."""
    found, line, counted = [], 1, 0
    for m in _TOKEN.finditer(text):
        body = m.group(0)
        if body[0] in "\"'":
            continue
        line += text.count("\n", counted, m.start())  # counted once, front to back
        counted = m.start()
        line_start = text.rfind("\n", 0, m.start()) + 1
        code_before = bool(text[line_start:m.start()].strip())
        doxygen = body.startswith(("/**", "/*!", "///", "//!")) and not body.startswith("/**/")
        lines = tuple((line + i, _strip(raw, i == 0, body.startswith("//")))
                      for i, raw in enumerate(body.split("\n")))
        c = Comment(line, line + body.count("\n"), lines, doxygen, code_before)
        prev = found[-1] if found else None
        if body.startswith("//") and prev and prev.last == line - 1 and prev.line_comment \
                and not code_before and prev.doxygen == doxygen:
            found[-1] = Comment(prev.first, c.last, prev.lines + c.lines, doxygen,
                                prev.code_before, True)
        else:
            found.append(Comment(c.first, c.last, lines, doxygen, code_before,
                                 body.startswith("//")))
    return found


def _strip(raw, first, line_comment):
    """One comment line without its markers (/**, *, */, ///)."""
    raw = raw.rstrip()
    if raw.endswith("*/"):
        raw = raw[:-2]
    if first or line_comment or raw.lstrip().startswith("*"):
        raw = _MARKERS.sub("", raw, count=1)
    return raw.rstrip().rstrip("*").rstrip()


def attach(text, declarations):
    """{key: Comment} for declarations given as (key, first line, last line)."""
    all_comments = comments(text)
    lines = text.split("\n")
    decls = sorted(((k, _declaration_start(lines, first), _statement_end(lines, max(first, last)))
                    for k, first, last in declarations), key=lambda d: d[1])
    out = {}
    for i, (key, first, last) in enumerate(decls):
        nxt = decls[i + 1][1] if i + 1 < len(decls) else None
        before = next((c for c in reversed(all_comments) if c.last < first
                       and (_adjacent(c.last, first) or c.doxygen
                            and not any(line.strip() for line in lines[c.last:first - 1]))), None)
        after = next((c for c in all_comments if c.first >= last
                      and (c.first == last and c.code_before or not c.code_before
                           and _adjacent(last, c.first))), None)
        if after is not None and after.first != last and nxt is not None \
                and _adjacent(after.last, nxt):
            after = None  # it sits just above the next declaration: that one's
        if before is not None and before.code_before:
            before = None  # a trailing comment of the line above
        chosen = before if before and before.doxygen else after or before
        if chosen is not None:
            out[key] = chosen
    return out


def _declaration_start(lines, line):
    """The first line of a declaration whose name libclang places below its
    return type (expat's `XMLPARSEAPI(XML_Parser)` / `XML_ParserCreate(...)`,
    yaml.h's `YAML_DECLARE(int)`): the lines above it that end no statement,
    comment or directive."""
    while line > 1:
        above = lines[line - 2].strip()
        if not above or above.endswith((";", "}", "{", "*/", "\\")) \
                or above.startswith(("#", "//", "*", "/*")):
            return line
        line -= 1
    return line


def _statement_end(lines, line):
    """The line of the `;` ending a declaration from its line on (libclang's
    extent ends inside a macro's expansion for zlib's `OF((...))`)."""
    for number in range(line, min(line + 40, len(lines) + 1)):
        if ";" in lines[number - 1].split("/*")[0].split("//")[0]:
            return number
    return line


def _adjacent(upper, lower):
    """No line between two line numbers: the comment touches the declaration."""
    return lower - upper == 1
