"""Manual pages as `trebuchet init` reads them: the groff source (man(7)
or mdoc(7), gzip'd or not) turned into plain lines, each with the source
line it came from and the section it stands in (DESCRIPTION, RETURN VALUE,
ERRORS), and the functions the page's NAME section documents.

Not rendered by groff, which would lose the line numbers a drafted promise
cites: the macros that carry words (.B, .BR, .Fn, .Fa, .Dv, .Er, ...) keep
their words, paragraph macros become blank lines, and the rest is dropped.
An ERRORS entry (`.TP` / `.B EINVAL` / its text, or mdoc's `.It Bq Er
EINVAL`) becomes one line, "EINVAL: its text"."""
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from trebuchet.core.errors import TrebuchetError
from trebuchet.init import doc_files

_PARAGRAPH = {"PP", "P", "LP", "TP", "IP", "HP", "sp", "br", "Pp", "It", "Bl", "El", "Bd", "Ed",
              "RS", "RE", "nf", "fi", "in", "ti", "EX", "EE", "TQ"}
_SKIPPED_SECTIONS = {"NAME", "SYNOPSIS", "SEE ALSO", "EXAMPLE", "EXAMPLES", "AUTHOR", "AUTHORS",
                     "HISTORY", "COLOPHON", "ATTRIBUTES", "STANDARDS", "CONFORMING TO", "VERSIONS",
                     "LIBRARY", "REVISION", "COPYRIGHT"}
# mdoc's macros that are words of the sentence they stand in (`.Fa buf Ns ,`)
_MDOC_CALLABLE = re.compile(r"\b(?:Fa|Fn|Dv|Er|Va|Vt|Ar|Cm|Em|Sy|Li|Ql|Dq|Sq|Pq|Nm|Xr|Ft|Ev|"
                            r"Ns|Pa|No|Bq|Op|Ic|Ta|Fo|Fc|Aq|Ad|Ms|St|Lb|Ox|Bx)\b\s?")
_ESCAPES = [(re.compile(p), by) for p, by in [
    (r"\\f(?:\[[^]]*\]|\(..|.)", ""), (r"\\\((?:em|en)", "--"), (r"\\(?:\(|\[)(?:aq|cq|oq)\]?", "'"),
    (r"\\\((?:lq|rq|dq)", '"'), (r"\\\(..", ""), (r"\\\[[^]]*\]", ""), (r"\\\*\(?..", ""), (r"\\-", "-"), (r"\\e", "\\\\"),
    (r"\\[&|^%]", ""), (r"\\s[-+]?\d", ""), (r"\\ ", " ")]]


@dataclass(frozen=True)
class Page:
    path: str
    names: tuple   # the functions its NAME section lists
    lines: tuple   # ((line, section, text), ...); text "" ends a paragraph


def read(path, root=None):
    """A page from its file; a `.so` page is the page it names."""
    path = Path(path)
    text = doc_files.read(path)
    first = text.lstrip().split("\n", 1)[0]
    if first.startswith(".so "):
        # man-db's convention: the name is relative to the manual's root (man3/fopen.3)
        root = root or path.parent.parent
        target = root / first[4:].strip()
        found = sorted(target.parent.glob(target.name + "*"))
        if not found:
            raise TrebuchetError(f"names {first[4:].strip()}, which is not there", path, 1)
        return read(found[0], root)
    return _parse(str(path), text)


