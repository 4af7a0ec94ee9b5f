"""`make mutation`: how many small, meaningful changes to the code that
decides what users are told would go unnoticed by the tests that guard it.

Mutants come from tools made for it: mutmut's operators for the Python
modules (used as a library: its mutant generator, our runner), and
universalmutator's C rules for the executor's two deciding files.
universalmutator's rules are textual, so most of its C mutants do not
compile; each is compiled first, and one that does not is dropped, as its
own --cmd check would (which this version of it cannot run: it crashes
restoring the file).  One that compiles to the same object code as the
original is an equivalent mutant by construction ("trivial compiler
equivalence") and is not run.

Each mutant is written over its file in this checkout, only the module's
own tests are run (MODULES), and the original is put back, also when the
run is interrupted (a copy waits in build/mutation/ and is restored on the
next start if need be).  mutation/equivalent.txt lists the mutants judged
equivalent by hand, each with why; they are skipped.  Outcomes are kept in
build/mutation/cache.json, keyed by the module's text, the mutant and its
tests' text, so a run within MUTATION_SECONDS (a time budget, split between
the modules) tests mutants in a fixed random order, and the next run goes on
where it stopped.  The report (build/mutation/report.md, and printed) gives
each module's score, killed / (killed + survived) over the mutants tested,
and every survivor."""
import argparse
import difflib
import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "build" / "mutation"
EQUIVALENT = ROOT / "mutation" / "equivalent.txt"
PYTEST = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider"]
CFLAGS = ["-O2", "-D_GNU_SOURCE", "-DTB_VERSION=\"0\"", "-Idatatypes", "-Iharness"]
CHECK_HARNESS = "build/harness/tests/check_harness"


@dataclass
class Module:
    path: str
    tests: list                                 # pytest files (and -k expressions)
    build: list = field(default_factory=list)   # make targets rebuilt before the tests
    check: list = field(default_factory=list)   # Check suites run before pytest

    @property
    def is_c(self):
        return self.path.endswith(".c")

    def commands(self):
        out = [["make", "-s", *self.build]] if self.build else []
        out += [[str(ROOT / c)] for c in self.check]
        return out + ([PYTEST + self.tests] if self.tests else [])


# What guards each module: those of its tests that run in seconds (the end
# to end ones around them take minutes a mutant on two cores).
GATE_HAND = ["tests/test_gate_hand.py"]
# the gate's fast tests by hand, which reach the baseline and its outputs too
GATE_FAST = GATE_HAND + ["tests/test_gate_input.py", "tests/test_gate_ratchet.py",
                         "tests/test_gate_findings_hand.py", "tests/test_gate_edges.py",
                         "tests/test_baseline_by_hand.py", "tests/test_junit_by_hand.py"]
MODULES = [
    Module("src/trebuchet/report/metrics.py", ["tests/test_rates.py", "tests/test_metrics_by_hand.py"]),
    Module("src/trebuchet/core/rates.py", ["tests/test_rates.py", "tests/test_metrics_by_hand.py"]),
    Module("src/trebuchet/study/bench_stats.py", ["tests/test_metrics_by_hand.py"]),
    Module("src/trebuchet/gate/verdict.py", GATE_HAND + ["tests/test_gate_edges.py",
                                          "tests/test_gate_findings_hand.py",
                                          "tests/test_gate_functions.py",
                                          "tests/test_gate_ratchet.py",
                                          "tests/test_gate_specs.py",
                                          "tests/test_gate_verdict.py"]),
    Module("src/trebuchet/gate/baseline.py", GATE_FAST),
    Module("src/trebuchet/gate/sarif.py", GATE_FAST),
    Module("src/trebuchet/gate/junit.py", GATE_FAST),
    Module("src/trebuchet/gate/corrupt_verdict.py", ["tests/test_gate_corrupt_hand.py"]),
    Module("src/trebuchet/judge/silent.py", ["tests/test_silent.py", "-k", "by_hand or twin"]),
    Module("src/trebuchet/judge/hindering.py", ["tests/test_hindering.py", "-k", "by_hand"]),
    Module("src/trebuchet/build/plugin_check.py", ["tests/test_plugin_check_by_hand.py", "tests/test_authoring.py",
                                      "-k", "by_hand or conversion or signedness"]),
    Module("harness/classify.c", [], build=[CHECK_HARNESS], check=[CHECK_HARNESS]),
    Module("harness/cases.c", ["tests/test_case_draw.py"],
           build=[CHECK_HARNESS, "build/bin/trebuchet-exec"], check=[CHECK_HARNESS]),
]


