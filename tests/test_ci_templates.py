"""The CI templates in docs/ci/ parse, shard the campaign 1..N, merge every
shard's store and gate the merged run; and the trebuchet command lines in
them are ones the CLI accepts."""
import re
import shlex
import shutil
import subprocess

import pytest
import yaml

from conftest import ROOT
from trebuchet.cli import main as cli

CI = ROOT / "docs" / "ci"


def load(name):
    return yaml.safe_load((CI / name).read_text())


def commands(lines, word):
    """The `trebuchet WORD ...` command lines among lines (pipes cut off)."""
    found = [line.split(" | ")[0].strip() for text in lines for line in text.splitlines()
             if line.strip().startswith(f"trebuchet {word} ")]
    assert found, f"no `trebuchet {word}` command"
    return found


def accepted(command, **values):
    """Parses command with the CLI's own parser, its variables replaced by values."""
    for name, value in values.items():
        command = command.replace(name, str(value))
    assert "$" not in command, command
    return cli.parser().parse_args(shlex.split(command)[1:])


@pytest.fixture(scope="module")
def github():
    workflow = load("github-actions.yml")
    jobs = workflow["jobs"]
    return dict(workflow=workflow, env=workflow["env"], shard=jobs["shard"], gate=jobs["gate"])


def uses(job, action):
    return [step for step in job["steps"] if step.get("uses", "").startswith(action)]


# the action as the template uses it: trebuchet copied into the repository
ACTION = "./.github/actions/trebuchet"


def action_steps(job):
    return uses(job, ACTION)


def copy_commands(name):
    """The shell lines a template's opening comment gives to copy trebuchet
    into a repository."""
    return [line.removeprefix("#   ") for line in (CI / name).read_text().splitlines()
            if re.match(r"#   (mkdir|git) ", line)]


def test_github_shards_run_one_each_and_upload_their_store(github):
    # the shard count is written once, as the matrix's length
    assert "SHARDS" not in github["env"]
    shards = github["shard"]["strategy"]["matrix"]["shard"]
    assert shards == list(range(1, len(shards) + 1)) and len(shards) > 1
    [run] = action_steps(github["shard"])
    assert run["with"] == {"mode": "run", "spec": "${{ env.TARGET }}",
                           "shard": "${{ matrix.shard }}/${{ strategy.job-total }}",
                           "db": "shard-${{ matrix.shard }}.db"}
    [upload] = uses(github["shard"], "actions/upload-artifact")
    assert upload["with"]["path"] == run["with"]["db"]
    assert upload["with"]["name"] == "shard-${{ matrix.shard }}"


def test_github_gate_job_merges_every_shard_then_gates(github):
    gate = github["gate"]
    assert gate["needs"] == "shard"
    [download] = uses(gate, "actions/download-artifact")
    assert download["with"] == {"pattern": "shard-*", "merge-multiple": True}
    [step] = action_steps(gate)
    assert step["with"] == {"mode": "gate", "baseline": "${{ env.BASELINE }}",
                            "merge": "shard-*.db", "db": "merged.db", "junit": "junit.xml",
                            "sarif": "trebuchet.sarif", "reproducers": "reproducers",
                            "report": "gate.txt"}
    # everything after the gate runs when it fails, which it does to fail the job
    after = gate["steps"][gate["steps"].index(step) + 1:]
    assert after and all("!cancelled()" in later["if"] for later in after)
    [report] = uses(gate, "actions/upload-artifact")
    written = [step["with"][k] for k in ("db", "report", "junit", "sarif")]
    assert set(written) | {"reproducers/"} <= set(report["with"]["path"].split())
    assert gate["permissions"]["security-events"] == "write"


def test_github_reports_never_fail_a_fork_or_a_repository_without_code_scanning(github):
    gate = github["gate"]
    [junit] = uses(gate, "mikepenz/action-junit-report")
    [sarif] = uses(gate, "github/codeql-action/upload-sarif")
    assert junit["with"]["report_paths"] == "junit.xml"
    assert sarif["with"]["sarif_file"] == "trebuchet.sarif"
    for step in (junit, sarif):
        assert step["continue-on-error"] is True
        assert "github.event.pull_request.head.repo.full_name == github.repository" in step["if"]


