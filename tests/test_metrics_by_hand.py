"""src/trebuchet/report/metrics.py on stores counted by hand: the per-value statistics,
the real-stream rate, the runs a report reads, the study's figures and the
pairs, and the benchmarks' medians and intervals.  Every expected number
below is worked out in the comments beside it, not by the code under test."""
import sqlite3

import pytest

from conftest import ROOT, hand_store
from trebuchet.report import metrics
from trebuchet.study import bench_stats
from trebuchet.core import readable
from trebuchet.store.runs import latest_runs, report_runs
from trebuchet.store import database as store
from trebuchet.store import bench as bench_tables

# a: 3 values, s: 2; case 5 is SETUP.  Tested 5, failing 3 (2 ABORT, 1 RESTART).
#   a=int:NEG   1 of 1 fails (100%), the others 2 of 4 (50%): raises 50 pp
#   a=int:ONE   1 of 2 (50%), the others 2 of 3: raises -16.7 pp; int:ZERO alike
#   s=string:NULL  3 of 3, the others 0 of 2: raises 100 pp; EMPTY -100 pp
VALUES = {
    "w": dict(signature="int w(int a, char *s)", datatypes="int string", cases=[
        ("int:ZERO string:NULL", "ABORT", dict(signal=11)),
        ("int:ZERO string:EMPTY", "PASS"),
        ("int:ONE string:NULL", "ABORT", dict(signal=11)),
        ("int:ONE string:EMPTY", "PASS"),
        ("int:NEG string:NULL", "RESTART"),
        ("int:NEG string:EMPTY", "SETUP")]),
    # streams: NULL and CLOSED are no stream; of the two real ones 1 aborts
    "fc": dict(signature="int fc(FILE *stream)", datatypes="FILE", cases=[
        ("FILE:NULL", "ABORT", dict(signal=11)), ("FILE:READ", "ABORT", dict(signal=6)),
        ("FILE:WRITE", "PASS"), ("FILE:CLOSED", "ABORT", dict(signal=11)),
        ("FILE:GARBAGE", "ABORT", dict(signal=7))]),
    # one value only: nothing to compare it with
    "one": dict(signature="int one(int)", datatypes="int", cases=[("int:ZERO", "ABORT")]),
}


def _summary(db, target="demo", run=1):
    return metrics.summarize(store.connect(db), target, run, db)


@pytest.fixture(scope="module")
def values(tmp_path_factory):
    return _summary(hand_store(tmp_path_factory.mktemp("values") / "v.db", VALUES))


def _stats(f):
    return {(p.name, v.value): (v.failing, v.tested, v.others_failing, v.others_tested)
            for p in f.params for v in p.values}


def test_each_value_is_counted_against_the_functions_other_cases(values):
    w = values.function("w")
    assert [(p.name, p.datatype) for p in w.params] == [("a", "int"), ("s", "string")]
    assert [v.value for v in w.params[0].values] == ["int:NEG", "int:ONE", "int:ZERO"]
    assert _stats(w) == {("a", "int:NEG"): (1, 1, 2, 4), ("a", "int:ONE"): (1, 2, 2, 3),
                         ("a", "int:ZERO"): (1, 2, 2, 3), ("s", "string:EMPTY"): (0, 2, 3, 3),
                         ("s", "string:NULL"): (3, 3, 0, 2)}
    raised = {(v.param, v.short): round(v.raise_pp, 2) for p in w.params for v in p.values}
    assert raised == {("a", "NEG"): 50.0, ("a", "ONE"): -16.67, ("a", "ZERO"): -16.67,
                      ("s", "EMPTY"): -100.0, ("s", "NULL"): 100.0}
    # only those that raise it, the most raising first
    assert [(v.param, v.value) for v in w.failing_values] == [("s", "string:NULL"),
                                                              ("a", "int:NEG")]
    assert (w.cases, w.passed, w.aborts, w.restarts, w.setups) == (6, 2, 2, 1, 1)
    assert w.signals == {11: 2}


