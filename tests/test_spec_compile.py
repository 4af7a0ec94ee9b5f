"""How a spec's own C is compiled: warnings that mean other code would run
than the source says are errors at the source's line; `pkg-config:` and
`cflags:` reach every compilation of the target (the type probe, the plugin,
an --emit-c reproducer's Makefile)."""
import json
import os
import subprocess

import pytest

from conftest import trebuchet
from test_bad_input import GOOD_FUNCTION, assert_input_error, write_spec
from test_emit_c import returned, run


@pytest.mark.parametrize("body, message", [
    # a pointer returned by a function not declared is cut to an int
    ("void *handle(void)\n{\n\treturn (void *)(long)make_handle();\n}\n",
     "implicit declaration of function 'make_handle'"),
    ("char *name(void)\n{\n\treturn 42;\n}\n", "makes pointer from integer"),
])
def test_a_warning_that_matters_is_an_error_at_the_source_line(tmp_path, body, message):
    (tmp_path / "values.c").write_text("/* a target's own C */\n" + body)
    spec = write_spec(tmp_path, "sources: [values.c]\nfunctions:\n" + GOOD_FUNCTION, "own")
    result = trebuchet("run", "--target", spec, "--db", tmp_path / "t.db",
                       "--quiet", check=False)
    assert_input_error(result, f"{tmp_path / 'values.c'}:4: ", message)


TINY_PC = """\
includedir={prefix}/include
Name: tiny
Description: a library whose header is in a folder of its own
Version: 1.0
Cflags: -I${{includedir}}/tinylib
"""


def tiny_library(tmp_path, key):
    """tiny/tiny.h under include/tinylib/ (as libxml2's headers are under
    libxml2/): its type and function are known only with -I that folder."""
    header = tmp_path / "include/tinylib/tiny/tiny.h"
    header.parent.mkdir(parents=True)
    header.write_text("typedef int tiny_int;\n"
                      "static inline long long tiny_triple(tiny_int x) { return 3LL * x; }\n")
    (tmp_path / "pc").mkdir()
    (tmp_path / "pc/tiny.pc").write_text(TINY_PC.format(prefix=tmp_path))
    spec = tmp_path / "spec/tiny.yaml"
    spec.parent.mkdir()
    spec.write_text(f"target: tiny\nincludes: [tiny/tiny.h]\n{key}\nfunctions:\n"
                    "  - name: tiny_triple\n    returns: long long\n    params:\n"
                    "      - {name: x, type: tiny_int, datatype: int}\n"
                    "    error: {when: none}\n")
    return spec


@pytest.mark.parametrize("key", ["pkg-config: [tiny]", "cflags: [-I../include/tinylib]"])
def test_a_header_in_a_folder_of_its_own_is_found_by_probe_plugin_and_reproducer(tmp_path, key):
    spec, out = tiny_library(tmp_path, key), tmp_path / "repro"
    env = {"PKG_CONFIG_PATH": str(tmp_path / "pc")}
    # the probe resolves tiny_int, the plugin calls tiny_triple
    result = trebuchet("repro", "--target", spec, "--function", "tiny_triple", "--values",
                       "int:CHAR_255", "--json", "--emit-c", out, env=env)
    assert json.loads(result.stdout)["ret"] == 765
    made = subprocess.run(["make", "-C", str(out)], capture_output=True, text=True,
                          env=dict(os.environ, **env))
    assert made.returncode == 0, made.stderr
    assert returned(run(out)) == ("tiny_triple", 765, 0)


