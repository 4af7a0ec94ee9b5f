"""`trebuchet survey` (`make survey`) over two libraries laid out as the
survey's are (a folder NAME/ with NAME.yaml and survey.md): the findings'
defects library and the latent memory errors' one.  The comparison's
numbers are counted again here with SQL from the store, not taken from the
report's code; the survey resumes, and holds to its budget."""
import json
import shlex
import shutil
import sqlite3
import subprocess

import pytest

from conftest import ROOT, trebuchet

DEFECTS_LIB = ROOT / "build/tests/defects/libdefects.so"

pytestmark = pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind not installed")


def lay_out(folder):
    """examples/ as the survey reads it: defects/ and latent/, each with its
    spec, sources and a survey.md section."""
    DEFECTS_LIB.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["cc", "-O1", "-g", "-shared", "-fPIC", "-o", str(DEFECTS_LIB),
                    str(ROOT / "tests/defects/defects.c")], check=True)
    for name in ("defects", "latent"):
        shutil.copytree(ROOT / "tests" / name, folder / name)
        (folder / name / "survey.md").write_text(f"## The {name} library\n\nIts section.\n")
    spec = folder / "defects" / "defects.yaml"
    spec.write_text(spec.read_text().replace("build/tests/defects/libdefects.so",
                                             str(DEFECTS_LIB)))
    (folder / "notes").mkdir()  # a folder without survey.md is no survey library


def normalized(conn, target, where=""):
    """Mean over functions of (ABORT + RESTART) / (cases - SETUP), in %."""
    rates = [r for (r,) in conn.execute(
        "SELECT 100.0 * sum(outcome IN ('ABORT', 'RESTART')) / sum(outcome != 'SETUP')"
        " FROM results JOIN runs ON runs.id = run_id WHERE target = ? " + where +
        " GROUP BY function", (target,))]
    return sum(rates) / len(rates)


