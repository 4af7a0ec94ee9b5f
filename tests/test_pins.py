"""Targeted campaigns: `run --pin` draws only the cases whose pinned
parameters hold the pinned values, and `run --values-file` runs exactly the
cases it lists; either way a case keeps its index in the function's whole
product.  The expected cases are worked out here from `trebuchet list
datatypes` and the spec's parameter order (stdio's fwrite: ptr buffer,
size size, nmemb size, stream FILE; fputs: s string, stream FILE), and the
sample from the draw as tests/test_case_draw.py writes it again from its
description."""
import itertools
import json
import shutil
import sqlite3

import pytest

from conftest import datatype_values, query, trebuchet
from test_case_draw import draw

FWRITE = (("ptr", "buffer"), ("size", "size"), ("nmemb", "size"), ("stream", "FILE"))
FPUTS = (("s", "string"), ("stream", "FILE"))


def product(params, held=None):
    """[(case index, value names)] of the whole product of params, in
    index order (the last parameter fastest), keeping the tuples whose
    parameters named in held ({param: [values]}) hold one of those."""
    held = held or {}
    lists = [datatype_values()[datatype] for _, datatype in params]
    cases = []
    for index, values in enumerate(itertools.product(*lists)):
        if all(v in held.get(name, [v]) for (name, _), v in zip(params, values)):
            names = " ".join(f"{d}:{v}" for (_, d), v in zip(params, values))
            cases.append((index, names))
    return cases


def stored(db, function="fwrite"):
    return query(db, "SELECT case_index, value_names FROM results WHERE function = ?"
                     " ORDER BY case_index", function)


def run(db, *args):
    return trebuchet("run", "--target", "stdio", "--db", db, "--quiet", *args)


@pytest.fixture(scope="module")
def pinned(tmp_path_factory):
    """fwrite with stream and size held to two values each, drawn at cap 60
    of the 468 cases they leave."""
    db = tmp_path_factory.mktemp("pins") / "pinned.db"
    run(db, "--functions", "fwrite", "--pin", "stream=FILE:NULL,CLOSED",
        "--pin", "fwrite.size=ZERO,ONE", "--cap", 60)
    return db


def test_a_pin_holds_exactly_the_product_with_that_value(tmp_path):
    db = tmp_path / "null.db"
    # its other parameters' whole lists: 13 x 9 x 9 = 1053 cases, under the cap
    run(db, "--functions", "fwrite", "--pin", "stream=FILE:NULL")
    expected = product(FWRITE, {"stream": ["NULL"]})
    assert len(expected) == len(product(FWRITE)) // len(datatype_values()["FILE"])
    assert stored(db) == expected
    assert query(db, "SELECT pins FROM runs") == [("fwrite.stream#3=FILE:NULL",)]
    assert query(db, "SELECT cases_total, cases_drawn, cases_run FROM functions") == \
        [(len(product(FWRITE)), len(expected), len(expected))]


def test_two_values_on_two_parameters_are_drawn_from_their_product(pinned):
    held = {"stream": ["NULL", "CLOSED"], "size": ["ZERO", "ONE"]}
    allowed = product(FWRITE, held)
    assert len(allowed) == 13 * 2 * 9 * 2
    # the sample is the usual draw over the pinned product, named in the whole one
    chosen = [allowed[i] for i in draw(len(allowed), 60, 1, "fwrite")]
    assert stored(pinned) == chosen
    assert query(pinned, "SELECT pins FROM runs") == \
        [("fwrite.size#1=size:ZERO,size:ONE fwrite.stream#3=FILE:NULL,FILE:CLOSED",)]


def test_the_run_shows_its_pins(pinned):
    shown = "fwrite.size=size:ZERO,size:ONE fwrite.stream=FILE:NULL,FILE:CLOSED"
    assert f"targeted: {shown})" in \
        trebuchet("findings", "--db", pinned).stdout.splitlines()[0]
    assert json.loads(trebuchet("findings", "--db", pinned, "--json").stdout)[0]["targeted"] \
        == shown
    records = json.loads(trebuchet("export", "--db", pinned).stdout)
    assert {r["run_pins"] for r in records} == {shown}


