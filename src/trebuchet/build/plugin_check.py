"""Checks a freshly built plugin against its spec, before any case runs, so
that every mistake is one line naming the spec's file and line:

- each symbol under `datatypes:` is defined by the target's sources;
- each such datatype's C `.name` is its key in the spec (one name per
  datatype: the spec's key is what parameters and results say);
- value names are unique within a datatype, inherited ones included;
- a datatype that spans parameters is followed by `span` parameters, and
  `span` follows nothing else;
- each parameter's C type can hold its datatype's values (ctype_probe.py
  asks the compiler what both types really are): a pointer for a pointer,
  a floating type for a floating one, and an integer wide enough and of the
  same signedness, unless the parameter says `convert: true`;
- a target's callback datatype (one extending the base `callback`) has
  the parameter's signature: its callbacks read the arguments
  of their own type.  The base `callback`'s are callable through any.

Three of the build's stages (src/trebuchet/build/plugins.py) are here: the spec's types
before the shims are generated (check_signatures), the compiled plugin's
datatypes (check_datatypes), and the C types those give each parameter
(check_slot_types)."""
import math
from dataclasses import dataclass

from trebuchet.build import ctype_probe, elf_symbols
from trebuchet.harness import executor
from trebuchet.spec import load as spec_module, sequences as spec_sequences
from trebuchet.core.errors import TrebuchetError

SPAN = "span"


@dataclass(frozen=True)
class Datatypes:
    """The compiled plugin's datatypes, checked against its spec: by name,
    as `list datatypes` gives them; per function, the C type each slot
    gets from its datatype; the parameters of a callback datatype."""
    spec: object
    by_name: dict
    slots: dict
    callbacks: list


def check_signatures(signatures):
    """Every parameter's C type is one a slot can hold, and every return
    type one a call's record can (or void).  signatures:
    ctype_probe.Signatures."""
    spec, types = signatures.spec, signatures.types
    for f in spec.functions:
        if f.returns != "void" and types.get(f.returns) is None:
            raise TrebuchetError(f"{f.name}: return type '{f.returns}' is not a pointer, "
                                 f"integer or floating type the compiler knows from the "
                                 f"spec's includes (a struct returned by value needs a shim "
                                 f"in the spec's sources)", *f.returns_where)
        for p in f.params:
            if types.get(p.ctype) is None:
                raise TrebuchetError(f"{f.name}: parameter {p.name}: C type '{p.ctype}' is not "
                                     f"a pointer, integer or floating type the compiler knows "
                                     f"from the spec's includes{_function_hint(p.ctype)}",
                                     *p.where)


def check_datatypes(plugin):
    """The plugin's datatypes (plugin: its spec and path), checked for
    their symbols, names, values and spans."""
    by_name = check(plugin.spec, plugin.path, list(spec_module.base_datatypes()))
    check_contract_values(plugin.spec, by_name)
    check_sequence_values(plugin.spec, by_name)
    check_products(plugin.spec, by_name)
    slots = slot_types(plugin.spec, by_name)
    return Datatypes(plugin.spec, by_name, slots, callback_pairs(plugin.spec, by_name, slots))


def check_slot_types(resolved):
    """Each parameter takes its datatype's C type (resolved:
    ctype_probe.SlotTypes); returns the accepted conversions, one line
    each, for `trebuchet run` to say."""
    datatypes = resolved.datatypes
    converted = check_types(datatypes.spec, datatypes.slots, resolved.types)
    check_callbacks(datatypes.callbacks, resolved.same)
    return [f"{p.where[0].name}:{p.where[1]}: {f.name}({p.name}): datatype {p.datatype} "
            f"converted to {p.ctype}: {change}" for f, p, change in converted]


# A case is named by its index in the function's cross product, which the
# store keeps in SQLite's signed 64-bit integers (harness/cases.c).
MAX_CASES = 2 ** 63 - 1


def check_contract_values(spec, datatypes):
    """Every value a contract names is one of its parameter's datatype, the
    target's own datatypes too (the base ones are checked as the spec is
    read): a misspelt name would be a promise no case ever holds."""
    for f in spec.functions:
        for _, p, value, where in f.named_values():
            values = [v["name"] for v in datatypes.get(p.datatype, {}).get("values", ())]
            if values and value not in values:
                raise TrebuchetError(f"{f.name}({p.name}): '{value}' is not a value of datatype"
                                     f" {p.datatype} (its values: {', '.join(values)})", *where)


