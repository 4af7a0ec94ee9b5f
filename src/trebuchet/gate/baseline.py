"""A robustness baseline: the reviewable file of one run of a target that
`trebuchet gate` compares later runs with.

It holds what decides which cases a run draws and what they mean (seed,
cap, dictionary and the digest of its values, the spec's digest), what it
ran against (library and harness versions, timeout, the platform: C
library, kernel, sandbox level), per function its cases
and rates, and every case that did not pass: failing ones (ABORT, RESTART)
and SETUP ones (which never reached the function, so had not passed either).
A case of the run that the baseline does not list passed.  It also lists
the run's findings (src/trebuchet/findings/signature.py) by fingerprint, one per line: a
gate against it fails on a new finding, not on a new case of a known one.
A baseline written before findings existed has no such list, and the gate
compares it case by case as it always did.

Where `trebuchet memcheck` checked some of the run's PASS cases, each
function lists the cases it checked (`memchecked`) and the file lists
those found Corrupt, each with its kind and the function the error struck
in (`corrupt_cases`): the gate checks the same cases under memcheck again
and fails on a Corrupt defect the baseline does not know (src/trebuchet/gate/corrupt_verdict.py).

The file is JSON laid out for review: sorted keys, one function and one case
per line, and nothing that changes when the same run is made again (no
store path, run number, host or date).  So a pull request's diff of it reads
as "these cases now fail, these now pass".  The numbers come from metrics."""
import json
import re
from dataclasses import dataclass
from pathlib import Path

import jsonschema

from trebuchet.core import paths
from trebuchet.spec import load as specs
from trebuchet.core.errors import TrebuchetError
from trebuchet.core.readable import signal_name

from trebuchet.memcheck import corrupt
from trebuchet.findings import storage as findings_store
from trebuchet.findings.signature import FINGERPRINTS
from trebuchet.report import judges, metrics
from trebuchet.core.outcomes import FAILING
from trebuchet.core import platform
from trebuchet.store import database as store
from trebuchet.gate import places
from trebuchet.store import gated
from trebuchet.store.runs import newest_full_run

# The format written; 2 records each function's call and datatypes, 3 the
# cases memcheck checked, 4 each finding's source line and the findings
# known to be flaky.  Every format read: a file of format 1 stands by its
# run's spec_digest instead, one of 1 or 2 lists no memcheck, one of 1 to
# 3 no finding's line nor flaky ones.
FORMAT = "trebuchet baseline 4"
FORMATS = ("trebuchet baseline 1", "trebuchet baseline 2", "trebuchet baseline 3", FORMAT)
# The run parameters that must match for two runs to be compared case by case;
# the spec is compared function by function (CALL).
COMPARABLE = ("seed", "cap", "dictionary", "dictionary_digest", "targeted")
# A run's "targeted" when it is not (the key is then left out of the file).
WHOLE = "none"
# What makes a function's case N the same call in two runs: the C call and
# the datatypes it draws from (a new errno list or error convention does not
# change which values a case hands over, nor whether it crashes).
CALL = ("signature", "datatypes")


def case_line(function, index, values, outcome, signal, exit_status):
    """One listed case as the file holds it."""
    line = dict(function=function, case=index, values=values.split(" ") if values else [],
                outcome=outcome)
    if outcome == "ABORT":
        if signal is not None:
            line["signal"] = signal_name(signal)
        else:
            line["exit_status"] = exit_status
    return line


def stored_target(db, name):
    """(target, spec name) of what `--target NAME` names in the store db: a
    spec's path names its `target:`; a bare name names that target, whose
    spec is the one its newest run recorded (a run made from path/kv.yaml
    is found by `--target kv`), else the one under targets/."""
    if specs.names_a_file(name):
        return specs.load(specs.find_spec(name)).target, name
    spec = gated.spec_of_newest_run(store.connect(db), name)
    if spec == ():
        specs.find_spec(name)  # an unknown target is said so, with the known ones
    return name, spec or name


