"""The gate's verdict as JUnit XML, the test report every CI server reads
(checked against Jenkins' junit-10.xsd in the tests).

One testsuite per target, one testcase per function.  A function with
confirmed new failures gets one failure element listing each with its repro
command (and its flaky ones after them); in a function without, each flaky
new failure is a flakyFailure (Surefire's element for a test that failed
and then passed on a rerun); a function the baseline lacks, or --functions
left out, is skipped; one changed in the spec since the baseline is an
error, with the command that rebases it.  Each fixed case (failing in the
baseline, passing now) is a testcase of its own that passed, its message
saying so; --fail-on-fixed makes it a failure, --fail-on-flaky a
function's flaky new failures one.

By finding, a function fails with the confirmed new findings among its
cases, one failure element each, whose message begins with the source
file and line where it strikes ("defects.c:18: SIGSEGV in count_bytes"):
the schema CI servers read has no file or line attributes on a testcase,
and "file:line: message" is what their log parsers take as a location.

A confirmed new Corrupt defect (src/trebuchet/gate/corrupt_verdict.py) is a failure of its
function too, of type CORRUPT, its message beginning the same way."""
import socket
import time
import xml.etree.ElementTree as ET

from trebuchet.gate import corrupt_verdict as corrupt_gate, places


def _text_of(result, failures):
    return "\n".join(f"{n.call()} case {n.case}: {n.described}\n  {result.repro_command(n)}"
                     for n in failures) + "\n"


def _finding_failure(case, result, g):
    f, n = g.finding, g.representative
    where = f"{places.place(f.location, result.source_root)}: " if f.location else ""
    if not g.confirmed:  # counted by --fail-on-flaky
        where += "flaky (--fail-on-flaky): "
    failure = ET.SubElement(case, "failure", type=f.kind, message=f"{where}{f.title}")
    failure.text = (f"{where}{f.title}\n  trigger: {f.trigger}\n"
                    + (f"  breaks: {f.violation}\n" if f.is_violation else "")
                    + f"  {n.call()} case {n.case}\n  {result.repro_command(n)}\n")


def _corrupt_failure(case, result, d):
    c = d.representative
    where = f"{places.place(d.location, result.source_root)}: " if d.location else ""
    if not d.confirmed:  # counted by --fail-on-flaky
        where += "flaky (--fail-on-flaky): "
    failure = ET.SubElement(case, "failure", type="CORRUPT", message=f"{where}{d.title}")
    failure.text = (f"{where}{d.title}: {len(d.cases)} new Corrupt case"
                    f"{'s' if len(d.cases) != 1 else ''}, {d.reruns_said}\n"
                    f"  {c.call()} case {c.case}: {c.what}\n"
                    f"  {corrupt_gate.repro_command(result, c)}\n")


def _testcase(suite, result, function, confirmed, flaky):
    case = ET.SubElement(suite, "testcase", classname=result.target, name=function, time="0")
    if confirmed:
        kinds = sorted({n.outcome for n in confirmed})
        how = "and again on a rerun" if result.confirm else "(not run again: --confirm 0)"
        failure = ET.SubElement(case, "failure", type=" ".join(kinds),
                                message=f"{len(confirmed)} new failing case"
                                        f"{'s' if len(confirmed) != 1 else ''}: passed in the "
                                        f"baseline, fail now {how}")
        failure.text = _text_of(result, confirmed)
        if flaky:
            # a flakyFailure says the test passed in the end: not here
            failure.text += "also failing now, but on none of their reruns (flaky):\n"
            failure.text += _text_of(result, flaky)
        return case
    _flaky(case, result, flaky)
    return case


def _flaky(case, result, flaky):
    if flaky and result.fail_on_flaky and not result.by_finding:  # counted: a failure, not a test that passed in the end
        ET.SubElement(case, "failure", type="flaky", message=f"{len(flaky)} flaky new failing "
                      f"case{'s' if len(flaky) != 1 else ''} (--fail-on-flaky)").text = \
            "\n".join(f"{n.call()} case {n.case}: {n.described}, then "
                      f"{', '.join(n.reruns_described)}\n  {result.repro_command(n)}"
                      for n in flaky) + "\n"
        return
    for n in flaky:
        rerun = ET.SubElement(case, "flakyFailure", type=n.outcome,
                              message=f"{n.call()} case {n.case}: {n.described}, then "
                                      f"{', '.join(n.reruns_described)}")
        ET.SubElement(rerun, "system-out").text = result.repro_command(n)


def _reported(case, result, function, counted):
    """A function the baseline does not know: its findings that do not
    fail the gate (no promise of its contract broken, or a drafted one)."""
    if function not in result.not_in_baseline:
        return
    reported = [g for g in result.unbaselined if function in g.finding.functions
                and g not in counted]
    if reported:
        ET.SubElement(case, "system-out").text = "not in the baseline; judged by its contract," \
            " these findings are reported, not counted:\n" + "".join(
                f"{g.finding.title}: "
                f"{'drafted promise broken' if g.finding.drafted else 'no promise broken'}"
                f"\n  {result.repro_command(g.representative)}\n" for g in reported)