@pytest.fixture(scope="module")
def surveyed(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("survey")
    lay_out(tmp / "examples")
    args = ("survey", "--examples", tmp / "examples", "--db", tmp / "survey.db", "--out",
            tmp / "report", "--sample", "1")
    first = trebuchet(*args)
    again = trebuchet(*args)
    return tmp, first, again


def test_the_comparison_is_the_store_counted_again(surveyed):
    tmp, first, _ = surveyed
    assert first.stdout.splitlines()[-1] == f"survey of 2 libraries in " \
        f"{first.stdout.splitlines()[-1].split(' in ')[1].split(' s:')[0]} s: " \
        f"{tmp / 'report' / 'survey.html'}"
    rows = {r["library"]: r for r in json.loads((tmp / "report/survey.json").read_text())
            ["libraries"]}
    assert list(rows) == ["defects", "latent"]  # by raw rate, highest first
    conn = sqlite3.connect(tmp / "survey.db")
    for name, row in rows.items():
        assert row["failure_rate"] == pytest.approx(normalized(conn, name))
        [(functions, cases)] = conn.execute(
            "SELECT count(DISTINCT function), count(*) FROM results JOIN runs ON runs.id ="
            " run_id WHERE target = ?", (name,))
        assert (row["functions"], row["cases"]) == (functions, cases)
        [(checked, corrupt)] = conn.execute(
            "SELECT count(*), sum(corrupt) FROM memcheck JOIN runs ON runs.id = run_id"
            " WHERE target = ? AND memcheck.outcome = 'PASS'", (name,))
        assert (row["corrupt_checked"], row["corrupt_cases"]) == (checked, corrupt)
        # one PASS case a function (--sample 1), each function with one
        [(passing,)] = conn.execute(
            "SELECT count(DISTINCT function) FROM results JOIN runs ON runs.id = run_id"
            " WHERE target = ? AND outcome = 'PASS'", (name,))
        assert checked == passing
    # latent's errors never crash: 0% failing, and memcheck sees its four of seven
    assert rows["latent"]["failure_rate"] == 0
    assert rows["latent"]["corrupt_cases"] == 4
    # latent's values are plain ints, all acceptable: the same four of seven
    assert rows["latent"]["corrupt_acceptable_checked"] == 7
    assert rows["latent"]["corrupt_acceptable_rate"] == pytest.approx(100 * 4 / 7)
    assert rows["defects"]["findings"] == conn.execute(
        "SELECT count(*) FROM findings JOIN runs ON runs.id = run_id WHERE target ="
        " 'defects'").fetchone()[0]


def test_the_figure_draws_the_table(surveyed):
    tmp, _, _ = surveyed
    survey = json.loads((tmp / "report/survey.json").read_text())
    bars, rows = survey["figure"]["bars"], survey["libraries"]
    assert survey["figure"]["labels"] == [r["library"] for r in rows]
    assert bars["ABORT"] == [pytest.approx(r["abort_rate"], abs=1e-6) for r in rows]
    assert bars["RESTART"] == [pytest.approx(r["restart_rate"], abs=1e-6) for r in rows]
    assert bars["corrupt"] == [pytest.approx(r["corrupt_acceptable_rate"] or 0, abs=1e-6)
                               for r in rows]
    assert (tmp / "report" / survey["figure"]["files"][0]).is_file()


def test_the_page_and_the_text_hold_each_section(surveyed):
    tmp, _, _ = surveyed
    page = (tmp / "report/survey.html").read_text()
    assert "<h1>A survey of 2 C libraries</h1>" in page
    assert '<h2>The defects library</h2>' in page and '<h2>The latent library</h2>' in page
    assert 'href="index.html#findings-defects"' in page
    assert 'id="findings-defects"' in (tmp / "report/index.html").read_text()
    text = (tmp / "report/survey.md").read_text()
    assert text.startswith("# A survey of 2 C libraries\n\nEach library below was run")
    assert "\n| library | version | functions |" in text
    assert text.index("## The defects library") < text.index("## The latent library")


def test_a_second_survey_runs_nothing_again(surveyed):
    tmp, _, again = surveyed
    assert "defects: run stored already" in again.stdout
    assert "latent: run stored already" in again.stdout
    conn = sqlite3.connect(tmp / "survey.db")
    assert conn.execute("SELECT count(*) FROM runs").fetchone() == (2,)


def test_a_spent_budget_stops_it_and_the_same_command_goes_on(tmp_path):
    """Stopped wherever the budget ends (the run, or memcheck after it), the
    same command finishes what was stored instead of starting again."""
    lay_out(tmp_path / "examples")
    args = ("survey", "--examples", tmp_path / "examples", "--db", tmp_path / "s.db", "--out",
            tmp_path / "report", "--sample", "1", "--libraries", "latent")
    # 1 s: less than Valgrind takes to start, so it runs out in the run or in memcheck
    stopped = trebuchet(*args, "--budget", "1", check=False)
    assert stopped.returncode == 130, stopped.stdout + stopped.stderr
    again = shlex.join(map(str, [*args, "--budget", "1"]))
    assert stopped.stdout.splitlines()[-1] in [
        f"the survey's budget (1 s) ran out during {step} of latent; what it stored is kept,"
        f" and `trebuchet {again}` goes on from there" for step in ("the run", "memcheck")]
    trebuchet(*args)
    conn = sqlite3.connect(tmp_path / "s.db")
    # one run, finished: resumed if it was stopped, not made again
    assert conn.execute("SELECT count(*), count(finished) FROM runs").fetchone() == (1, 1)
    # one case checked for each of latent's 7 functions, none twice
    assert conn.execute("SELECT count(*), count(DISTINCT function) FROM memcheck").fetchone() \
        == (7, 7)


def test_an_unknown_library_is_one_line(tmp_path):
    lay_out(tmp_path / "examples")
    refused = trebuchet("survey", "--examples", tmp_path / "examples", "--libraries", "nosuch",
                        check=False)
    assert refused.returncode == 2
    assert refused.stderr == (f"trebuchet: {tmp_path / 'examples'}: no survey library nosuch"
                              f" (the survey's: defects, latent)\n")
