"""The gate's confirmed new findings (or, against a baseline without
findings, its confirmed new failures) as SARIF 2.1.0, for code scanning
(checked against OASIS's SARIF 2.1.0 JSON schema in the tests).

By finding: one result per confirmed new finding, located at the source
line where it strikes (its naming frame, made relative to --source-root),
with the function's entry in the spec as a related location, and the
finding's fingerprint as its partial fingerprint, so that code scanning
keeps one alert for one defect across commits, rebuilds and machines.  A
finding with no source line (a library without debug information) is
located at the spec's entry.  By case, as before findings:

One result per confirmed new failure, under a rule per outcome (ABORT,
RESTART).  Its logical location is the function; its physical location the
function's entry in the spec, the one file of a library's repository that
names it, since code scanning places an alert on a file and line.  The
message carries the call, what happened and the command that reproduces
it; a fingerprint of (target, function, case) lets code scanning tell a new
alert from one it has seen.

A confirmed new Corrupt defect (src/trebuchet/gate/corrupt_verdict.py) is one result under the
rule CORRUPT, located where memcheck saw it strike, fingerprinted by its
function, kind and frame (no line, which moves with every edit above it).

Either way, each case the baseline lists as failing that passes now
(fixed) is a result too: baselineState "absent", kind "pass", level
"none", with the command that updates the baseline."""
import json
import re
from pathlib import Path

from trebuchet.findings.signature import PROMISE_KINDS
from trebuchet.gate import corrupt_verdict as corrupt_gate, places

RULES = [
    dict(id="ABORT", name="CallAborts",
         shortDescription=dict(text="A call with these values ends its process"),
         fullDescription=dict(text="The function, given exceptional but type-correct values, "
                              "killed its process (a signal, or exit() from inside the call) "
                              "where it passed before.")),
    dict(id="RESTART", name="CallHangs",
         shortDescription=dict(text="A call with these values does not return"),
         fullDescription=dict(text="The function, given exceptional but type-correct values, "
                              "had not returned when the watchdog fired, where it returned "
                              "before.")),
    dict(id="PROMISE", name="PromisedErrorMissing",
         shortDescription=dict(text="A call does not report the error its documentation "
                               "promises"),
         fullDescription=dict(text="The function returned without the error (or with another "
                              "errno than) its documentation promises for these values, as its "
                              "spec's contract states it.")),
    dict(id="CORRUPT", name="CallCorruptsMemory",
         shortDescription=dict(text="A call with these values reads or writes memory it must "
                               "not"),
         fullDescription=dict(text="The function returned, but Valgrind's memcheck saw it read "
                              "or write memory it must not (an invalid read or write, a use "
                              "after free, an uninitialised value deciding a branch, an invalid "
                              "free) where it did not before.")),
]
for _rule in RULES:
    _rule["defaultConfiguration"] = dict(level="error")
RULE_INDEX = {rule["id"]: i for i, rule in enumerate(RULES)}


def _spec_location(spec, function):
    """(path, line) of the function's `name:` in the spec or a spec it extends."""
    pattern = re.compile(rf"\bname:\s*['\"]?{re.escape(function)}['\"]?\s*[,}}\n]")
    files = [spec.path] + [p for folder in spec.include_dirs for p in sorted(folder.glob("*.yaml"))]
    for path in files:
        text = path.read_text()
        match = pattern.search(text)
        if match:
            return path, text.count("\n", 0, match.start()) + 1
    return spec.path, 1


def _spec_place(spec, function, root=None):
    path, line = _spec_location(spec, function)
    return dict(physicalLocation=dict(artifactLocation=dict(uri=places.uri(path, root)),
                                      region=dict(startLine=line)))


def _source_place(result, spec, function, location, root=None):
    """The locations of a finding or Corrupt defect: the source line where
    it strikes (FILE:LINE), else the function's entry in the spec; and the
    function.  A fixed one's result is placed as its alert was."""
    where = _spec_place(spec, function, root)
    if location:
        file, _, line = location.rpartition(":")
        where = dict(physicalLocation=dict(artifactLocation=dict(uri=places.uri(file, root)),
                                           region=dict(startLine=int(line))))
    return [dict(where, logicalLocations=[dict(
        name=function, kind="function", fullyQualifiedName=f"{result.target}::{function}")])]


