"""The slow cases of a run: calls the watchdog stopped that returned on
their second look, run again alone at SECOND_LOOK times the limits
(harness/forkserver.h).  They pass; the run line, `findings` and the
report's findings page name them, since a maintainer may still want a call
that takes seconds looked at."""
from dataclasses import dataclass

SECOND_LOOK = 4  # harness/forkserver.h, TB_SECOND_LOOK


@dataclass(frozen=True)
class SlowCase:
    function: str
    case: int
    cpu_us: int  # its second look's CPU time

    @property
    def text(self):
        return f"{self.function} case {self.case} ({self.cpu_us / 1e6:.1f} s of CPU)"


def slow_cases(conn, run):
    """The run's slow cases, the slowest first."""
    return [SlowCase(*row) for row in conn.execute(
        "SELECT function, case_index, second_look_cpu_us FROM results WHERE run_id = ?"
        " AND outcome = 'PASS' AND second_look_cpu_us IS NOT NULL"
        " ORDER BY second_look_cpu_us DESC, function, case_index", (run,))]


def described(cases, shown=3):
    """'2 slow cases (passed only on a second look, alone at 4x the
    limits): f case 3 (2.1 s of CPU), ...'; '' when there are none."""
    if not cases:
        return ""
    more = f", and {len(cases) - shown} more" if len(cases) > shown else ""
    return (f"{len(cases)} slow case{'s' if len(cases) != 1 else ''} (passed only on a second"
            f" look, alone at {SECOND_LOOK}x the limits): "
            + ", ".join(c.text for c in cases[:shown]) + more)
