"""The `trebuchet` command line: one table of commands, each added by its
group's module (campaign, init, states, reports, memcheck, survey, gate, bench),
whose handler calls into the layers below.  TrebuchetError becomes a
one-line message and exit code 2, never a traceback.

Exit codes: the table in core/exitcodes.py."""
import argparse
import shlex
import sys

from trebuchet.cli import bench, campaign, gate, init, memcheck, options, reports, states, \
    survey
from trebuchet.core import paths, stopping
from trebuchet.core.errors import TrebuchetError
from trebuchet.core.exitcodes import Exit

# commands that go on where they stopped when given again as they were
RESUMABLE = ("memcheck", "survey")
# the commands in the order --help lists them
COMMANDS = (campaign.add_run, campaign.add_repro, campaign.add_build, init.add_init,
            states.add_states, campaign.add_list, reports.add_report, reports.add_findings,
            memcheck.add_memcheck, survey.add_survey, reports.add_compare, gate.add_baseline, gate.add_gate,
            gate.add_merge, bench.add_bench, reports.add_export)


def parser():
    from importlib.metadata import version
    p = options.Parser(prog="trebuchet", description="API robustness testing for C libraries.")
    p.add_argument("--version", action="version", version=f"trebuchet {version('trebuchet')}")
    sub = p.add_subparsers(dest="command", required=True)
    for add in COMMANDS:
        add(sub)
    _add_build_dir(p)
    return p


def _add_build_dir(parser):
    """--build-dir on every command, which is where a user looks for it."""
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    for command in (c for a in subs for c in a.choices.values()):
        _add_build_dir(command)
    if not subs:
        parser.add_argument("--build-dir", metavar="DIR",
                            help=f"where plugins are built (default ${paths.BUILD_DIR_VARIABLE},"
                                 f" else {paths.default_build()})")


def main(argv=None):
    stopping.install()
    args = parser().parse_args(argv)
    if args.build_dir:
        paths.use_build_dir(args.build_dir)
    given = sys.argv[1:] if argv is None else list(map(str, argv))
    args.again = f"`trebuchet {shlex.join(given)}`"  # the command given, which goes on
    try:
        code = args.func(args)
    except TrebuchetError as e:
        print(f"trebuchet: {e}", file=sys.stderr)
        return e.exit_code
    except KeyboardInterrupt:
        print("trebuchet: stopped; what was done is stored" +
              (f": {args.again} goes on where it stopped"
               if args.command in RESUMABLE else ""), file=sys.stderr)
        code = Exit.INTERRUPTED
    except BrokenPipeError:  # e.g. piped into head
        sys.stderr.close()
        return Exit.OK
    # a run stopped by SIGTERM said how to resume it, as on Ctrl-C
    return Exit.TERMINATED if code == Exit.INTERRUPTED and stopping.terminated() else code


if __name__ == "__main__":
    sys.exit(main())
