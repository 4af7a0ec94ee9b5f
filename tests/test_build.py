"""A target's plugin is generated from its spec and rebuilt when the spec changes."""
from conftest import trebuchet

SPEC = """\
target: rebuilt
includes: [stdio.h]
functions:
  - name: fclose
    returns: int
    params:
      - {name: stream, type: FILE *, datatype: FILE}
    error: {when: eof}
"""

EXTRA = """\
  - name: fflush
    returns: int
    params:
      - {name: stream, type: FILE *, datatype: FILE}
    error: {when: eof}
"""


def functions_of(spec):
    out = trebuchet("list", "functions", "--target", spec).stdout
    return [line.split()[0] for line in out.splitlines()]


def test_plugin_follows_its_spec(tmp_path):
    spec = tmp_path / "rebuilt.yaml"
    spec.write_text(SPEC)
    assert functions_of(spec) == ["rebuilt.fclose"]
    spec.write_text(SPEC + EXTRA)
    assert functions_of(spec) == ["rebuilt.fclose", "rebuilt.fflush"]
