"""A drafted contract compared with a hand-written one promise by promise
(`make contract-drafts`): what agrees, what is missing, what is extra."""
import textwrap

from trebuchet.init import contract_compare

DRAFT = """\
    target: d
    functions:
      - name: f
        returns: int
        params:
          - {name: s, type: const char *, datatype: string, accepts: [NULL]}
          - {name: n, type: int, datatype: int}
        # error convention: d.h:3: "Returns -1 on error."
        error: {when: negative}
        contract: {source: "drafted from d.h:3", drafted: true, returns: acceptable}
      - name: g
        returns: int
        params:
          - {name: p, type: void *, datatype: buffer, undefined: [NULL]}
        error: {when: negative}   # the return type's guess: not counted
      - name: only_drafted
        returns: int
        params: []
        # error convention: d.h:9: "Returns -1 on error."
        error: {when: negative}
"""
HAND = """\
    target: h
    functions:
      - name: f
        returns: int
        params:
          - {name: s, type: const char *, datatype: string, accepts: [NULL]}
          - {name: n, type: int, datatype: int, undefined: [INT_MIN, NEG_ONE]}
        error: {when: negative}
        contract:
          source: "h.h:1"
          errors:
            - {when: {s: [EMPTY], n: [ZERO]}, errno: [EINVAL]}
      - name: g
        returns: int
        params:
          - {name: p, type: void *, datatype: buffer}
        error: {when: nonzero}
"""


def test_promises_agree_miss_or_are_extra_one_by_one(tmp_path):
    draft, hand = tmp_path / "d.yaml", tmp_path / "h.yaml"
    draft.write_text(textwrap.dedent(DRAFT))
    hand.write_text(textwrap.dedent(HAND))
    lines = contract_compare.compare(draft, hand)
    table = {line.split()[0]: line.split()[1:] for line in lines[3:9]}
    # agreed: f's convention, s accepts NULL; missing: g's convention (the
    # draft's is a guess), n's two undefined values, the error on s and on n
    # (one promise each value); extra: f returns acceptable, g's p undefined NULL
    assert table["error"] == ["1", "1", "0"]
    assert table["accepts"] == ["1", "0", "0"]
    assert table["errors"] == ["0", "2", "0"]
    assert table["undefined"] == ["0", "2", "1"]
    assert table["returns"] == ["0", "0", "1"]
    assert table["total"] == ["2", "5", "2"]
    assert "  functions: 3 drafted, 2 hand-written, 2 in both" in lines[1]
    assert lines[-2:] == ["    f returns acceptable", "    g undefined p NULL"]