def _finding_result(result, spec, g, root):
    f, n = g.finding, g.representative
    rule = "PROMISE" if n.outcome == "PASS" else n.outcome  # a broken error promise
    broken = f" It breaks the contract: {f.violation}." if f.is_violation else ""
    text = (f"{f.title} ({', '.join(f.functions)}): {g.cases_said}, when {f.trigger}.{broken} "
            f"Reproduce: {result.repro_command(n)} (add --emit-c DIR for a standalone C program)")
    return dict(
        ruleId=rule, ruleIndex=RULE_INDEX[rule], level="error", message=dict(text=text),
        locations=_source_place(result, spec, f.functions[0], f.location, root),
        relatedLocations=[dict(_spec_place(spec, fn, root), id=i, message=dict(
            text=f"{fn} in the spec")) for i, fn in enumerate(f.functions)],
        partialFingerprints={"trebuchetFinding/v1": f.fingerprint},
        properties=dict(finding=f.title, signature=f.signature, trigger=f.trigger,
                        violation=f.violation, cases=[c.case for c in g.cases],
                        representative=dict(function=n.function, case=n.case,
                                            values=n.values)))


def _corrupt_result(result, spec, d, root):
    c = d.representative
    text = (f"{d.title}: {len(d.cases)} new Corrupt case{'s' if len(d.cases) != 1 else ''}, "
            f"e.g. {c.call()} (case {c.case}): {c.what}. {d.reruns_said.capitalize()}. "
            f"Reproduce: {corrupt_gate.repro_command(result, c)}")
    return dict(
        ruleId="CORRUPT", ruleIndex=RULE_INDEX["CORRUPT"], level="error", message=dict(text=text),
        locations=_source_place(result, spec, c.function, d.location, root),
        partialFingerprints={"trebuchetCorrupt/v1": d.fingerprint},
        properties=dict(kind=c.kind, at=c.at, cases=[x.case for x in d.cases],
                        representative=dict(function=c.function, case=c.case, values=c.values)))


def _corrupt_fixed_result(result, spec, defect, lines, root=None):
    """A Corrupt defect of the baseline none of whose cases is Corrupt now:
    absent, a pass, where (format 4) and under the fingerprint its alert had."""
    function, kind, at = defect
    text = (f"{kind} in {at} ({function}), Corrupt in the baseline on "
            f"{len(lines)} case{'s' if len(lines) != 1 else ''} memcheck judges clean now. "
            f"Update the baseline: {result.baseline_command()}")
    located = [line["location"] for line in lines if line.get("location")]
    return dict(ruleId="CORRUPT", ruleIndex=RULE_INDEX["CORRUPT"], kind="pass", level="none",
                baselineState="absent", message=dict(text=text),
                locations=_source_place(result, spec, function, located and located[0], root),
                partialFingerprints={"trebuchetCorrupt/v1": corrupt_gate.fingerprint(
                    result.target, defect)},
                properties=dict(kind=kind, at=at, cases=[c["case"] for c in lines], fixed=True))


def _case_place(result, spec, function, root=None):
    """A case's locations: the function's entry in the spec, and the function."""
    return [dict(_spec_place(spec, function, root), logicalLocations=[dict(
        name=function, kind="function", fullyQualifiedName=f"{result.target}::{function}")])]


def _case_fingerprint(result, function, case):
    return {"trebuchetCase/v1": f"{result.target}/{function}/{case}"}