def test_without_functions_a_pin_runs_the_functions_it_holds(tmp_path):
    db = tmp_path / "fputs.db"
    run(db, "--pin", "fputs.stream=NULL")
    assert query(db, "SELECT functions FROM runs") == [("fputs",)]
    assert stored(db, "fputs") == product(FPUTS, {"stream": ["NULL"]})


def interrupted(db, copy, keep):
    """A copy of a finished run's store as a kill leaves it: unfinished, its
    first keep results of each function stored, the rest not."""
    shutil.copy(db, copy)
    with sqlite3.connect(copy) as conn:
        conn.execute("UPDATE runs SET finished = NULL")
        conn.execute("UPDATE functions SET cases_run = 0")
        conn.execute("DELETE FROM results WHERE case_index NOT IN (SELECT case_index FROM"
                     " results r WHERE r.function = results.function ORDER BY case_index"
                     f" LIMIT {keep})")
        conn.execute("DELETE FROM crash_sites WHERE (function, case_index) NOT IN"
                     " (SELECT function, case_index FROM results)")
    return copy


def test_a_resumed_pinned_run_runs_the_pinned_cases(pinned, tmp_path):
    killed = interrupted(pinned, tmp_path / "killed.db", 25)
    assert len(stored(killed)) == 25
    # neither the pins nor the cap given again: the run's own are used
    run(killed, "--resume")
    assert stored(killed) == stored(pinned)
    assert query(killed, "SELECT count(*), count(finished) FROM runs") == [(1, 1)]


def test_the_shards_of_a_pinned_run_hold_its_cases_once(pinned, tmp_path):
    shards = [tmp_path / f"shard{k}.db" for k in (1, 2)]
    for k, db in enumerate(shards, 1):
        run(db, "--functions", "fwrite", "--pin", "stream=NULL,CLOSED",
            "--pin", "fwrite.size=ZERO,ONE", "--cap", 60, "--shard", f"{k}/2")
    held = [stored(db) for db in shards]
    assert sorted(sum(held, [])) == stored(pinned)
    assert all(len(h) == 30 for h in held)
    trebuchet("merge", *shards, "--out", tmp_path / "merged.db")
    assert stored(tmp_path / "merged.db") == stored(pinned)
    assert query(tmp_path / "merged.db", "SELECT pins FROM runs") == \
        query(pinned, "SELECT pins FROM runs")


VALUES_FILE = """\
# two cases of fwrite and one of fputs, one of them twice
fwrite buffer:VALID,size:ONE,size:ONE,FILE:NULL

fputs string:NULL,FILE:WRITE   # values as repro --values takes them
fwrite VALID ONE PAGE CLOSED
fwrite buffer:VALID,size:ONE,size:ONE,FILE:NULL
"""


def repro_index(function, values):
    return json.loads(trebuchet("repro", "--target", "stdio", "--function", function,
                                "--values", values, "--json").stdout)["case"]


def test_a_values_file_runs_exactly_its_cases(tmp_path):
    listed, db = tmp_path / "cases.txt", tmp_path / "listed.db"
    listed.write_text(VALUES_FILE)
    run(db, "--values-file", listed)
    fwrite = sorted([repro_index("fwrite", "buffer:VALID,size:ONE,size:ONE,FILE:NULL"),
                     repro_index("fwrite", "VALID,ONE,PAGE,CLOSED")])
    assert [i for i, _ in stored(db)] == fwrite
    assert stored(db) == [c for c in product(FWRITE) if c[0] in fwrite]
    fputs = product(FPUTS, {"s": ["NULL"], "stream": ["WRITE"]})
    assert stored(db, "fputs") == fputs
    assert query(db, "SELECT functions, pins FROM runs") == [("fwrite,fputs", "")]
    # resumed, it runs what is left of its list, nothing drawn
    killed = interrupted(db, tmp_path / "killed.db", 1)
    run(killed, "--resume")
    assert query(killed, "SELECT function, case_index FROM results ORDER BY 1, 2") == \
        query(db, "SELECT function, case_index FROM results ORDER BY 1, 2")