def test_a_value_in_every_case_raises_nothing(values):
    one = values.function("one")
    (v,) = one.params[0].values
    assert (v.rate, v.others_tested, v.raise_pp) == (100.0, 0, None)
    assert one.failing_values == []
    d = v.as_dict()
    assert (d["failure_rate"], d["others_failure_rate"], d["raise_pp"]) == (100.0, 0.0, None)


def test_at_most_five_values_are_named_and_ties_go_by_name(tmp_path):
    # V0..V5 fail once each: 1 of 1 against the others' 7 of 11, +36.4 pp;
    # FAIL fails twice: 2 of 2 against 6 of 10, +40 pp; OK never fails
    cases = [(f"int:V{i}", "ABORT") for i in range(6)] + [("int:OK", "PASS")] * 4 + \
            [("int:FAIL", "ABORT")] * 2
    f = _summary(hand_store(tmp_path / "t.db", {"t": dict(
        signature="int t(int p)", datatypes="int", cases=cases)})).function("t")
    assert [v.short for v in f.failing_values] == ["FAIL", "V0", "V1", "V2", "V3"]
    assert f.failing_values[1].raise_pp == pytest.approx(100 - 700 / 11)


def test_the_real_stream_rate_leaves_out_what_is_no_stream(values):
    fc = values.function("fc")
    assert (fc.stream_aborts, fc.stream_tested, fc.stream_abort_rate) == (1, 2, 50.0)
    assert fc.signals == {6: 1, 7: 1, 11: 2} and list(fc.signals) == [6, 7, 11]
    # w and one hold no stream value: every tested case of theirs counts (2 of
    # 5 and 1 of 1 ABORT), and the target's is the mean of the three
    assert values.function("w").stream_abort_rate == 40.0
    assert values.stream_abort_rate == pytest.approx((50 + 40 + 100) / 3)
    assert values.abort_rate == pytest.approx((80 + 40 + 100) / 3)
    assert values.restart_rate == pytest.approx((0 + 20 + 0) / 3)
    assert values.total("aborts") == 7 and values.total("setups") == 1
    assert values.function_count == 3 and values.function("nosuch") is None


def test_the_summary_as_exported(values):
    d = values.as_dict()
    assert (d["functions"], d["cases"], d["findings"], d["flaky"]) == (3, 12, 0, [])
    assert d["failure_rate"] == pytest.approx((80 + 60 + 100) / 3)
    f = next(f for f in values.functions if f.name == "w").as_dict()
    assert (f["cases"], f["passed"], f["aborts"], f["restarts"], f["setups"]) == (6, 2, 2, 1, 1)
    assert (f["abort_rate"], f["restart_rate"], f["failure_rate"]) == (40.0, 20.0, 60.0)
    assert f["signals"] == {"11": 2} and f["sampled"] is False and f["failure_interval"] is None
    assert [v["value"] for v in f["failing_values"]] == ["string:NULL", "int:NEG"]


def test_failing_cases_are_listed_by_index_up_to_the_limit(tmp_path):
    db = hand_store(tmp_path / "f.db", VALUES)
    got = metrics.failing_cases(store.connect(db), 1, "fc", 2)
    assert [(c.case, c.values, c.outcome, c.signal) for c in got] == [
        (0, ["FILE:NULL"], "ABORT", 11), (1, ["FILE:READ"], "ABORT", 6)]
    assert len(metrics.failing_cases(store.connect(db), 1, "w", 10)) == 3


def _run(db, target, dictionary="ours", finished=True, extends=None):
    hand_store(db, {"f": dict(signature="int f(int a)", datatypes="int",
                              cases=[("int:ZERO", "PASS")])}, target=target,
               dictionary=dictionary)
    with sqlite3.connect(db) as conn:
        run = conn.execute("SELECT max(id) FROM runs").fetchone()[0]
        conn.execute("UPDATE runs SET finished = ?, extends = ? WHERE id = ?",
                     ("2026-01-01" if finished else None, extends, run))
    return run


