"""Corrupt failures: PASS cases that `trebuchet memcheck` (src/trebuchet/memcheck/valgrind.py)
ran again under Valgrind's memcheck and found reading or writing memory the
call must not.  A function is judged on its checked cases that passed under
memcheck too, a sample of its PASS cases, so its rate is over that sample,
with a Wilson interval beside it.  judged_cases() is the one reading of
those cases: the report, `trebuchet memcheck`, the baseline and the gate
all count from it."""
from dataclasses import dataclass

from trebuchet.judge import crash_scale
from trebuchet.findings import storage as findings_store
from trebuchet.store import memcheck as memcheck_table
from trebuchet.store.runs import RunInfo, newest_in_stores


def where(frames):
    """The function an error struck in, as two runs of the same library name
    it: the innermost frame of its stack that is not one of the string and
    memory routines memcheck puts in place of the C library's (strlen in
    vgpreload_memcheck), since those are the call's tools, not its code.
    With the error's kind it tells one latent defect from another (the
    gate's signature); a source line would change with every edit above it."""
    names = [line.split(" (", 1) for line in (frames or "").splitlines()]
    own = [fn for fn, rest in names if not rest.startswith("vgpreload_")]
    return (own or [fn for fn, _ in names] or ["?"])[0]


@dataclass
class JudgedCase:
    function: str
    case: int
    values: list     # "datatype:VALUE" per parameter
    kind: str        # memcheck's kind of its first counted error; None: clean
    what: str
    frames: str

    @property
    def corrupt(self):
        return self.kind is not None

    @property
    def at(self):
        return where(self.frames)

    @property
    def defect(self):
        """What the gate tells one latent defect from another by."""
        return (self.function, self.kind, self.at)

    @property
    def location(self):
        """FILE:LINE of the frame it struck in (at), where the library has
        debug information; else None."""
        for line in self.frames.splitlines():
            name, _, rest = line.partition(" (")
            if name == self.at:
                return rest.partition(") ")[2] or None
        return None

    def call(self):
        return f"{self.function}({', '.join(self.values)})"


def judged_cases(conn, run):
    """[JudgedCase] of the run that memcheck checked and that passed under it
    too (a case that changed outcome there is judged neither way), by
    function and case."""
    return [JudgedCase(f, i, values.split(" ") if values else [], kind, what or "", frames or "")
            for f, i, values, kind, what, frames in memcheck_table.judged(conn, run)]


def judged_functions(conn, run, target, cases=None):
    """[ScaleFunction] of the run's functions memcheck judged some case of,
    by name (cases: judged_cases(), where read already)."""
    functions = {}
    for c in judged_cases(conn, run) if cases is None else cases:
        f = functions.setdefault(c.function, crash_scale.ScaleFunction(target, c.function))
        f.judged += 1
        if c.corrupt:
            f.add(c.case, c.values, f"{c.kind}: {c.what}")
    return list(functions.values())


@dataclass
class Sample:
    """What memcheck judged of one run: every judged case, and those alone
    whose every value the contract accepts (a freed or garbage handle the
    caller passed makes a use after free the caller's, not the library's)."""
    all: crash_scale.Judged
    acceptable: crash_scale.Judged


def sample(conn, run, target):
    cases = judged_cases(conn, run)
    accepts = findings_store.acceptance(conn, run)
    return Sample(crash_scale.Judged(judged_functions(conn, run, target, cases)),
                  crash_scale.Judged(judged_functions(
                      conn, run, target, [c for c in cases if accepts(c.function, c.values)])))


def corrupt_targets(sources):
    """[ScaleTarget], one per (dictionary, target) whose newest run was
    checked under memcheck."""
    out = []
    chosen = newest_in_stores(sources)
    for (target, dictionary), (conn, run, db) in sorted(chosen.items(),
                                                         key=lambda kv: kv[0][::-1]):
        functions = judged_functions(conn, run, target)
        if functions:
            out.append(crash_scale.ScaleTarget(
                "corrupt", target, dictionary, run, functions,
                [(RunInfo.read(conn, run), db)],
                "Valgrind's memcheck, over a sample of its PASS cases"))
    return out
