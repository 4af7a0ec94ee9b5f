"""Findings: a run's failing cases grouped into distinct defects, each
judged against the library's documented contract (docs/contracts.md).

The signature rule, in one place (as syzkaller's pkg/report and
ClusterFuzz's crash state have theirs):

  - The kind: the signal (SIGSEGV, SIGBUS, SIGFPE, ...), or what the death
    says of itself: a sanitizer's report (`run --sanitizer`) its kind
    (heap-buffer-overflow, signed-integer-overflow, ...: sanitizer_report.py)
    at the report's own source line, "stack-overflow" (SIGSEGV with the
    stack nearly used up and the fault next to the stack pointer),
    "assertion" with its text as written,
    "abort" with a C library's message (free(): invalid pointer), "hang"
    (RESTART), "exit N".  Numbers and addresses in a C library's message
    are masked, so that the same abort on another block is the same
    defect; an assertion's text is source, the same every time.
  - The frames (for a hang, the outermost frame inside the library: the
    entry the call loops in, not wherever the watchdog found it): the
    crash machinery (raise, abort, __assert_fail, the C library's error
    reporting, a sanitizer's runtime) is dropped; of the rest, the frames inside
    the library under test (the spec's libraries; glibc when it lists none)
    count, else those outside the harness (an in-line macro crashes in its
    call shim).  The signature takes the innermost of them that is not a
    leaf routine, with the leaves inside it: memcpy or strlen is where a
    bad pointer is dereferenced, free() where a bad block is noticed; their
    caller is the defect.  One
    frame, not three: a helper that crashes whichever public function
    called it is one defect, reached from several functions.
  - Never trebuchet's own code: the call shim's frame stands for the
    function it calls.  A library that tail-calls free() leaves no frame of
    its own, so the shim's return address is all there is: "free reached
    from pcre2_code_free"; an in-line macro crashes in the shim itself.
  - A call through a NULL or wild function pointer (a pc in no module) is
    named as such, after the function that made the call: the return
    address the call left on the stack (harness/crashsite.c), at the
    call's line.
  - The cause: the cases of one site are cut by what their failure needs,
    found by minimisation (minimise.py): whether it needs a NULL the
    contract accepts, and of which datatype (cause_key).  A NULL buffer
    and a short buffer read past its end are two findings at one site.
  - Misuse by the cause: a finding whose cause needs a value the contract
    does not accept (a wild, freed or garbage pointer, a closed stream, a
    value its parameter leaves undefined) is marked "misuse".  The same
    function crashing on a wild pointer (the caller's fault) and on NULL
    where NULL is allowed (the library's) are two defects; without this a
    dropped NULL check hid behind the wild pointers that crashed there
    already.  A case holding a wild pointer its failure does not need
    counts inside the finding of its cause, among its misuse cases.  A
    case not minimised (a hang; the budget spent) is misuse when any of
    its values is.
  - Frames are named by function, with compiler clones (.constprop.0,
    .isra.0), glibc's __GI_ aliases and CPU variants (__memmove_avx_...)
    folded into one name, so a signature survives ASLR, a recompile, code
    moving inside the library, and another machine's CPU or debug files.
    A frame no symbol names (a static function of a stripped library) is
    named by the nearest named frame outside it ("unnamed, called from
    sfread"), which a rebuild keeps; with none, module + offset, which
    survives ASLR and the same build only.
  - The line, by its text: where the library's source is here (a
    maintainer's own build with debug information), the naming frame's
    source line, white space folded, is part of the signature, so two
    defects in one function are two findings; by its text, not its
    number, so code moving above it keeps the finding.  An edit of that
    very line makes it another.  Not for a stack overflow or a hang, whose
    place in the function is chance.  A case with no frames at all (an exit() inside
    the call, a site that could not be taken) is its kind in its function.

Broken error promises (a contract's `errors`) are findings too: the cases
of one promise of one function that reported no error ("no-error") or
another errno ("errno"), one finding each.

A contract violation is a finding with at least one case that breaks a
promise: a crash or hang where `returns` promised a return (on acceptable
values, or `always`), on a value a parameter `accepts`, or where an error
was promised; a promised error missing.  Each case keeps its finding
(finding_cases); a finding keeps its trigger (what its cases' values
share), its representative case (the fewest unacceptable values), and the
fingerprint of its signature, by which a later run, the gate and code
scanning know it again."""
import functools
import hashlib
import re
from pathlib import Path
import signal as signals
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from trebuchet.core.readable import errno_name, last_line, signal_name, stderr_text