def test_a_header_a_cflags_folder_finds_travels_with_the_reproducer(tmp_path):
    """Its -I names the folder of support/ the header went to, not this
    machine's: the program builds elsewhere with the library's tree gone."""
    spec, out = tiny_library(tmp_path, "cflags: [-I../include/tinylib]"), tmp_path / "repro"
    trebuchet("repro", "--target", spec, "--function", "tiny_triple", "--values",
              "int:CHAR_255", "--emit-c", out, cwd=tmp_path)
    assert (out / "support/tiny/tiny.h").is_file()
    subprocess.run(["rm", "-rf", str(tmp_path / "include"), str(tmp_path / "pc")], check=True)
    elsewhere = out.rename(tmp_path / "elsewhere")
    assert subprocess.run(["grep", "-rl", str(tmp_path), str(elsewhere)],
                          capture_output=True, text=True).stdout == ""
    made = subprocess.run(["make", "-C", str(elsewhere)], capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    assert returned(run(elsewhere)) == ("tiny_triple", 765, 0)


def test_a_package_pkg_config_does_not_know_is_named_at_its_line(tmp_path):
    spec = tiny_library(tmp_path, "pkg-config: [tiny, nosuchpackage]")
    result = trebuchet("run", "--target", spec, "--db", tmp_path / "t.db", "--quiet",
                       check=False, env={"PKG_CONFIG_PATH": str(tmp_path / "pc")})
    assert_input_error(result, "tiny.yaml:3:", "pkg-config knows no package 'nosuchpackage'")


def _tiny_spec(tmp_path, function):
    """A spec over a header of one function, int tiny_each(int n, int (*f)(int)),
    its functions: as given."""
    (tmp_path / "tiny.h").write_text("int tiny_each(int n, int (*f)(int));\n")
    spec = tmp_path / "tiny.yaml"
    spec.write_text("target: tiny\nincludes: [tiny.h]\nfunctions:\n" + function)
    return spec


@pytest.mark.parametrize("function, line, message", [
    # line 5: its `returns:`, the function's first line the header does not know
    ("  - name: tiny_none\n    returns: int\n    params:\n"
     "      - {name: n, type: int, datatype: int}\n    error: {when: none}\n",
     5, "implicit declaration of function 'tiny_none'"),
    # line 8: the parameter whose type is not the header's
    ("  - name: tiny_each\n    returns: int\n    params:\n"
     "      - {name: n, type: int, datatype: int}\n"
     "      - {name: f, type: \"int (*)(long)\", datatype: callback}\n"
     "    error: {when: none}\n",
     8, "passing argument 2 of 'tiny_each' from incompatible pointer type"),
])
def test_a_shim_that_does_not_compile_is_the_spec_s_line(tmp_path, function, line, message):
    spec = _tiny_spec(tmp_path, function)
    result = trebuchet("run", "--target", spec, "--db", tmp_path / "t.db", "--quiet",
                       check=False)
    assert_input_error(result, f"{spec}:{line}: ", message)


def test_a_header_the_compiler_cannot_find_is_the_includes_line(tmp_path):
    spec = _tiny_spec(tmp_path, "  - name: tiny_each\n    returns: int\n    params:\n"
                                "      - {name: n, type: int, datatype: int}\n"
                                "      - {name: f, type: \"int (*)(int)\", datatype: callback}\n"
                                "    error: {when: none}\n")
    spec.write_text(spec.read_text().replace("includes: [tiny.h]", "includes: [tiny.h, nope.h]"))
    result = trebuchet("run", "--target", spec, "--db", tmp_path / "t.db", "--quiet",
                       check=False)
    assert_input_error(result, f"{spec}:2: ", "the compiler finds no header nope.h")


def test_a_version_expression_that_is_no_string_is_its_line_not_a_crash(tmp_path):
    """`version: {expr: ...}` names a string; an int here once reached the
    executor's snprintf("%s") and killed it before the first case."""
    spec = _tiny_spec(tmp_path, "  - name: tiny_each\n    returns: int\n    params:\n"
                                "      - {name: n, type: int, datatype: int}\n"
                                "      - {name: f, type: \"int (*)(int)\", datatype: callback}\n"
                                "    error: {when: none}\n")
    spec.write_text(spec.read_text().replace(
        "includes: [tiny.h]", "version:\n  label: tiny\n  expr: tiny_each(1, 0)\nincludes: [tiny.h]"))
    result = trebuchet("run", "--target", spec, "--db", tmp_path / "t.db", "--quiet",
                       check=False)
    assert_input_error(result, f"{spec}:4: ", "makes pointer from integer without a cast")