def _parse(path, text):
    section, lines, name_words, table = "", [], [], False
    for number, raw in enumerate(text.split("\n"), 1):
        macro, args = _macro(raw)
        if macro in ("TS", "TE"):  # a tbl(1) table: no sentences
            table = macro == "TS"
            continue
        if table:
            continue
        if macro in ("SH", "Sh"):
            section = _words(args).strip('"').upper()
            lines.append((number, section, ""))
            continue
        if macro in ("SS", "Ss"):
            lines.append((number, section, ""))
            continue
        if section == "NAME":
            name_words.append(args if macro == "Nm" else raw if macro is None else "")
            continue
        if section in _SKIPPED_SECTIONS:
            continue
        if macro is not None and (macro in _PARAGRAPH or macro.startswith("\\\"")):
            lines.append((number, section, ""))
            if macro == "It" and args:  # mdoc's list item: its tag is a line of its own
                lines.append((number, section, _words(args)))
            continue
        if not section:
            continue  # .TH, .Dd, .Dt: the page's title
        words = _words(args, macro in _ALTERNATING) if macro is not None else _inline(raw)
        if macro is not None and not words and macro not in _WORD_MACROS:
            continue
        lines.append((number, section, words))
    return Page(path, tuple(_names(" ".join(name_words))), tuple(_errors_joined(lines)))


_ALTERNATING = {"BR", "RB", "BI", "IB", "IR", "RI"}
_WORD_MACROS = {"B", "I", "BR", "RB", "BI", "IB", "IR", "RI", "SM", "SB", "Fn", "Fa", "Dv", "Er",
                "Va", "Xr", "Nm", "Ar", "Em", "Sy", "Li", "Ql", "Dq", "Sq", "Pq", "Bq", "Ft", "Vt",
                "Cm", "Ev", "Pa", "No", "Op"}


def _macro(raw):
    """(macro name, its arguments) of a request line, else (None, raw)."""
    if not raw.startswith((".", "'")):
        return None, raw
    body = raw[1:].strip()
    if body.startswith('\\"') or not body:
        return '\\"', ""
    name, _, args = body.partition(" ")
    return name, args.strip()


def _words(args, alternating=False):
    """A macro's arguments as words: quotes and mdoc's callable macros gone;
    .BR's and its kind's joined without a space (`.BR fopen ()`)."""
    parts = re.findall(r'"([^"]*)"|(\S+)', args)
    text = ("" if alternating else " ").join(a or b for a, b in parts)
    text = _MDOC_CALLABLE.sub("", text)
    return _inline(re.sub(r"\s+([,.;:)])", r"\1", text))


def _inline(text):
    for pattern, by in _ESCAPES:
        text = pattern.sub(by, text)
    return text.strip()


def _names(text):
    """fopen, fdopen, freopen of `fopen, fdopen, freopen \\- stream open functions`."""
    head = re.split(r"\s(?:\\-|-|--)\s|\\-|Nd\b", _inline(text.replace("\\-", " - ")))[0]
    return [n for n in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", head)]


def _errors_joined(lines):
    """An ERRORS entry (`EINVAL` on a line of its own, its text after) as one
    line starting "EINVAL: ", so the sentence carries its errno."""
    out, pending = [], None
    for number, section, text in lines:
        if "ERROR" in section and re.fullmatch(r"\[?E[A-Z0-9]+\]?", text or "-"):
            pending = text.strip("[]")
            out.append((number, section, ""))
            continue
        if pending and text:
            text, pending = f"{pending}: {text}", None
        out.append((number, section, text))
    return out


def manual_roots():
    """The manual's folders as man-db searches them (`man --path`), or none."""
    try:
        out = subprocess.run(["man", "--path"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return []
    return [Path(p) for p in out.stdout.strip().split(":") if p and Path(p).is_dir()]


def find(name, roots):
    """The page of a function in sections 3 and 2, as `man -w NAME` finds it
    (a PCRE2 function's name without its code-unit width, pcre2_compile of
    pcre2_compile_8), or None."""
    for candidate in (name, unwidened(name)):
        for root in roots:
            for section in ("man3", "man2"):
                # NAME.3 or NAME.3.gz: not a language binding's NAME.3tcl or NAME.3pm
                for suffix in (section[-1], section[-1] + ".gz"):
                    if (root / section / f"{candidate}.{suffix}").is_file():
                        return root / section / f"{candidate}.{suffix}"
    return None


def unwidened(name):
    """pcre2_compile of pcre2_compile_8: the name a PCRE2 page has."""
    return re.sub(r"_(?:8|16|32)$", "", name)
