"""A drafted contract (contract_draft.Contract) written into a function's
YAML: each promise with the sentence it came from quoted and its file:line
as a comment beside it, each one in doubt written commented out with why,
and the contract marked `drafted: true` until its author has read it.

The error convention the prose gives replaces the return type's guess,
which is kept as a comment."""
import json

_QUOTE = 160  # characters of a sentence quoted; the file:line finds the rest


def quoted(sentence):
    text = sentence.text if len(sentence.text) <= _QUOTE else sentence.text[:_QUOTE - 3] + "..."
    return f"{sentence.where}: {json.dumps(text, ensure_ascii=False)}"


def param_keys(contract, name):
    """(`, undefined: [...], accepts: [...]` of a parameter, comment lines above it)."""
    if contract is None:
        return "", []
    keys, comments = "", []
    for kind in ("undefined", "accepts"):
        values = [p for p in contract.sure(kind) if p.param == name]
        if values:
            keys += f", {kind}: [{', '.join(_unique(v for p in values for v in p.values))}]"
        comments += [f"      # {kind} {', '.join(p.values)}: {_cited(p, name)}" for p in values]
    comments += [f"      # in doubt, not drafted ({p.doubt}): {p.kind} {', '.join(p.values)}:"
                 f" {quoted(p.sentence)}" for p in contract.in_doubt()
                 if p.param == name and p.kind in ("undefined", "accepts")]
    return keys, comments


def _cited(p, name):
    if p.sentence is None:
        return f"no sentence of its documentation speaks of a NULL {name} (silence is undefined)"
    return quoted(p.sentence)


def _unique(values):
    return list(dict.fromkeys(values))


def error_lines(contract, guess, note, render_error):
    """The function's `error:` line: the documentation's convention where it
    gives a sure one, else the guess from the return type (with its note);
    render_error writes a dict as YAML."""
    c = contract.convention if contract is not None else None
    guessed = f"    error: {render_error(guess)}" + (f"   # {note}" if note else "")
    if c is None:
        return [guessed]
    if c.doubt:
        return [f"    # in doubt, not drafted ({c.doubt}): error: {{when: {c.when}}}:"
                f" {quoted(c.sentence)}", guessed]
    said = {"when": c.when}
    lines = [f"    # error convention: {quoted(c.sentence)}"]
    if said != guess:
        lines.append(f"    # the return type's guess was: error: {render_error(guess)}"
                     + (f" ({note})" if note else ""))
    return lines + [f"    error: {render_error(said)}"]


def contract_lines(contract):
    """The `contract:` block, or comments alone when nothing is sure."""
    if contract is None:
        return []
    errors = contract.sure("errors")
    doubted = [p for p in contract.in_doubt() if p.kind == "errors"]
    returns_doubted = [f"      # in doubt, not drafted ({contract.returns_doubt}): returns: acceptable"
                       ] if contract.returns_doubt else []
    if not contract.promises_anything:
        return [line.replace("      #", "    #", 1) for line in returns_doubted] + \
            [f"    # in doubt, not drafted ({p.doubt}): errors {_error(p)}: {quoted(p.sentence)}"
             for p in doubted]
    out = ["    contract:",
           f"      source: {json.dumps('drafted from ' + contract.sources())}",
           "      drafted: true"]
    if contract.returns:
        named = ", ".join(f"{n} ({s.where})" for n, s in contract.described) or "it has none"
        out.append(f"      returns: acceptable   # every parameter is described: {named}")
    out += returns_doubted
    if errors:
        out.append("      errors:")
        for p in errors:
            out.append(f"        # {quoted(p.sentence)}")
            out.append(f"        - {_error(p)}")
    out += [f"      # in doubt, not drafted ({p.doubt}): {_error(p)}: {quoted(p.sentence)}"
            for p in doubted]
    return out


def _error(p):
    errno = f", errno: [{p.errno}]" if p.errno else ""
    return f"{{when: {{{p.param}: [{', '.join(p.values)}]}}{errno}}}"
