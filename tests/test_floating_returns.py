"""Floating and 64-bit returns are stored and shown as what they are: a
library of echo functions hands each value of the double, float and int64
datatypes back, and the store, `repro` and an --emit-c program must give
back the value itself (1.5, not 1; NaN, not -2^63)."""
import json
import math
import struct
import subprocess
import sys

import pytest

from conftest import libdirs_said, query, trebuchet
from test_bad_input import assert_input_error
from test_emit_c import run


def float_of_bits(bits):
    return struct.unpack("<f", struct.pack("<I", bits))[0]


# each value, by hand from IEEE 754 (datatypes/floating.c, int64.c)
DOUBLE = {"ZERO": 0.0, "NEG_ZERO": -0.0, "ONE": 1.0, "NEG_ONE": -1.0, "HALF": 0.5,
          "NAN": math.nan, "INF": math.inf, "NEG_INF": -math.inf,
          "MAX": sys.float_info.max, "NEG_MAX": -sys.float_info.max,
          "MIN_NORMAL": 2.0 ** -1022, "SUBNORMAL": 2.0 ** -1074, "EPSILON": 2.0 ** -52,
          "INT_MAX_PLUS_1": 2.0 ** 31, "LLONG_MAX_PLUS_1": 2.0 ** 63}
FLOAT = {**{k: v for k, v in DOUBLE.items() if k != "LLONG_MAX_PLUS_1"},
         "MAX": float_of_bits(0x7F7FFFFF), "NEG_MAX": -float_of_bits(0x7F7FFFFF),
         "MIN_NORMAL": 2.0 ** -126, "SUBNORMAL": 2.0 ** -149, "EPSILON": 2.0 ** -23}
INT64 = {"ZERO": 0, "ONE": 1, "NEG_ONE": -1, "INT64_MAX": 2**63 - 1, "INT64_MIN": -2**63,
         "INT32_MAX": 2**31 - 1, "INT32_MAX_PLUS_1": 2**31, "INT32_MIN": -2**31,
         "INT32_MIN_MINUS_1": -2**31 - 1, "UINT32_MAX": 2**32 - 1, "UINT32_MAX_PLUS_1": 2**32}
EXPECTED = {"double": DOUBLE, "float": FLOAT, "int64": INT64}

SPEC = """\
target: echo
includes: [echo.h]
sources: [echo.c]
functions:
""" + "".join(f"""\
  - name: echo_{name}
    returns: {ctype}
    params:
      - {{name: x, type: {ctype}, datatype: {name}}}
    error: {{when: none}}
""" for name, ctype in (("double", "double"), ("float", "float"), ("int64", "int64_t"),
                     ("size", "size_t"))) + """\
  - name: nan_is_error
    call: echo_double
    returns: double
    params:
      - {name: x, type: double, datatype: double}
    error: {when: expr, expr: "ret != ret"}
"""


@pytest.fixture(scope="module")
def echo(tmp_path_factory):
    folder = tmp_path_factory.mktemp("echo")
    (folder / "echo.h").write_text("#include <stdint.h>\n"
                                   "double echo_double(double x);\nfloat echo_float(float x);\n"
                                   "int64_t echo_int64(int64_t x);\n"
                                   "#include <stddef.h>\nsize_t echo_size(size_t x);\n")
    (folder / "echo.c").write_text('#include "echo.h"\n'
                                   "double echo_double(double x) { return x; }\n"
                                   "float echo_float(float x) { return x; }\n"
                                   "int64_t echo_int64(int64_t x) { return x; }\n"
                                   "size_t echo_size(size_t x) { return x; }\n")
    (folder / "echo.yaml").write_text(SPEC)
    return folder / "echo.yaml"


def same(got, want):
    """NaN is the text 'NaN' wherever trebuchet keeps or shows it."""
    return got == "NaN" if isinstance(want, float) and math.isnan(want) else got == want


def test_the_store_holds_each_returned_value(echo, tmp_path):
    db = tmp_path / "t.db"
    trebuchet("run", "--target", echo, "--db", db, "--quiet")
    rows = query(db, "SELECT function, value_names, outcome, ret FROM results "
                     "WHERE function IN ('echo_double', 'echo_float', 'echo_int64')")
    assert sorted({r[0] for r in rows}) == ["echo_double", "echo_float", "echo_int64"]
    assert len(rows) == sum(map(len, EXPECTED.values()))
    for function, names, outcome, ret in rows:
        datatype, value = names.split(":")
        want = EXPECTED[datatype][value]
        # SQLite keeps no NaN (it would be NULL)
        assert outcome == "PASS" and same(ret, want), (names, ret)
    # a convention read after the call sees the value returned too
    assert query(db, "SELECT value_names FROM results WHERE function = 'nan_is_error' "
                     "AND error_reported") == [("double:NAN",)]


