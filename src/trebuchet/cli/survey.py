"""`trebuchet survey`: every library of the survey into one store and its page."""
from trebuchet.cli import options
from trebuchet.cli.options import bounded, split
from trebuchet.survey import campaign as survey_defaults


def add_survey(sub):
    sv = sub.add_parser(
        "survey", help="run every library of the survey (examples/*/ with a survey.md) into one"
        " store, a memcheck sample of each, and write the report with its survey page",
        description="Runs each survey library's spec (examples/NAME/NAME.yaml beside a"
        " survey.md) into --db, then `trebuchet memcheck` over --sample PASS cases a function"
        " of each, then the report into --out with survey.html, the libraries side by side,"
        " and survey.md. Resumable: a spec with a finished run in the store is not run again,"
        " an unfinished run is resumed. --budget bounds the whole: when it is spent the step"
        " under way is interrupted, what it stored is kept, and the same command goes on.")
    options.DB.add(sv, default="survey.db", help="the store (default ./survey.db)")
    options.OUT.add(sv, default="survey-report", help="the report's folder (default"
                    " ./survey-report)")
    sv.add_argument("--budget", type=bounded(float, 0, low_open=True), metavar="SECONDS",
                    default=survey_defaults.DEFAULT_BUDGET, help="seconds for the whole survey"
                    f" (default {survey_defaults.DEFAULT_BUDGET})")
    sv.add_argument("--sample", type=bounded(int, 1), default=survey_defaults.DEFAULT_SAMPLE,
                    help="PASS cases memcheck checks per function (default"
                    f" {survey_defaults.DEFAULT_SAMPLE})")
    sv.add_argument("--libraries", metavar="A,B", help="only these of the survey's libraries")
    sv.add_argument("--examples", metavar="DIR", help="where the survey's folders are (default"
                    " the checkout's examples/)")
    sv.set_defaults(func=cmd_survey)


def cmd_survey(args):
    from trebuchet.survey import campaign as survey

    return survey.run(args.db, args.out, args.budget, args.sample, split(args.libraries),
                      args.examples, again=args.again)
