"""A plain-text API reference given with `--docs` (libpng's
libpng-manual.txt, a README; gzip'd or not): its paragraphs, each with the
line it starts on, and the functions each names.

A paragraph is about the functions it names, `png_read_info()` or a bare
`png_read_info`: it gives its sentences to each of them (documentation.py
keeps for a function only the sentences that name it or no other one)."""
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Paragraph:
    lines: tuple   # ((line, "", text), ...), as sentences.split takes them
    names: frozenset


def paragraphs(text, declared):
    """The paragraphs that name a declared function."""
    out, current = [], []
    for number, line in enumerate(text.split("\n") + [""], 1):
        if line.strip():
            current.append((number, "", line.strip()))
            continue
        if current:
            words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", " ".join(t for _, _, t in current)))
            named = frozenset(words & declared)
            if named:
                out.append(Paragraph(tuple(current), named))
        current = []
    return out