from trebuchet.findings import sanitizer_report
from trebuchet.harness import crash_sites as symbolize, unwind_table
from trebuchet.core.outcomes import FAILING
from trebuchet.store import results

# Bytes of stack a test process may use (harness/world.c's soft limit), and
# how much of it a SIGSEGV must have used to be a stack overflow.
STACK_LIMIT = 8 << 20
OVERFLOW_DEPTH = STACK_LIMIT - (1 << 20)
OVERFLOW_REACH = 1 << 16  # a fault this close below the stack pointer is the stack's

# The crash machinery: frames that say how a process died, not where the
# defect is.
MACHINERY = frozenset("""
raise abort __pthread_kill_implementation __pthread_kill_internal pthread_kill
__pthread_kill __GI_raise __GI_abort __assert_fail __assert_fail_base __assert_perror_fail
__libc_message __libc_fatal __fortify_fail __chk_fail __stack_chk_fail malloc_printerr
__malloc_assert __libc_signal_restore_set __restore_rt __sigaction
""".split())

HARNESS_MODULES = symbolize.HARNESS_MODULES
PROMISE_KINDS = ("no-error", "errno")  # a promised error broken by a call that returned
# What a violation's words begin with when every promise its cases break is
# drafted and not yet reviewed (a contract's `drafted: true`): the findings
# show it, and the gate reports it without failing (storage.Stored.drafted).
DRAFTED = "drafted, not reviewed: "


@dataclass
class Case:
    function: str
    index: int
    values: list        # "datatype:VALUE" per parameter
    outcome: str
    signal: int = None
    exit_status: int = None
    errno: int = None
    error_reported: int = None
    stderr: str = None
    site: dict = None   # the crash_sites row, or None
    frames: list = field(default_factory=list)  # symbolize.Frame, innermost first
    acceptable: list = None  # per value: the contract accepts it there
    broken: str = None  # the promise this case breaks, or None
    drafted: bool = False  # that promise is drafted, not yet reviewed (spec/load.py)
    cause: object = None  # minimise.Cause: what its failure needs, when minimised

    @property
    def unacceptable(self):
        return sum(not a for a in self.acceptable)


@dataclass
class Finding:
    signature: str
    kind: str
    title: str
    frames: list        # the frames shown: the naming one and what is inside it
    location: str = None
    cases: list = field(default_factory=list)
    id: int = 0
    fingerprint: str = ""
    trigger: str = ""
    violation: str = None
    example: Case = None
    cause: str = None   # what its failure needs ("buf = NULL"), when minimised
    minimised: Case = None  # the representative with its incidental values replaced
    flaky: str = None   # its shown case's outcomes, run again, when they differed (flaky.py)

    @property
    def cause_misuse(self):
        """Values its cause needs that the contract does not accept (its
        representative's, when not minimised): what the order reads."""
        c = self.example
        if c.cause is None:
            return c.unacceptable
        return sum(not c.acceptable[i] for i in c.cause.needed)

    @property
    def functions(self):
        return sorted({c.function for c in self.cases})

    @property
    def violating(self):
        return [c for c in self.cases if c.broken]

    @property
    def misuse_cases(self):
        return sum(1 for c in self.cases if c.unacceptable)


# ---- the kind

_MASK = re.compile(r"0x[0-9a-fA-F]+|\b\d+\b")
_ASSERTION = re.compile(r"Assertion [`'](.*)' failed")
_LIBC_MESSAGE = re.compile(r"^(?:\*\*\* )?(.+?)(?: \*\*\*)?(?:: terminated)?$")


def kind_of(case, reported=None):
    """(kind, words): the kind of death and, for an assertion or an abort
    message, its masked text; reported: the sanitizer's report in its
    stderr (sanitizer_report.parse), whose kind it is."""
    if case.outcome == "RESTART":
        return "hang", ""
    if case.signal is None or case.signal < 0:
        return f"exit {case.exit_status}", ""
    if case.signal == signals.SIGABRT:
        if reported:
            return reported.kind, ""
        assertion = _ASSERTION.search(case.stderr or "")
        if assertion:
            # as written: an assertion's text is source, the same on every
            # descriptor and address (a C library's message is not)
            return "assertion", assertion.group(1)
        message = last_line(case.stderr)
        if message:
            return "abort", _MASK.sub("N", _LIBC_MESSAGE.match(message).group(1))
        return "abort", ""
    site = case.site
    if case.signal == signals.SIGSEGV and site and site["stack_depth"] is not None and \
            site["stack_depth"] >= OVERFLOW_DEPTH and site["fault_addr"] is not None and \
            site["sp"] is not None and 0 <= site["sp"] - site["fault_addr"] + 4096 <= OVERFLOW_REACH:
        return "stack-overflow", ""
    return signal_name(case.signal), ""