def check_sequence_values(spec, datatypes):
    """Every value a step of a value made by calls names is one of its
    parameter's datatype, the target's own too (the base ones are checked
    as the spec is read)."""
    for s in spec.sequences:
        for i, step in enumerate(s.steps):
            for p, value in spec_sequences.arguments(spec, step):
                values = [v["name"] for v in datatypes[p.datatype]["values"]]
                if value not in values:
                    raise TrebuchetError(f"{s.label}, step {i + 1}: '{value}' is not a value of "
                                         f"datatype {p.datatype}, {step.call}({p.name})'s",
                                         *step.where)


def check_products(spec, datatypes):
    """Every function's cross product of values can be indexed; one that
    cannot is refused at its line, whatever --cap would draw from it."""
    for f in spec.functions:
        counts = [len(datatypes[p.datatype]["values"]) for p in f.params
                  if p.datatype in datatypes]
        total = math.prod(counts)
        if total > MAX_CASES:
            raise TrebuchetError(
                f"{f.name}: its parameters' values make {' x '.join(map(str, counts))} = "
                f"{total:.3g} cases, more "
                f"than a case index can name (2^63 - 1); give some parameters a datatype of "
                f"fewer values", *f.returns_where)


def check(spec, plugin, base_names):
    """Checks the plugin's datatypes; returns them by name, as `list
    datatypes` of the plugin gives them (base datatypes first, then the
    target's own in the order of spec.datatypes)."""
    _check_symbols(spec, plugin)
    listing = executor.list_datatypes(plugin)
    own = listing[len(base_names):]
    for (key, symbol), d in zip(spec.datatypes.items(), own):
        if d["name"] != key:
            raise TrebuchetError(
                f"datatype '{key}': its C symbol {symbol} is named \"{d['name']}\" (.name); "
                f"one name per datatype: make the key and .name the same",
                *spec.datatype_lines[key])
    for d in listing:
        _check_unique(spec, d)
    return {d["name"]: d for d in listing}


def _check_symbols(spec, plugin):
    defined = elf_symbols.defined(plugin)
    for key, symbol in spec.datatypes.items():
        if symbol not in defined:
            sources = ", ".join(spec.sources) or "none"
            raise TrebuchetError(
                f"datatype '{key}': no symbol {symbol} in the target's sources ({sources}); "
                f"it names a `const struct tb_datatype` defined there", *spec.datatype_lines[key])


def _check_unique(spec, d):
    seen = set()
    made = {s.label: s.where for s in spec.sequences}
    for v in d["values"]:
        if v["name"] in seen and f"{d['name']}:{v['name']}" in made:
            raise TrebuchetError(f"datatype '{d['name']}' already has a value named {v['name']}:"
                                 f" give the value made by calls a name of its own",
                                 *made[f"{d['name']}:{v['name']}"])
        if v["name"] in seen:
            where = spec.datatype_lines.get(d["name"], (spec.path, None))
            whose = f"; its parent {d['parent']} has one" if d["parent"] else ""
            raise TrebuchetError(f"datatype '{d['name']}' has two values named {v['name']}"
                                 f"{whose}: rename one, or skip the parent's (.skip)", *where)
        seen.add(v["name"])


def slot_types(spec, datatypes):
    """Per function, per parameter: the C type spelling its datatype gives
    that slot (a span's parameters take the spanning datatype's later
    slots), checking the spans' shape on the way."""
    slots = {}
    for f in spec.functions:
        pending, out = [], []
        for p in f.params:
            if p.datatype == SPAN:
                if not pending:
                    raise TrebuchetError(
                        f"{f.name}: parameter {p.name} is `span`, but the parameter before "
                        f"has no datatype that spans it", *p.where)
                out.append(pending.pop(0))
                continue
            if pending:
                raise TrebuchetError(
                    f"{f.name}: parameter {p.name} must be `span`: the datatype before it "
                    f"fills {len(pending)} more parameter(s)", *p.where)
            types = ctype_probe.split_slots(datatypes[p.datatype]["ctype"])
            span = datatypes[p.datatype].get("span", 1)
            if len(types) != span:
                raise TrebuchetError(
                    f"datatype '{p.datatype}' spans {span} parameters but its .ctype "
                    f"\"{datatypes[p.datatype]['ctype']}\" gives {len(types)} C types",
                    *spec.datatype_lines.get(p.datatype, p.where))
            out.append(types[0])
            pending = types[1:]
        if pending:
            last = f.params[-1]
            raise TrebuchetError(f"{f.name}: datatype of parameter {last.name} spans "
                                 f"{len(pending)} more parameter(s) than there are", *last.where)
        slots[f.name] = out
    return slots


