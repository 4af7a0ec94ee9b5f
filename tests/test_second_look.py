"""The watchdog's second look (harness/forkserver.h): a call stopped by its
CPU limit or its wall-clock deadline is run once more, alone, at four times
both, before it is called RESTART; one that then returns is PASS, stored
with its CPU time and named as slow.  `repro`, and so the gate's --confirm
reruns, take the same second look.  selftest's st_compute computes for
1.2 s of CPU, just past the 1 s CPU limit of --timeout 1; st_spin computes
for ever."""
import sqlite3

from conftest import trebuchet

COMPUTE_US = 1_200_000  # targets/selftest/selftest.h, ST_COMPUTE_US


def test_a_call_just_past_the_limit_passes_on_its_second_look_and_a_spin_stays_restart(tmp_path):
    db = tmp_path / "look.db"
    said = trebuchet("run", "--target", "selftest", "--functions", "st_compute,st_spin",
                     "--cap", 1, "--timeout", 1, "--db", db).stdout
    with sqlite3.connect(db) as conn:
        rows = dict((f, (o, cpu)) for f, o, cpu in conn.execute(
            "SELECT function, outcome, second_look_cpu_us FROM results"))
    outcome, cpu_us = rows["st_compute"]
    assert outcome == "PASS" and COMPUTE_US <= cpu_us < 4_000_000
    outcome, cpu_us = rows["st_spin"]
    # stopped on its second look by four times the 1 s limit, not by the first
    assert outcome == "RESTART" and cpu_us > 2_000_000
    assert "1 slow case (passed only on a second look, alone at 4x the limits): st_compute" \
        in said
    assert "1 slow case" in trebuchet("findings", "--db", db).stdout

    repro = trebuchet("repro", "--target", "selftest", "--function", "st_compute", "--case", 0,
                      "--timeout", 1).stdout
    assert repro.startswith("st_compute() case 0: PASS, returned 0")
    assert "slow: it returned only when run again alone at 4x the limits" in repro