@dataclass
class Mutant:
    module: Module
    line: int           # 1-based
    before: str
    after: str
    text: str           # the whole mutated file

    @property
    def key(self):
        return f"{self.module.path}:{self.before.strip()} => {self.after.strip()}"

    def context_key(self, text):
        """The key with the line above it, for a change that is equivalent
        in one place only (text: the module's)."""
        above = text.split("\n")[self.line - 2].strip() if self.line > 1 else ""
        return f"{self.module.path}:{above}\n{self.key}"

    def describe(self):
        return f"{self.module.path}:{self.line}: {self.before.strip()}  =>  {self.after.strip()}"


def _changed_line(original, mutated):
    """(line number, old line, new line) of a one-line change."""
    a, b = original.splitlines(), mutated.splitlines()
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op != "equal":
            return i1 + 1, "\n".join(a[i1:i2]), "\n".join(b[j1:j2]) or "(line deleted)"
    return None


def _statements(text):
    """(first, last) line, 1-based, of each top-level statement."""
    import parso
    out = []
    for node in parso.parse(text).children:
        (first, _), (last, column) = node.start_pos, node.end_pos
        out.append((first, last if column else last - 1))
    return out


def python_mutants(module, text):
    """mutmut's mutants of a Python module.  mutmut parses the whole file
    again for each mutant, minutes for metrics.py on a busy machine, so each
    is made from its top-level statement alone, the other lines blanked (the
    line numbers it keys mutants by stay), and put back into the file."""
    import mutmut
    lines = text.split("\n")
    ids = mutmut.list_mutations(mutmut.Context(source=text, filename=module.path))
    spans = _statements(text)
    out = []
    for mid in ids:
        first, last = next(s for s in spans if s[0] <= mid.line_number + 1 <= s[1])
        alone = "\n" * (first - 1) + "\n".join(lines[first - 1:last]) + "\n" * (len(lines) - last)
        mutated, _ = mutmut.mutate(mutmut.Context(source=alone, filename=module.path,
                                                  mutation_id=mid))
        mutated = mutated.split("\n")
        whole = "\n".join(lines[:first - 1] + mutated[first - 1:last] + lines[last:])
        if len(mutated) != len(lines):  # lines taken or added (a decorator): the whole file
            whole, _ = mutmut.mutate(mutmut.Context(source=text, filename=module.path,
                                                    mutation_id=mid))
        changed = _changed_line(text, whole)
        if changed:
            out.append(Mutant(module, *changed, whole))
    return out


def c_mutants(module, text):
    """universalmutator's mutants of a C file (not yet checked to compile)."""
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / Path(module.path).name
        source.write_text(text)
        subprocess.run([str(Path(sys.executable).parent / "mutate"), str(source), "c",
                        "--mutantDir", tmp, "--noCheck"], cwd=tmp, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        out, seen = [], set()
        for path in sorted(Path(tmp).glob(f"{source.stem}.mutant.*{source.suffix}"),
                           key=lambda p: int(p.name.split(".")[-2])):
            mutated = path.read_text()
            changed = _changed_line(text, mutated)
            if changed and mutated not in seen:
                seen.add(mutated)
                out.append(Mutant(module, *changed, mutated))
        return out


def mutants_of(module, text):
    """The module's mutants, generated once per text of it (mutmut parses
    the whole file again for each of its mutants: minutes for metrics.py)."""
    kept = OUT / "mutants" / f"{_digest(module.path, text)}.json"
    if kept.exists():
        return [Mutant(module, **m) for m in json.loads(kept.read_text())]
    mutants = (c_mutants if module.is_c else python_mutants)(module, text)
    kept.parent.mkdir(parents=True, exist_ok=True)
    kept.write_text(json.dumps([dict(line=m.line, before=m.before, after=m.after, text=m.text)
                                for m in mutants]))
    return mutants


def read_equivalents():
    """{mutant key: why} from mutation/equivalent.txt: entries of
    `== FILE`, `@ LINE ABOVE` where the same change elsewhere in the file is
    not equivalent, `- ORIGINAL LINE`, `+ MUTATED LINE`, then the reason
    (`why: ...`, continued on indented lines), separated by blank lines."""
    out, entry = {}, []
    for line in EQUIVALENT.read_text().splitlines() + [""]:
        if line.startswith("#"):
            continue
        if line.strip():
            entry.append(line)
            continue
        if entry:
            path, above = entry.pop(0)[3:].strip(), None
            if entry[0].startswith("@ "):
                above = entry.pop(0)[2:].strip()
            before, after = entry[0][2:].strip(), entry[1][2:].strip()
            key = f"{path}:{before} => {after}"
            why = " ".join(e.strip() for e in entry[2:]).removeprefix("why:").strip()
            out[key if above is None else f"{path}:{above}\n{key}"] = why
            entry = []
    return out


def _digest(*parts):
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode() if isinstance(p, str) else p)
        h.update(b"\0")
    return h.hexdigest()[:24]


