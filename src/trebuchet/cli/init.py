"""`trebuchet init`: a spec drafted from a library's headers."""
from trebuchet.cli import options
from trebuchet.core.exitcodes import Exit
from trebuchet.core.outputs import writable_dir
from trebuchet.init import command as draft_init


def add_init(sub):
    it = sub.add_parser(
        "init", help="draft a spec from a library's headers: its functions, datatypes and"
        " handles, each guess marked for review",
        description="Reads the headers with libclang and writes DIR/TARGET.yaml (and"
        " DIR/TARGET_values.c for the handle and buffer-length datatypes it needs): every"
        " function the headers declare that the library exports, a datatype per parameter, a"
        " handle datatype made and freed by the library's own functions, a guessed error"
        " convention, and a contract drafted from the documentation (header comments and manual"
        " pages, each promise with the sentence it came from, marked drafted: true); what it"
        " cannot draft is listed at the top. An existing TARGET.yaml is"
        " never overwritten: the draft goes beside it, or --update adds the functions it lacks.")
    it.add_argument("headers", nargs="+", metavar="HEADER", help="the library's public headers")
    it.add_argument("--library", required=True, help="the shared library: a file name"
                    " (libbz2.so.1.0), an -l name (bz2) or a path")
    options.OUT.add(it, default=".", metavar="DIR", help="where to write (default .)")
    it.add_argument("--prefix", default="", help="only functions whose names begin so")
    options.TARGET.add(it, type=options.target_name, help="the target's name (default: the"
                       " library's, libbz2.so.1.0 -> bz2)")
    it.add_argument("--update", action="store_true", help="add to an existing DIR/TARGET.yaml"
                    " the functions it lacks, leaving the rest as it is")
    it.add_argument("--docs", nargs="+", default=[], metavar="PAGE", help="manual pages (groff)"
                    " or plain-text references, gzip'd or not, to draft contracts from, beside the"
                    " header comments and the pages the manual has under each function's name")
    it.add_argument("--no-manual", action="store_true", help="do not look functions up in the"
                    " installed manual (`man --path`)")
    it.set_defaults(func=cmd_init)


def cmd_init(args):
    writable_dir(args.out)
    for line in draft_init.run(args.headers, args.library, args.out, args.prefix, args.target,
                               args.update, args.docs, not args.no_manual):
        print(line)
    return Exit.OK