def strict_json(text):
    """JSON as its standard has it: no bare NaN or Infinity, which Python's
    json reads but jq, browsers and most parsers refuse."""
    def refuse(word):
        raise ValueError(f"not JSON: {word}")
    return json.loads(text, parse_constant=refuse)


def as_json(value):
    """What a JSON output says for a returned value: the number, or for NaN
    and the infinities, which JSON has no number for, their names."""
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else "Infinity" if value > 0 else "-Infinity"
    return value


@pytest.mark.parametrize("values", ["double:NAN", "double:NEG_INF", "float:INF",
                                    "float:SUBNORMAL"])
def test_repro_json_gives_the_value_back(echo, values):
    datatype, value = values.split(":")
    result = strict_json(trebuchet("repro", "--target", echo, "--function", f"echo_{datatype}",
                                   "--values", values, "--json").stdout)
    assert result["ret"] == as_json(EXPECTED[datatype][value])


def test_export_is_json_and_says_what_repro_says(echo, tmp_path):
    db = tmp_path / "t.db"
    trebuchet("run", "--target", echo, "--functions", "echo_double", "--db", db, "--quiet")
    records = strict_json(trebuchet("export", "--db", db, "--format", "json").stdout)
    got = {r["values"][0]: r["ret"] for r in records}
    assert got == {f"double:{v}": as_json(x) for v, x in EXPECTED["double"].items()}


@pytest.mark.parametrize("value, text", [("HALF", "0.5"), ("NAN", "NaN")])
def test_the_reproducer_prints_the_value_as_repro_does(echo, tmp_path, value, text):
    out = tmp_path / "out"
    said = trebuchet("repro", "--target", echo, "--function", "echo_double", "--values",
                     f"double:{value}", "--emit-c", out).stdout
    assert f"PASS, returned {text}, errno 0" in said
    assert f'printing "echo_double returned {text}, errno 0' in said
    made = subprocess.run(["make", "-C", str(out), *libdirs_said(said),
                           "CFLAGS=-O2 -Wall -Werror"],
                          capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    assert run(out).stdout.startswith(f"echo_double returned {text}, errno 0")


def test_a_struct_returned_by_value_is_refused_at_its_line(tmp_path):
    spec = tmp_path / "div.yaml"
    spec.write_text("target: divlib\nincludes: [stdlib.h]\nfunctions:\n  - name: div\n"
                    "    returns: div_t\n    params:\n"
                    "      - {name: n, type: int, datatype: int}\n"
                    "      - {name: d, type: int, datatype: int}\n    error: {when: none}\n")
    result = trebuchet("run", "--target", spec, "--db", tmp_path / "t.db", check=False)
    assert_input_error(result, "div.yaml:5:", "return type 'div_t' is not a pointer, integer "
                       "or floating type")


# size's values (datatypes/size.c), by hand: a size_t returned is unsigned
SIZES = {"ZERO": 0, "ONE": 1, "PAGE": 4096, "PAGE_PLUS_1": 4097, "INT_MAX": 2**31 - 1,
         "UINT_MAX": 2**32 - 1, "SIZE_MAX": 2**64 - 1, "SIZE_MAX_HALF": 2**63 - 1,
         "NEG_ONE_INT": 2**64 - 1}


def test_a_64_bit_unsigned_return_is_unsigned_everywhere(echo, tmp_path):
    db = tmp_path / "t.db"
    trebuchet("run", "--target", echo, "--functions", "echo_size", "--db", db, "--quiet")
    records = strict_json(trebuchet("export", "--db", db, "--format", "json").stdout)
    assert {r["values"][0]: r["ret"] for r in records} == {f"size:{k}": v for k, v in SIZES.items()}
    result = strict_json(trebuchet("repro", "--target", echo, "--function", "echo_size",
                                   "--values", "size:SIZE_MAX", "--json").stdout)
    assert result["ret"] == 2**64 - 1
    out = tmp_path / "out"
    said = trebuchet("repro", "--target", echo, "--function", "echo_size", "--values",
                     "size:SIZE_MAX", "--emit-c", out).stdout
    assert "PASS, returned 18446744073709551615, errno 0" in said
    made = subprocess.run(["make", "-C", str(out), *libdirs_said(said),
                           "CFLAGS=-O2 -Wall -Werror"],
                          capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    assert run(out).stdout.startswith("echo_size returned 18446744073709551615, errno 0")