def _crash_scale(conn, db, target, run):
    """[(kind, ScaleTarget)] of the run: Hindering when its spec lists errnos,
    Silent when the store holds a voter's run in the same dictionary,
    Corrupt when memcheck checked some of its cases."""
    judged = sum(judges.judge([(conn, db)]), [])
    return [(s.kind, s) for s in judged if s.target == target and s.run == run]


def run_parameters(info):
    return dict(seed=info.seed, cap=info.cap, timeout_ms=info.timeout_ms,
                dictionary=info.dictionary, dictionary_digest=info.dictionary_digest,
                spec_digest=info.spec_digest, library=info.target_version,
                harness=info.harness_version, **platform.of(info),
                targeted=info.targeted() or WHOLE)  # `run --pin` or --values-file


def from_store(db, target, spec_name):
    """The baseline of the newest finished run of target in db, as a dict."""
    conn = store.connect(db)
    run = newest_full_run(conn, target, db)
    summary = metrics.summarize(conn, target, run, db)
    functions = {f.name: dict(cases=f.cases, setup=f.setups, abort=f.aborts,
                              restart=f.restarts, abort_rate=round(f.abort_rate, 2),
                              restart_rate=round(f.restart_rate, 2),
                              failure_rate=round(f.failure_rate, 2))
                 for f in summary.functions}
    digests = gated.values_digests(conn, run)
    for name, (signature, datatypes, _) in gated.function_calls(conn, run).items():
        if name in functions:
            functions[name].update(signature=signature, datatypes=datatypes,
                                   values=digests[name])
    for kind, scale in _crash_scale(conn, db, target, run):
        for f in scale.functions:
            functions[f.name].update({kind: f.count, f"{kind}_rate": round(f.rate, 2)})
    corrupt_cases = _memchecked(conn, run, functions)
    listed = [case_line(*r) for r in gated.not_passing(conn, run)]
    parameters = run_parameters(summary.info)
    if parameters["targeted"] == WHOLE:  # written for a targeted run only, as before them
        del parameters["targeted"]
    baseline = dict(format=FORMAT, target=target, spec=spec_name,
                    run=parameters, functions=functions,
                    failing=[c for c in listed if c["outcome"] in FAILING],
                    setup=[c for c in listed if c["outcome"] == "SETUP"])
    if any("memchecked" in f for f in functions.values()):
        baseline["corrupt_cases"] = corrupt_cases
    if findings_store.analyzed(conn, run):  # else it gates by case, as before findings
        baseline["findings"] = sorted((finding_line(f) for f in summary.findings),
                                      key=lambda f: f["fingerprint"])
        baseline["fingerprints"] = FINGERPRINTS
    return baseline


def _memchecked(conn, run, functions):
    """Adds to each function the cases memcheck judged (those that passed
    under it too); returns the Corrupt ones as the file lists them."""
    corrupt_cases = []
    for c in corrupt.judged_cases(conn, run):
        functions[c.function].setdefault("memchecked", []).append(c.case)
        if c.corrupt:
            line = dict(function=c.function, case=c.case, values=c.values, kind=c.kind,
                        at=c.at)
            if c.location:  # where its alert sits, for the fixed result (gate/sarif.py)
                line["location"] = places.place(c.location)
            corrupt_cases.append(line)
    return corrupt_cases


def finding_line(f):
    """One finding as the file holds it: what identifies it, and what a
    reviewer reads."""
    line = dict(fingerprint=f.fingerprint, title=f.title, functions=f.functions, kind=f.kind,
                cases=f.cases, violation=f.gating_violation)  # a drafted one counts once reviewed
    if f.location:  # where its alert sits, so that the fixed result closes it (gate/sarif.py)
        line["location"] = places.place(f.location)
    return line


