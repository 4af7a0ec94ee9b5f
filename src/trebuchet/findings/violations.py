"""A function's documented contract (docs/contracts.md) over the values of
a run: which values are acceptable where, and which promise a case breaks.
src/trebuchet/findings/signature.py judges each failing case, and each returning one that
a promised error concerns, by it."""
from trebuchet.core.readable import errno_name


class JudgedContract:
    """A function's promises (the spec's Contract, spec/load.py), judged over the value
    names of a run."""

    def __init__(self, function, contract, acceptable):
        self.function = function
        self.contract = contract
        self.acceptable = acceptable  # per parameter: {value name: bool}
        # each promised error with its parameters by position, made once:
        # every case of the run is matched against them
        params = [p.name for p in function.params]
        self.rules = [(n, rule, {params.index(p): set(v) for p, v in rule.when})
                      for n, rule in enumerate(contract.errors if contract else ())]

    def accepts(self, values):
        return [self.acceptable[i].get(v, True) for i, v in enumerate(values)]

    def _others_acceptable(self, case, skip):
        return all(a for i, a in enumerate(case.acceptable) if i not in skip)

    def _error_rules(self, case):
        for n, rule, named in self.rules:
            if all(case.values[i].split(":", 1)[1] in vs for i, vs in named.items()) and \
                    self._others_acceptable(case, named):
                yield n, rule

    def broken_by_crash(self, case):
        """(the promise a failing case breaks, in words, whether it is
        drafted), or None: the most particular reviewed promise, else the
        most particular drafted one (a drafted promise must not hide a
        reviewed one the case breaks too)."""
        broken = list(self._crash_breaks(case))
        return next((b for b in broken if not b[1]), broken[0] if broken else None)

    def _crash_breaks(self, case):
        """(words, drafted) of each promise a failing case breaks, the most
        particular first: the error these values were to get, then an
        `accepts` value, then `returns`."""
        c = self.contract
        source = f" ({c.source})" if c else ""
        for _, rule in self._error_rules(case):
            yield f"answers {_when_text(rule)} with an error" + _source(rule, c), rule.drafted
        own = self.function.contract
        for i, p in enumerate(self.function.params):
            value = case.values[i].split(":", 1)[1]
            if value in p.accepts and self._others_acceptable(case, {i}):
                yield f"accepts {p.name} = {value}" + source, bool(own and own.drafted)
        if c and c.returns == "always":
            yield "returns whatever the values" + source, c.drafted
        if c and c.returns == "acceptable" and all(case.acceptable):
            yield "returns on acceptable values" + source, c.drafted

    def broken_by_return(self, case):
        """(promise number, kind, words, drafted) of an error promise a
        returning case breaks, or None."""
        for n, rule in self._error_rules(case):
            if not case.error_reported:
                return n, "no-error", f"answers {_when_text(rule)} with an error" + \
                    _source(rule, self.contract), rule.drafted
            if rule.errnos and errno_name(case.errno) not in rule.errnos:
                return n, "errno", f"answers {_when_text(rule)} with errno " \
                    f"{' or '.join(rule.errnos)}" + _source(rule, self.contract), rule.drafted
        return None


def _when_text(rule):
    return " and ".join(f"{p} = {' or '.join(v)}" for p, v in rule.when)


def _source(rule, contract):
    return f" ({rule.source or contract.source})"


def contracts_for(spec, listed, misuse):
    """{function name: Contract}.  listed: the executor's functions (each
    parameter's values); misuse: {datatype: {value: bool}}."""
    result = {}
    for f in listed:
        function = spec.function(f["name"])
        if not function:
            continue
        acceptable = []
        for p, names in zip(function.params, f["values"]):
            acceptable.append({f"{p.datatype}:{v}": not (misuse.get(p.datatype, {}).get(v)
                                                         or v in p.undefined) for v in names})
        result[function.name] = JudgedContract(function, spec.contract_of(function), acceptable)
    return result
