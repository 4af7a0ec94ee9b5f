"""The documentation of each function a header declares, as sentences
(sentences.py): the comment attached to its declaration (doc_comments.py),
the manual pages that document it (man_pages.py), those given with
`--docs` and the one the manual has under its name, and the paragraphs of
a plain-text reference given with `--docs` that name it (reference_text.py).

A page that documents several functions (fopen, fdopen and freopen) gives
each of them its sentences but those that name one of the others and not
it: "The fdopen() function associates a stream with ..." is fdopen's."""
import re
from pathlib import Path

from trebuchet.core.text_files import read_text
from trebuchet.init import doc_comments, doc_files, man_pages, reference_text, sentences


def gather(functions, docs=(), look_up_manual=True):
    """{function name: [Sentence]} for header.Function values."""
    found = {f.name: [] for f in functions}
    for file, group in _by_file(functions).items():
        attached = doc_comments.attach(read_text(Path(file)),
                                       [(f.name, f.line, f.end_line or f.line) for f in group])
        for name, comment in attached.items():
            lines = [(number, "", text) for number, text in comment.lines]
            found[name] += sentences.split(lines, Path(file).name)
    manual = [p for p in docs if doc_files.is_manual_page(doc_files.read(p))]
    pages = [(page, _documents(page, found)) for page in map(man_pages.read, manual)]
    covered = {n for _, names in pages for n in names}
    roots = man_pages.manual_roots() if look_up_manual else []
    for f in functions:
        path = man_pages.find(f.name, roots) if f.name not in covered and roots else None
        if path is not None:
            pages.append((man_pages.read(path), (f.name,)))
    for page, names in pages:
        said = sentences.split(page.lines, Path(page.path).name)
        others = [n for n in page.names if n in found]
        for name in names:
            if name in found:
                found[name] += [s for s in said if _about(s.text, name, others)]
    for path in (p for p in docs if p not in manual):
        for para in reference_text.paragraphs(doc_files.read(path), set(found)):
            for name, s in _subjects(sentences.split(para.lines, Path(path).name), para.names):
                found[name].append(s)
    return found


def _subjects(said, names):
    """(function, sentence) of a reference's paragraph: a sentence is about
    the functions it names, else about those the one before was ("It
    returns -1 if b is NULL" after "box_put() puts v in b")."""
    about = set(names)
    for s in said:
        named = {n for n in names if re.search(rf"\b{re.escape(n)}\b", s.text)}
        about = named or about
        for name in sorted(about):
            yield name, s


def _documents(page, declared):
    """The declared functions a page given with --docs documents: those its
    NAME lists, or named by its file (pcre2_compile.3, whose NAME is PCRE2),
    a PCRE2 name without its code-unit width too."""
    stem = Path(page.path).name.split(".")[0]
    return tuple(n for n in declared if n in page.names or man_pages.unwidened(n) in page.names
                 or stem in (n, man_pages.unwidened(n)))


def _by_file(functions):
    groups = {}
    for f in functions:
        groups.setdefault(f.file, []).append(f)
    return groups


def _about(text, name, others):
    """Not a sentence about another function of the page alone (others: the
    functions the page's NAME lists that the headers declare)."""
    def named(n):
        return re.search(rf"\b{re.escape(n)}\b", text)
    return named(name) or not any(named(n) for n in others if n != name)