def dumps(baseline):
    """The file's text: JSON, one function and one case per line."""
    one = json.dumps  # keys in the order made, which is fixed

    def block(items):
        return "[]" if not items else "[\n" + ",\n".join(f"  {one(i)}" for i in items) + "\n ]"

    functions = ",\n".join(f"  {one(name)}: {one(counts)}"
                           for name, counts in sorted(baseline["functions"].items()))
    return "".join([
        "{\n",
        f' "format": {one(baseline["format"])},\n',
        f' "target": {one(baseline["target"])},\n',
        f' "spec": {one(baseline["spec"])},\n',
        f' "run": {one(baseline["run"])},\n',
        f' "functions": {{\n{functions}\n }},\n',
        (f' "fingerprints": {one(baseline["fingerprints"])},\n'
         if "fingerprints" in baseline else ""),
        (f' "findings": {block(baseline["findings"])},\n' if "findings" in baseline else ""),
        (f' "flaky": {block(baseline["flaky"])},\n' if baseline.get("flaky") else ""),
        f' "failing": {block(baseline["failing"])},\n',
        (f' "corrupt_cases": {block(baseline["corrupt_cases"])},\n'
         if "corrupt_cases" in baseline else ""),
        f' "setup": {block(baseline["setup"])}\n',
        "}\n"])


@dataclass
class Baseline:
    path: str
    target: str
    spec: str
    run: dict
    functions: dict   # name -> counts and rates
    failing: dict     # (function, case) -> case line
    setup: set        # (function, case)
    findings: dict = None  # fingerprint -> finding line; None: a baseline that gates by case
    corrupt: dict = None   # (function, case) -> Corrupt case line; None: no memcheck listed
    flaky: dict = None     # fingerprint -> a finding known to be flaky: never fails the gate
    # the signature rule's version its findings were written under, when not
    # this trebuchet's (findings/signature.py FINGERPRINTS): it gates by case
    old_fingerprints: int = None

    def memchecked(self, function):
        """The cases of function memcheck judged in the baseline's run."""
        return set(self.functions.get(function, {}).get("memchecked", ()))


def _schema():
    return json.loads((paths.SCHEMAS / "baseline.schema.json").read_text())


def line_of_entry(path, key, index):
    """The line of a baseline file's entry key/index (one case per line)."""
    return _line_of(Path(path).read_text(), [key, index])


def _line_of(text, where):
    """The line of an entry of `failing` or `setup`: one case per line."""
    if len(where) < 2 or where[0] not in ("findings", "flaky", "failing", "corrupt_cases",
                                          "setup"):
        return None
    lines = text.splitlines()
    opening = next((i for i, l in enumerate(lines) if l.startswith(f' "{where[0]}": [')), None)
    return None if opening is None else opening + 2 + where[1]


SQLITE_MAGIC = b"SQLite format 3\0"
CONFLICT_MARKER = re.compile(r"^(<{7}|={7}|>{7})( |$)", re.M)


def _text_of(path):
    """The file's text, or one line on what it is instead: CI passes the
    store for the baseline, a checkout leaves a merge conflict in it."""
    try:
        raw = Path(path).read_bytes()
    except OSError as e:
        raise TrebuchetError(e.strerror or str(e), path) from None
    if raw.startswith(SQLITE_MAGIC):
        raise TrebuchetError("a SQLite store, not a baseline: --baseline takes the file "
                             "`trebuchet baseline --out` wrote, --db the store", path)
    if not raw.strip():
        raise TrebuchetError("empty, not a baseline (`trebuchet baseline --out` writes one)",
                             path)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise TrebuchetError(f"not a baseline: byte 0x{raw[e.start]:02x} is not UTF-8 text",
                             path, raw[:e.start].count(b"\n") + 1) from None
    conflict = CONFLICT_MARKER.search(text)
    if conflict:
        raise TrebuchetError(f"an unresolved merge conflict ('{conflict.group(1)}'): resolve "
                             f"it, or write the baseline again with `trebuchet baseline`", path,
                             text.count("\n", 0, conflict.start()) + 1)
    return text


