"""Silent failures, as Ballista estimated them: by voting across equivalent
implementations.  For the same case on two implementations of a function,
when one reports an error and the other returns success reporting none, the
second is Silent.  Voters: sfio and robust_sfio share datatypes exactly, so
a case index names the same values in both; sfio (or robust_sfio) and stdio
pair through the spec's `equivalent:`, their parameters aligned by datatype
(Sfio_t with FILE, Void_t with buffer, others by name) and their values
matched by name, so only the values both datatypes name alike vote
(READ, CLOSED, NULL, ...; under Ballista's dictionary every stream state).
A function's Silent rate is its Silent cases over the cases some voter ran
too (neither side SETUP); a target's normalized rate is the mean over its
functions that had voters."""
from dataclasses import dataclass, field

from . import metrics

# An sfio datatype and its stdio counterpart.
TWINS = {"Sfio_t": "FILE", "Void_t": "buffer"}
VOTERS = ("sfio", "robust_sfio", "stdio")
CASES_LISTED = 200  # silent cases a function keeps for its page


@dataclass
class SilentFunction:
    target: str
    name: str
    compared: int = 0
    silent: int = 0
    cases: list = field(default_factory=list)  # [(case index, values, voter, its function)]

    @property
    def rate(self):
        return metrics._rate(self.silent, self.compared)

    def as_dict(self):
        return dict(target=self.target, function=self.name, compared=self.compared,
                    silent=self.silent, silent_rate=self.rate)


@dataclass
class SilentTarget:
    target: str
    dictionary: str
    run: int
    voters: list       # [(target, run)] that voted
    functions: list    # [SilentFunction], those with voters
    runs: list = field(default_factory=list)  # [(metrics.RunInfo, db)]: its run, its voters'

    @property
    def rate(self):
        return metrics._mean([f.rate for f in self.functions])

    @property
    def function_count(self):
        return len(self.functions)

    @property
    def page(self):
        return f"{self.target}-silent-{self.dictionary}.html"

    def as_dict(self):
        return dict(target=self.target, dictionary=self.dictionary, run=self.run,
                    voters=[t for t, _ in self.voters], normalized_silent_rate=self.rate,
                    functions=[f.as_dict() for f in self.functions])


def _rows(conn, run, function):
    """{case index: (value names, outcome, error reported)}."""
    return {i: (v.split(" ") if v else [], o, e) for i, v, o, e in conn.execute(
        "SELECT case_index, value_names, outcome, error_reported FROM results"
        " WHERE run_id = ? AND function = ?", (run, function))}


def _datatypes(conn, run, function):
    row = conn.execute("SELECT datatypes FROM functions WHERE run_id = ? AND name = ?",
                       (run, function)).fetchone()
    return row[0].split() if row else None


def _alignment(mine, theirs):
    """For each of my parameters, the index of the voter's parameter of the
    counterpart datatype, or None when the two do not align one to one."""
    if mine is None or theirs is None or len(mine) != len(theirs):
        return None
    free, out = list(range(len(theirs))), []
    for d in mine:
        want = {d, TWINS.get(d), next((k for k, v in TWINS.items() if v == d), None)}
        j = next((j for j in free if theirs[j] in want), None)
        if j is None:
            return None
        free.remove(j)
        out.append(j)
    return out


def _names(values):
    return tuple(v.split(":", 1)[1] for v in values)


def _vote(f, mine, theirs, align, voter, voter_fn, counted):
    """Adds the cases of mine that the voter ran to f: compared once each,
    Silent when I returned quietly where the voter reported an error."""
    by_key = {}
    for values, outcome, error in theirs.values():
        if outcome != "SETUP":
            key = _names([values[j] for j in align])
            by_key.setdefault(key, []).append((outcome, error))
    for index, (values, outcome, error) in sorted(mine.items()):
        votes = by_key.get(_names(values))
        if outcome == "SETUP" or not votes:
            continue
        if index not in counted:
            counted[index] = False
            f.compared += 1
        quiet = outcome == "PASS" and not error
        if quiet and not counted[index] and any(o == "PASS" and e for o, e in votes):
            counted[index] = True
            f.silent += 1
            if len(f.cases) < CASES_LISTED:
                f.cases.append((index, values, voter, voter_fn))


def _counterparts(target, name, equivalents_of):
    """[(voter target, its function)] for one function of target."""
    out = []
    if target in ("sfio", "robust_sfio"):
        out.append(("robust_sfio" if target == "sfio" else "sfio", name))
        stdio = equivalents_of(target).get(name)
        if stdio:
            out.append(("stdio", stdio))
    elif target == "stdio":
        out += [(t, f) for t in ("sfio", "robust_sfio")
                for f, eq in equivalents_of(t).items() if eq == name]
    return out


def silent_targets(sources, equivalents_of, newest_by_dictionary):
    """[SilentTarget], one per (dictionary, target) among the voters' newest
    finished runs."""
    chosen = {}
    for conn, db in sources:
        for (target, dictionary), run in newest_by_dictionary(conn).items():
            if target in VOTERS:
                chosen[target, dictionary] = (conn, run, db)
    out = []
    for (target, dictionary), (conn, run, db) in sorted(chosen.items(),
                                                         key=lambda kv: kv[0][::-1]):
        names = [n for (n,) in conn.execute("SELECT name FROM functions WHERE run_id = ?"
                                            " ORDER BY name", (run,))]
        functions, voters = [], set()
        for name in names:
            f, counted, mine = SilentFunction(target, name), {}, None
            for voter, voter_fn in _counterparts(target, name, equivalents_of):
                if (voter, dictionary) not in chosen:
                    continue
                vconn, vrun, vdb = chosen[voter, dictionary]
                align = _alignment(_datatypes(conn, run, name), _datatypes(vconn, vrun, voter_fn))
                if align is None:
                    continue
                mine = mine if mine is not None else _rows(conn, run, name)
                _vote(f, mine, _rows(vconn, vrun, voter_fn), align, voter, voter_fn, counted)
                voters.add((voter, vrun, vdb))
            if f.compared:
                functions.append(f)
        if functions:
            runs = [(metrics.RunInfo.read(conn, run), db)]
            runs += [(metrics.RunInfo.read(chosen[t, dictionary][0], r), d)
                     for t, r, d in sorted(voters)]
            out.append(SilentTarget(target, dictionary, run, [(t, r) for t, r, _ in sorted(voters)],
                                    functions, runs))
    return out
