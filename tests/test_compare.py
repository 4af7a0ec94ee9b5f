"""`trebuchet compare`: stores built by hand, where exactly which cases
changed is known, give exactly those changes, counts, rates and exit code;
and two real runs with other seeds compare only the cases both ran."""
import json
import sqlite3

import pytest

from conftest import ROOT, query, trebuchet

ABORT, PASS, RESTART, SETUP = "ABORT", "PASS", "RESTART", "SETUP"
SEGV, ABRT = 11, 6
EINVAL, EBADF = 22, 9


def case(function, index, values, outcome, signal=None, exit_status=None, errno=None):
    return (function, index, values, outcome, signal, exit_status, errno)


def make_store(path, *runs, target="demo"):
    """A store holding one finished run per item of runs: each a list of
    case(...) rows; seed and cap are the run's number."""
    with sqlite3.connect(path) as conn:
        conn.executescript((ROOT / "schemas/results.sql").read_text())
        for number, rows in enumerate(runs, 1):
            run = conn.execute(
                "INSERT INTO runs (target, target_version, host, harness_version, seed, cap,"
                " timeout_ms, jobs, functions, started, finished, dictionary, dictionary_digest,"
                " spec_digest) VALUES (?, 'v', 'h', 'v', ?, ?, 1000, 1, '', '2026-01-01',"
                " '2026-01-01', 'ours', 'd', 's')",
                (target, number, number)).lastrowid
            for function in sorted({r[0] for r in rows}):
                conn.execute("INSERT INTO functions (run_id, name, signature, datatypes,"
                             " cases_total, cases_drawn) VALUES (?, ?, '', '', 0, 0)",
                             (run, function))
            conn.executemany("INSERT INTO results (run_id, function, case_index, value_names,"
                             " outcome, signal, exit_status, errno, duration_us)"
                             " VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1)", [(run, *r) for r in rows])
    return path


# Two runs of a made-up target in which each kind of change happens a known
# number of times (the comment says what the pair of results is).
BEFORE = [
    case("f", 0, "int:ZERO", PASS, errno=0),          # unchanged
    case("f", 1, "int:ONE", PASS, errno=0),           # newly failing
    case("f", 2, "int:NEG_ONE", ABORT, SEGV),         # no longer failing
    case("f", 3, "int:INT_MAX", ABORT, SEGV),         # signal change
    case("f", 4, "int:INT_MIN", PASS, errno=EINVAL),  # errno change
    case("f", 5, "int:CHAR_255", ABORT, SEGV),        # other outcome change
    case("f", 6, "int:CHAR_256", SETUP),              # other outcome change, no regression
    case("f", 7, "int:SEVEN", PASS, errno=0),         # run only in the first
    case("g", 0, "fd:STDIN", ABORT, exit_status=3),   # exit status change
    case("g", 1, "fd:STDOUT", ABORT, SEGV),           # same index, other values
    case("g", 3, "fd:CLOSED", PASS, errno=EBADF),     # newly failing
]
AFTER = [
    case("f", 0, "int:ZERO", PASS, errno=0),
    case("f", 1, "int:ONE", ABORT, SEGV),
    case("f", 2, "int:NEG_ONE", PASS, errno=0),
    case("f", 3, "int:INT_MAX", ABORT, ABRT),
    case("f", 4, "int:INT_MIN", PASS, errno=EBADF),
    case("f", 5, "int:CHAR_255", RESTART),
    case("f", 6, "int:CHAR_256", ABORT, SEGV),
    case("g", 0, "fd:STDIN", ABORT, exit_status=4),
    case("g", 1, "fd:STDERR", PASS, errno=0),
    case("g", 2, "fd:DIR", ABORT, SEGV),              # run only in the second
    case("g", 3, "fd:CLOSED", RESTART),
]


def compare_json(*args):
    result = trebuchet("compare", *args, "--json", check=False)
    return result.returncode, json.loads(result.stdout)


def cases_of(section):
    return [(c["function"], c["case"]) for c in section]


