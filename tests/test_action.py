"""The GitHub Action run as the runner runs it (bash -eo pipefail, its
inputs in its env, the outputs file).  The template's steps, in a
repository holding a copy of trebuchet made by the template's own copy
command and used as `uses: ./.github/actions/trebuchet`, every step of the
action: shards of demolib version 1 run, merged and gated pass.  The step
that runs trebuchet on its own, with this checkout's trebuchet on PATH:
version 2's regression is gated exit 1 with its outputs set; a bad input
is one `::error` line, exit 2."""
import os
import re
import shutil
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


TEMPLATE = (ROOT / "docs/ci/github-actions.yml").read_text()
EXPRESSION = re.compile(r"\$\{\{\s*([\w.-]+)\s*\}\}")


@pytest.fixture
def vendored(tmp_path):
    """A repository with trebuchet copied in by the template's command (from
    this checkout's last commit), and a runner's temporary folder that holds
    trebuchet's virtual environment already: the action's install is
    `pip install` of the copy, a build of minutes, done once a job."""
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: nothing for `git archive` to copy")
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    copy = [line.removeprefix("#   ") for line in TEMPLATE.splitlines()
            if re.match(r"#   (mkdir|git) ", line)]
    assert len(copy) == 3, copy
    for line in copy:
        done = subprocess.run(["bash", "-c", line.replace("~/trebuchet", str(ROOT))], cwd=repo,
                              capture_output=True, text=True)
        assert done.returncode == 0, line + done.stderr
    temp = tmp_path / "runner-temp"
    temp.mkdir()
    (temp / "trebuchet-venv").symlink_to(TREBUCHET.parent.parent)
    return repo, temp


def _value(text, contexts):
    return EXPRESSION.sub(lambda m: str(contexts[m[1]]), text)


def _holds(condition, inputs):
    """A step's `if:`, of the one form action.yml uses."""
    name, value = re.fullmatch(r"inputs\.([\w-]+) == '([^']*)'", condition).groups()
    return inputs[name] == value


def run_as_runner(repo, temp, step, contexts):
    """Runs the template's step, whose `uses:` names a folder of repo, as
    the runner does: every step of that folder's action.yml in turn, in the
    repository, each with its inputs and the runner's files, a GITHUB_PATH
    line put on the next steps' PATH; returns (exit code, outputs, text)."""
    folder = repo / step["uses"]
    action = yaml.safe_load((folder / "action.yml").read_text())
    inputs = {name: str(spec.get("default", "")) for name, spec in action["inputs"].items()}
    inputs.update({name: _value(str(value), contexts) for name, value in step["with"].items()})
    files = {name: temp / name.lower() for name in ("GITHUB_OUTPUT", "GITHUB_PATH",
                                                   "GITHUB_STEP_SUMMARY")}
    for path in files.values():
        path.write_text("")
    said = ""
    for own in action["runs"]["steps"]:
        if "if" in own and not _holds(own["if"], inputs):
            continue
        added = files["GITHUB_PATH"].read_text().split()
        env = {name: _value(value, {f"inputs.{k}": v for k, v in inputs.items()})
               for name, value in own.get("env", {}).items()}
        env.update({name: str(path) for name, path in files.items()},
                   PATH=":".join([*reversed(added), "/usr/bin", "/bin"]), HOME=str(temp),
                   RUNNER_TEMP=str(temp), GITHUB_ACTION_PATH=str(folder),
                   GITHUB_WORKSPACE=str(repo))
        done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c",
                               own["run"]], cwd=repo, env=env, capture_output=True, text=True)
        said += done.stdout + done.stderr
        if done.returncode:
            break
    outputs = dict(line.split("=", 1) for line in files["GITHUB_OUTPUT"].read_text().splitlines())
    return done.returncode, outputs, said


def test_the_template_vendored_runs_shards_that_merge_and_pass(vendored, baseline):
    repo, temp = vendored
    jobs = yaml.safe_load(TEMPLATE)["jobs"]
    [shard] = [s for s in jobs["shard"]["steps"] if s.get("uses", "").startswith("./")]
    [gate] = [s for s in jobs["gate"]["steps"] if s.get("uses", "").startswith("./")]
    contexts = {"env.TARGET": SPEC, "env.BASELINE": baseline, "strategy.job-total": 2}
    for k in (1, 2):
        code, out, text = run_as_runner(repo, temp, shard, {**contexts, "matrix.shard": k})
        assert (code, out) == (0, {"db": f"shard-{k}.db", "exit-code": "0",
                                   "verdict": "finished"}), text
    assert f"trebuchet {version()}" in text  # the install step's, from the copy's action
    code, out, text = run_as_runner(repo, temp, gate, contexts)
    assert code == 0, text
    assert out == {"db": "merged.db", "exit-code": "0", "verdict": "pass", "report": "gate.txt",
                   "junit": "junit.xml", "sarif": "trebuchet.sarif"}
    assert (repo / "gate.txt").read_text() in text
    assert (temp / "github_step_summary").read_text().startswith("### trebuchet gate: exit 0\n")


def version():
    return re.search(r'^version = "(.*)"$', (ROOT / "pyproject.toml").read_text(), re.M)[1]


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
