"""Documentation text cut into sentences, each with the file and line it
starts on, so that a drafted promise can quote it and cite it.

Lines come from a header comment (doc_comments.py) or a manual page
(man_pages.py) as (line, section, text); a blank text ends a paragraph. A
doxygen tag starts a paragraph of its own and says what it is about:
`@param name` (or `\\param[in] name`) ties the paragraph's sentences to that
parameter, `@return`, `@returns` and `@retval X` put them in the RETURN
VALUE section (as a manual page's section would), with "Returns" written
before a text that does not say it. A manual page's ERRORS entry arrives as
"EINVAL: its text", and its sentences carry that errno."""
import re
from dataclasses import dataclass

_TAG = re.compile(r"^[@\\](param|arg|return|returns|retval|result|brief|note|warning|pre|"
                  r"post|since|see|sa|deprecated|details|throws?|exception)\b(?:\[[a-z, ]*\])?\s*")
# a stop that ends a sentence, not an abbreviation's or a number's
_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)(?<!\betc)(?<!\bvs)(?<!\bcf)(?<!\bNo)"
                  r"[.!?](?=\s+[A-Z(\"'`@]|\s{2,}|\s*$)")
_ERRNO_ENTRY = re.compile(r"^(E[A-Z0-9]+): ")
_MARKUP = re.compile(r"[@\\](?:p|a|c|b|e|em|ref|link|endlink)\s+|</?(?:b|i|tt|code|em|li|ul|dd|dt)>|`"
                     r"|(?<!\S)\^|\)\^")
_LINK = re.compile(r"\[([A-Za-z][^\]]*)\]")  # sqlite3.h's [sqlite3_open()], a link


@dataclass(frozen=True)
class Sentence:
    text: str
    file: str
    line: int
    section: str = ""  # RETURN VALUE, ERRORS, DESCRIPTION, ... ("" in a plain comment)
    param: str = ""    # the parameter a doxygen @param paragraph is about
    errno: str = ""    # the errno of a manual page's ERRORS entry

    @property
    def where(self):
        return f"{self.file}:{self.line}"


def split(lines, file):
    """Sentences of (line, section, text) lines."""
    out = []
    for para in _paragraphs(lines):
        out += _sentences(para, file)
    return out


def _paragraphs(lines):
    """[(section, param, errno, [(line, text)])]: blank lines and tags part them."""
    paras, current = [], None
    for number, section, text in lines:
        text = text.strip()
        tag = _TAG.match(text)
        if not text or tag:
            current = None
        if not text:
            continue
        if current is None:
            param, errno, sec = "", "", section
            if tag:
                text, param, sec = _tagged(tag, text, section)
            m = _ERRNO_ENTRY.match(text)
            if m and "ERROR" in section:
                errno = m.group(1)
            current = (sec, param, errno, [])
            paras.append(current)
        if text:
            current[3].append((number, text))
    return paras


def _tagged(tag, text, section):
    """(text, param, section) of a doxygen tag's first line."""
    kind, rest = tag.group(1), text[tag.end():]
    if kind in ("param", "arg"):
        name, _, desc = rest.partition(" ")
        return f"{name}: {desc.strip()}", name.strip(":,"), section
    if kind in ("return", "returns", "retval", "result"):
        said = rest if rest.lower().startswith("return") else f"Returns {rest}"
        return said, "", "RETURN VALUE"
    return rest, "", section


def _sentences(para, file):
    section, param, errno, lines = para
    text, starts = "", []  # starts: (offset in text, line)
    for number, line in lines:
        if text and text.endswith("-") and not text.endswith(" -"):
            text = text[:-1]  # a word hyphenated across lines
        elif text:
            text += " "
        starts.append((len(text), number))
        text += _LINK.sub(r"\1", _MARKUP.sub("", line))
    out, begin = [], 0
    for m in list(_END.finditer(text)) + [None]:
        end = m.end() if m else len(text)
        piece = text[begin:end].strip()
        if piece:
            at = begin + len(text[begin:end]) - len(text[begin:end].lstrip())
            line = max(n for off, n in starts if off <= at) if starts else 0
            out.append(Sentence(re.sub(r"\s+", " ", piece), file, line, section, param, errno))
        begin = end
    return out