def test_every_kind_of_change_is_found_and_nothing_else(tmp_path):
    db = make_store(tmp_path / "s.db", BEFORE, AFTER)
    code, result = compare_json(db)
    assert code == 1  # f 1 and g 3 passed and now fail
    assert (result["compared"], result["only_before"], result["only_after"],
            result["differing_values"]) == (9, 2, 2, 1)
    assert cases_of(result["newly_failing"]) == [("f", 1), ("g", 3)]
    assert cases_of(result["no_longer_failing"]) == [("f", 2)]
    assert cases_of(result["other_outcome_changes"]) == [("f", 5), ("f", 6)]
    assert cases_of(result["signal_changes"]) == [("f", 3), ("g", 0)]
    assert cases_of(result["errno_changes"]) == [("f", 4)]
    assert result["regressed"] is True
    errno_change = result["errno_changes"][0]
    assert errno_change["values"] == ["int:INT_MIN"]
    assert (errno_change["before"]["errno"], errno_change["after"]["errno"]) == (EINVAL, EBADF)


def test_rates_are_over_the_compared_cases(tmp_path):
    db = make_store(tmp_path / "s.db", BEFORE, AFTER)
    functions = {d["function"]: d for d in compare_json(db)[1]["functions"]}
    f, g = functions["f"], functions["g"]
    # f: 7 compared; before 3 ABORTs of 6 tested (one SETUP), after 3 ABORTs and a RESTART of 7
    assert f["cases"] == 7
    assert f["before_failure_rate"] == pytest.approx(50.0)
    assert f["after_failure_rate"] == pytest.approx(400 / 7)
    assert f["after_abort_rate"] == pytest.approx(300 / 7)
    assert f["after_restart_rate"] == pytest.approx(100 / 7)
    assert f["failure_delta"] == pytest.approx(400 / 7 - 50)
    # g: cases 0 and 3 compared; before ABORT + PASS, after ABORT + RESTART
    assert (g["cases"], g["before_failure_rate"], g["after_failure_rate"]) == (2, 50.0, 100.0)
    assert g["restart_delta"] == pytest.approx(50.0)


def test_text_names_each_change_and_the_counts(tmp_path):
    db = make_store(tmp_path / "s.db", BEFORE, AFTER)
    result = trebuchet("compare", db, check=False)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert "compared 9 cases run in both; not compared: 2 run only in the first, 2 only in" \
           " the second" in lines
    assert any("1 of each share a function and case index but not their values" in line
               for line in lines)
    for expected in ["  f case 1: int:ONE  PASS errno 0 -> ABORT SIGSEGV",
                     "  f case 3: int:INT_MAX  ABORT SIGSEGV -> ABORT SIGABRT",
                     "  g case 0: fd:STDIN  ABORT exit 3 -> ABORT exit 4",
                     "  f case 4: int:INT_MIN  PASS errno EINVAL -> PASS errno EBADF",
                     "  f case 6: int:CHAR_256  SETUP -> ABORT SIGSEGV",
                     "  g case 3: fd:CLOSED  PASS errno EBADF -> RESTART"]:
        assert expected in lines
    assert "newly failing cases (PASS before, ABORT or RESTART now): 2" in lines
    assert lines[-1].startswith("regressed: 2 cases")
    # the cases run once are nowhere in the lists
    assert not any(name in result.stdout for name in ("int:SEVEN", "fd:DIR", "fd:STDOUT"))


def test_runs_from_other_platforms_are_said_in_one_line(tmp_path):
    """Outcomes on freed memory may differ between C library versions: the
    comparison says where the two runs came from, in one line, and that is
    all (the verdict is the cases')."""
    db = make_store(tmp_path / "s.db", BEFORE, BEFORE)
    assert not any(line.startswith("different platforms") for line in trebuchet("compare", db).stdout.splitlines())
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE runs SET libc = 'glibc 2.36', kernel = 'Linux 6.1.0 x86_64',"
                     " sandbox = 'full' WHERE id = 1")
        conn.execute("UPDATE runs SET libc = 'glibc 2.41', kernel = 'Linux 6.12.0 x86_64',"
                     " sandbox = 'full' WHERE id = 2")
    result = trebuchet("compare", db)
    said = [line for line in result.stdout.splitlines() if "different platforms" in line]
    assert said == ["different platforms: libc glibc 2.36 in the first, glibc 2.41 in the second;"
                    " kernel Linux 6.1.0 x86_64 in the first, Linux 6.12.0 x86_64 in the second"
                    " (outcomes on freed memory may legitimately differ between them)"]
    assert result.stdout.splitlines()[-1].startswith("not regressed")
    code, as_json = compare_json(db)
    assert (as_json["before"]["libc"], as_json["after"]["libc"]) == ("glibc 2.36", "glibc 2.41")
    assert as_json["after"]["sandbox"] == "full"


