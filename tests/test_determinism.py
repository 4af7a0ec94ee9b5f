"""Determinism: two runs of the same campaign give the same outcome, signal,
exit status, errno and error flag for every case."""
from conftest import outcomes, query, trebuchet


def test_two_stdio_campaigns_agree_case_by_case(tmp_path):
    db = tmp_path / "twice.db"
    for _ in range(2):
        trebuchet("run", "--target", "stdio", "--db", db, "--quiet")
    first, second = outcomes(db, 1), outcomes(db, 2)
    assert len(first) > 30000
    assert first.keys() == second.keys()
    differing = {k: (first[k], second[k]) for k in first if first[k] != second[k]}
    assert not differing, f"{len(differing)} cases differ, e.g. {list(differing.items())[:5]}"
    # every spec function is in the store, complete
    names = query(db, "SELECT count(*), sum(cases_run = cases_drawn) FROM functions WHERE run_id = 1")
    assert names[0][0] == names[0][1] >= 25