# ---- the frames

def naming_frames(frames, library_modules, outermost=False):
    """The frames a signature is made of: the innermost that is not a leaf
    routine (a string routine, the allocator), with the leaves inside it;
    or, for a hang, the outermost: where the watchdog found a looping call
    is chance, which entry of the library it loops in is not."""
    frames = [f for f in _the_call(frames)
              if not (f.function and symbolize.canonical(f.function) in MACHINERY)
              and not sanitizer_report.is_runtime(f.module_name)]
    inside = ([f for f in frames if f.module_name in library_modules]
              or [f for f in frames if f.called])
    if not inside:
        inside = [f for f in frames if f.module_name not in HARNESS_MODULES]
    if outermost:
        return inside[-1:]
    if inside and inside[0].called:
        # the library tail-called a leaf outside it (free): the leaves the
        # shim's return address sits above are where it went
        leaves = []
        for f in reversed(frames[:frames.index(inside[0])]):
            if not (f.function and symbolize.is_leaf_routine(f.function)):
                break
            leaves.insert(0, f)
        return leaves + inside[:1]
    chosen = []
    for f in inside:
        chosen.append(f)
        if not (f.function and symbolize.is_leaf_routine(f.function)):
            break
    return chosen


def _the_call(frames):
    """frames up to the executor's own: those past it (its callers, down to
    the C library's start of the process) are no part of a defect, and the
    outermost of a hang's frames must not be one of them."""
    for i, f in enumerate(frames[1:], 1):
        if f.module_name == symbolize.EXECUTOR_MODULE:
            return frames[:i]
    return frames


def _frame_key(f):
    return symbolize.canonical(f.function) if f.function else f"{f.module_name}+{f.offset:#x}"


SHIM_PREFIXES = ("call_", "tb_call_")  # build/templates/shims.c.j2's call shim, and older ones


def as_called(frames, function):
    """frames with the call shim's frame standing for the tested function
    (Frame.called): a frame of trebuchet's generated code names no defect.
    Its return address is there when the library tail-called on (free()
    reached from pcre2_code_free leaves no frame of pcre2_code_free), its
    pc when an in-line macro crashed in it; the place stays where it is
    the macro's own source, not the generated file."""
    shims = {prefix + function for prefix in SHIM_PREFIXES}
    return [_called(f, function) if f.function in shims else f for f in frames]


@functools.lru_cache(maxsize=4096)
def _called(shim, function):
    """The shim's frame as the function it calls (as_called): made once
    for the many cases that crash at one site."""
    generated = shim.file and Path(shim.file).parent == Path(shim.module).parent
    return symbolize.Frame(shim.module, shim.offset, function, None if generated else shim.file,
                           None if generated else shim.line, called=True)


def _unnamed(frame, outer):
    """The key and the words of a frame no symbol names (a static function
    of a stripped library): by the nearest exported function, which a
    rebuild of the same code keeps and which every caller of the static
    function shares (one defect, one finding); the title adds the nearest
    named frame outside it.  None when the module exports nothing."""
    # where the function begins (its unwind table), so that every
    # instruction of one static function is one place
    start = unwind_table.function_start(frame.module, frame.offset)
    near = symbolize.nearest_export(frame.module, frame.offset if start is None else start)
    if not near:
        return None
    caller = next((symbolize.canonical(f.function) for f in outer
                   if f.function and f.module_name not in HARNESS_MODULES), None)
    return (f"{frame.module_name}: unnamed, near {near}",
            f"a function of {frame.module_name} without a symbol (near {near})"
            + (f", called from {caller}" if caller else ""))


def _jump(frames):
    """The key and title words of a call through a NULL or wild function
    pointer: pc in no module, and the return address the call left on the
    stack (harness/crashsite.c) naming the function that made it."""
    what = "a NULL function pointer" if frames[0].offset == 0 else "a wild function pointer"
    return what, frames[1]


