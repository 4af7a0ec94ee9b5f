"""Bad input gets one line naming the file (and line), exit code 2, no
traceback, and loses nothing already stored."""
import sqlite3
import textwrap

import pytest

from conftest import query, trebuchet, value_product

GOOD_FUNCTION = """\
  - name: fclose
    returns: int
    params:
      - {name: stream, type: FILE *, datatype: FILE}
    error: {when: eof}
"""


def write_spec(tmp_path, body, name="userlib"):
    spec = tmp_path / f"{name}.yaml"
    spec.write_text(f"target: {name}\nincludes: [stdio.h]\n" + textwrap.dedent(body))
    return spec


def assert_input_error(result, *fragments):
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def run_spec(spec, db):
    return trebuchet("run", "--target", spec, "--db", db, "--quiet", check=False)


def test_malformed_yaml_names_file_and_line(tmp_path):
    spec = write_spec(tmp_path, "functions:\n  - name: fclose\n     returns: int\n", "broken")
    assert_input_error(run_spec(spec, tmp_path / "t.db"), "broken.yaml:5:", "YAML")


def test_schema_violation_names_file_and_line(tmp_path):
    spec = write_spec(tmp_path, """\
        functions:
          - name: fclose
            returns: int
            params: []
        """, "noerror")
    assert_input_error(run_spec(spec, tmp_path / "t.db"), "noerror.yaml:4:", "missing key 'error'")


def test_unknown_datatype_names_file_and_line(tmp_path):
    spec = write_spec(tmp_path, GOOD_FUNCTION.join(["functions:\n", """\
  - name: fflush
    returns: int
    params:
      - {name: stream, type: FILE *, datatype: Stream}
    error: {when: eof}
"""]), "badtype")
    assert_input_error(run_spec(spec, tmp_path / "t.db"), "badtype.yaml:12:",
                       "unknown datatype 'Stream'")


def test_missing_library_names_file_and_line(tmp_path):
    spec = write_spec(tmp_path, "libraries: [libnosuchthing.so.7]\nfunctions:\n" + GOOD_FUNCTION,
                      "nolib")
    assert_input_error(run_spec(spec, tmp_path / "t.db"), "nolib.yaml:3:",
                       "library 'libnosuchthing.so.7' is not installed")


def test_a_missing_library_is_told_how_to_get_it_where_the_spec_says(tmp_path):
    spec = write_spec(tmp_path, "libraries: [libnosuchthing.so.7]\n"
                      "install: apt-get install libnosuchthing7\nfunctions:\n" + GOOD_FUNCTION,
                      "nolib")
    assert_input_error(run_spec(spec, tmp_path / "t.db"), "nolib.yaml:3:",
                       "library 'libnosuchthing.so.7' is not installed (nor in a folder of"
                       " LD_LIBRARY_PATH); apt-get install libnosuchthing7")


def test_unknown_target_and_function(tmp_path):
    assert_input_error(trebuchet("run", "--target", "nosuch", "--db", tmp_path / "t.db",
                                 check=False), "unknown target 'nosuch'")
    assert_input_error(trebuchet("run", "--target", "stdio", "--functions", "fclose,nosuch",
                                 "--db", tmp_path / "t.db", check=False),
                       "stdio.yaml", "no function 'nosuch'")
    assert_input_error(trebuchet("run", "--target", "stdio", "--functions", "fclose,fclose",
                                 "--db", tmp_path / "t.db", "--quiet", check=False),
                       "function 'fclose' is listed twice")


@pytest.fixture
def foreign_store(tmp_path):
    """A store of another schema version holding a row of its own."""
    db = tmp_path / "old.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE results (x)")
        conn.execute("INSERT INTO results VALUES (42)")
        conn.execute("PRAGMA user_version = 6")  # the version before crash_sites
    return db


def test_store_of_another_version_is_refused_and_kept(foreign_store):
    result = trebuchet("run", "--target", "stdio", "--functions", "fclose", "--db",
                       foreign_store, "--quiet", check=False)
    assert_input_error(result, str(foreign_store), "schema version 6")
    assert query(foreign_store, "SELECT x FROM results") == [(42,)]
    assert_input_error(trebuchet("export", "--db", foreign_store, check=False),
                       str(foreign_store), "schema version 6")


def test_a_good_user_spec_runs(tmp_path):
    """A user's own spec, outside the project's targets, builds and runs."""
    spec = write_spec(tmp_path, "functions:\n" + GOOD_FUNCTION, "userlib")
    db = tmp_path / "user.db"
    trebuchet("run", "--target", spec, "--db", db, "--quiet")
    assert query(db, "SELECT target, count(*) FROM results JOIN runs ON runs.id = run_id") == \
        [("userlib", value_product("FILE"))]


def test_extending_a_missing_spec_names_file_and_line(tmp_path):
    spec = write_spec(tmp_path, "extends: nowhere.yaml\n", "orphan")
    assert_input_error(run_spec(spec, tmp_path / "t.db"), "orphan.yaml:3:", "nowhere.yaml")


def test_specs_extending_each_other_in_a_circle_are_refused(tmp_path):
    write_spec(tmp_path, "extends: hen.yaml\n", "egg")
    spec = write_spec(tmp_path, "extends: egg.yaml\n", "hen")
    assert_input_error(run_spec(spec, tmp_path / "t.db"), "circle")


def test_an_extending_spec_gets_the_base_functions(tmp_path):
    write_spec(tmp_path, "functions:\n" + GOOD_FUNCTION, "base")
    spec = write_spec(tmp_path, "extends: base.yaml\n", "derived")
    db = tmp_path / "t.db"
    trebuchet("run", "--target", spec, "--db", db, "--quiet")
    assert query(db, "SELECT target, functions FROM runs") == [("derived", "fclose")]


def test_a_project_library_not_built_is_named(tmp_path):
    spec = write_spec(tmp_path, "libraries: [build/lib/libnothing.so]\nfunctions:\n" + GOOD_FUNCTION,
                      "unbuilt")
    assert_input_error(run_spec(spec, tmp_path / "t.db"), "unbuilt.yaml:3:", "not built")


def test_an_extending_spec_is_checked_at_its_own_lines(tmp_path):
    write_spec(tmp_path, "functions:\n" + GOOD_FUNCTION, "base")
    spec = write_spec(tmp_path, """\
        extends: base.yaml
        functions:
          - name: fflush
            returns: int
            params:
              - {name: stream, type: FILE *, datatype: Stream}
            error: {when: eof}
        """, "adds")
    assert_input_error(run_spec(spec, tmp_path / "t.db"), "adds.yaml:8:", "'Stream'")
    again = write_spec(tmp_path, "extends: base.yaml\nfunctions:\n" + GOOD_FUNCTION, "again")
    assert_input_error(run_spec(again, tmp_path / "t.db"), "again.yaml:5:", "listed twice")
