"""Where a drafted contract's sentences come from: the comment attached to
each declaration of a header, a manual page's groff, and the cut into
cited sentences. Small texts written here, read by the real readers."""
import gzip
import textwrap

from trebuchet.init import doc_comments, documentation, header, man_pages, sentences

HEADER = textwrap.dedent("""\
    /** Makes a box. */
    box *box_new(void);
    int box_put(box *b,
                int v);
    /*
       Puts v in b.  b must not be NULL.
    */

    /* Frees b; NULL is fine. */
    void box_free(box *b);
    int box_size(const box *b);  /**< the size, or -1 */
    int box_none(void);
""")


def _attached():
    decls = [("box_new", 2, 2), ("box_put", 3, 3), ("box_free", 10, 10), ("box_size", 11, 11),
             ("box_none", 12, 12)]
    return doc_comments.attach(HEADER, decls)


def test_a_comment_before_after_or_beside_a_declaration_is_its_own():
    got = {name: [text.strip() for _, text in c.lines if text.strip()]
           for name, c in _attached().items()}
    assert got["box_new"] == ["Makes a box."]
    # zlib's style: after a declaration spread over lines, a blank line below it
    assert got["box_put"] == ["Puts v in b.  b must not be NULL."]
    # just above box_free, though it follows box_put's comment's blank line
    assert got["box_free"] == ["Frees b; NULL is fine."]
    assert got["box_size"] == ["the size, or -1"]
    assert "box_none" not in got  # box_size's trailing comment is not above it


def test_line_comments_on_consecutive_lines_are_one_comment():
    text = textwrap.dedent("""\
        /// Makes a box.
        /// @param size may be zero.
        box *box_new(int size);
        // plain
        // two lines
        int box_x(void);
        int box_y(void); // trailing
    """)
    got = doc_comments.attach(text, [("new", 3, 3), ("x", 6, 6), ("y", 7, 7)])
    assert got["new"].lines == ((1, "Makes a box."), (2, "@param size may be zero."))
    assert got["new"].doxygen and not got["x"].doxygen
    assert got["x"].lines == ((4, "plain"), (5, "two lines"))
    assert got["y"].lines == ((7, "trailing"),)


def test_sentences_keep_their_lines_and_doxygen_tags():
    lines = [(10, "", "Counts the bytes.  Stops at a NUL, e.g. the"),
             (11, "", "last one. Never fails."), (12, "", "@param s the string;"),
             (13, "", "may be NULL."), (14, "", "@return the count.")]
    said = sentences.split(lines, "x.h")
    assert [(s.text, s.line, s.param, s.section) for s in said] == [
        ("Counts the bytes.", 10, "", ""),
        ("Stops at a NUL, e.g. the last one.", 10, "", ""),
        ("Never fails.", 11, "", ""),
        ("s: the string; may be NULL.", 12, "s", ""),
        ("Returns the count.", 14, "", "RETURN VALUE")]
    assert said[3].where == "x.h:12"


PAGE = textwrap.dedent(r"""
    .TH BOX_PUT 3 2026-01-01
    .SH NAME
    box_put, box_get \- boxes
    .SH SYNOPSIS
    .BI "int box_put(box *" b ", int " v );
    .SH DESCRIPTION
    .BR box_put ()
    puts
    .I v
    in \fIb\fP\(em once.
    .SH RETURN VALUE
    On error, \-1 is returned.
    .SH ERRORS
    .TP
    .B EINVAL
    .I b
    is NULL.
    .SH SEE ALSO
    .BR box_get (3)
""").lstrip()


def test_a_manual_page_is_read_with_its_sections_lines_and_errors(tmp_path):
    (tmp_path / "man3").mkdir()
    page = tmp_path / "man3" / "box_put.3.gz"
    page.write_bytes(gzip.compress(PAGE.encode()))
    (tmp_path / "man3" / "box_get.3").write_text(".so man3/box_put.3\n")
    read = man_pages.read(tmp_path / "man3" / "box_get.3")  # followed to box_put.3.gz
    assert read.names == ("box_put", "box_get")
    said = [(s.text, s.line, s.section, s.errno)
            for s in sentences.split(read.lines, "box_put.3.gz")]
    assert said == [("box_put() puts v in b-- once.", 7, "DESCRIPTION", ""),
                    ("On error, -1 is returned.", 12, "RETURN VALUE", ""),
                    ("EINVAL: b is NULL.", 16, "ERRORS", "EINVAL")]
    assert man_pages.find("box_put", [tmp_path]) == page
    assert man_pages.find("box_put_8", [tmp_path]) == page  # PCRE2's width dropped
    assert man_pages.find("box", [tmp_path]) is None


REFERENCE = textwrap.dedent("""\
    Boxes

    box_put() puts v in b.  It returns -1 if b is NULL.
    Unlike box_get(), it never blocks.

    box_get(b) takes the value out.
    This paragraph names box_get alone.

    A paragraph that names no function.
""")


def test_a_plain_text_reference_gives_each_function_its_paragraphs(tmp_path):
    """libpng's libpng-manual.txt: neither a comment nor a manual page."""
    h = tmp_path / "box.h"
    h.write_text("int box_put(box *b, int v);\nint box_get(box *b);\n")
    (tmp_path / "ref.txt.gz").write_bytes(gzip.compress(REFERENCE.encode()))
    declared = [header.Function(name, None, (), False, str(h), line, end_line=line)
                for line, name in ((1, "box_put"), (2, "box_get"))]
    said = documentation.gather(declared, [tmp_path / "ref.txt.gz"], look_up_manual=False)
    assert [(s.text, s.where) for s in said["box_put"]] == [
        ("box_put() puts v in b.", "ref.txt.gz:3"), ("It returns -1 if b is NULL.", "ref.txt.gz:3")]
    # "Unlike box_get(), ..." names the other alone: box_get's, not box_put's
    assert [s.text for s in said["box_get"]] == [
        "Unlike box_get(), it never blocks.", "box_get(b) takes the value out.",
        "This paragraph names box_get alone."]
