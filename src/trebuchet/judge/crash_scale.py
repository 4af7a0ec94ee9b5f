"""What Silent and Hindering failures share: Ballista's CRASH scale beyond
Abort and Restart, derived from PASS records.  A function's rate is its
counted cases over the cases it was judged on; a target's normalized rate is
the mean over its judged functions; each target and dictionary has a page
listing the cases behind its rates (templates/crash_scale.html.j2)."""
from dataclasses import dataclass, field

from trebuchet.core import rates

CASES_LISTED = 200  # cases a function keeps for its page


@dataclass
class ScaleFunction:
    target: str
    name: str
    judged: int = 0   # cases it was judged on
    count: int = 0    # of them, Silent (Hindering)
    cases: list = field(default_factory=list)  # [(case index, values, why)], the first ones
    indices: set = field(default_factory=set)  # every counted case's index

    @property
    def rate(self):
        return rates.rate(self.count, self.judged)

    def add(self, index, values, why):
        self.count += 1
        self.indices.add(index)
        if len(self.cases) < CASES_LISTED:
            self.cases.append((index, values, why))


class Sums:
    """What judged functions (self.functions, [ScaleFunction]) add up to."""

    @property
    def rate(self):
        """Normalized: the mean of the functions' rates."""
        return rates.mean([f.rate for f in self.functions])

    @property
    def function_count(self):
        return len(self.functions)

    @property
    def judged(self):
        """Cases judged, in all its functions."""
        return sum(f.judged for f in self.functions)

    @property
    def count(self):
        """Of them, Silent (Hindering, Corrupt)."""
        return sum(f.count for f in self.functions)


@dataclass
class Judged(Sums):
    functions: list    # [ScaleFunction]


@dataclass
class ScaleTarget(Sums):
    kind: str          # "silent" or "hindering"
    target: str
    dictionary: str
    run: int
    functions: list    # [ScaleFunction], those judged
    runs: list         # [(RunInfo, db)]: its run, and any voters'
    judges: str = ""   # who judged, in words

    @property
    def page(self):
        return f"{self.target}-{self.kind}-{self.dictionary}.html"

    def as_dict(self):
        return {"target": self.target, "dictionary": self.dictionary, "run": self.run,
                "judged_by": self.judges, f"normalized_{self.kind}_rate": self.rate,
                "functions": [{"function": f.name, "judged": f.judged, self.kind: f.count,
                               f"{self.kind}_rate": f.rate} for f in self.functions]}

