"""Why a SETUP case's value could not be built: the reason its setup gave
(tb_setup_fail), the errno it left, or how it died, kept in the store and
shown by `repro`, `export` and the function's page.  The selftest's ordeal
values fail in each way, by hand (targets/selftest/selftest_values.c)."""
import html
import json

import pytest

from conftest import query, trebuchet

RUN = ("--target", "selftest", "--functions", "st_take_value", "--timeout", "0.5")
REPRO = ("--target", "selftest", "--function", "st_take_value", "--timeout", "0.5")
# value -> (setup_errno, setup_reason, signal) as the store must hold them:
# the errno the setup left (ENOENT 2, EACCES 13) where it returned, none
# where it died (SIGSEGV 11) or hung (killed, SIGKILL 9)
STORED = {"ordeal:SETUP_FAILS": (2, None, None),
          "ordeal:SETUP_SAYS_WHY": (13, "the lock file ordeal.lock is held", None),
          "ordeal:SETUP_CRASHES": (None, None, 11),
          "ordeal:SETUP_HANGS": (None, None, 9)}
SAID = {"ordeal:SETUP_FAILS": "errno ENOENT",
        "ordeal:SETUP_SAYS_WHY": "the lock file ordeal.lock is held (errno EACCES)",
        "ordeal:SETUP_CRASHES": "its setup died of SIGSEGV",
        "ordeal:SETUP_HANGS": "its setup hung"}


@pytest.fixture(scope="module")
def campaign(tmp_path_factory):
    db = tmp_path_factory.mktemp("setup") / "selftest.db"
    trebuchet("run", *RUN, "--db", db, "--quiet")
    return db


def test_the_store_keeps_why_each_value_was_not_built(campaign):
    rows = query(campaign, "SELECT value_names, setup_errno, setup_reason, signal FROM results"
                           " WHERE outcome = 'SETUP'")
    assert {r[0]: tuple(r[1:]) for r in rows} == STORED
    # a case that was built has no reason
    assert query(campaign, "SELECT count(*) FROM results WHERE outcome != 'SETUP' AND"
                           " (setup_errno IS NOT NULL OR setup_reason IS NOT NULL)") == [(0,)]


@pytest.mark.parametrize("value", sorted(SAID))
def test_repro_says_why(value):
    line = trebuchet("repro", *REPRO, "--values", value).stdout.strip()
    assert line.endswith(f": SETUP, parameter 0 could not be built: {SAID[value]}"), line


def test_export_and_repro_json_hold_the_same_reason(campaign):
    exported = {r["values"][0]: r for r in json.loads(trebuchet("export", "--db", campaign).stdout)}
    for value, (err, reason, _) in STORED.items():
        assert (exported[value]["setup_errno"], exported[value]["setup_reason"]) == (err, reason)
        printed = json.loads(trebuchet("repro", *REPRO, "--values", value, "--json").stdout)
        assert (printed["setup_errno"], printed["setup_reason"]) == (err, reason)


def test_the_function_page_lists_each_value_with_why(campaign, tmp_path):
    trebuchet("report", "--db", campaign, "--out", tmp_path / "report")
    page = html.unescape((tmp_path / "report" / "selftest-st_take_value.html").read_text())
    assert "Values that could not be built" in page
    for value, said in SAID.items():
        # one row each: parameter, value, why, cases (1), the first case's command
        assert f"<td>value</td><td><code>{value}</code></td><td>{said}</td>" in page, said
    assert page.count('<td class="num">1</td>') >= len(SAID)


def test_the_words_for_each_way_a_setup_fails():
    from trebuchet.core.readable import setup_why
    assert setup_why(13, "x" * 159) == "x" * 159 + " (errno EACCES)"
    assert setup_why(0, "said alone") == "said alone"
    assert setup_why(0, None) == "its setup gave no reason"
    assert setup_why(None, None, 24) == "its setup hung"  # SIGXCPU: the CPU limit
    assert setup_why(2, "ignored", 7) == "its setup died of SIGBUS"

