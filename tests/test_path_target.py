"""A target given by its spec's path (the gate's demolib, which no name under
targets/ reaches): the run records the path it was given, and the repro
commands the report pages and the gate print work pasted in the checkout."""
import re
import shlex
import subprocess

from conftest import ROOT, TREBUCHET, query, trebuchet
from test_gate import DEMO_SPEC, build_demolib, gate, run_demolib

COMMAND = re.compile(r"trebuchet repro --target \S+ --function \w+ --case \d+")


def pasted(command):
    """Runs a printed command as a person pasting it at the checkout's root."""
    argv = shlex.split(command)
    assert argv[0] == "trebuchet"
    return subprocess.run([str(TREBUCHET), *argv[1:]], cwd=ROOT, capture_output=True, text=True)


def test_the_report_pages_commands_run_the_case(tmp_path):
    db = tmp_path / "demo.db"
    try:
        run_demolib(2, db, "--functions", "demo_count")
        assert query(db, "SELECT target, spec FROM runs") == [("demolib", DEMO_SPEC)]
        trebuchet("report", "--db", db, "--out", tmp_path / "out")
        page = (tmp_path / "out" / "demolib-demo_count.html").read_text()
        commands = COMMAND.findall(page)
        assert commands and all(f"--target {DEMO_SPEC} " in c for c in commands)
        stored = dict(query(db, "SELECT case_index, outcome FROM results"
                                " WHERE outcome IN ('ABORT', 'RESTART')"))
        run = pasted(commands[0])
        assert run.returncode == 0, run.stderr
        case = int(commands[0].rsplit(" ", 1)[1])
        assert f" case {case}: {stored[case]}, " in run.stdout
        # the run's table names the spec too
        assert f"<code>{DEMO_SPEC}</code>" in page
    finally:
        build_demolib(1)


def test_the_gates_commands_run_the_case(tmp_path):
    db, baseline = tmp_path / "demo.db", tmp_path / "demolib.baseline"
    try:
        run_demolib(1, db)
        trebuchet("baseline", "--db", db, "--target", DEMO_SPEC, "--out", baseline, cwd=ROOT)
        run_demolib(2, db)
        result = gate(db, baseline, "--confirm", "0")
        assert result.returncode == 1, result.stdout + result.stderr
        commands = COMMAND.findall(result.stdout)
        assert commands
        run = pasted(commands[0])
        assert run.returncode == 0, run.stderr
        assert "ABORT" in run.stdout
    finally:
        build_demolib(1)


def test_an_unknown_name_says_a_path_is_accepted():
    result = trebuchet("repro", "--target", "demolib", "--function", "demo_count", "--case", "0",
                       cwd=ROOT, check=False)
    assert result.returncode == 2
    assert "unknown target 'demolib'" in result.stderr
    assert "or the path of a spec file" in result.stderr