def conversion(param_type, value_type):
    """None when every value of value_type is unchanged in param_type, else
    a phrase saying how it changes; raises ValueError when no conversion
    can make sense (pointer against number, floating against integer)."""
    p, v = param_type, value_type
    if (p.kind == "pointer") != (v.kind == "pointer"):
        raise ValueError("a pointer and a number")
    if p.kind == "pointer":
        return None
    if (p.kind == "floating") != (v.kind == "floating"):
        raise ValueError("a floating type and an integer")
    if p.kind == "floating":
        return None if p.size >= v.size else f"narrowed from {v.size} to {p.size} bytes"
    if p.size > v.size and (p.signed or not v.signed):
        return None
    if p.size == v.size and p.signed == v.signed:
        return None
    if p.size < v.size:
        return f"truncated from {v.size} to {p.size} bytes"
    return "read as " + ("signed" if p.signed else "unsigned")


def _paired(ctype):
    depth = 0
    for ch in ctype:
        depth += (ch == "(") - (ch == ")")
        if depth < 0:
            return False
    return depth == 0


def _function_hint(ctype):
    """What a C type that is no scalar may have meant, when it looks like a
    function's: its parentheses, or a function type where its pointer goes."""
    if not _paired(ctype):
        return " (its parentheses do not pair up)"
    if "(" in ctype:
        return " (a function pointer is written `int (*)(const void *)`, or by its typedef)"
    return ""


def check_types(spec, slots, types):
    """Raises at the first parameter whose C type cannot hold its datatype's
    values (slots: slot_types' answer); returns [(function, param, phrase)]
    for the accepted conversions (`convert: true`)."""
    converted = []
    for f in spec.functions:
        for p, slot in zip(f.params, slots[f.name]):
            have, want = types[p.ctype], types.get(slot)
            if want is None:
                raise TrebuchetError(f"datatype '{p.datatype}' gives C type '{slot}', which does "
                                     f"not compile with the spec's includes",
                                     *spec.datatype_lines.get(p.datatype, p.where))
            try:
                change = conversion(have, want)
            except ValueError as e:
                raise TrebuchetError(
                    f"{f.name}: parameter {p.name} ({have.describe()}) cannot take datatype "
                    f"{p.datatype} ({want.describe()}): {e}", *p.where) from None
            if change and not p.convert:
                raise TrebuchetError(
                    f"{f.name}: parameter {p.name} ({have.describe()}) would change datatype "
                    f"{p.datatype}'s values ({want.describe()}): {change}; choose a datatype "
                    f"of its type, or say `convert: true` to run them converted", *p.where)
            if change:
                converted.append((f, p, change))
    return converted


BASE_CALLBACK = "callback"


def _extends_callback(name, datatypes):
    parent = datatypes[name]["parent"]
    return parent == BASE_CALLBACK or bool(parent) and _extends_callback(parent, datatypes)


def callback_pairs(spec, datatypes, slots):
    """[(function, param, the datatype's C type)] of each parameter whose
    datatype extends `callback` with a target's own callbacks: those whose
    signature must be the parameter's."""
    return [(f, p, slot) for f in spec.functions for p, slot in zip(f.params, slots[f.name])
            if _extends_callback(p.datatype, datatypes)]


def check_callbacks(pairs, same):
    """Raises at the first parameter whose callback datatype's functions
    have another type (same: ctype_probe.same_types' answers)."""
    for f, p, slot in pairs:
        if not same[(p.ctype, slot)]:
            raise TrebuchetError(
                f"{f.name}: parameter {p.name} ({p.ctype}) cannot take datatype {p.datatype}, "
                f"whose callbacks are {slot}: they would read other arguments than they are "
                f"given; give it a datatype of its signature, or the base `callback`", *p.where)
