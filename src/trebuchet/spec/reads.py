"""What the reports read from the specs beside their runs, each spec parsed
once per report: parsing and validating one takes a good part of a second,
and the Silent and Hindering judges ask for one per function judged."""
from trebuchet.core.errors import TrebuchetError
from trebuchet.spec import load as specs


class SpecReads:
    """One report's reads.  A target is its name or its spec's path, as a
    run was given it; a spec not here (a store from elsewhere) reads as no
    functions."""

    def __init__(self):
        self._specs = {}

    def spec(self, target):
        """The target's Spec, or None when it is not here."""
        if target not in self._specs:
            try:
                self._specs[target] = specs.load(specs.find_spec(target))
            except TrebuchetError:
                self._specs[target] = None
        return self._specs[target]

    def functions(self, target):
        spec = self.spec(target)
        return spec.functions if spec else ()

    def equivalents(self, target):
        """{function: its stdio equivalent}, for those that name one."""
        return {f.name: f.equivalent for f in self.functions(target) if f.equivalent}

    def texts(self, info):
        """{function: {"note", "equivalent"}} from the spec the run
        (RunInfo) was made with."""
        return {f.name: {"note": f.note, "equivalent": f.equivalent}
                for f in self.functions(info.target_arg)}

    def errnos(self, info):
        """{function: set of errno names it may report}, for the functions
        of the run's spec that list them."""
        return {f.name: set(f.errnos) for f in self.functions(info.target_arg)
                if f.errnos is not None}