def _fixed_result(result, spec, c, root=None):
    """A case the baseline lists as failing that passes now: absent from this
    run (baselineState), a pass and not an alert (kind, level), under the
    fingerprint its alert had, so code scanning can close it."""
    text = (f"{c['function']}({', '.join(c['values'])}) (case {c['case']}) ended "
            f"{c['outcome']} in the baseline and passes now. Update the baseline: "
            f"{result.baseline_command()}")
    return dict(ruleId=c["outcome"], ruleIndex=RULE_INDEX[c["outcome"]], kind="pass",
                level="none", baselineState="absent", message=dict(text=text),
                locations=_case_place(result, spec, c["function"], root),
                partialFingerprints=_case_fingerprint(result, c["function"], c["case"]),
                properties=dict(case=c["case"], values=c["values"], fixed=True))


def _rule_of(kind):
    """The rule a finding's alert was raised under, from its kind."""
    return "PROMISE" if kind in PROMISE_KINDS else "RESTART" if kind == "hang" else "ABORT"


def _fixed_finding_result(result, spec, line, root=None):
    """A finding the baseline lists that the run has no more: absent, a
    pass, at the source line and under the fingerprint its alert had
    (format 4 keeps both; an older baseline's falls back on the spec's
    entry), so that code scanning closes that very alert."""
    function = line["functions"][0]
    rule = _rule_of(line.get("kind"))
    text = (f"{line['title']} ({', '.join(line['functions'])}): in the baseline, not in run "
            f"{result.info.id}: fixed. Update the baseline: {result.baseline_command()}")
    return dict(ruleId=rule, ruleIndex=RULE_INDEX[rule], kind="pass", level="none",
                baselineState="absent", message=dict(text=text),
                locations=_source_place(result, spec, function, line.get("location"), root),
                partialFingerprints={"trebuchetFinding/v1": line["fingerprint"]},
                properties=dict(finding=line["title"], fixed=True))


def _result(result, spec, n, root=None):
    again = (f"failed again on {n.failures_on_rerun} of {len(n.reruns)} reruns" if n.reruns
             else "was not run again (--confirm 0)")
    text = (f"{n.call()} (case {n.case}) now ends {n.described}; it passed in the baseline "
            f"and {again}. "
            f"Reproduce: {result.repro_command(n)} (add --emit-c DIR for a standalone C program)")
    return dict(
        ruleId=n.outcome, ruleIndex=RULE_INDEX[n.outcome], level="error",
        message=dict(text=text), locations=_case_place(result, spec, n.function, root),
        partialFingerprints=_case_fingerprint(result, n.function, n.case),
        properties=dict(case=n.case, values=n.values, outcome=n.described, reruns=n.reruns_described))


def document(result, spec, version, root=None):
    """The SARIF log as a dict."""
    if result.by_finding:
        results = [_finding_result(result, spec, g, root) for g in result.confirmed_findings]
    else:
        results = [_result(result, spec, n, root) for n in result.confirmed]
    results += [_finding_result(result, spec, g, root) for g in result.violations
                if g.confirmed]
    results += [_corrupt_result(result, spec, d, root) for d in corrupt_gate.counted(result)]
    if result.by_finding:  # the alerts were the findings': their fixed results close them
        results += [_fixed_finding_result(result, spec, f, root) for f in result.fixed_findings]
    else:
        results += [_fixed_result(result, spec, c, root) for c in result.fixed]
    if result.corrupt:
        results += [_corrupt_fixed_result(result, spec, defect, lines, root)
                    for defect, lines in result.corrupt.fixed_defects()]
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [dict(
            tool=dict(driver=dict(name="trebuchet", version=version, rules=RULES)),
            automationDetails=dict(id=f"trebuchet/{result.target}/"),
            invocations=[dict(executionSuccessful=True,
                              workingDirectory=dict(uri=Path.cwd().as_uri() + "/"))],
            properties=dict(baseline=result.baseline.path, store=result.db, run=result.info.id,
                            library=result.info.target_version,
                            flaky=len(result.flaky), fixed=len(result.fixed),
                            corrupt_fixed=len(result.corrupt.fixed) if result.corrupt else 0),
            results=results)],
    }


def write(result, spec, version, path, root=None):
    with open(path, "w") as out:
        json.dump(document(result, spec, version, root), out, indent=1)
        out.write("\n")