def test_a_report_reads_the_newest_finished_run_and_prefers_ours(tmp_path):
    db = tmp_path / "runs.db"
    ours, theirs = _run(db, "a"), _run(db, "a", "ballista")          # 1, 2
    _run(db, "a", finished=False)                                     # 3: unfinished
    only_theirs = _run(db, "b", "ballista")                           # 4
    conn = store.connect(db)
    assert latest_runs(conn) == {"a": theirs, "b": only_theirs}
    assert report_runs(conn) == {"a": ours, "b": only_theirs}
    assert list(report_runs(conn)) == ["a", "b"]


def test_a_target_in_two_stores_is_taken_from_the_last_unless_that_leaves_ours(tmp_path):
    first, second, third = tmp_path / "1.db", tmp_path / "2.db", tmp_path / "3.db"
    _run(first, "a")
    _run(second, "a", "ballista")
    _run(third, "a")
    _run(third, "a")
    no_texts = lambda info: {}  # noqa: E731
    pick = lambda *dbs: [(t.db, t.run) for t in metrics.build_report(  # noqa: E731
        [(store.connect(d), d) for d in dbs], no_texts).targets]
    assert pick(first, second) == [(str(first), 1)]
    assert pick(second, first) == [(str(first), 1)]
    assert pick(first, third) == [(str(third), 2)]


