"""What an outcome means for the rates: the one definition of a failing
case (docs/architecture.md, "Outcomes and rates")."""

FAILING = ("ABORT", "RESTART")


def is_failing(outcome):
    return outcome in FAILING