def _check_format(data, text, path):
    """That the file says it is a baseline this trebuchet reads; what it
    says instead, and what this trebuchet reads, when it is not."""
    held = data.get("format") if isinstance(data, dict) else None
    if held in FORMATS:
        return
    line = next((i for i, l in enumerate(text.splitlines(), 1) if '"format"' in l), None)
    if isinstance(held, str) and held.startswith(FORMAT.rsplit(" ", 1)[0] + " "):
        raise TrebuchetError(f"a baseline of format \"{held}\", which this trebuchet does not "
                             f"read (it reads \"{FORMATS[0]}\" to \"{FORMAT}\"): gate with "
                             f"the trebuchet that wrote it, or write the baseline again with "
                             f"this one", path, line)
    said = "no \"format\" key" if held is None else f"\"format\": {json.dumps(held)}"
    raise TrebuchetError(f"not a baseline: it has {said} (a baseline made by `trebuchet "
                         f"baseline` has \"format\": \"{FORMAT}\")", path, line)


def flaky_line(f):
    """A finding known to be flaky as the file lists it: what identifies it,
    and what a reviewer reads."""
    return dict(fingerprint=f.fingerprint, title=f.title, functions=f.functions)


def with_flaky(path, db, target, fingerprints):
    """The baseline at path with the findings of target's newest run in db
    named by fingerprints listed as known flaky (`trebuchet baseline
    --flaky`): a new finding among them never fails the gate.  Nothing
    else of the file changes."""
    old = _checked(path)
    if old["target"] != target:
        raise TrebuchetError(f"a baseline of {old['target']}, not of {target}", path)
    conn = store.connect(db)
    run = newest_full_run(conn, target, db)
    found = {f.fingerprint: f for f in findings_store.stored(conn, run)}
    unknown = [fp for fp in fingerprints if fp not in found]
    if unknown:
        raise TrebuchetError(f"run {run} of {target} has no finding {', '.join(unknown)} (the"
                             f" gate names a flaky finding's fingerprint)", db)
    listed = {f["fingerprint"]: f for f in old.get("flaky", ())}
    listed.update((fp, flaky_line(found[fp])) for fp in fingerprints)
    old["run"] = {k: v for k, v in old["run"].items() if (k, v) != ("targeted", WHOLE)}
    return dict(old, format=FORMAT, flaky=sorted(listed.values(), key=lambda f: f["fingerprint"]))


def kept_flaky(path, made):
    """made, keeping the known flaky findings the baseline at path lists:
    writing a baseline again keeps what was decided about them."""
    try:
        flaky = _checked(path).get("flaky") if Path(path).is_file() else None
    except TrebuchetError:  # not a baseline: written over, as before
        flaky = None
    return dict(made, flaky=flaky) if flaky else made


