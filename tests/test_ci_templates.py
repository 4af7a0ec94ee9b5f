"""The CI templates in docs/ci/ parse, shard the campaign 1..N, merge every
shard's store and gate the merged run; and the trebuchet command lines in
them are ones the CLI accepts."""
import re
import shlex

import pytest
import yaml

from conftest import ROOT
from trebuchet.runner import cli

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
    return cli._parser().parse_args(shlex.split(command)[1:])


@pytest.fixture(scope="module")
def github():
    workflow = load("github-actions.yml")
    jobs = workflow["jobs"]
    return dict(workflow=workflow, env=workflow["env"], shard=jobs["shard"], gate=jobs["gate"])


def runs(job):
    return [step["run"] for step in job["steps"] if "run" in step]


def uses(job, action):
    return [step for step in job["steps"] if step.get("uses", "").startswith(action)]


def test_github_shards_run_one_each_and_upload_their_store(github):
    n = github["env"]["SHARDS"]
    assert github["shard"]["strategy"]["matrix"]["shard"] == list(range(1, n + 1))
    [run] = commands(runs(github["shard"]), "run")
    for k in (1, n):
        args = accepted(run, **{"${{ matrix.shard }}": k, "$SHARDS": n, '"$TARGET"': "mylib"})
        assert args.shard == f"{k}/{n}" and args.db == f"shard-{k}.db"
    [upload] = uses(github["shard"], "actions/upload-artifact")
    assert upload["with"]["path"] == "shard-${{ matrix.shard }}.db"
    assert upload["with"]["name"] == "shard-${{ matrix.shard }}"


def test_github_gate_job_merges_every_shard_then_gates(github):
    gate = github["gate"]
    assert gate["needs"] == "shard"
    [download] = uses(gate, "actions/download-artifact")
    assert download["with"] == {"pattern": "shard-*", "merge-multiple": True}
    [merge] = commands(runs(gate), "merge")
    assert accepted(merge.replace("shard-*.db", "shard-1.db shard-2.db")).out == "merged.db"
    [gate_line] = commands(runs(gate), "gate")
    args = accepted(gate_line, **{'"$BASELINE"': "robustness/mylib.baseline"})
    assert (args.db, args.junit, args.sarif, args.emit_c) == \
        ("merged.db", "junit.xml", "trebuchet.sarif", "reproducers")
    steps = [step.get("name", step.get("uses")) for step in gate["steps"]]
    assert steps.index("Merge the shards") < steps.index("Gate against the baseline")
    # everything after the gate runs when it fails, which it does to fail the job
    after = gate["steps"][steps.index("Gate against the baseline") + 1:]
    assert after and all("!cancelled()" in step["if"] for step in after)
    [sarif] = uses(gate, "github/codeql-action/upload-sarif")
    assert sarif["with"]["sarif_file"] == "trebuchet.sarif"
    assert gate["permissions"]["security-events"] == "write"
    [report] = uses(gate, "actions/upload-artifact")
    assert {"junit.xml", "trebuchet.sarif", "reproducers/"} <= set(report["with"]["path"].split())


def test_github_jobs_install_trebuchet_from_its_repository(github):
    for job in (github["shard"], github["gate"]):
        install = runs(job)[0]
        assert "git clone" in install and re.search(r"make -C \S+ build", install)


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


def test_gitlab_jobs_install_trebuchet_from_its_repository(gitlab):
    setup = gitlab[".trebuchet"]["before_script"]
    for job in ("robustness-shard", "robustness-gate"):
        assert gitlab[job]["extends"] == ".trebuchet"
    assert any("git clone" in line for line in setup)
    assert any(re.search(r"make -C \S+ build", line) for line in setup)
