"""The GitHub Action's own step (action.yml, the step that runs trebuchet),
run as the runner runs it (bash -eo pipefail, its inputs in its env, the
outputs file) with this checkout's trebuchet on PATH: shards of demolib
version 1 run, merged and gated pass; version 2's regression is gated
exit 1 with its outputs set; a bad input is one `::error` line, exit 2."""
import re
import subprocess

import pytest
import yaml

from conftest import ROOT, TREBUCHET, trebuchet
from test_gate import build_demolib

SPEC = str(ROOT / "tests/demolib/demolib.yaml")
ACTION = yaml.safe_load((ROOT / "action.yml").read_text())
[STEP] = [step for step in ACTION["runs"]["steps"] if step.get("id") == "trebuchet"]


def action(cwd, **given):
    """Runs the step in cwd with the inputs given (the others at their
    defaults); returns (exit code, {output: value}, stdout + stderr)."""
    inputs = {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()}
    inputs.update(given)
    env = {name: inputs[re.fullmatch(r"\$\{\{ inputs\.([a-z-]+) \}\}", value)[1]]
           for name, value in STEP["env"].items()}
    outputs, summary = cwd / "github-output", cwd / "step-summary"
    outputs.write_text("")
    env.update(PATH=f"{TREBUCHET.parent}:/usr/bin:/bin", GITHUB_OUTPUT=str(outputs),
               GITHUB_STEP_SUMMARY=str(summary))
    done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", STEP["run"]],
                          cwd=cwd, env=env, capture_output=True, text=True)
    written = dict(line.split("=", 1) for line in outputs.read_text().splitlines())
    return done.returncode, written, done.stdout + done.stderr


def shards(version, cwd, n=2):
    build_demolib(version)
    cwd.mkdir()
    for k in range(1, n + 1):
        code, out, text = action(cwd, mode="run", spec=SPEC, shard=f"{k}/{n}", args="--quiet")
        assert (code, out) == (0, {"db": f"shard-{k}.db", "exit-code": "0",
                                   "verdict": "finished"}), text
    return cwd


@pytest.fixture
def baseline(tmp_path):
    """demolib version 1's baseline, from a run of it whole."""
    db, path = tmp_path / "v1.db", tmp_path / "demolib.baseline"
    build_demolib(1)
    trebuchet("run", "--target", SPEC, "--db", db, "--quiet")
    trebuchet("baseline", "--db", db, "--target", SPEC, "--out", path)
    yield path
    build_demolib(1)


def test_shards_of_an_unchanged_library_merge_and_pass(tmp_path, baseline):
    work = shards(1, tmp_path / "v1")
    code, out, text = action(work, mode="gate", baseline=str(baseline))
    assert code == 0, text
    assert out == {"db": "merged.db", "exit-code": "0", "verdict": "pass", "report": "gate.txt",
                   "junit": "junit.xml", "sarif": "trebuchet.sarif"}
    assert (work / "gate.txt").read_text() in text
    assert (work / "step-summary").read_text().startswith("### trebuchet gate: exit 0\n")


def test_a_regression_fails_the_step_with_its_files_as_outputs(tmp_path, baseline):
    work = shards(2, tmp_path / "v2")
    code, out, text = action(work, mode="gate", baseline=str(baseline), args="--confirm 1")
    assert code == 1, text
    assert (out["exit-code"], out["verdict"], out["reproducers"]) == ("1", "regressed",
                                                                     "reproducers")
    assert "demo_count" in (work / out["sarif"]).read_text()
    assert any((work / "reproducers").iterdir())
    # shards that do not make one run: merge's refusal is the step's
    code, out, text = action(work, mode="gate", baseline=str(baseline), merge="shard-2.db",
                             db="alone.db")
    assert (code, out) == (2, {"db": "alone.db", "exit-code": "2", "verdict": "bad-input"}), text
    assert "shard 1 of 2 missing: merge wants every shard" in text, text
    # a run not sharded is gated as it is when merge is empty
    code, out, text = action(work, mode="gate", baseline=str(baseline), merge="",
                             db="shard-1.db", junit="", sarif="", reproducers="")
    assert code == 2 and out["verdict"] == "bad-input", text  # one shard alone is refused
    assert set(out) == {"db", "exit-code", "verdict", "report"}


@pytest.mark.parametrize("inputs, error", [
    (dict(mode="check"), 'input mode: "check" is neither run nor gate'),
    (dict(mode="run"), "input spec: needed by mode run"),
    (dict(mode="run", spec=SPEC, shard="3/2"), 'input shard: "3/2" is not K/N'),
    (dict(mode="run", spec=SPEC, shard="two"), 'input shard: "two" is not K/N'),
    (dict(mode="gate"), "input baseline: needed by mode gate"),
    (dict(mode="gate", baseline="b"), "input merge: no store matches shard-*.db"),
])
def test_a_bad_input_is_one_error_line_and_exit_2(tmp_path, inputs, error):
    code, _, text = action(tmp_path, **inputs)
    assert code == 2
    assert text.startswith(f"::error title=trebuchet::{error}") and text.count("\n") == 1, text