def test_github_uses_the_copy_of_the_action_with_inputs_it_declares(github):
    """No tag is needed: the action is the copy in the repository, checked
    out before it is used; the tag's form is the documented alternative."""
    inputs = yaml.safe_load((ROOT / "action.yml").read_text())["inputs"]
    jobs = github["workflow"]["jobs"].values()
    steps = [s for job in jobs for s in action_steps(job)]
    assert len(steps) == 2
    for step in steps:
        assert step["uses"] == ACTION
        assert set(step["with"]) <= set(inputs)
    for job in jobs:
        [checkout] = uses(job, "actions/checkout")
        assert job["steps"].index(checkout) < job["steps"].index(action_steps(job)[0])
    assert copy_commands("github-actions.yml") == [
        "mkdir -p .github/actions/trebuchet",
        "git -C ~/trebuchet archive HEAD | tar -x -C .github/actions/trebuchet",
        "git add .github/actions/trebuchet"]
    assert "`uses: OWNER/trebuchet@vX.Y.Z`" in (CI / "github-actions.yml").read_text()
    # what the gate step names is what the action writes by default
    [gate] = action_steps(github["gate"])
    for name in ("junit", "sarif", "reproducers", "report"):
        assert gate["with"][name] == inputs[name]["default"]


@pytest.fixture(scope="module")
def gitlab():
    return load("gitlab-ci.yml")


def test_gitlab_shards_run_one_each_and_keep_their_store(gitlab):
    shard = gitlab["robustness-shard"]
    n = shard["parallel"]
    assert isinstance(n, int) and n > 1
    [run] = commands(shard["script"], "run")
    args = accepted(run, **{'"$CI_NODE_INDEX/$CI_NODE_TOTAL"': f"2/{n}",
                            '"shard-$CI_NODE_INDEX.db"': "shard-2.db", '"$TARGET"': "mylib"})
    assert args.shard == f"2/{n}" and args.db == "shard-2.db"
    assert shard["artifacts"]["paths"] == ["shard-*.db"]


def test_gitlab_gate_job_merges_every_shard_then_gates(gitlab):
    gate = gitlab["robustness-gate"]
    assert gate["needs"] == ["robustness-shard"]
    assert gitlab["stages"].index(gate["stage"]) > \
        gitlab["stages"].index(gitlab["robustness-shard"]["stage"])
    [merge] = commands(gate["script"], "merge")
    assert accepted(merge.replace("shard-*.db", "shard-1.db")).out == "merged.db"
    [gate_line] = commands(gate["script"], "gate")
    args = accepted(gate_line, **{'"$BASELINE"': "robustness/mylib.baseline"})
    assert (args.db, args.junit, args.sarif, args.emit_c) == \
        ("merged.db", "junit.xml", "trebuchet.sarif", "reproducers")
    assert "set -o pipefail" in gate["script"]
    assert gate["artifacts"]["when"] == "always"
    assert gate["artifacts"]["reports"]["junit"] == "junit.xml"
    assert {"junit.xml", "trebuchet.sarif", "reproducers/"} <= set(gate["artifacts"]["paths"])


def test_gitlab_jobs_install_the_copy_in_the_repository_with_pip(gitlab, tmp_path):
    """No tag is needed: pip installs the copy the template's command makes
    (a folder holding trebuchet's project), or any commit in pip's git form."""
    setup = gitlab[".trebuchet"]["before_script"]
    for job in ("robustness-shard", "robustness-gate"):
        assert gitlab[job]["extends"] == ".trebuchet"
    assert '/opt/trebuchet-venv/bin/pip install -q "$TREBUCHET"' in setup
    assert not any("make -C" in line or "git clone" in line for line in setup)
    folder = gitlab["variables"]["TREBUCHET"]
    assert folder.startswith("./")  # a path to pip, never a name on an index
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: nothing for `git archive` to copy")
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)  # the user's repository
    for line in copy_commands("gitlab-ci.yml"):
        done = subprocess.run(["bash", "-c", line.replace("~/trebuchet", str(ROOT))],
                              cwd=tmp_path, capture_output=True, text=True)
        assert done.returncode == 0, line + done.stderr
    copied = tmp_path / folder
    assert (copied / "pyproject.toml").read_text() == (ROOT / "pyproject.toml").read_text()
    assert (copied / "setup.py").is_file() and (copied / "harness").is_dir()
    assert "git+https://github.com/OWNER/trebuchet.git@COMMIT" in \
        (CI / "gitlab-ci.yml").read_text()


