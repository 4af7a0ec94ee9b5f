"""Minimisation: which of a failing case's values its failure needs.

Cases that crash at one site may crash for different causes (a NULL
buffer; a short buffer with a long length), and a case holds values its
failure does not need (`len = ONE` beside `buf = NULL`).  So, as every
fuzzer minimises a crashing input before it files it, a failing case is
tried again with its values replaced, one parameter at a time from the
first, by the value of that parameter found in the most PASS cases of its
function in the run among those its contract accepts (ties: the
dictionary's order), or, where that is the case's own value, the next.  A replacement after
which the case still fails the same way (at the same site) is kept: that
value was incidental (where the case's own value was the most passing
one, the case keeps it).  One after which it passes, or fails another way,
is undone: that parameter is part of the cause.  Replacements are kept as
they go (not each tried alone), so a case with two faults of one site in
it (a bad stream and a bad position) is cut down to one of them, not
taken as needing nothing.  The cause is the parameters needed with their
values; the minimised case, the case with every incidental value
replaced, is the last replacement that failed the same way.

The cases of one function at one site whose values are of one kind (the
same parameters NULL or ZERO, the same parameters misused:
signature.value_kinds) share the cause of the first of them, minimised;
so a site costs a few cases per kind of values, not per failing case.
The whole run's minimisation runs in as many batches as a function has
parameters: each batch tries the next parameter of every case being
minimised.  A replacement the run holds already (a campaign below its cap
holds the whole product) is read from the store, not run.  The cases run
are counted against a budget counted in cases, not seconds, so the
findings are the same on a fast machine and a slow one (a case is let in
when every replacement it may need fits); they are stored apart
(minimised_cases), never in a rate.  Kinds of values the budget does not
reach are left as run.

Hangs are not minimised: each replacement that still hangs costs the
watchdog's limit and its second look, seconds a case, and a hang's
signature is already its entry (the outermost frame).  Nor are broken
error promises (a case that returned), whose cause is the contract's."""
from collections import Counter, defaultdict
from dataclasses import dataclass

from trebuchet.core.outcomes import FAILING

BUDGET = 2000  # cases a run's findings may run to minimise (`run --minimise-budget`)
SPAN = "span:"  # a spanning value's later parameters (docs/datatypes.md, section 7)


@dataclass
class Cause:
    """What one failing case's failure needs: the parameters (0-based)
    whose values it needs, and the case with every other value replaced."""
    function: str
    needed: tuple       # parameter indices
    values: tuple       # their values, "datatype:VALUE"
    case: object = None       # signature.Case: the failing case minimised
    minimised: object = None  # signature.Case: the last replacement that failed the same way

    def words(self, params):
        """"buf = NULL; len = ONE" with the function's parameter names."""
        return "; ".join(f"{params[i]} = {v.split(':', 1)[1]}"
                         for i, v in zip(self.needed, self.values))


@dataclass
class Spent:
    """What minimisation did in one run (the run's last line reads the same
    from the store: store/findings.py, minimisation)."""
    ran: int = 0        # cases run for it (the budget's unit)
    unexplained: int = 0  # failing cases left as run: the budget ran out
    budget: int = BUDGET


class Product:
    """A function's cases as the executor numbers them: the product of its
    parameters' values in mixed radix, the last parameter fastest
    (harness/cases.h)."""

    def __init__(self, listed):
        self.values = {f["name"]: [dict((v, n) for n, v in enumerate(vs)) for vs in f["values"]]
                       for f in listed}

    def index(self, function, values):
        index = 0
        for position, value in zip(self.values[function], values):
            index = index * len(position) + position[value.split(":", 1)[1]]
        return index


def most_passing(cases, product):
    """{function: [per parameter, the values ("datatype:VALUE") the
    contract accepts there that some PASS case holds, the most PASS cases
    first, ties in the dictionary's order]}.  Only acceptable ones: a wild
    pointer put in place of another shows nothing incidental, and a
    minimised case holding one says nothing to a maintainer."""
    counts = defaultdict(Counter)
    for c in cases:
        if c.outcome == "PASS":
            for i, (v, ok) in enumerate(zip(c.values, c.acceptable)):
                if ok:
                    counts[(c.function, i)][v] += 1
    return {function: [sorted(counts[(function, i)], key=lambda v: (
                -counts[(function, i)][v], order.get(v.split(":", 1)[1], len(order))))
                       for i, order in enumerate(positions)]
            for function, positions in product.values.items()}


def replacement(ranked, value):
    """The value tried in place of value: the most passing other one (a
    NULL that passes with most lengths is no replacement for itself when
    it crashes with one), or None when no PASS case holds another."""
    return next((v for v in ranked if v != value), None)


