"""Silent failures, as Ballista estimated them: by voting across equivalent
implementations.  For the same case on two implementations of a function,
when one reports an error and the other returns success reporting none, the
second is Silent.  Voters: sfio and robust_sfio share datatypes exactly, so
a case index names the same values in both; sfio (or robust_sfio) and stdio
pair through the spec's `equivalent:`, their parameters aligned by datatype
(Sfio_t with FILE, Void_t with buffer, others by name) and their values
matched by name, so only the values both datatypes name alike vote
(READ, CLOSED, NULL, ...; under Ballista's dictionary every stream state).
A function is judged on the cases some voter ran too (neither side SETUP)."""
import functools

from trebuchet.judge import crash_scale
from trebuchet.store import results
from trebuchet.store.runs import RunInfo, newest_in_stores

# An sfio datatype and its stdio counterpart.
TWINS = {"Sfio_t": "FILE", "Void_t": "buffer"}
VOTERS = ("sfio", "robust_sfio", "stdio")


def _parts(values):
    """The VALUE parts of stored value names, "datatype:VALUE ...": what
    votes match on between datatypes that are twins."""
    return tuple(v.split(":", 1)[1] for v in values.split(" ")) if values else ()


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


def _aligned(parts, align):
    return tuple(parts[j] for j in align)


def _vote(f, mine, theirs, align, voter, counted, verbatim=False):
    """Adds the cases of mine that the voter ran to f: judged once each,
    Silent when I returned quietly where the voter reported an error.
    verbatim: the two take the same datatypes in the same order, so their
    stored value names match as they are (sfio and robust_sfio; most of the
    work, and no name need be split)."""
    reported = {}  # {my values, as matched: whether the voter reported an error on any}
    for values, outcome, error in theirs.values():
        if outcome != "SETUP":
            key = values if verbatim else _aligned(_parts(values), align)
            reported[key] = reported.get(key, False) or bool(outcome == "PASS" and error)
    for index, (values, outcome, error) in sorted(mine.items()):
        key = values if verbatim else _parts(values)
        if outcome == "SETUP" or key not in reported:
            continue
        if index not in counted:
            counted[index] = False
            f.judged += 1
        quiet = outcome == "PASS" and not error
        if quiet and not counted[index] and reported[key]:
            counted[index] = True
            f.add(index, values.split(" ") if values else [], f"{voter} reported an error")


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


def silent_targets(sources, equivalents_of):
    """[ScaleTarget], one per (dictionary, target) among the voters' newest
    finished runs; equivalents_of(target): {function: its stdio equivalent}
    (spec_reads.SpecReads.equivalents)."""
    chosen = newest_in_stores(sources, VOTERS)
    rows = functools.cache(results.function_cases)  # a function is mine once and a voter's once or more
    out = []
    for (target, dictionary), (conn, run, db) in sorted(chosen.items(),
                                                         key=lambda kv: kv[0][::-1]):
        functions, voters = [], set()
        for name in results.function_names(conn, run):
            f, counted, mine = crash_scale.ScaleFunction(target, name), {}, None
            for voter, voter_fn in _counterparts(target, name, equivalents_of):
                if (voter, dictionary) not in chosen:
                    continue
                vconn, vrun, vdb = chosen[voter, dictionary]
                types = results.function_datatypes(conn, run, name), results.function_datatypes(vconn, vrun, voter_fn)
                align = _alignment(*types)
                if align is None:
                    continue
                mine = mine if mine is not None else rows(conn, run, name)
                _vote(f, mine, rows(vconn, vrun, voter_fn), align, f"{voter}.{voter_fn}",
                      counted, verbatim=types[0] == types[1] and align == sorted(align))
                voters.add((voter, vrun, vdb))
            if f.judged:
                functions.append(f)
        if functions:
            runs = [(RunInfo.read(conn, run), db)]
            runs += [(RunInfo.read(chosen[t, dictionary][0], r), d)
                     for t, r, d in sorted(voters)]
            judges = "voting with " + ", ".join(f"{t} (run {r})" for t, r, _ in sorted(voters))
            out.append(crash_scale.ScaleTarget("silent", target, dictionary, run, functions,
                                               runs, judges))
    return out
