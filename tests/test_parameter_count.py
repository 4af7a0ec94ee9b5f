"""How many parameters a tested function may have: none (`params: []`) up to
16, the limit (harness/cases.h, and the schema's `params`); one more is
refused in one line at the spec's line, naming the limit."""
import textwrap

from conftest import query, trebuchet
from test_bad_input import assert_input_error

# the int datatype's values, by hand (datatypes/int.c)
INT_VALUES = {"ZERO": 0, "ONE": 1, "NEG_ONE": -1, "INT_MAX": 2**31 - 1, "INT_MIN": -2**31,
              "CHAR_255": 255, "CHAR_256": 256}


def wide_library(tmp_path, counts):
    """A library of its own, compiled into the plugin: wideN(a0, ..., aN-1)
    returns the sum of (i + 1) * ai, which tells every slot's value apart
    from its neighbours'."""
    header, source, functions = [], ["#include \"wide.h\"\n"], []
    for n in counts:
        args = ", ".join(f"int a{i}" for i in range(n))
        header.append(f"long long wide{n}({args});\n")
        terms = " + ".join(f"{i + 1}LL * a{i}" for i in range(n))
        source.append(f"long long wide{n}({args}) {{ return {terms}; }}\n")
        params = "".join(f"      - {{name: a{i}, type: int, datatype: int}}\n" for i in range(n))
        functions.append(f"  - name: wide{n}\n    returns: long long\n    params:\n{params}"
                         "    error: {when: none}\n")
    (tmp_path / "wide.h").write_text("".join(header))
    (tmp_path / "wide.c").write_text("".join(source))
    spec = tmp_path / "wide.yaml"
    spec.write_text("target: wide\nincludes: [wide.h]\nsources: [wide.c]\nfunctions:\n"
                    + "".join(functions))
    return spec


def test_twelve_and_sixteen_parameters_run_each_value_in_its_slot(tmp_path):
    spec, db = wide_library(tmp_path, (12, 16)), tmp_path / "t.db"
    trebuchet("run", "--target", spec, "--db", db, "--cap", "20", "--quiet")
    rows = query(db, "SELECT function, value_names, outcome, ret FROM results")
    assert sorted({(f, sum(1 for r in rows if r[0] == f)) for f, *_ in rows}) == \
        [("wide12", 20), ("wide16", 20)]
    for function, names, outcome, ret in rows:
        values = [INT_VALUES[v.split(":")[1]] for v in names.split()]
        assert len(values) == int(function[4:]), names
        assert (outcome, ret) == ("PASS", sum((i + 1) * v for i, v in enumerate(values))), names


def test_seventeen_parameters_are_refused_at_the_spec_line(tmp_path):
    spec = wide_library(tmp_path, (17,))
    result = trebuchet("run", "--target", spec, "--db", tmp_path / "t.db", "--quiet",
                       check=False)
    # the function's `params:` key is on line 7
    assert_input_error(result, "wide.yaml:7:", "17 parameters", "at most 16 parameters")


def test_a_function_of_no_parameters_is_called_once(tmp_path):
    (tmp_path / "none.yaml").write_text(textwrap.dedent("""\
        target: none
        includes: [unistd.h]
        functions:
          - name: getpid
            returns: int
            params: []
            error: {when: negative}
        """))
    db = tmp_path / "t.db"
    trebuchet("run", "--target", tmp_path / "none.yaml", "--db", db, "--quiet")
    assert query(db, "SELECT case_index, value_names, outcome FROM results") == [(0, "", "PASS")]
    assert query(db, "SELECT datatypes, cases_total FROM functions") == [("", 1)]
