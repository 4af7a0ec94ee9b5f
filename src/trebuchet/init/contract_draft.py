"""A function's drafted contract: the promises its documentation's
sentences make (contract_rules.py), put together.

- The error convention is the first sure one, a RETURN VALUE section's
  sentences read first; it wins over the return type's guess.
- A value both promised (accepts, an error) and left undefined by the
  documentation is written in doubt on both sides: it cannot say both.
- A value with a promised error needs no `accepts` of its own.
- An error promised where the function reports no error (void, or a
  convention of none) is in doubt.
- `returns: acceptable` only where the documentation describes every
  parameter: each is named in some sentence, or has its @param; and in
  doubt where a parameter is a raw block (`buffer`) or a buffer drawn with
  its length: a block too small for what it should hold (BUF_0, BUF_1), or
  a length past its block, is an acceptable value no sentence describes.
- Silence is undefined (docs/contracts.md, section 3): where the
  documentation describes every parameter, a pointer parameter no sentence
  speaks of with NULL has NULL `undefined`, said so beside it. (Where it
  does not, it is too thin for its silence to say anything.)"""
import re
from dataclasses import dataclass, field

from trebuchet.init import contract_rules


@dataclass
class Contract:
    convention: object = None      # a contract_rules.Promise of kind error, or None
    values: list = field(default_factory=list)  # accepts, errors, undefined promises, sure or not
    returns: str = ""              # "acceptable" or ""
    returns_doubt: str = ""        # why `returns: acceptable` is written commented out
    described: list = field(default_factory=list)  # [(param, Sentence)] naming each parameter
    sentences: list = field(default_factory=list)  # every sentence read

    def sure(self, kind):
        return [p for p in self.values if p.kind == kind and not p.doubt]

    def in_doubt(self):
        return [p for p in self.values if p.doubt]

    @property
    def promises_anything(self):
        """A contract block is needed: some promise is sure."""
        return bool(self.returns or self.sure("errors") or self.sure("accepts"))

    def sources(self):
        """file:first-last of each file whose sentences gave a promise."""
        used = [p.sentence for p in self.values if not p.doubt and p.sentence is not None]
        used += [s for _, s in self.described] or self.sentences[:1] if self.returns else []
        if self.convention is not None and not self.convention.doubt:
            used.append(self.convention.sentence)
        lines = {}
        for s in used:
            lines.setdefault(s.file, []).append(s.line)
        return "; ".join(f"{f}:{min(n)}" + (f"-{max(n)}" if max(n) != min(n) else "")
                         for f, n in lines.items())


def draft(fn, said):
    """The contract of fn (contract_rules.Function) from its sentences."""
    ordered = sorted(said, key=lambda s: "RETURN" not in s.section)
    found = [p for s in ordered for p in contract_rules.promises(s, fn)]
    conventions = [p for p in found if p.kind == "error"]
    convention = next((p for p in conventions if not p.doubt), conventions[0] if conventions else None)
    values = _resolved([p for p in found if p.kind != "error"], fn, convention)
    described = _described(fn, said)
    every = bool(said) and len(described) == len(fn.params)
    if every:  # documentation that describes every parameter and is silent on a NULL
        values += _silent_nulls(fn, said, values)
    blocks = [name for name, datatype, kind in fn.params if datatype == "buffer" or kind == "span"]
    doubt = (f"{', '.join(blocks)}: a block too small for what it should hold, or a length past"
             f" its block, is acceptable and described nowhere") if every and blocks else ""
    returns = "acceptable" if every and not blocks else ""
    return Contract(convention, values, returns, doubt, described, list(said))


def _resolved(values, fn, convention):
    """The promises of a function's sentences, each once, conflicts in doubt;
    kinds are told apart value by value (a span's NULL_ZERO is both its
    NULL and its zero length)."""
    sure = {}
    for p in values:
        for v in p.values if not p.doubt else ():
            sure.setdefault((p.param, v), set()).add(p.kind)
    out, seen = [], set()
    for p in values:
        kinds = set().union(*(sure.get((p.param, v), set()) for v in p.values))
        key = (p.kind, p.param, p.values)
        if key in seen or (p.doubt and p.kind in kinds):
            continue
        seen.add(key)
        if p.kind == "accepts" and all("errors" in sure.get((p.param, v), ()) for v in p.values):
            continue  # the error promises hold it
        if not p.doubt and "undefined" in kinds and kinds & {"accepts", "errors"}:
            p = _doubted(p, "the documentation says it is both defined and undefined")
        elif p.kind == "errors" and not p.doubt and _reports_nothing(fn, convention):
            p = _doubted(p, "the function reports no error by its convention")
        out.append(p)
    return out


def _silent_nulls(fn, said, values):
    """NULL undefined for each pointer parameter no sentence speaks of with
    NULL (a sentence naming both, "if endptr is not NULL", describes it;
    so does one a rule read a NULL of it from, "the 2nd parameter")."""
    promised = {p.param for p in values if {"NULL", "NULL_ZERO"} & set(p.values)}
    out = []
    for name, _, kind in fn.params:
        if name in promised:
            continue
        spoken = any(re.search(rf"(?<![\w>.]){re.escape(name)}\b", s.text) and
                     re.search(r"\bNULL\b|\bnull\s+pointer|\bZ_NULL\b", s.text)
                     or s.param == name and re.search(r"\bNULL\b|\bnull\b", s.text) for s in said)
        if kind == "pointer" and not spoken:
            out.append(contract_rules.Promise("undefined", name, ("NULL",)))
    return out


def _doubted(p, why):
    return contract_rules.Promise(p.kind, p.param, p.values, p.errno, p.when, why, p.sentence)


def _reports_nothing(fn, convention):
    return fn.returns == "void" and convention is None


# parameter names that are English words too: described only by their @param
_WORDS = {"a", "an", "as", "at", "be", "by", "do", "if", "in", "is", "it", "no", "of", "on", "or",
          "so", "to", "up", "s", "n"}


def _described(fn, said):
    """[(param, the first sentence naming it)] of the parameters described."""
    out = []
    for name, _, _ in fn.params:
        s = next((s for s in said if s.param == name or name.lower() not in _WORDS
                  and re.search(rf"(?<![\w>.']){re.escape(name)}\b", s.text)), None)
        if s is not None:
            out.append((name, s))
    return out


def attach(drafted, declared, said, codes):
    """Each drafted function (infer.Function) given its contract, from the
    header's declaration of it (header.Function) and its sentences; codes:
    {macro name: its number} of the header's error codes."""
    by_name = {f.name: f for f in declared}
    spans = {p.datatype for f in drafted for p in f.params
             if p.datatype.startswith("bytes_")} | {"span"}
    for f in drafted:
        decl = by_name[f.name]
        params = tuple((p.name, p.datatype, "span" if p.datatype in spans else _kind(c.ctype))
                       for p, c in zip(f.params, decl.params))
        r = decl.returns
        fn = contract_rules.Function(f.name, params, _kind(r) if r.kind != "void" else "void",
                                     r.signed, tuple(codes.items()) + r.enum_errors)
        f.contract = draft(fn, said.get(f.name, []))


def _kind(ctype):
    return "pointer" if ctype.kind in ("pointer", "callback") else ctype.kind