# Kinds whose place inside the naming function is no part of the defect: a
# stack overflows wherever the recursion runs out, a hang is stopped
# wherever its loop happens to be.
PLACELESS = ("stack-overflow", "hang")
LINE_KEY = 80  # characters of a source line a signature keeps


@functools.lru_cache(maxsize=256)
def _source_lines(path):
    try:
        return Path(path).read_text(errors="replace").splitlines()
    except OSError:
        return None


def line_key(frame):
    """The source line a frame stopped on, by its text (white space
    folded), where the source is here: two defects in one function are
    two findings, and the key survives code moving above or below it."""
    lines = _source_lines(frame.file) if frame.file and frame.line else None
    if not lines or frame.line > len(lines):
        return None
    return " ".join(lines[frame.line - 1].split())[:LINE_KEY] or None


def crash_finding(case, library_modules):
    """The signature, kind, title and frames of a failing case."""
    reported = sanitizer_report.parse(case.stderr) if case.signal == signals.SIGABRT else None
    kind, words = kind_of(case, reported)
    frames = as_called(case.frames, case.function)
    jumped = None
    if frames and frames[0].module_name == "[unknown]" and len(frames) > 1:
        # a call through a NULL or wild function pointer, named after the
        # function that made it, at the line of the call
        jumped, caller = _jump(frames)
        chosen = [caller]
        keys = [f"call through {jumped}", _frame_key(caller)]
    elif frames and frames[0].module_name == "[unknown]":
        # nothing to unwind from: the tested function is all that names it
        chosen, keys = [], ["wild jump", f"in {case.function}"]
    else:
        chosen = naming_frames(frames, library_modules, outermost=kind == "hang")
        keys = [_frame_key(f) for f in chosen] or [f"in {case.function}"]
    unnamed = (_unnamed(chosen[-1], frames[frames.index(chosen[-1]) + 1:])
               if chosen and not chosen[-1].function else None)
    if unnamed:
        keys[-1] = unnamed[0]
    if chosen and not jumped and kind not in PLACELESS and (line := line_key(chosen[-1])):
        keys[-1] += f": {line}"
    where = (unnamed[1] if unnamed else _frame_key(chosen[-1])) if chosen else case.function
    if chosen and chosen[-1].called and len(chosen) > 1:
        where = f"{_frame_key(chosen[-2])} reached from {where}"
    place = chosen[-1].place if chosen and kind not in PLACELESS else None
    if reported and reported.place and not sanitizer_report.in_runtime(reported.file):
        # the sanitizer's own word on where: the access itself, where the
        # crash site has only the return address of its report's call
        # (UBSan names no function: the crash site's frame does)
        function = reported.function or (chosen[-1].function if chosen else None)
        named = symbolize.Frame("", 0, function, reported.file, reported.line)
        keys = [_frame_key(named) if function else f"in {case.function}"]
        where, place = keys[0], reported.place
        if line_key(named):
            keys[0] += f": {line_key(named)}"
    elif reported and (stands_for := sanitizer_report.intercepted(case.frames)):
        # noticed by an interceptor, which stands for the library's own
        # function; the frames around it are the sanitizer's and the caller's
        keys, where, place, chosen = [stands_for], stands_for, None, []
    signature = "|".join([kind + (f": {words}" if words else "")] + keys)
    if place:
        where += f" at {Path(place.rsplit(':', 1)[0]).name}:{place.rsplit(':', 1)[1]}"
    what = {"assertion": f"assertion '{words}' failed", "abort": f"abort: {words}" if words
            else "abort", "stack-overflow": "stack overflow", "hang": "hang"}.get(kind, kind)
    title = (f"{what} calling {jumped} in {where}" if jumped else f"{what} in {where}"
             if keys[0] != "wild jump" else f"{what} jumping to a wild address in {case.function}")
    return Finding(signature, kind, title, chosen,
                   location=place or (chosen[-1].place if chosen else None))


# ---- triggers and representatives

TRIGGER_LIST = 8  # values named in a trigger's "in {...}" before it says only a count


def trigger_of(cases, all_values, params):
    """What the cases of one function share, per parameter: '= V' when one
    value, '≠ A, B' when all but a few of the values the function ran, 'in
    {...}' when a few; nothing when any value will do."""
    parts = []
    for i, name in enumerate(params):
        seen = {c.values[i].split(":", 1)[1] for c in cases}
        ran = all_values[i]
        if seen >= ran:
            continue
        if len(seen) == 1:
            parts.append(f"{name} = {next(iter(seen))}")
        elif len(ran - seen) <= 2:
            parts.append(f"{name} ≠ {', '.join(sorted(ran - seen))}")
        elif len(seen) <= TRIGGER_LIST:
            parts.append(f"{name} in {{{', '.join(sorted(seen))}}}")
        else:
            parts.append(f"{name}: {len(seen)} of its {len(ran)} values")
    return "; ".join(parts) or "any values"