def rebased(path, new, functions):
    """The baseline at path with the entries of functions taken from new (the
    from_store() of a run drawn as it was): their counts, listed cases and
    findings; every other function's are kept, and the run's parameters
    are new's.  A pull request that changes or adds a function rebases it
    alone, so the rest stays the reviewed baseline."""
    old = _checked(path)
    differ = [k for k in COMPARABLE
              if old["run"].get(k, WHOLE) != new["run"].get(k, WHOLE)]
    others = [n for n in old["functions"] if n not in functions]
    if differ == ["dictionary_digest"] and all("values" in old["functions"][n] for n in others):
        # a datatype edited: the functions whose cases now hand over other
        # values must be among those rebased; the others stay as reviewed
        moved = [n for n in others if n in new["functions"] and
                 old["functions"][n]["values"] != new["functions"][n].get("values")]
        if moved:
            raise TrebuchetError(f"the values of {', '.join(moved)} changed too (a datatype "
                                 f"edited): add {'it' if len(moved) == 1 else 'them'} to "
                                 f"--functions", path)
        differ = []
    if differ:
        raise TrebuchetError(f"the run's {', '.join(differ)} differ from the baseline's, so its "
                             f"functions cannot join it: write the whole baseline (without "
                             f"--functions)", path)
    unknown = [f for f in functions if f not in new["functions"]]
    if unknown:
        raise TrebuchetError(f"the newest run of {new['target']} did not run "
                             f"{', '.join(unknown)}", path)
    chosen = set(functions)
    kept = lambda lines: [c for c in lines if c["function"] not in chosen]
    taken = lambda lines: [c for c in lines if c["function"] in chosen]
    by_case = lambda c: (c["function"], c["case"])
    out = dict(old, format=new["format"], spec=new["spec"], run=new["run"], functions={
        **{n: c for n, c in old["functions"].items() if n not in chosen},
        **{n: new["functions"][n] for n in functions}})
    for key in ("failing", "setup"):
        out[key] = sorted(kept(old[key]) + taken(new[key]), key=by_case)
    if "corrupt_cases" in old or "corrupt_cases" in new:
        out["corrupt_cases"] = sorted(kept(old.get("corrupt_cases", [])) +
                                      taken(new.get("corrupt_cases", [])), key=by_case)
    if "findings" in old and "findings" in new and \
            old.get("fingerprints", 1) == new.get("fingerprints", 1):
        mine = [f for f in new["findings"] if chosen & set(f["functions"])]
        theirs = {f["fingerprint"] for f in mine}
        out["findings"] = sorted([f for f in old["findings"] if not chosen & set(f["functions"])
                                  and f["fingerprint"] not in theirs] + mine,
                                 key=lambda f: f["fingerprint"])
    else:  # one of them gates by case, or by other fingerprints: the mix by case
        out.pop("findings", None)
        out.pop("fingerprints", None)
    return out


def read(path):
    """Reads and checks a baseline file (see _checked)."""
    data = _checked(path)
    keyed = lambda lines: {(c["function"], c["case"]): c for c in lines}
    # findings of another signature rule's version name other fingerprints:
    # compared, every finding would be new and fixed at once
    current = data.get("fingerprints", 1) == FINGERPRINTS
    findings = ({f["fingerprint"]: f for f in data["findings"]}
                if "findings" in data and current else None)
    return Baseline(str(path), data["target"], data["spec"], data["run"], data["functions"],
                    keyed(data["failing"]), set(keyed(data["setup"])), findings,
                    keyed(data["corrupt_cases"]) if "corrupt_cases" in data else None,
                    {f["fingerprint"]: f for f in data.get("flaky", ())} if current else {},
                    None if current or "findings" not in data else data.get("fingerprints", 1))


def _checked(path):
    """A baseline file's data, checked against schemas/baseline.schema.json,
    and that each listed case is of a function it lists; a bad one is a
    one-line error naming the file, and the line where it can be told."""
    text = _text_of(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise TrebuchetError(f"not a baseline: {e.msg}", path, e.lineno) from None
    _check_format(data, text, path)
    errors = sorted(jsonschema.Draft202012Validator(_schema()).iter_errors(data),
                    key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        e = errors[0]
        where = list(e.absolute_path)
        raise TrebuchetError(f"{'/'.join(map(str, where)) or 'top level'}: {e.message}", path,
                             _line_of(text, where))
    for key in ("failing", "corrupt_cases", "setup"):
        seen = {}
        for i, c in enumerate(data.get(key, ())):
            at = _line_of(text, [key, i])
            if c["function"] not in data["functions"]:
                raise TrebuchetError(f"{key}/{i}: function '{c['function']}' is not among the "
                                     f"baseline's functions", path, at)
            twice = seen.setdefault((c["function"], c["case"]), i)
            if twice != i:
                raise TrebuchetError(f"{key}/{i}: case {c['case']} of {c['function']} is listed"
                                     f" twice (also {key}/{twice})", path, at)
            if key == "corrupt_cases" and \
                    c["case"] not in data["functions"][c["function"]].get("memchecked", ()):
                raise TrebuchetError(f"{key}/{i}: case {c['case']} of {c['function']} is not "
                                     f"among the cases memcheck checked (its memchecked)",
                                     path, at)
    data["run"].setdefault("targeted", WHOLE)
    return data