# The linters: actionlint (running shellcheck on every `run:`) and
# check-jsonschema's vendored schemas, fetched by the Makefile's
# test-ci-tools.  Each is shown to catch what it is here for, on a copy of
# the file it passes with one fault put in.

@pytest.fixture(scope="module")
def tools():
    made = subprocess.run(["make", "-s", "-C", str(ROOT), "test-ci-tools"], capture_output=True,
                          text=True)
    assert made.returncode == 0, made.stdout + made.stderr
    assert shutil.which("shellcheck"), "shellcheck is missing (make deps-test installs it)"
    return ROOT / "build/ci-tools"


def actionlint(tools, workflow, root):
    """actionlint's findings on workflow put in a repository at root that
    holds this action.yml where the template's `uses:` finds it, so that
    actionlint checks the inputs given against the action's."""
    if not (tools / "actionlint").exists():
        pytest.skip((tools / "actionlint.missing").read_text().strip())
    (root / ".github/workflows").mkdir(parents=True)
    (root / ".git").mkdir()  # where actionlint sees a repository's root
    (root / ACTION).mkdir(parents=True)
    shutil.copy(ROOT / "action.yml", root / ACTION)
    (root / ".github/workflows/robustness.yml").write_text(workflow)
    found = subprocess.run([str(tools / "actionlint"), "-no-color"], cwd=root,
                           capture_output=True, text=True)
    assert found.returncode in (0, 1), found.stderr
    return found.stdout


def shellcheck(script):
    """shellcheck's findings on a bash script, each ${{ }} expression made a
    plain word as actionlint does."""
    script = re.sub(r"\$\{\{.*?\}\}", "_expr_", script)
    found = subprocess.run(["shellcheck", "-s", "bash", "-f", "gcc", "-"], input=script,
                           capture_output=True, text=True)
    return found.stdout


def schema_errors(tools, schema, text, tmp_path):
    path = tmp_path / f"checked-{schema}.yml"
    path.write_text(text)
    found = subprocess.run([str(ROOT / ".venv/bin/check-jsonschema"), "--builtin-schema",
                            f"vendor.{schema}", str(path)], capture_output=True, text=True)
    return "" if found.returncode == 0 else found.stdout + found.stderr


def test_github_template_passes_actionlint_and_shellcheck(tools, tmp_path):
    template = (CI / "github-actions.yml").read_text()
    assert actionlint(tools, template, tmp_path / "ok") == ""
    # an unquoted variable, as the template had ($SHARDS), and an input the
    # action does not declare
    faulty = template.replace("run: make  # your build", 'run: make -j $JOBS  # your build', 1)
    faulty = faulty.replace("          mode: run\n", "          mode: run\n          shards: 4\n")
    found = actionlint(tools, faulty, tmp_path / "faulty")
    assert "SC2086" in found and 'input "shards" is not defined' in found, found


def test_action_and_gitlab_scripts_pass_shellcheck(gitlab):
    action = yaml.safe_load((ROOT / "action.yml").read_text())
    scripts = [step["run"] for step in action["runs"]["steps"] if "run" in step]
    assert len(scripts) == 4 and all(step.get("shell") == "bash" for step in
                                      action["runs"]["steps"])
    for job in ("robustness-shard", "robustness-gate"):
        merged = {**gitlab[".trebuchet"], **gitlab[job]}
        scripts.append("\n".join(merged["before_script"] + merged["script"]))
    for script in scripts:
        assert shellcheck(script) == "", script
    assert "SC2086" in shellcheck(scripts[-1] + '\necho $CI_NODE_TOTAL\n')


@pytest.mark.parametrize("path, schema, fault", [
    ("docs/ci/github-actions.yml", "github-workflows", ("runs-on: ubuntu-latest", "runs-on: 4.5")),
    ("action.yml", "github-actions", ("using: composite", "using: compost")),
    ("docs/ci/gitlab-ci.yml", "gitlab-ci", ("parallel: 4", "parallel: four")),
])
def test_templates_and_action_pass_their_schemas(tools, tmp_path, path, schema, fault):
    text = (ROOT / path).read_text()
    assert schema_errors(tools, schema, text, tmp_path) == ""
    assert fault[0] in text
    assert schema_errors(tools, schema, text.replace(*fault), tmp_path) != ""