def _example(cases):
    """The representative: a case breaking the contract when there is one,
    then the fewest unacceptable values, then the first."""
    return min(cases, key=lambda c: (c.broken is None, c.drafted, c.unacceptable, c.function,
                                     c.index))


def _violation_text(f):
    """Each promise the finding's cases break, the representative's first,
    with how many of its cases break it when not all do; None for none."""
    counts = Counter(c.broken for c in f.cases if c.broken)
    if not counts:
        return None
    order = [f.example.broken] + sorted(p for p in counts if p != f.example.broken)
    drafted = DRAFTED if all(c.drafted for c in f.violating) else ""
    return drafted + "; ".join(p if counts[p] == len(f.cases) else
                               f"{p} [{counts[p]} of {len(f.cases)} cases]" for p in order)


# The signature rule's version, which a baseline's findings carry: a
# baseline of another version gates case by case until it is written again.
# 2: an assertion as written, the call shim standing for its function, a
# NULL or wild function pointer named after its caller, a stripped
# library's static function by its nearest export (1: before them).
# 3: no frame past the executor's own (a hang was named by the C library's
# start of the process), and a spec of sources alone, no library, names
# the functions its plugin holds (selftest's hangs were one finding).
# 4: a crash site cut by its cases' minimised cause (minimise.py), misuse
# decided by the cause, not by any value a case holds, and a stripped
# library's static function keyed by where it begins (unwind_table.py).
FINGERPRINTS = 4


def fingerprint(target, signature):
    return hashlib.sha256(f"{target}\n{signature}".encode()).hexdigest()[:16]


# ---- reading a run

def _read_cases(conn, run):
    sites = results.crash_sites(conn, run)
    cases, ran = [], defaultdict(lambda: defaultdict(set))
    for r in results.judged_cases(conn, run):
        values = r[2].split(" ") if r[2] else []
        for i, v in enumerate(values):
            ran[r[0]][i].add(v.split(":", 1)[1])
        cases.append(Case(r[0], r[1], values, r[3], r[4], r[5], r[6], r[7],
                          stderr_text(r[8]), sites.get((r[0], r[1]))))
    return cases, ran


MISUSE = "|misuse"  # the end of a misuse finding's signature


def cause_key(values, acceptable):
    """What a signature keeps of a cause (minimise.Cause.values): the
    datatypes of the NULLs it needs that the contract accepts.  A dropped
    NULL check is a defect of its own kind: a NULL buffer and a short
    buffer read past its end, at one site, are two findings.  Which other
    values a cause needs is no part of it: a recursion too deep is one
    finding whether the call also needed a flag or not, and the defect
    reached from several API functions, with their several parameters, is
    one.  Misuse is told apart by the signature's mark (_with_cause)."""
    nulls = sorted({v.split(":", 1)[0] for v, ok in zip(values, acceptable)
                    if ok and v.endswith(":NULL")})
    return ", ".join(f"NULL {datatype}" for datatype in nulls) or "no NULL"


def value_kinds(case):
    """What of a case's values its signature tells apart (cause_key and
    misuse): per parameter, NULL where the contract accepts it, "misuse"
    where it accepts nothing, else "".  Cases of one function at one site
    with the same kinds share one minimisation (minimise.py)."""
    return tuple("misuse" if not ok else "NULL" if v.endswith(":NULL") else ""
                 for v, ok in zip(case.values, case.acceptable))


def _with_cause(made, case):
    """A crash site's finding cut by its case's cause (cause_key), and a
    misuse finding when the cause needs a value the contract does not
    accept: a case holding a wild pointer its failure does not need counts
    inside the finding of its cause.  A case left unminimised (a hang, the
    budget spent) is misuse when any of its values is."""
    cause = case.cause
    if cause is not None:
        needs = [case.acceptable[i] for i in cause.needed]
        made.signature += "|cause: " + cause_key(cause.values, needs)
        misuse = not all(needs)
    else:
        misuse = case.unacceptable > 0
    if misuse:
        made.signature += MISUSE
        made.title += " on misuse"
    return made


