"""`trebuchet bench report` prints what a report costs: the whole command's
median and range, then each step, the heat maps' own time (drawn in a
second process) beside the rest but not added into the sum, since they
overlap it."""
import re

from conftest import trebuchet
from test_report_pages import load_store

STEP = re.compile(r"^ +(\d+\.\d\d) s  (.+)$", re.M)


def test_the_steps_add_up_to_all_but_the_heat_maps_drawn_meanwhile(tmp_path):
    db = load_store(tmp_path / "small.db")
    out = trebuchet("bench", "report", "--db", db, "--repeat", "1").stdout
    assert f"trebuchet report of {db} (" in out
    assert "whole command, 1 time after a warm-up: median " in out
    steps = {name: float(s) for s, name in STEP.findall(out)}
    total = steps.pop("in all (not Python's start nor the first imports)")
    heat = steps.pop("(d) heat maps, drawn in that process meanwhile")
    assert heat > 0
    assert list(steps)[-1] == "summary and index"
    # each printed to two places: the sum of the rounded may differ by that
    assert abs(sum(steps.values()) - total) <= 0.005 * len(steps) + 1e-9