@pytest.mark.parametrize("pin, says", [
    ("stream=FOO", "--pin stream=FOO: fwrite's stream (datatype FILE) has no value FOO"),
    ("whence=SET", "--pin whence=SET: no function run has a parameter whence"),
    ("fwrite.whence=SET", "fwrite has no parameter whence (its parameters: ptr, size, nmemb,"),
    ("fputs.stream=NULL", "fputs is not among the functions run"),
    ("stream", "--pin wants PARAM=VALUE[,VALUE...] or FUNCTION.PARAM=VALUE,..., not 'stream'"),
])
def test_a_bad_pin_is_one_line_and_exit_2(tmp_path, pin, says):
    db = tmp_path / "bad.db"
    result = trebuchet("run", "--target", "stdio", "--functions", "fwrite", "--pin", pin,
                       "--db", db, check=False)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and says in result.stderr
    assert not db.exists()


@pytest.mark.parametrize("text, says", [
    ("# fine\n\nfwrite VALID,ONE,ONE\n", "cases.txt:3: fwrite takes 4 values, got 3"),
    ("fwrite VALID,ONE,ONE,NULL\nfopen_x NULL\n",
     "cases.txt:2: target stdio has no function 'fopen_x'"),
    ("fwrite VALID,ONE,ONE,NULLX\n", "cases.txt:1: datatype FILE has no value NULLX"),
    ("fwrite VALID,int:ONE,ONE,NULL\n", "cases.txt:1: parameter size is of datatype size"),
    ("# nothing\n", "cases.txt: lists no case"),
])
def test_a_bad_values_line_is_one_line_naming_it_and_exit_2(tmp_path, text, says):
    listed, db = tmp_path / "cases.txt", tmp_path / "bad.db"
    listed.write_text(text)
    result = trebuchet("run", "--target", "stdio", "--values-file", listed, "--db", db,
                       check=False)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and says in result.stderr
    assert not db.exists()


def test_a_pinned_run_gates_only_against_a_baseline_of_the_same_pins(pinned, tmp_path):
    db, base = tmp_path / "gated.db", tmp_path / "pinned.baseline"
    shutil.copy(pinned, db)
    trebuchet("baseline", "--db", db, "--target", "stdio", "--out", base)
    assert trebuchet("gate", "--db", db, "--baseline", base, "--confirm", 0).returncode == 0
    run(db, "--functions", "fwrite", "--cap", 60)  # the whole product: other cases
    result = trebuchet("gate", "--db", db, "--baseline", base, "--confirm", 0, check=False)
    assert result.returncode == 2
    assert result.stderr.strip().endswith(
        "its targeted (fwrite.size=size:ZERO,size:ONE fwrite.stream=FILE:NULL,FILE:CLOSED"
        " in the baseline, none in run 2) differ")


def test_the_shards_of_a_values_file_run_merge_into_its_list(tmp_path):
    listed = tmp_path / "cases.txt"
    listed.write_text(VALUES_FILE)
    shards = [tmp_path / f"shard{k}.db" for k in (1, 2)]
    for k, db in enumerate(shards, 1):
        run(db, "--values-file", listed, "--shard", f"{k}/2")
    assert [len(query(db, "SELECT 1 FROM results")) for db in shards] == [2, 1]
    merged = tmp_path / "merged.db"
    trebuchet("merge", *shards, "--out", merged)
    every = "SELECT function, case_index FROM {} ORDER BY 1, 2"
    assert query(merged, every.format("results")) == query(merged, every.format("listed_cases"))
    assert len(query(merged, every.format("listed_cases"))) == 3
    assert "targeted: the 3 cases of its values file" in \
        trebuchet("findings", "--db", merged).stdout.splitlines()[0]