@dataclass
class _Minimising:
    """One case being minimised: its values as far as replaced."""
    site: str
    first: object   # signature.Case
    todo: list      # parameters still to try
    needed: list    # parameters found part of the cause, in order
    values: list = None
    minimised: object = None  # the last replacement that failed the same way

    def __post_init__(self):
        self.values, self.minimised = list(self.first.values), self.first

    def replaced(self, i, value):
        return self.values[:i] + [value] + self.values[i + 1:]


class Minimiser:
    """Finds the causes of a run's failing cases, site by site.

    listed: the executor's listing of the run's functions; run(pairs) runs
    [(function, case index)] in the sandbox and returns signature.Case
    records with their frames named."""

    def __init__(self, listed, run, budget=BUDGET):
        self.product = Product(listed)
        self.run = run
        self.spent = Spent(budget=budget)
        self.ran = []  # signature.Case of every case run, stored apart

    def causes(self, sites, cases, site_of, kind_of):
        """Sets .cause on every case of sites ({site: [failing case]}) that a
        cause found within the budget explains (None on the rest).  cases:
        all of the run's; site_of(case): a failing case's site, as sites
        are keyed; kind_of(case): what of its values a signature tells
        apart (signature.value_kinds).  Cases of one function at one site
        whose values are of one kind share the cause of the first of them
        (the fewest misuse values, then the first case): minimised, it
        stands for them, so a site costs a few cases per kind, run in one
        batch per parameter for the whole run.  Returns what it spent."""
        if not self.spent.budget:  # `--minimise-budget 0`: every case as run
            self.spent.unexplained = sum(map(len, sites.values()))
            return self.spent
        self.best = most_passing(cases, self.product)
        self.stored = {(c.function, c.index): c for c in cases}
        self.tried = {}  # (function, index): signature.Case of those run here
        self.site_of = site_of
        groups = defaultdict(list)
        for site in sorted(sites):
            for c in sites[site]:
                groups[(site, c.function, kind_of(c))].append(c)
        chosen, left = [], self.spent.budget
        for key in sorted(groups, key=lambda k: (k[0], self._first(groups[k]).index)):
            first = self._first(groups[key])
            todo = self._to_replace(first)
            if len(todo) > left:  # each replacement might have to run
                self.spent.unexplained += len(groups[key])
                continue
            left -= len(todo)
            chosen.append(_Minimising(key[0], first, todo, self._untried(first)))
        while any(m.todo for m in chosen):
            # a round: the next parameter of every case being minimised,
            # their replacements run together (one executor for all)
            trying = [(m, m.todo.pop(0)) for m in chosen if m.todo]
            pairs = [(m.first.function, m.replaced(i, replacement(
                self.best[m.first.function][i], m.first.values[i]))) for m, i in trying]
            outcomes = self._outcomes(pairs)
            for (m, i), pair in zip(trying, pairs):
                tried = outcomes[id(pair)]
                if not self._same(tried, m.site):
                    m.needed.append(i)
                elif m.first.values[i] != self.best[m.first.function][i][0]:
                    m.values, m.minimised = pair[1], tried
                # else incidental, and its own value the most passing: kept
        for m in chosen:
            needed = tuple(sorted(m.needed))
            cause = Cause(m.first.function, needed, tuple(m.first.values[i] for i in needed),
                          case=m.first, minimised=m.minimised)
            for c in groups[(m.site, m.first.function, kind_of(m.first))]:
                c.cause = cause
        return self.spent

    @staticmethod
    def _first(cases):
        return min(cases, key=lambda c: (c.unacceptable, c.function, c.index))

    def _to_replace(self, case):
        """The parameters a PASS case gives another value to try."""
        best = self.best[case.function]
        return [i for i, v in enumerate(case.values) if replacement(best[i], v) is not None]

    def _untried(self, case):
        """The parameters no PASS case of the function gives another value
        to try: counted in the cause, as nothing shows them incidental.  A
        span's later parameters are not: their one value is the first's."""
        best = self.best[case.function]
        return [i for i, v in enumerate(case.values)
                if replacement(best[i], v) is None and not v.startswith(SPAN)]

    def _key(self, pair):
        function, values = pair
        return function, self.product.index(function, values)

    def _outcomes(self, pairs):
        """{id(pair): signature.Case} for each (function, values): from the
        store where the run holds it, else run (counted in the budget)."""
        found, wanted = {}, {}
        for t in pairs:
            key = self._key(t)
            held = self.stored.get(key) or self.tried.get(key)
            if held is not None:
                found[id(t)] = held
            else:
                wanted.setdefault(key, []).append(t)
        if wanted:
            for (key, ts), case in zip(wanted.items(), self.run(list(wanted))):
                for t in ts:
                    found[id(t)] = case
                self.tried[key] = case
                self.ran.append(case)
            self.spent.ran += len(wanted)
        return found

    def _same(self, case, site):
        return case.outcome in FAILING and case.outcome != "RESTART" and \
            self.site_of(case) == site