def test_fixes_and_other_changes_alone_exit_0(tmp_path):
    before = [r for r in BEFORE if (r[0], r[1]) not in {("f", 1), ("g", 3)}]
    after = [r for r in AFTER if (r[0], r[1]) not in {("f", 1), ("g", 3)}]
    db = make_store(tmp_path / "s.db", before, after)
    code, result = compare_json(db)
    assert code == 0 and result["regressed"] is False and result["newly_failing"] == []
    assert cases_of(result["no_longer_failing"]) == [("f", 2)]
    result = trebuchet("compare", db)
    assert result.stdout.splitlines()[-1].startswith("not regressed")


def test_two_stores_compare_their_newest_runs(tmp_path):
    first = make_store(tmp_path / "a.db", AFTER, BEFORE)  # the older run of a.db is ignored
    second = make_store(tmp_path / "b.db", AFTER)
    code, result = compare_json(first, second)
    # BEFORE -> AFTER again, from two stores
    assert code == 1 and cases_of(result["newly_failing"]) == [("f", 1), ("g", 3)]
    assert (result["before"]["db"], result["before"]["run"]) == (str(first), 2)
    assert (result["after"]["db"], result["after"]["run"]) == (str(second), 1)
    code, result = compare_json(second, second)
    assert code == 0 and result["compared"] == len(AFTER)
    assert not any(result[key] for key in ("newly_failing", "no_longer_failing",
                                           "other_outcome_changes", "signal_changes",
                                           "errno_changes"))


def test_long_lists_say_how_many_they_left_out(tmp_path):
    count = 57
    before = [case("h", i, f"int:V{i}", PASS, errno=0) for i in range(count)]
    after = [case("h", i, f"int:V{i}", ABORT, SEGV) for i in range(count)]
    db = make_store(tmp_path / "s.db", before, after)
    lines = trebuchet("compare", db, check=False).stdout.splitlines()
    listed = [line for line in lines if line.startswith("  h case ")]
    more = [line for line in lines if line.startswith("  ... and ")]
    assert 0 < len(listed) < count
    assert more == [f"  ... and {count - len(listed)} more (--all lists them)"]
    everything = trebuchet("compare", db, "--all", check=False).stdout
    assert sum(line.startswith("  h case ") for line in everything.splitlines()) == count
    assert "... and" not in everything
    assert len(compare_json(db)[1]["newly_failing"]) == count


def test_bad_input_is_one_line_and_exit_2(tmp_path):
    db = make_store(tmp_path / "one.db", BEFORE)
    for args in ([db], [db, db, db]):
        result = trebuchet("compare", *args, check=False)
        assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
        assert "Traceback" not in result.stderr


def test_runs_with_other_seeds_compare_only_the_cases_both_ran(tmp_path):
    """The bug: a case one run never drew was reported as a vanished (or new)
    failure, thousands of them between two runs with other seeds."""
    db = tmp_path / "seeds.db"
    for seed in ("1", "7"):
        trebuchet("run", "--target", "stdio", "--functions", "fclose,fwrite", "--cap", "200",
                  "--seed", seed, "--db", db, "--quiet")
    result = trebuchet("compare", db, "--json", check=False)
    assert result.returncode == 0, result.stdout[-2000:]
    found = json.loads(result.stdout)

    def cases(run):
        return set(query(db, "SELECT function, case_index, value_names FROM results"
                             " WHERE run_id = ?", run))

    both = cases(1) & cases(2)
    listed = {(c["function"], c["case"]) for value in found.values() if isinstance(value, list)
              for c in value if "case" in c}
    assert listed <= {(f, i) for f, i, _ in both}, f"{len(listed)} cases listed"
    assert found["compared"] == len(both)
    assert found["only_before"] == len(cases(1)) - len(both) > 0
    assert found["only_after"] == len(cases(2)) - len(both) > 0
    assert sum(f["cases"] for f in found["functions"]) == len(both)
