"""`trebuchet states`: the states a spec's handles reach, explored."""
from trebuchet.cli import options
from trebuchet.core.exitcodes import Exit
from trebuchet.states import command

DEFAULT_BUDGET = 1000


def add_states(sub):
    st = sub.add_parser(
        "states", help="explore the states a spec's handles reach by its own calls, and write"
        " those a next call tells apart as values made by calls",
        description="From each constructor of each handle datatype, calls each function that"
        " takes the handle, one and two steps deep, and keeps the states a next call observes"
        " apart (error or not, errno, a crash). Writes them to NAME.states.yaml beside the"
        " spec, which the spec includes with `states: NAME.states.yaml` (docs/states.md).")
    options.TARGET.add(st, required=True, help="a target's name or a spec file")
    st.add_argument("--budget", type=options.bounded(int, 1, options.STORED_MAX),
                    default=DEFAULT_BUDGET, help=f"the cases the exploration may run (default"
                    f" {DEFAULT_BUDGET})")
    st.add_argument("--replace", action="store_true",
                    help="write NAME.states.yaml again where an earlier exploration left it")
    st.set_defaults(func=cmd_states)


def cmd_states(args):
    for line in command.run(args.target, args.budget, args.replace):
        print(line, flush=True)
    return Exit.OK
