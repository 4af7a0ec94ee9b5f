"""What an outcome means for the rates: the one definition of a failing
case (DESIGN.md's outcome contract)."""

FAILING = ("ABORT", "RESTART")


def is_failing(outcome):
    return outcome in FAILING
