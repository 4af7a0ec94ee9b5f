"""src/trebuchet/build/plugin_check.py's checks one by one, on specs and datatypes made
by hand: each mistake is refused with its own sentence at its own line, and
what is accepted is accepted as it is.  (test_authoring.py runs the same
checks end to end through `trebuchet build`.)"""
from pathlib import Path
from types import SimpleNamespace

import pytest

from conftest import ROOT
from trebuchet.build import plugin_check
from trebuchet.spec import load as specs
from trebuchet.build.ctype_probe import CType, Signatures
from trebuchet.core.errors import TrebuchetError
from trebuchet.spec.sequences import Sequence

SPEC = Path("/specs/t.yaml")
DATATYPES = {"int": {"ctype": "int"}, "buf": {"ctype": "void *, size_t", "span": 2},
             "odd": {"ctype": "int, long", "span": 3}, "ptr": {"ctype": "void *"},
             "nope": {"ctype": "struct nowhere"}}
TYPES = {"int": CType("int", "integer", 4, True), "long": CType("long", "integer", 8, True),
         "short": CType("short", "integer", 2, True),
         "unsigned": CType("unsigned", "integer", 4, False),
         "void *": CType("void *", "pointer", 8, False),
         "size_t": CType("size_t", "integer", 8, False),
         "double": CType("double", "floating", 8, True)}


def param(name, datatype, line, ctype="int", convert=False):
    return specs.Param(name, ctype, datatype, convert, where=(SPEC, line))


def spec_of(*params, returns="int", datatype_lines=None):
    f = SimpleNamespace(name="f", params=list(params), returns=returns,
                        returns_where=(SPEC, 3))
    return SimpleNamespace(path=SPEC, functions=[f], datatype_lines=datatype_lines or {},
                           datatypes={}, sources=[])


def signatures(spec):
    return Signatures(spec, None, TYPES)


def checked_types(spec):
    """check_types over the slots DATATYPES give the spec's parameters."""
    return plugin_check.check_types(spec, plugin_check.slot_types(spec, DATATYPES), TYPES)


def refused(call, *args):
    with pytest.raises(TrebuchetError) as e:
        call(*args)
    return str(e.value)


def test_a_spanning_datatype_fills_the_slots_after_it():
    spec = spec_of(param("a", "int", 5), param("p", "buf", 6), param("n", "span", 7))
    assert plugin_check.slot_types(spec, DATATYPES) == {"f": ["int", "void *", "size_t"]}


@pytest.mark.parametrize("params, message", [
    ([("n", "span", 5)],
     "/specs/t.yaml:5: f: parameter n is `span`, but the parameter before has no datatype "
     "that spans it"),
    ([("a", "int", 5), ("n", "span", 6)],
     "/specs/t.yaml:6: f: parameter n is `span`, but the parameter before has no datatype "
     "that spans it"),
    ([("p", "buf", 5), ("a", "int", 6)],
     "/specs/t.yaml:6: f: parameter a must be `span`: the datatype before it fills 1 more "
     "parameter(s)"),
    ([("a", "int", 5), ("p", "buf", 6)],
     "/specs/t.yaml:6: f: datatype of parameter p spans 1 more parameter(s) than there are"),
])
def test_a_span_out_of_place_is_refused_at_its_line(params, message):
    spec = spec_of(*(param(*p) for p in params))
    assert refused(plugin_check.slot_types, spec, DATATYPES) == message


def test_a_span_count_its_ctype_does_not_give_is_refused_at_the_datatype():
    spec = spec_of(param("a", "odd", 5), datatype_lines={"odd": (SPEC, 12)})
    assert refused(plugin_check.slot_types, spec, DATATYPES) == \
        '/specs/t.yaml:12: datatype \'odd\' spans 3 parameters but its .ctype "int, long" ' \
        'gives 2 C types'
    # a datatype of the base set has no line of the spec's: the parameter's
    assert refused(plugin_check.slot_types, spec_of(param("a", "odd", 5)), DATATYPES) \
        .startswith("/specs/t.yaml:5: datatype 'odd' spans 3")


def test_types_the_compiler_does_not_know_are_refused_at_their_line():
    assert refused(plugin_check.check_signatures, signatures(spec_of(returns="struct s"))) == \
        "/specs/t.yaml:3: f: return type 'struct s' is not a pointer, integer or floating " \
        "type the compiler knows from the spec's includes (a struct returned by value needs " \
        "a shim in the spec's sources)"
    spec = spec_of(param("a", "int", 5, ctype="mystery_t"))
    assert refused(plugin_check.check_signatures, signatures(spec)) == \
        "/specs/t.yaml:5: f: parameter a: C type 'mystery_t' is not a pointer, integer or " \
        "floating type the compiler knows from the spec's includes"
    # void returns, and known types pass
    plugin_check.check_signatures(signatures(spec_of(param("a", "int", 5), returns="void")))


