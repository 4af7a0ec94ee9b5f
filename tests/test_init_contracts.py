"""`trebuchet init` drafts a contract from a small library's documentation
(doxygen before a declaration, plain prose after one, a manual page given
with --docs), and the draft loads and runs: a drafted promise the library
breaks is a violation marked drafted."""
import textwrap

from conftest import trebuchet
from test_init import init, library
from trebuchet.spec import load as specs

HEADER = """\
    /**
     * Counts the bytes of a string.
     * @param s  the string; may be NULL.
     * @return the count, or -1 on error.
     */
    int tally_count(const char *s);

    int tally_scale(int *out, int factor);
    /* Writes factor times two into *out.  out must not be NULL.
       Returns 0 on success and nonzero on failure. */

    int tally_reset(void *t);

    /* Returns what p points to, or -1 on error. */
    int tally_peek(const int *p);
"""
SOURCE = """\
    #include <errno.h>
    #include <string.h>
    int tally_count(const char *s) { return (int)strlen(s); }  /* NULL: not as documented */
    int tally_scale(int *out, int factor) { *out = factor * 2; return 0; }
    int tally_reset(void *t) { if (!t) { errno = EINVAL; return -1; } return 0; }
    int tally_peek(const int *p) { return *p; }
"""
PAGE = r"""
    .TH TALLY_RESET 3 2026-01-01 tally
    .SH NAME
    tally_reset \- forget the count
    .SH RETURN VALUE
    .BR tally_reset ()
    returns \-1 on error.
    .SH ERRORS
    .TP
    .B EINVAL
    .I t
    is NULL.
"""


def test_init_drafts_a_contract_that_loads_and_runs(tmp_path):
    header = library(tmp_path, HEADER, SOURCE)
    page = tmp_path / "src" / "tally_reset.3"
    page.write_text(textwrap.dedent(PAGE).lstrip())
    said = init(tmp_path, header, "--docs", page, "--no-manual")[0].stdout
    assert "documentation found for 4 of 4 functions" in said
    spec_path = tmp_path / "draft" / "mini.yaml"
    text = spec_path.read_text()
    spec = {f.name: f for f in specs.load(spec_path).functions}  # the loader takes it

    # doxygen before the declaration: the @param's "may be NULL", its @return
    count = spec["tally_count"]
    assert count.params[0].accepts == ("NULL",)
    assert '      # accepts NULL: mini.h:3: "s: the string; may be NULL."' in text
    assert count.error_when == "negative"
    assert count.contract.drafted and count.contract.returns == "acceptable"

    # prose after the declaration: undefined NULL, and an error convention that
    # replaces the return type's guess, kept as a comment
    scale = spec["tally_scale"]
    assert scale.params[0].undefined == ("NULL",)
    assert scale.error_when == "nonzero"
    assert "    # the return type's guess was: error: {when: negative}" in text
    # out and factor are both described, but a block too small for an int is
    # an acceptable buffer no sentence describes: no returns promised
    assert scale.contract is None
    assert "    # in doubt, not drafted (out: a block too small for what it should hold" in text

    # the manual page: an ERRORS entry on a NULL argument is a promised error
    promised = spec["tally_reset"].contract.errors
    assert [(e.when, e.errnos, e.drafted) for e in promised] == [
        ((("t", ("NULL",)),), ("EINVAL",), True)]
    assert '        # tally_reset.3:10: "EINVAL: t is NULL."' in text

    # silence is undefined: no sentence speaks of a NULL p
    assert spec["tally_peek"].params[0].undefined == ("NULL",)
    assert "      # undefined NULL: no sentence of its documentation speaks of a NULL p" in text

    db = tmp_path / "t.db"
    trebuchet("run", "--target", spec_path, "--db", db, "--quiet", "--cap", "40")
    found = trebuchet("findings", "--target", spec_path, "--db", db).stdout
    # strlen(NULL) breaks the drafted "may be NULL": shown, marked drafted;
    # every violation of a draft is (the gate reports them and does not fail)
    assert "breaks: drafted, not reviewed: accepts s = NULL" in found
    breaks = [line for line in found.splitlines() if "breaks:" in line]
    assert breaks and all("breaks: drafted, not reviewed: " in line for line in breaks)
    assert "tally_reset" not in found  # its promised EINVAL kept
    # its NULL undefined, no returns promised over its too small blocks
    assert "tally_peek" in found and "VIOLATION SIGSEGV in tally_peek" not in found
