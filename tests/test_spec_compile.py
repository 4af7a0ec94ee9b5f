"""How a spec's own C is compiled: warnings that mean other code would run
than the source says are errors at the source's line; `pkg-config:` and
`cflags:` reach every compilation of the target (the type probe, the plugin,
an --emit-c reproducer's Makefile)."""
import pytest

from conftest import trebuchet
from test_bad_input import GOOD_FUNCTION, assert_input_error, write_spec


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