def tests_digest(module):
    """What the module's outcome depends on besides its own text."""
    files = [ROOT / "tests/conftest.py"] + [ROOT / t.split("::")[0] for t in module.tests
                                            if t.startswith("tests/")]
    if module.check:
        files.append(ROOT / "harness/tests/check_harness.c")
    return _digest(*[f.read_bytes() for f in files if f.is_file()], repr(module.commands()))


class Tree:
    """Writes mutants over one file and always puts the original back, as a
    new write (a copy keeping the original's time would leave make the
    objects of the last mutant, as newer than their source)."""

    def __init__(self, path):
        self.path = ROOT / path
        self.saved = OUT / "original" / path
        if self.saved.exists():  # a run stopped before it could restore
            self.path.write_text(self.saved.read_text())
        self.saved.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(self.path, self.saved)
        self.text = self.path.read_text()

    def write(self, text):
        self.path.write_text(text)

    def restore(self):
        self.path.write_text(self.saved.read_text())
        self.saved.unlink()


def run_tests(module, timeout):
    """'killed', 'survived' or 'timeout' (a mutant that hangs the tests is
    noticed, so it counts as killed)."""
    deadline = time.monotonic() + timeout
    for command in module.commands():
        left = deadline - time.monotonic()
        if left <= 0:
            return "timeout"
        proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True,
                                env=dict(os.environ, CK_FORK="yes"))
        try:
            if proc.wait(timeout=left) != 0:
                return "killed"
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            return "timeout"
    return "survived"


