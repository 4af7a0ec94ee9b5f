"""The rates as DESIGN.md defines them ("Outcomes"), on a store counted by
hand: SETUP is left out of every denominator, and a function none of whose
cases could be built has no rate, so it is left out of a target's
normalized means and their range instead of counting as 0%."""
import pytest

from conftest import hand_store
from trebuchet.reports import metrics, store

FUNCTIONS = {
    # 3 tested: 1 ABORT, 1 RESTART
    "f": dict(signature="int f(int a)", datatypes="int",
              cases=[("int:ZERO", "ABORT"), ("int:ONE", "RESTART"), ("int:NEG_ONE", "PASS"),
                     ("int:INT_MAX", "SETUP")]),
    # none tested
    "g": dict(signature="int g(int a)", datatypes="int",
              cases=[("int:ZERO", "SETUP"), ("int:ONE", "SETUP"), ("int:NEG_ONE", "SETUP")]),
    # 2 tested: 1 ABORT
    "h": dict(signature="int h(int a)", datatypes="int",
              cases=[("int:ZERO", "PASS"), ("int:ONE", "ABORT"), ("int:INT_MIN", "SETUP")]),
}


@pytest.fixture(scope="module")
def summary(tmp_path_factory):
    db = hand_store(tmp_path_factory.mktemp("rates") / "hand.db", FUNCTIONS)
    return metrics.summarize(store.connect(db), "demo", 1, db)


def test_setup_cases_are_in_no_denominator(summary):
    f = summary.function("f")
    assert (f.cases, f.setups, f.tested) == (4, 1, 3)
    assert f.abort_rate == pytest.approx(100 / 3)
    assert f.restart_rate == pytest.approx(100 / 3)
    assert f.failure_rate == pytest.approx(200 / 3)
    assert summary.function("h").failure_rate == pytest.approx(50)


def test_a_function_with_no_tested_case_is_left_out_of_the_means(summary):
    g = summary.function("g")
    assert (g.cases, g.tested, g.failure_rate) == (3, 0, 0.0)
    # the mean of f's and h's rates: g counted as 0% would make them a third lower
    assert summary.abort_rate == pytest.approx((100 / 3 + 50) / 2)
    assert summary.restart_rate == pytest.approx((100 / 3 + 0) / 2)
    assert summary.failure_rate == pytest.approx((200 / 3 + 50) / 2)
    assert (summary.min_failure_rate, summary.max_failure_rate) == pytest.approx((50, 200 / 3))
    assert summary.cases == 10
