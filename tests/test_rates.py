"""The rates as docs/architecture.md defines them ("Outcomes and rates"), on a store counted by
hand: SETUP is left out of every denominator, and a function none of whose
cases could be built has no rate, so it is left out of a target's
normalized means and their range instead of counting as 0%."""
import pytest

from conftest import hand_store
from trebuchet.report import metrics
from trebuchet.core.rates import wilson
from trebuchet.store import database as store

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


def test_a_sampled_function_has_wilson_intervals_and_a_whole_one_none(tmp_path):
    """Wilson's score interval at 95% (z = 1.96): 1 failing of 10 is
    1.79%..40.42%, 0 of 5 is 0..z^2 / (5 + z^2), 5 of 5 its mirror."""
    z2 = 1.959963984540054 ** 2
    assert wilson(1, 10) == pytest.approx((1.7876, 40.4150), abs=1e-3)
    assert wilson(0, 5) == pytest.approx((0.0, 100 * z2 / (5 + z2)))
    assert wilson(5, 5) == pytest.approx((100 - 100 * z2 / (5 + z2), 100.0))
    assert wilson(0, 0) == (0.0, 0.0)
    cases = [("int:ZERO", "ABORT")] + [("int:ONE", "PASS")] * 9
    db = hand_store(tmp_path / "s.db", {
        "sampled": dict(signature="int s(int a)", datatypes="int", cases=cases, total=700),
        "whole": dict(signature="int w(int a)", datatypes="int", cases=cases)})
    summary = metrics.summarize(store.connect(db), "demo", 1, db)
    sampled, whole = summary.function("sampled"), summary.function("whole")
    assert sampled.sampled and not whole.sampled
    assert sampled.failure_interval == pytest.approx((1.7876, 40.4150), abs=1e-3)
    assert sampled.abort_interval == sampled.failure_interval
    assert sampled.restart_interval == pytest.approx((0.0, 100 * z2 / (10 + z2)))
    assert whole.failure_interval is None


@pytest.mark.parametrize("signature, names", [
    ("size_t fwrite(const void *ptr, size_t size, size_t nmemb, FILE *stream)",
     ["ptr", "size", "nmemb", "stream"]),
    ("int f(void)", []),
    ("int g(int, char *buf[], unsigned long)", ["arg1", "buf", "arg3"]),
    ("int h(const char *fmt, ...)", ["fmt"]),
])
def test_parameters_are_named_from_the_stored_signature(signature, names):
    assert metrics.parameter_names(signature) == names