def test_a_parameter_holds_its_datatype_or_says_convert():
    exact = spec_of(param("a", "int", 5), param("b", "int", 6, ctype="long"))
    assert checked_types(exact) == []
    narrow = spec_of(param("a", "int", 5, ctype="short"))
    assert refused(checked_types, narrow) == \
        "/specs/t.yaml:5: f: parameter a (short: signed, 2 bytes) would change datatype int's " \
        "values (int: signed, 4 bytes): truncated from 4 to 2 bytes; choose a datatype of its " \
        "type, or say `convert: true` to run them converted"
    said = spec_of(param("a", "int", 5, ctype="short", convert=True),
                   param("b", "int", 6, ctype="unsigned", convert=True))
    got = [(p.name, change) for f, p, change in checked_types(said)]
    assert got == [("a", "truncated from 4 to 2 bytes"), ("b", "read as unsigned")]


def test_a_parameter_that_cannot_take_its_datatype_at_all():
    spec = spec_of(param("a", "ptr", 5, ctype="double"))
    assert refused(checked_types, spec) == \
        "/specs/t.yaml:5: f: parameter a (double: floating, 8 bytes) cannot take datatype " \
        "ptr (void *: pointer, 8 bytes): a pointer and a number"
    spec = spec_of(param("a", "nope", 5), datatype_lines={"nope": (SPEC, 9)})
    assert refused(checked_types, spec) == \
        "/specs/t.yaml:9: datatype 'nope' gives C type 'struct nowhere', which does not " \
        "compile with the spec's includes"


def test_value_names_are_unique_within_a_datatype():
    spec = SimpleNamespace(path=SPEC, datatype_lines={"mine": (SPEC, 4)}, sequences=())
    twice = {"name": "mine", "parent": "pointer",
             "values": [{"name": "A"}, {"name": "B"}, {"name": "A"}]}
    assert refused(plugin_check._check_unique, spec, twice) == \
        "/specs/t.yaml:4: datatype 'mine' has two values named A; its parent pointer has one: " \
        "rename one, or skip the parent's (.skip)"
    twice.update(name="other", parent=None)
    assert refused(plugin_check._check_unique, spec, twice) == \
        "/specs/t.yaml: datatype 'other' has two values named A: rename one, or skip the " \
        "parent's (.skip)"
    plugin_check._check_unique(spec, {"name": "ok", "parent": None,
                                      "values": [{"name": "A"}, {"name": "B"}]})
    # a value made by calls (the spec's `values:`) is told at its own line
    spec.sequences = (Sequence("other", "A", (), where=(SPEC, 12)),)
    assert refused(plugin_check._check_unique, spec, twice) == \
        "/specs/t.yaml:12: datatype 'other' already has a value named A: give the value " \
        "made by calls a name of its own"


def test_a_datatype_symbol_the_plugin_lacks_or_names_otherwise():
    selftest = specs.load(ROOT / "targets/selftest/selftest.yaml")
    plugin = ROOT / "build/targets/selftest/selftest.so"
    base = list(specs.base_datatypes())
    found = plugin_check.check(selftest, plugin, base)
    assert list(found)[:len(base)] == base and list(found)[len(base):] == ["ordeal"]
    missing = SimpleNamespace(datatypes={"mine": "tb_type_nowhere"}, sources=["a.c", "b.c"],
                              datatype_lines={"mine": (SPEC, 8)})
    assert refused(plugin_check._check_symbols, missing, plugin) == \
        "/specs/t.yaml:8: datatype 'mine': no symbol tb_type_nowhere in the target's sources " \
        "(a.c, b.c); it names a `const struct tb_datatype` defined there"
    missing.sources = []
    assert "(none)" in refused(plugin_check._check_symbols, missing, plugin)
    renamed = SimpleNamespace(datatypes={"renamed": "tb_type_ordeal"}, sources=[], path=SPEC,
                              datatype_lines={"renamed": (SPEC, 11)})
    assert refused(plugin_check.check, renamed, plugin, base) == \
        "/specs/t.yaml:11: datatype 'renamed': its C symbol tb_type_ordeal is named " \
        "\"ordeal\" (.name); one name per datatype: make the key and .name the same"


def test_a_product_no_case_index_can_name_is_refused_at_the_function():
    sixteen = {"many": {"values": [{"name": f"V{i}"} for i in range(16)]}}
    fits = spec_of(*(param(f"a{i}", "many", 5 + i) for i in range(15)))
    plugin_check.check_products(fits, sixteen)  # 16^15 = 2^60
    wide = spec_of(*(param(f"a{i}", "many", 5 + i) for i in range(16)))
    assert refused(plugin_check.check_products, wide, sixteen) == \
        "/specs/t.yaml:3: f: its parameters' values make " + " x ".join(["16"] * 16) + \
        " = 1.84e+19 cases, more than a case index can name (2^63 - 1); give some " \
        "parameters a datatype of fewer values"
    # 2^63 exactly is one too many
    two = {"two": {"values": [{"name": "A"}, {"name": "B"}]}}
    assert "= 9.22e+18 cases" in refused(plugin_check.check_products,
                                         spec_of(*(param(f"b{i}", "two", 5) for i in range(63))),
                                         two)
    plugin_check.check_products(spec_of(*(param(f"b{i}", "two", 5) for i in range(62))), two)