def _fixed(suite, result):
    """A testcase per fixed case: passed, with what changed and the command
    that updates the baseline (--fail-on-fixed: failed, for that)."""
    for c in result.fixed:
        case = ET.SubElement(suite, "testcase", classname=f"{result.target}.{c['function']}",
                             name=f"{c['function']} case {c['case']} fixed", time="0")
        said = (f"{c['function']}({', '.join(c['values'])}) case {c['case']}: {c['outcome']} in "
                f"the baseline, passes now; `{result.baseline_command()}` updates the baseline")
        if result.fail_on_fixed:
            ET.SubElement(case, "failure", type="fixed", message=said)
        else:
            ET.SubElement(case, "system-out").text = said + "\n"


def _corrupt_fixed(suite, result):
    """A testcase per Corrupt case fixed (Corrupt in the baseline, clean
    under memcheck now), as for a fixed crash."""
    for c in result.corrupt.fixed if result.corrupt else ():
        case = ET.SubElement(suite, "testcase", classname=f"{result.target}.{c['function']}",
                             name=f"{c['function']} case {c['case']} Corrupt fixed", time="0")
        said = (f"{c['function']}({', '.join(c['values'])}) case {c['case']}: {c['kind']} in "
                f"{c['at']} in the baseline, clean under memcheck now; "
                f"`{result.baseline_command()}` updates the baseline")
        if result.fail_on_fixed:
            ET.SubElement(case, "failure", type="fixed", message=said)
        else:
            ET.SubElement(case, "system-out").text = said + "\n"


def write(result, path):
    confirmed, flaky, found = {}, {}, {}
    for n in result.new:
        (confirmed if n.confirmed else flaky).setdefault(n.function, []).append(n)
    for g in result.confirmed_findings + result.flaky_counted if result.by_finding else ():
        for function in g.finding.functions:
            found.setdefault(function, []).append(g)
    for g in result.violations_counted:  # of functions the baseline does not know
        for function in set(g.finding.functions) & set(result.not_in_baseline):
            found.setdefault(function, []).append(g)
    skipped = {**{f: "not in the baseline, and no findings made to judge it by its contract"
                  for f in result.not_in_baseline if not result.analyzed},
               **{f: "left out by --functions" for f in result.left_out}}
    corrupted = {}
    for d in corrupt_gate.counted(result):
        corrupted.setdefault(d.representative.function, []).append(d)
    functions = sorted(set(result.compared) | set(skipped) | set(result.changed)
                       | set(result.revalued)
                       | set(result.not_in_baseline))
    failing = sum(1 for f in result.compared if f in found or f in corrupted or
                  not result.by_finding and (f in confirmed or result.fail_on_flaky and f in flaky))
    failing += sum(1 for f in result.not_in_baseline if f in found)
    corrupt_fixed = len(result.corrupt.fixed) if result.corrupt else 0
    failing += len(result.fixed) + corrupt_fixed if result.fail_on_fixed else 0
    tests = str(len(functions) + len(result.fixed) + corrupt_fixed)
    errors = str(len(result.changed) + len(result.revalued))
    root = ET.Element("testsuites", name="trebuchet gate", tests=tests,
                      failures=str(failing), errors=errors, time=f"{result.seconds:.3f}")
    suite = ET.SubElement(root, "testsuite", name=result.target, tests=tests,
                          failures=str(failing), errors=errors, skipped=str(len(skipped)),
                          time=f"{result.seconds:.3f}",
                          timestamp=time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime()),
                          hostname=socket.gethostname())
    properties = ET.SubElement(suite, "properties")
    for name, value in [("baseline", result.baseline.path), ("store", result.db),
                        ("run", result.info.id), ("library", result.info.target_version),
                        ("baseline library", result.baseline.run["library"]),
                        ("seed", result.info.seed), ("cap", result.info.cap),
                        ("confirm", result.confirm)]:
        ET.SubElement(properties, "property", name=name, value=str(value))
    for function in functions:
        if result.by_finding or function in result.not_in_baseline:
            case = ET.SubElement(suite, "testcase", classname=result.target, name=function,
                                 time="0")
            for g in found.get(function, []):
                _finding_failure(case, result, g)
            if function not in found:
                _flaky(case, result, flaky.get(function, []))
            _reported(case, result, function, found.get(function, []))
        else:
            case = _testcase(suite, result, function, confirmed.get(function, []),
                             flaky.get(function, []))
        for d in corrupted.get(function, []):
            _corrupt_failure(case, result, d)
        if function in skipped:
            ET.SubElement(case, "skipped", message=skipped[function])
        if function in result.changed or function in result.revalued:
            said = "changed in the spec since the baseline" if function in result.changed \
                else "its cases hand over other values than in the baseline (a datatype edited)"
            ET.SubElement(case, "error", type="changed", message=f"{said}: not compared").text = \
                result.baseline_command([function]) + "\n"
    _fixed(suite, result)
    _corrupt_fixed(suite, result)
    ET.indent(root)
    ET.ElementTree(root).write(path, encoding="UTF-8", xml_declaration=True)