def analyze(conn, run, spec, contracts, library_modules, minimiser=None):
    """The run's findings, numbered, violations first; minimiser
    (minimise.Minimiser) finds its failing cases' causes."""
    cases, ran = _read_cases(conn, run)
    failing = [c for c in cases if c.outcome in FAILING]
    for c, frames in zip(failing, symbolize.symbolize(
            [(c.site["frames"].splitlines() if c.site and c.site["frames"] else [])
             for c in failing])):
        c.frames = frames
    groups, sites, made_of = {}, defaultdict(list), {}
    for c in cases:
        contract = contracts.get(c.function)  # src/trebuchet/findings/violations.py
        c.acceptable = contract.accepts(c.values) if contract else [True] * len(c.values)
        if c.outcome in FAILING:
            c.broken, c.drafted = (contract and contract.broken_by_crash(c)) or (None, False)
            made_of[id(c)] = crash_finding(c, library_modules)
            if c.outcome != "RESTART":
                sites[made_of[id(c)].signature].append(c)
    if minimiser is not None:
        minimiser.causes(sites, cases,
                         lambda c: crash_finding(c, library_modules).signature, value_kinds)
    for c in cases:
        contract = contracts.get(c.function)
        if c.outcome in FAILING:
            made = _with_cause(made_of[id(c)], c)
        elif c.outcome == "PASS" and contract and (broken := contract.broken_by_return(c)):
            n, kind, c.broken, c.drafted = broken
            made = Finding(f"{kind}: promise {n + 1}|{c.function}", kind,
                           (f"no error reported by {c.function}" if kind == "no-error" else
                            f"errno {errno_name(c.errno)} from {c.function}")
                           + " where the contract promises one", [])
        else:
            continue
        groups.setdefault(made.signature, made).cases.append(c)
    findings = list(groups.values())
    params = {fn.name: [p.name for p in fn.params] for fn in (spec.functions if spec else ())}
    for f in findings:
        f.fingerprint = fingerprint(spec.target if spec else "", f.signature)
        f.example = _example(f.cases)
        if f.example.cause is not None:
            # the case minimised for the representative's kind of values:
            # its cause and its minimised case are that case's
            f.example = f.example.cause.case
            f.cause = f.example.cause.words(params.get(f.example.function) or [
                f"arg{i + 1}" for i in range(len(f.example.values))])
            f.minimised = f.example.cause.minimised
        f.violation = _violation_text(f)
        by_function = defaultdict(list)
        for c in f.cases:
            by_function[c.function].append(c)
        f.trigger = "; ".join(
            f"{name}: {trigger_of(cs, ran[name], params.get(name) or [f'arg{i + 1}' for i in range(len(cs[0].values))])}"
            for name, cs in sorted(by_function.items()))
    findings.sort(key=rank)
    for n, f in enumerate(findings, 1):
        f.id = n
    return findings, cases


def rank(finding):
    """The order a maintainer reads findings in: contract violations first;
    then by how acceptable its minimised cause is (a crash on values the
    documentation allows before one that needs a misuse value),
    then by how many API functions reach it (a defect in a shared helper
    before one in a single entry), then by size; findings on misuse only
    last.  Size alone put the known defects of the survey's libraries at
    #21 and #40, below wrong-type assertions the headers document."""
    f = finding
    return (f.violation is None, f.signature.endswith(MISUSE), f.cause_misuse,
            -len(f.functions), -len(f.cases), f.signature)


# ---- the modules under test

def library_modules(spec):
    """The file names of the modules under test: the spec's libraries; where
    it lists none, the plugin itself when the spec's sources compile the
    tested functions into it (selftest, the tests' small libraries), else
    glibc's (stdio tests the C library itself)."""
    names = set()
    for lib in (spec.libraries if spec else ()):
        base = lib.rsplit("/", 1)[-1]
        names.add(base if ".so" in base else f"lib{base}.so")
    if not names and spec and spec.sources:
        names.add(f"{spec.target}.so")
    return _Modules(names or {"libc.so.6"})


class _Modules(frozenset):
    """File names of modules; libm.so also holds libm.so.6."""

    def __contains__(self, name):
        # asked of each frame of each failing case: the answers kept
        known = self.__dict__.setdefault("known", {})
        if name not in known:
            known[name] = any(name == m or name.startswith(m + ".") for m in self)
        return known[name]