def _target(db, name, rates, extends=None):
    """A run of target name whose functions fail at the given percentages
    (each over 10 cases), e.g. {"fopen": 30}."""
    functions = {f: dict(signature=f"int {f}(int a)", datatypes="int",
                         cases=[("int:ZERO", "ABORT")] * (rate // 10) +
                               [("int:ONE", "PASS")] * (10 - rate // 10))
                 for f, rate in rates.items()}
    hand_store(db, functions, target=name)
    with sqlite3.connect(db) as conn:
        run = conn.execute("SELECT max(id) FROM runs").fetchone()[0]
        conn.execute("UPDATE runs SET extends = ? WHERE id = ?", (extends, run))
    return run


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    db = tmp_path_factory.mktemp("study") / "study.db"
    _target(db, "stdio", {"fclose": 80, "fputc": 40, "fgetc": 20})
    _target(db, "sfio", {"sfclose": 10, "sfputc": 20, "sfgetc": 0, "sfnew": 50})
    _target(db, "robust_sfio", {"sfclose": 0, "sfputc": 10, "sfnew": 30}, extends="sfio")
    texts = {"sfio": {"sfclose": dict(note="closes", equivalent="fclose"),
                      "sfputc": dict(note=None, equivalent="fputc"),
                      "sfgetc": dict(note=None, equivalent="fgetc"),
                      "sfnew": dict(note=None, equivalent=None)}}
    return metrics.build_report([(store.connect(db), db)],
                                lambda info: texts.get(info.target, {}))


def test_equivalent_and_hardened_pairs(study):
    (equivalent,) = study.equivalents
    assert (equivalent.kind, equivalent.key) == ("equivalent", "sfio_vs_stdio")
    assert [(p.left.name, p.right.name) for p in equivalent.pairs] == [
        ("sfclose", "fclose"), ("sfputc", "fputc"), ("sfgetc", "fgetc")]
    assert equivalent.labels == ["sfclose / fclose", "sfputc / fputc", "sfgetc / fgetc"]
    (hardened,) = study.hardening
    assert (hardened.kind, hardened.left.target, hardened.right.target) == \
        ("hardened", "sfio", "robust_sfio")
    assert hardened.labels == ["sfclose", "sfnew", "sfputc"]  # sfgetc is not in robust_sfio
    assert study.target("sfio").function("sfclose").note == "closes"
    assert study.target("sfio").function("sfnew").equivalent is None
    pair = study.pairs[0].as_dict()
    assert (pair["left_failure_rate"], pair["right_failure_rate"]) == (10.0, 80.0)
    assert len(study.hardened) == 3


def test_the_study_figures_beside_ours(study):
    by = {s.target: s for s in study.study_figures}
    assert list(by) == ["stdio", "sfio", "robust_sfio", "sfio vs stdio"]
    stdio = by["stdio"]
    assert stdio.ours == pytest.approx((80 + 40 + 20) / 3)
    assert (stdio.ours_range, stdio.functions, stdio.study) == ((20.0, 80.0), 3, "0% to 79%")
    sfio = by["sfio"]
    assert (sfio.ours, sfio.study_value, sfio.functions) == (20.0, 5.61, 4)
    assert sfio.ours_streams == 20.0  # int values only: every case a real-stream case
    assert sfio.study == "5.61% over 36 functions" and sfio.template == "study_sfio.html.j2"
    # of robust_sfio's three, sfclose and sfputc are of the study's hardened 8
    robust = by["robust_sfio"]
    assert (robust.ours, robust.functions) == (5.0, 2)
    # STDIO over SFIO per pair: 80/10 = 8, 40/20 = 2; sfgetc never fails
    factor = by["sfio vs stdio"]
    assert (factor.ours, factor.ours_range, factor.functions, factor.unit) == (5.0, (2.0, 8.0),
                                                                              2, "x")
    assert factor.template == "study_sfio_vs_stdio.html.j2"


def test_no_study_figure_for_what_the_study_did_not_run(tmp_path):
    db = tmp_path / "other.db"
    _target(db, "robust_sfio", {"sfnew": 30})
    _target(db, "expat", {"XML_Parse": 30})
    report = metrics.build_report([(store.connect(db), db)], lambda info: {})
    assert report.study_figures == [] and report.equivalents == [] and report.hardening == []


def test_a_delta_is_after_less_before():
    delta = metrics.RateDelta.of_outcomes("demo", "f", (1, 2), [
        ("PASS", "ABORT"), ("PASS", "PASS"), ("ABORT", "RESTART"), ("SETUP", "PASS")])
    d = delta.as_dict()
    # before: 1 ABORT of 3 tested; after: 1 ABORT, 1 RESTART of 4
    assert (d["function"], d["cases"]) == ("f", 4)
    assert d["before_abort_rate"] == pytest.approx(100 / 3) and d["after_abort_rate"] == 25.0
    assert d["abort_delta"] == pytest.approx(25 - 100 / 3)
    assert (d["before_restart_rate"], d["restart_delta"]) == (0.0, 25.0)
    assert d["failure_delta"] == pytest.approx(50 - 100 / 3)


def test_a_median_interval_from_the_order_statistics():
    # n = 10: P(Binomial(10, 1/2) <= 1) = 11/1024 <= 2.5% < 56/1024, so k = 2:
    # [x(2), x(9)] with confidence 1 - 22/1024
    i = bench_stats.Interval.of([10, 1, 9, 2, 8, 3, 7, 4, 6, 5])
    assert (i.median, i.low, i.high, i.n) == (5.5, 2, 9, 10)
    assert i.coverage == pytest.approx(1 - 22 / 1024) and i.width == 7
    assert i.contains(2) and i.contains(9) and not i.contains(1.5)
    # n = 5: no pair reaches 95%; the whole range, at 1 - 2/32
    i = bench_stats.Interval.of([3, 1, 2, 5, 4])
    assert (i.median, i.low, i.high, i.coverage) == (3, 1, 5, 1 - 2 / 32)
    assert bench_stats.Interval.of([]).as_dict() == dict(median=0.0, low=0.0, high=0.0,
                                                     coverage=0.0, n=0)


# usr, sys per library and repetition (elapsed = 2 * cpu): robust_sfio costs
# SFIO's times a factor per configuration, STDIO's times another
BENCH = {("getc", 0): (1.10, 1.05), ("read", 8192): (1.00, 0.90), ("read", 757): (1.30, 1.50),
         ("records", 0): (2.00, 1.0), ("copyrw", 8192): (1.20, 1.01)}


def _bench_store(db):
    with sqlite3.connect(db) as conn:
        conn.executescript((ROOT / "schemas/results.sql").read_text())
        conn.execute("INSERT INTO bench_runs (host, harness_version, libraries, benchmarks,"
                     " blocks, repeat, cold, started, finished) VALUES ('h', 'v',"
                     " 'stdio,sfio,robust_sfio', 'all', '8192,757', 3, 0, 'x', 'y')")
        conn.execute("INSERT INTO bench_runs (host, harness_version, libraries, benchmarks,"
                     " blocks, repeat, cold, started) VALUES ('h', 'v', 'sfio', 'getc', '',"
                     " 1, 0, 'x')")  # unfinished: not read
        seq = 0
        for (benchmark, block), (over_sfio, over_stdio) in BENCH.items():
            for rep in (1, 2, 3):
                sfio = 0.5 * rep  # usr; sys is a fifth of it
                for lib, usr in (("sfio", sfio), ("robust_sfio", sfio * over_sfio),
                                 ("stdio", sfio * over_sfio / over_stdio)):
                    seq += 1
                    conn.execute("INSERT INTO bench_results VALUES (1, ?, ?, ?, ?, ?, 1000,"
                                 " ?, ?, ?)", (benchmark, block, lib, rep, seq, usr, usr / 5,
                                               2 * 1.2 * usr))
    return db


def test_benchmark_ratios_medians_and_the_study_s_comparisons(tmp_path):
    db = _bench_store(tmp_path / "b.db")
    (run,) = bench_stats.bench_runs([(store.connect(db), db)])
    assert run.info["id"] == 1
    # the study's order: copyrw, getc, read (8 KiB before 757), then ours
    assert [c.label for c in run.configs] == ["copyrw", "getc", "read", "read757", "records"]
    assert [c.in_study for c in run.configs] == [True, True, True, True, False]
    by = {c.label: c for c in run.configs}
    # each repetition's ratio is exactly the factor, so is their median
    for label, (benchmark, block) in (("getc", ("getc", 0)), ("read757", ("read", 757))):
        over_sfio, over_stdio = BENCH[benchmark, block]
        assert by[label].robust_over_sfio.median == pytest.approx(over_sfio)
        assert by[label].robust_over_stdio.median == pytest.approx(over_stdio)
        assert by[label].elapsed_robust_over_sfio.median == pytest.approx(over_sfio)
    assert by["read"].ratio_undecided and not by["getc"].ratio_undecided
    sfio_getc = by["getc"].libraries["sfio"]
    assert (sfio_getc.usr.median, sfio_getc.cpu.median, sfio_getc.usr.n) == (1.0, 1.2, 3)
    # the mean over the study's four, records left out
    assert run.mean_robust_over_sfio == pytest.approx((1.2 + 1.1 + 1.0 + 1.3) / 4)
    assert (run.best_robust_over_sfio, run.worst_robust_over_sfio) == pytest.approx((1.0, 1.3))
    assert [c.label for c in run.ours] == ["records"]
    # within 2% of STDIO is asked of getc and read at 8 KiB only: getc is 5% over
    assert [c.label for c in run.stdio_comparable] == ["getc", "read"]
    assert (run.within_stdio, run.stdio_comparable_count, run.study_configs) == (1, 2, 4)
    assert (run.repetitions, run.confidence_pct) == (3, 75.0)
    d = run.as_dict()
    assert d["configs"][1]["label"] == "getc" and d["within_stdio"] == 1


def test_a_store_without_benchmarks_has_none(tmp_path):
    db = hand_store(tmp_path / "h.db", VALUES)
    assert bench_stats.bench_runs([(store.connect(db), db)]) == []
    bare = tmp_path / "bare.db"
    sqlite3.connect(bare).execute("CREATE TABLE t (x)")
    assert bench_tables.newest_finished_run(sqlite3.connect(bare)) is None


@pytest.mark.parametrize("count, text", [(0, "0 findings"), (1, "1 finding"), (2, "2 findings")])
def test_plural(count, text):
    assert readable.plural(count, "finding") == text


def test_the_study_s_published_figures():
    """DeVale and Koopman, DSN 2001, as published (abstract, section 4,
    Figures 1 and 2), written here once more, by hand."""
    assert metrics.STUDY == {
        "sfio_normalized_abort": 5.61, "sfio_functions": 36, "sfio_cases": 186389,
        "robust_sfio_abort": 0.44, "robust_sfio_functions": 8,
        "stdio_per_function_range": [0.0, 79.0], "sfio_over_stdio_factor": [3, 10],
        "sfio_stdio_pairs": 20,
        "hardened_functions": ["sfopen", "sfwrite", "sfread", "sfclose", "sffileno", "sfseek",
                               "sfputc", "sfgetc"]}


def test_what_is_no_stream_at_all():
    """docs/sfio-dictionary.md: the wild pointers, a closed stream, garbage."""
    no_stream = {"NULL", "MINUS_ONE", "ONE", "FREED", "READ_ONLY", "NO_ACCESS", "UNMAPPED",
                 "MISALIGNED", "CLOSED", "GARBAGE"}
    assert metrics.NOT_A_STREAM == {f"{t}:{v}" for t in ("FILE", "Sfio_t") for v in no_stream}


@pytest.mark.parametrize("signature, names", [
    ("int f(unsigned short, char, int, long)", ["arg1", "arg2", "arg3", "arg4"]),
    ("int f(enum e, struct s, union u, void *)", ["arg1", "arg2", "arg3", "arg4"]),
    ("int f(float, double, signed, const volatile int)", ["arg1", "arg2", "arg3", "arg4"]),
    ("int f(const char *s, unsigned int n, short *p)", ["s", "n", "p"]),
    ("int f(T)", ["arg1"]),
    ("int f(unsigned char, volatile void, const char)", ["arg1", "arg2", "arg3"]),
    # function pointers: the name inside (*name), or none; commas inside
    # their parentheses do not part parameters
    ("void qsort(void *base, size_t nmemb, size_t size, int (*compar)(const void *, const void *))",
     ["base", "nmemb", "size", "compar"]),
    ("void qsort(void *, size_t, size_t, int (*)(const void *, const void *))",
     ["arg1", "arg2", "arg3", "arg4"]),
    ("void (*signal(int signum, void (*handler)(int)))(int)", ["signum", "handler"]),
    ("int (*get(void))(int)", []),
])
def test_parameters_written_without_a_name(signature, names):
    assert metrics.parameter_names(signature) == names


# What the report's data.json and CSV files hold: a reader's scripts key on
# these names.
FUNCTION_KEYS = {"target", "run", "name", "signature", "note", "equivalent", "cases", "passed",
                 "aborts", "restarts", "setups", "abort_rate", "restart_rate", "failure_rate",
                 "stream_abort_rate", "cases_total", "sampled", "abort_interval",
                 "restart_interval", "failure_interval", "signals", "failing_values"}
VALUE_KEYS = {"param", "value", "failing", "tested", "failure_rate", "others_failing",
              "others_tested", "others_failure_rate", "raise_pp"}
TARGET_KEYS = {"target", "run", "db", "target_version", "functions", "cases", "abort_rate",
               "restart_rate", "failure_rate", "stream_abort_rate", "repeated", "flaky",
               "findings", "contract_violations", "acceptable_failure_rate"}
PAIR_KEYS = {"left_target", "left", "right_target", "right", "left_failure_rate",
             "right_failure_rate", "left_abort_rate", "right_abort_rate", "left_restart_rate",
             "right_restart_rate"}


def test_the_keys_a_reader_s_scripts_use(values, study):
    assert set(values.as_dict()) == TARGET_KEYS
    w = values.function("w")
    assert set(w.as_dict()) == FUNCTION_KEYS
    assert set(w.failing_values[0].as_dict()) == VALUE_KEYS
    assert w.params[0].as_dict()["name"] == "a" and w.params[0].as_dict()["datatype"] == "int"
    assert set(study.pairs[0].as_dict()) == PAIR_KEYS
    assert metrics.FUNCTION_CSV_FIELDS == ("target", "run", "name", "signature", "cases",
                                           "passed", "aborts", "restarts", "setups",
                                           "abort_rate", "restart_rate", "failure_rate")
    assert metrics.TARGET_CSV_FIELDS == ("target", "run", "db", "target_version", "functions",
                                         "cases", "abort_rate", "restart_rate", "failure_rate")
    assert metrics.PAIR_CSV_FIELDS == tuple(k for k in (
        "left_target", "left", "right_target", "right", "left_failure_rate",
        "right_failure_rate", "left_abort_rate", "right_abort_rate", "left_restart_rate",
        "right_restart_rate"))
    d = study.as_dict()
    assert set(d) == {"study", "study_figures", "targets", "runs", "functions", "parameters",
                      "pairs", "hardened", "bench", "protection", "dictionaries", "silent",
                      "hindering", "corrupt"}
    assert len(d["functions"]) == 10 and len(d["hardened"]) == 3
    assert d["parameters"][0] == dict(target="robust_sfio", function="sfclose", name="a",
                                      datatype="int", values=d["parameters"][0]["values"])


def test_what_a_page_says_of_a_run_and_its_findings(values):
    info = values.info
    assert (info.target_arg, info.partial) == ("demo", False)
    assert (values.findings_count, values.violations_count, values.misuse_count) == \
        ("0 findings", "0 contract violations", "0 findings")
    assert (values.repeated, values.flaky_count, values.acted_findings) == (1, 0, [])
    got = metrics.failing_cases(store.connect(values.db), 1, "w", 1)
    assert got[0].values == ["int:ZERO", "string:NULL"]


def test_what_is_empty_until_it_is_filled(values):
    bare = metrics.TargetSummary("t", 1, "", values.info, [])
    assert (bare.equivalents, bare.repeated, bare.flaky, bare.findings) == ({}, 1, [], [])
    report = metrics.Report([], [], [], silent=["s"], hindering=["h"])
    assert (report.study, report.bench, report.dictionaries) == (metrics.STUDY, [], [])
    assert report.crash_scale == ["s", "h"]
    f = metrics.FunctionStats("t", 1, "f", "int f(void)")
    assert (f.cases_total, f.sampled, f.failure_interval) == (0, False, None)


def test_the_study_s_texts(study):
    by = {s.target: s for s in study.study_figures}
    assert [by[t].unit for t in ("stdio", "sfio", "robust_sfio")] == ["%", "%", "%"]
    assert by["robust_sfio"].study == "0.44% over 8 functions"
    assert by["sfio vs stdio"].study == "3 to 10 over 20 pairs"
    assert study.target("sfio").function("sfclose").equivalent == "fclose"


def test_no_equivalent_pairs_without_stdio(tmp_path):
    db = tmp_path / "alone.db"
    _target(db, "sfio", {"sfclose": 10})
    report = metrics.build_report([(store.connect(db), db)], lambda info: {
        "sfclose": dict(note=None, equivalent="fclose")})
    assert report.equivalents == [] and report.pairs == []


def test_the_study_s_benchmarks():
    """DSN 2001, Table 1 and section 4."""
    assert bench_stats.LIBRARIES == ("stdio", "sfio", "robust_sfio")
    assert bench_stats.STUDY_BENCHMARKS == ("copyrw", "getc", "putc", "read", "revrd", "seekrw",
                                        "write")
    assert bench_stats.BLOCK_BENCHMARKS == ("copyrw", "read", "revrd", "seekrw", "write")
    assert bench_stats.STUDY_BLOCKS == (8192, 757)
    assert bench_stats.STUDY_BENCH == {
        "robust_over_sfio_slower_pct": [0, 15], "robust_over_sfio_mean_pct": 2,
        "robust_over_sfio_abstract_pct": 1, "robust_vs_stdio_within_pct": 2,
        "robust_vs_stdio_except": "the 757-byte block and copy benchmarks",
        "repetitions": 10, "file_mb": {"block": 1000, "byte": 250}}


def _config(benchmark, block, over_stdio):
    one = bench_stats.Interval.of([1.0])
    lib = bench_stats.BenchLibrary("sfio", one, one, one, one)
    return bench_stats.BenchConfig(benchmark, block, 1, {"sfio": lib}, None,
                               bench_stats.Interval.of([over_stdio]), None)


def test_within_two_percent_of_stdio_holds_at_two_percent():
    run = bench_stats.BenchRun({}, "", [_config("getc", 0, 1 + 2 / 100), _config("read", 8192, 1.03)])
    assert (run.within_stdio, run.stdio_comparable_count) == (1, 2)
    # no configuration of the study's: no ratio to average
    ours = bench_stats.BenchRun({}, "", [_config("records", 0, 1.0)])
    assert (ours.mean_robust_over_sfio, ours.best_robust_over_sfio,
            ours.worst_robust_over_sfio) == (0.0, 0.0, 0.0)
    assert (ours.repetitions, ours.confidence_pct) == (1, 0.0)
    empty = bench_stats.BenchRun({}, "", [])
    assert (empty.repetitions, empty.confidence_pct) == (0, 0.0)


def test_benchmarks_the_study_did_not_name_come_last(tmp_path):
    db = _bench_store(tmp_path / "b.db")
    with sqlite3.connect(db) as conn:
        conn.execute("INSERT INTO bench_results VALUES (1, 'aaa', 0, 'sfio', 1, 99, 1, 1, 0, 1)")
    (run,) = bench_stats.bench_runs([(store.connect(db), db)])
    assert [c.label for c in run.configs][-2:] == ["records", "aaa"]
    d = run.as_dict()
    assert set(d) == {"run", "db", "study", "configs", "study_configs", "mean_robust_over_sfio",
                      "best_robust_over_sfio", "worst_robust_over_sfio",
                      "mean_elapsed_robust_over_sfio", "stdio_comparable", "within_stdio",
                      "repetitions", "confidence_pct"}
    assert set(d["configs"][0]) == {"benchmark", "block", "label", "size_bytes", "in_study",
                                    "ratio_undecided", "libraries", "robust_over_sfio",
                                    "robust_over_stdio", "elapsed_robust_over_sfio"}
    assert set(d["configs"][0]["libraries"]["sfio"]) == {"usr", "sys", "cpu", "elapsed"}


def test_reasons_are_grouped_by_parameter_value_and_why(tmp_path):
    """Five SETUP cases by hand: two of b's FILE:X for one reason, one for
    another, one of a's int:Y that crashed, one with errno alone."""
    lock = dict(setup_param=1, setup_errno=13, setup_reason="locked")
    db = hand_store(tmp_path / "h.db", {"f": dict(signature="int f(int a, FILE *b)",
                                                  datatypes="int FILE", cases=[
        ("int:Y FILE:X", "PASS"),
        ("int:Y FILE:X", "SETUP", lock),                                   # case 1
        ("int:Z FILE:X", "SETUP", dict(setup_param=1, setup_errno=2)),    # 2
        ("int:Y FILE:X", "SETUP", dict(setup_param=0, signal=11)),        # 3
        ("int:Z FILE:X", "SETUP", lock),                                   # 4
        ("int:Z FILE:W", "SETUP", dict(setup_param=1, setup_errno=13, setup_reason="other"))])})
    rows = metrics.setup_reasons(store.connect(db), 1, "f", ["a", "b"])
    assert [(r.param, r.value, r.why, r.cases, r.first) for r in rows] == [
        ("b", "FILE:X", "locked (errno EACCES)", 2, 1),   # the most cases first
        ("b", "FILE:X", "errno ENOENT", 1, 2),            # then by first case
        ("a", "int:Y", "its setup died of SIGSEGV", 1, 3),
        ("b", "FILE:W", "other (errno EACCES)", 1, 5)]
