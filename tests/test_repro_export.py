"""`repro --json` and `export` say the same of a case: every key the two
records share holds the same value, as the store keeps it (null, not -1,
for no signal; frames a list).  Run again on its own, a case of these
functions ends as it did in the campaign: only its duration differs."""
import json

from conftest import trebuchet
from trebuchet.build import plugins as build
from trebuchet.run import repro
from trebuchet.harness import executor
from trebuchet.spec import load as specs

# PASS, ABORT by a signal and by exit(), RESTART with stderr, SETUP, and a
# PASS whose cleanup crashed: every field set and unset
FUNCTIONS = "st_return,st_crash,st_exit,st_complain,st_take_value"
SHARED = {"function", "case", "values", "outcome", "signal", "exit_status", "ret", "errno",
          "error_reported", "setup_param", "setup_errno", "setup_reason", "cleanup_failed", "stderr",
          "frames"}


def test_repro_json_and_export_agree_on_every_key_they_share(tmp_path):
    db = tmp_path / "selftest.db"
    trebuchet("run", "--target", "selftest", "--functions", FUNCTIONS, "--cap", "20",
              "--timeout", "0.2", "--db", db, "--quiet")
    exported = json.loads(trebuchet("export", "--db", db).stdout)
    assert {r["outcome"] for r in exported} == {"PASS", "ABORT", "RESTART", "SETUP"}
    # every case again in one executor, as `repro` runs one
    cases = tmp_path / "cases"
    cases.write_text("".join(f"{r['function']} {r['case']}\n" for r in exported))
    plugin = build.build_plugin(specs.load(specs.find_spec("selftest")), quiet=True)
    again = [repro.as_record(r) for r in executor.run_cases(plugin, cases, timeout=0.2)]
    # times, the same key in both and measured afresh
    assert set(again[0]) & set(exported[0]) == SHARED | {"duration_us", "second_look_cpu_us"}
    for record, result in zip(exported, again):
        assert {k: result[k] for k in SHARED} == {k: record[k] for k in SHARED}
    # and the command prints that record
    crashed = next(r for r in exported if r["function"] == "st_crash")
    printed = json.loads(trebuchet("repro", "--target", "selftest", "--function", "st_crash",
                                   "--case", crashed["case"], "--json").stdout)
    assert {k: printed[k] for k in SHARED} == {k: crashed[k] for k in SHARED}
