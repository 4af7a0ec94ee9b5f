"""The gate's edges on the runs counted by hand of test_gate_hand.py, each
in well under a second: the spec new failures run again with must be the
gated run's; an executor that fails to run them again is a harness error
(exit 3), not a verdict; the platform line, the dictionary in repro
commands, and how the reruns are counted in the text."""
import json

import pytest

from conftest import ROOT
from test_gate_hand import compared  # noqa: F401
from trebuchet.gate import verdict as gate
from trebuchet.core.errors import HarnessError, TrebuchetError

SPEC = "tests/demolib/demolib.yaml"


def test_reruns_need_the_gated_run_s_spec(compared):  # noqa: F811
    _, db, path = compared
    # the hand-made run records another digest than the spec's: not its spec
    # (and by default, new failures are run again)
    with pytest.raises(TrebuchetError) as e:
        gate.gate(db, path)
    assert str(e.value).startswith(f"{ROOT / SPEC}: the spec {SPEC} is not the one run 2 was"
                                   f" made with (target demolib, digest sha256:")
    assert str(e.value).endswith("); name the right one with --target")
    with pytest.raises(TrebuchetError) as e:
        gate.gate(db, path, confirm=1, spec_name="gone/mylib.yaml")
    assert str(e.value) == (f"{db}: gone/mylib.yaml: no such spec file; run 2 names its spec"
                            f" 'gone/mylib.yaml': run the gate from the folder it ran in, or"
                            f" name the spec with --target")


def test_an_executor_that_cannot_run_them_again_is_a_harness_error(compared, tmp_path):  # noqa: F811
    result, _, _ = compared
    broken = tmp_path / "libnothing.so"
    broken.write_text("not a shared object\n")
    with pytest.raises(HarnessError) as e:
        gate._rerun_once(result.new, broken, 1000, "ours")
    assert str(e.value).startswith("running new failures again failed: ")
    assert e.value.exit_code == 3
    assert all(not n.reruns for n in result.new)


def test_a_baseline_of_another_platform_is_said_second(compared, tmp_path):  # noqa: F811
    result, _, _ = compared
    result.baseline.run = dict(result.baseline.run, libc="glibc 2.19")
    result.info.libc = "glibc 2.36"
    text = gate.as_text(result).splitlines()
    assert text[1] == ("different platforms: libc glibc 2.19 in the baseline, glibc 2.36 in"
                       " run 2 (outcomes on freed memory may legitimately differ between them)")
    assert text[2].startswith("compared 7 cases")


def test_repro_commands_name_a_dictionary_other_than_ours(compared):  # noqa: F811
    result, _, _ = compared
    first = result.new[0]
    assert result.repro_command(first) == \
        f"trebuchet repro --target {SPEC} --function demo_count --case 0"
    result.baseline.run = dict(result.baseline.run, dictionary="ballista")
    assert result.repro_command(first) == \
        f"trebuchet repro --target {SPEC} --function demo_count --case 0 --dictionary ballista"


@pytest.mark.parametrize("confirm, said", [(1, "each run again once on its own"),
                                           (2, "each run again 2 times on its own")])
def test_the_text_says_how_often_each_ran_again(compared, confirm, said):  # noqa: F811
    result, _, _ = compared
    result.confirm = confirm
    for n in result.new:
        n.reruns = [dict(outcome="ABORT", signal=11, exit_status=None)] * confirm
    assert f"new failures: 2, {said}: 2 confirmed, 0 flaky" in gate.as_text(result)
    assert f"failed again on {confirm} of {confirm} reruns" in gate.as_text(result)


def test_a_run_without_findings_against_a_baseline_with_some_says_so(compared):  # noqa: F811
    result, db, _ = compared
    result.baseline.findings = {}
    result.analyzed = False
    assert not result.by_finding
    assert gate.as_text(result).splitlines()[-2] == (
        f"run 2 has no findings made (`trebuchet findings --db {db}` makes them), so it is"
        f" gated case by case")
    assert json.dumps(result.failures) == '["2 confirmed new failures"]'


def test_long_lists_of_flaky_and_fixed_cases_are_cut_too(compared):  # noqa: F811
    result, _, _ = compared
    [first, _] = result.new
    result.confirm = 1
    result.new = [gate.NewFailure(first.function, i, first.values, "ABORT", 11,
                                  reruns=[dict(outcome="PASS", signal=None, exit_status=None)])
                  for i in range(51)]
    result.fixed = [dict(result.fixed[0], case=i) for i in range(52)]
    text = gate.as_text(result).splitlines()
    assert "  ... and 1 more flaky (--junit lists every one)" in text
    assert "  ... and 2 more fixed (the updated baseline's diff shows every one)" in text
    assert sum(line.endswith(": ABORT SIGSEGV, then PASS") for line in text) == 50


def test_at_most_twenty_reproducers_by_case(compared):  # noqa: F811
    result, _, _ = compared
    [first, _] = result.new
    result.new = [gate.NewFailure(first.function, i, first.values, "ABORT", 11)
                  for i in range(21)]
    assert [n.case for n in gate.reproduced(result)] == list(range(20))


def test_a_long_list_of_confirmed_ones_is_counted_by_function(compared):  # noqa: F811
    result, _, _ = compared
    [first, _] = result.new
    result.new = [gate.NewFailure(function, i, first.values, "ABORT", 11)
                  for function, count in (("demo_count", 50), ("demo_clamp", 1))
                  for i in range(count)]
    assert "  by function: demo_clamp 1, demo_count 50" in gate.as_text(result).splitlines()
