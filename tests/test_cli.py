"""The listing commands and the repro command."""
from conftest import trebuchet, value_product


def test_list_targets():
    out = trebuchet("list", "targets").stdout
    assert "stdio" in out and "selftest" in out


def test_list_functions_shows_signatures_and_case_counts():
    out = trebuchet("list", "functions", "--target", "stdio").stdout
    lines = {line.split()[0]: line for line in out.splitlines()}
    assert len(lines) >= 25
    assert "size_t fwrite(const void *ptr, size_t size, size_t nmemb, FILE *stream)" in lines["stdio.fwrite"]
    cases = value_product("buffer", "size", "size", "FILE")
    assert f" {cases} cases" in lines["stdio.fwrite"]


def test_list_datatypes_shows_inheritance():
    out = trebuchet("list", "datatypes").stdout
    assert "FILE: FILE * (inherits pointer)" in out
    assert "BUF_LARGE" in out


def test_list_datatypes_describes_every_value():
    out = trebuchet("list", "datatypes", "--target", "selftest").stdout
    base = trebuchet("list", "datatypes").stdout.splitlines()
    values = [line.split(None, 1) for line in base if line.startswith("    ")]
    assert all(len(v) == 2 for v in values), [v for v in values if len(v) < 2]
    assert any(v == ["READ_ONLY", "an anonymous page of random bytes, read-only: a write is SIGSEGV"]
               for v in values)
    assert "ordeal: " in out  # a target's own datatypes come after the base ones


def test_repro_by_values_and_by_index_agree():
    by_values = trebuchet("repro", "--target", "stdio", "--function", "fclose",
                          "--values", "FILE:CLOSED").stdout
    index = by_values.split(" case ")[1].split(":")[0]
    by_index = trebuchet("repro", "--target", "stdio", "--function", "fclose",
                         "--case", index).stdout
    assert by_values == by_index
    assert "ABORT" in by_values


def test_version_is_the_one_pyproject_writes():
    import re
    from conftest import ROOT
    written = re.search(r'^version = "(.*)"$', (ROOT / "pyproject.toml").read_text(), re.M)[1]
    assert trebuchet("--version").stdout == f"trebuchet {written}\n"


def test_a_value_outside_a_list_is_named_with_the_list_in_words(tmp_path):
    from test_bad_input import GOOD_FUNCTION, assert_input_error, write_spec
    spec = write_spec(tmp_path, "functions:\n" + GOOD_FUNCTION.replace("when: eof", "when: nan"))
    result = trebuchet("list", "functions", "--target", spec, check=False)
    assert_input_error(result, '"nan" is not one of "null", "eof", ')
    assert "[" not in result.stderr.split("is not one of")[1]
