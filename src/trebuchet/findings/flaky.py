"""Flaky findings: a finding whose shown case (its representative,
minimised) does not fail the same way when run again.

Determinism is the harness's contract (docs/determinism.md): the same case
gives the same outcome wherever it runs.  What the library does itself is
another matter: it may seed a hash from the clock or getrandom(), or reuse
freed memory differently from one run to the next.  A maintainer must know
before acting on such a finding that its reproducer may pass, and `compare`
must not call its cases new or fixed.  So each finding's shown case runs
RERUNS more times, in one batch for the whole run; when any run does not
end at the finding's crash site, the finding is flaky and keeps every
run's outcome.  Hangs are not run again (each would cost the watchdog's
limit), nor broken error promises, which a returning call makes."""
from trebuchet.core.readable import outcome_brief
from trebuchet.core.outcomes import FAILING

RERUNS = 3
UNCHECKED = ("hang", "no-error", "errno")


def mark(findings, run, site_of):
    """Sets .flaky on each finding whose shown case, run RERUNS times (run:
    [(function, case index)] -> signature.Case), did not each time end at
    its site (site_of(case): a failing case's site)."""
    checked = [f for f in findings if f.kind not in UNCHECKED]
    shown = [(f, f.minimised or f.example) for f in checked]
    pairs = [(case.function, case.index) for _, case in shown for _ in range(RERUNS)]
    reran = run(pairs) if pairs else []
    for n, (f, case) in enumerate(shown):
        again = reran[n * RERUNS:(n + 1) * RERUNS]
        site = site_of(case)
        if any(c.outcome not in FAILING or site_of(c) != site for c in again):
            f.flaky = "; ".join(outcome_brief(c.outcome, c.signal, c.exit_status)
                                for c in [case] + again)