def compiled(text, workdir):
    """The object code of a C file's text (no debug information, so that
    only what the program does counts), or None if it does not compile."""
    src, obj = workdir / "m.c", workdir / "m.o"
    src.write_text(text)
    made = subprocess.run(["cc", *CFLAGS, "-c", "-o", str(obj), str(src)], cwd=ROOT,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return obj.read_bytes() if made.returncode == 0 else None


@dataclass
class Tally:
    module: Module
    generated: int = 0
    statuses: dict = field(default_factory=dict)   # mutant key -> status
    survivors: list = field(default_factory=list)  # [Mutant]
    equivalent: list = field(default_factory=list)  # [(Mutant, why)]
    note: str = ""

    def count(self, *statuses):
        return sum(1 for s in self.statuses.values() if s in statuses)

    @property
    def run(self):
        return self.count("killed", "timeout", "survived")

    @property
    def score(self):
        return 100.0 * self.count("killed", "timeout") / self.run if self.run else None

    @property
    def interval(self):
        """The score's 95% interval when only a sample of the mutants ran."""
        if not self.count("not run"):
            return ""
        from trebuchet.core.rates import wilson
        low, high = wilson(self.count("killed", "timeout"), self.run)
        return f" ({low:.0f}-{high:.0f}%)"


def mutate_module(module, budget, cache, equivalents):
    tally = Tally(module)
    tree = Tree(module.path)
    try:
        mutants = mutants_of(module, tree.text)
        started = time.monotonic()  # the budget is for testing: mutants are made once
        tally.generated = len(mutants)
        random.Random(module.path).shuffle(mutants)  # a stopped run has tested a fair sample
        base = _digest(tree.text, tests_digest(module))
        baseline = time.monotonic()
        if run_tests(module, 600) != "survived":
            tally.note = "its tests fail without any mutant: not run"
            return tally
        timeout = 10 + 5 * (time.monotonic() - baseline)
        with tempfile.TemporaryDirectory() as tmp:
            original = compiled(tree.text, Path(tmp)) if module.is_c else None
            for m in mutants:
                why = equivalents.get(m.key) or equivalents.get(m.context_key(tree.text))
                status = why and "equivalent"
                cached = cache.get(_digest(base, m.text))
                if status:
                    tally.equivalent.append((m, why))
                elif cached:
                    status = cached
                elif time.monotonic() - started > budget:
                    status = "not run"
                else:
                    if module.is_c:
                        code = compiled(m.text, Path(tmp))
                        status = ("does not compile" if code is None else
                                  "same object code" if code == original else None)
                    if status is None:
                        tree.write(m.text)
                        try:
                            status = run_tests(module, timeout)
                        finally:
                            tree.write(tree.text)
                    cache[_digest(base, m.text)] = status
                tally.statuses[m.key + f"#{m.line}"] = status
                if status == "survived":
                    tally.survivors.append(m)
    finally:
        tree.restore()
        if module.build:  # leave the binaries of the original behind
            subprocess.run(["make", "-s", *module.build], cwd=ROOT, stdout=subprocess.DEVNULL)
    return tally


def report(tallies, elapsed):
    lines = ["# Mutation testing", "",
             f"{elapsed / 60:.1f} minutes. Score: killed (a timeout counts as killed) over "
             "killed and survived, among the mutants run (in a fixed random order: where "
             "the budget stopped a module, a sample, its score given with its 95% interval); "
             "equivalent ones (listed in mutation/equivalent.txt, or compiling to the "
             "original's object code) and C mutants that do not compile are left out.", "",
             "| module | mutants | run | killed | survived | equivalent | not compiling "
             "| not run (budget) | score |", "|---|---|---|---|---|---|---|---|---|"]
    for t in tallies:
        score = "-" if t.score is None else f"{t.score:.1f}%{t.interval}"
        lines.append(f"| {t.module.path} | {t.generated} | {t.run} | {t.count('killed', 'timeout')}"
                     f" | {t.count('survived')} | {t.count('equivalent', 'same object code')} |"
                     f" {t.count('does not compile')} | {t.count('not run')} | {score} |")
    for t in tallies:
        if t.note:
            lines += ["", f"{t.module.path}: {t.note}"]
        if t.survivors:
            lines += ["", f"## Survivors in {t.module.path}", ""]
            lines += [f"- `{m.describe()}`" for m in sorted(t.survivors, key=lambda m: m.line)]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=int(os.environ.get("MUTATION_SECONDS",
                                                                          "2400")),
                        help="time budget of the whole run (default 2400, or MUTATION_SECONDS)")
    parser.add_argument("modules", nargs="*", help="only these (paths as in MODULES)")
    args = parser.parse_args()
    chosen = [m for m in MODULES if not args.modules or m.path in args.modules]
    unknown = set(args.modules) - {m.path for m in MODULES}
    if unknown:
        print(f"mutation: no module {', '.join(sorted(unknown))} (see MODULES)", file=sys.stderr)
        return 2
    OUT.mkdir(parents=True, exist_ok=True)
    cache_file = OUT / "cache.json"
    cache = json.loads(cache_file.read_text()) if cache_file.exists() else {}
    equivalents = read_equivalents()
    # a stop signal unwinds the run, so the file under mutation is restored
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.default_int_handler)
    started, tallies = time.monotonic(), []
    try:
        for i, module in enumerate(chosen):
            share = (args.seconds - (time.monotonic() - started)) / (len(chosen) - i)
            print(f"mutation: {module.path} (up to {share / 60:.1f} min)", flush=True)
            tallies.append(mutate_module(module, share, cache, equivalents))
            cache_file.write_text(json.dumps(cache, indent=0, sort_keys=True))
    except KeyboardInterrupt:
        print("mutation: interrupted; the report holds the modules done", file=sys.stderr)
    finally:
        cache_file.write_text(json.dumps(cache, indent=0, sort_keys=True))
    text = report(tallies, time.monotonic() - started)
    (OUT / "report.md").write_text(text)
    print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
