"""A target run from a spec given by its path (tests/demolib/demolib.yaml,
whose `target:` is demolib, a name nothing under targets/ answers to) is
named by that `target:` name wherever a store is read, and the commands
trebuchet prints for it name the spec's path, which finds it again."""
import json
import sqlite3

from conftest import ROOT, hand_store, trebuchet

SPEC = "tests/demolib/demolib.yaml"
COUNT = dict(signature="size_t demo_count(const char *s, int c)", datatypes="string int",
             cases=[("string:NULL int:ZERO", "PASS"), ("string:NULL int:ONE", "ABORT")])


def run_from_path(db, **columns):
    """A stored run of demolib made, as `run --target SPEC` makes it, from
    the spec's path (recorded in runs.spec)."""
    hand_store(db, {"demo_count": COUNT}, target="demolib")
    columns = dict(spec=SPEC, **columns)
    with sqlite3.connect(db) as conn:
        conn.execute(f"UPDATE runs SET {', '.join(f'{c} = ?' for c in columns)}",
                     list(columns.values()))
    return db


def test_baseline_finds_a_run_by_its_target_name_and_records_its_spec(tmp_path):
    db, out = run_from_path(tmp_path / "v1.db"), tmp_path / "kv.baseline"
    made = trebuchet("baseline", "--db", db, "--target", "demolib", "--out", out, cwd=ROOT,
                     check=False)
    assert made.returncode == 0, made.stderr
    assert made.stdout == f"baseline of demolib written to {out}\n"
    written = json.loads(out.read_text())
    assert (written["target"], written["spec"]) == ("demolib", SPEC)
    # by its path it is the same baseline
    again = tmp_path / "again.baseline"
    trebuchet("baseline", "--db", db, "--target", SPEC, "--out", again, cwd=ROOT)
    assert again.read_text() == out.read_text()
    # a name neither the store nor targets/ knows is still refused in one line
    unknown = trebuchet("baseline", "--db", db, "--target", "kv", "--out", out, cwd=ROOT,
                        check=False)
    assert unknown.returncode == 2 and unknown.stderr.startswith("trebuchet: unknown target 'kv'")


def test_merge_names_an_unfinished_shard_s_spec_by_its_path(tmp_path):
    db = run_from_path(tmp_path / "s1.db", finished=None, shard=1, shards=2)
    for target in ([], ["--target", "demolib"], ["--target", SPEC]):
        refused = trebuchet("merge", db, "--out", tmp_path / "m.db", *target, cwd=ROOT,
                            check=False)
        assert refused.returncode == 2
        assert refused.stderr == (f"trebuchet: {db}: shard 1 of 2 of demolib (run 1) is "
                                  f"unfinished: `trebuchet run --target {SPEC} --db {db} "
                                  f"--resume` finishes it\n")
