"""The rules that read one documentation sentence (sentences.Sentence) of a
function and propose the promises it makes: its error convention, values a
parameter accepts, errors promised on a value, values left undefined.
Rules over the text only, no model; docs/contracts.md, "Contracts drafted
from the documentation", lists them and the sentence shapes they miss, and
tests/data/contract_sentences.yaml holds real sentences with the promises
each must give.

A rule that matched but cannot be sure (advice, "should", a value the
parameter's datatype does not have, a NULL return that may be an answer)
still gives its promise, with `doubt` saying why: the draft writes it
commented out."""
import errno as errno_module
import re
from dataclasses import dataclass

from trebuchet.init.man_pages import unwidened

# the base datatypes whose values hold NULL, an empty string, a zero
_HAS_NULL = {"buffer", "callback", "command", "FILE", "format", "mode", "path", "pointer", "string"}
_HAS_EMPTY = {"command", "format", "mode", "path", "string"}
_HAS_ZERO = {"int", "int64", "size", "offset", "double", "float"}
# -1 by datatype: size_t's is (size_t)(int)-1
_MINUS_ONE = {"int": "NEG_ONE", "int64": "NEG_ONE", "fd": "NEG_ONE", "offset": "NEG_ONE",
              "whence": "NEG_ONE", "double": "NEG_ONE", "float": "NEG_ONE", "size": "NEG_ONE_INT"}
_ERRNOS = set(errno_module.errorcode.values())

_NULL = (r"(?:(?:a\s+|the\s+)?(?:NULL|Z_NULL|null|nil|nullptr)(?:\s+pointer)?\b"
         r"|a\s+null\s+pointer|\(NULL\))(?!-)")
_ZERO = r"(?:zero|0|0L|0U)\b"
_EMPTY = r"(?:an?\s+)?empty(?:\s+string)?\b|\"\""
_VALUE = rf"(?P<what>{_NULL}|(?<![\w-])-1\b|{_ZERO}|{_EMPTY})"
# the clause before the verb, `f()` kept in it; starting where a word does
# and at most 80 characters long, so that a long sentence is read in linear time
_SUBJECT = r"(?<![\w-])(?P<subj>(?:[^,;:()]|\(\)){0,80}?)"

# "If code is NULL", "when len is 0", "strm or buf are NULL", "parser == NULL"
_IS = (r"(?:==|\b(?:is|are|was|were|being|equals?|are\s+both"
       r"|is\s+(?:set\s+to|given\s+as|passed\s+as|specified\s+as)))")
_CONDITION = re.compile(rf"{_SUBJECT}\s*{_IS}\s+{_VALUE}", re.I)
# "passing NULL for buf", "NULL is passed as the key"
_PASSED = [re.compile(rf"(?:pass(?:ing|ed)?|giv(?:ing|en)|with|specifying)\s+{_VALUE}\s+"
                      rf"(?:as|for|to|in)\s+(?:the\s+)?(?P<subj>\w+)", re.I),
           re.compile(rf"{_VALUE}\s+(?:is|was)\s+(?:passed|given|specified)\s+(?:as|for|in)\s+"
                      rf"(?:the\s+)?(?P<subj>\w+)", re.I)]
# "buf may be NULL", "ctx can also be NULL"
_MAY = re.compile(rf"{_SUBJECT}\s*\b(?:may|can|might|is\s+allowed\s+to|is\s+permitted\s+to)\s+"
                  rf"(?:also\s+|optionally\s+|safely\s+)?be\s+(?:set\s+to\s+|passed\s+as\s+)?"
                  rf"{_VALUE}", re.I)
# "strm must not be NULL", "ctx cannot be NULL", "buf must be non-NULL"
_MUST_NOT = re.compile(rf"{_SUBJECT}\s*\b(?P<modal>must|shall|should|cannot|can\s*not|may\s+not"
                       rf"|must\s+never)\s+(?:not\s+|never\s+)?be\s+{_VALUE}", re.I)
_MUST_BE_SET = re.compile(rf"{_SUBJECT}\s*\b(?P<modal>must|shall|should)\s+(?:always\s+)?be\s+"
                          r"(?:non-?NULL|not\s+NULL|a\s+non-?null\b|non-?null\b|non-?empty\b"
                          r"|!=\s*NULL\b)", re.I)
# "must be a valid ...", "must have been returned by ...", "must point to ..."
_MUST_VALID = re.compile(rf"{_SUBJECT}\s*\b(?P<modal>must|shall|should)\s+"
                         r"(?:be\s+a\s+valid\b|be\s+valid\b|point\s+to\b|refer\s+to\b"
                         r"|be\s+a\s+pointer\s+to\b|(?:have\s+been|be)\s+(?:returned|allocated"
                         r"|created|obtained|initiali[sz]ed|opened|set\s+up)\b)", re.I)
_UNDEFINED_WORDS = re.compile(r"\bundefined\b|\bwill\s+crash\b|\bnot\s+(?:allowed|permitted)\b"
                              r"|\bis\s+an\s+error\s+to\s+pass\b|\bsegfault|\bcrash(?:es)?\b", re.I)
_NO_OP = re.compile(r"\b(?:no\s+(?:operation|action)|nothing\s+(?:is\s+done|happens)"
                    r"|does\s+nothing|is\s+ignored|no-?op|has\s+no\s+effect)\b", re.I)
_ERROR_MACRO = re.compile(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]*ERR(?:OR)?[A-Z0-9_]*\b")
_ERROR_WORDS = re.compile(r"\b(?:an?|the|of|on|upon)\s+error\b"
                          r"|\berror\s+(?:code|value|status|is\s+returned)|\bfail(?:s|ed|ure)?\b"
                          r"|\bunsuccessful\b|\bnegative\b|(?<!\w)-1\b|\bEOF\b|\berrno\b", re.I)
_YIELD = r"\b(?:yield|result|return\s+value)\s+(?:of\s+(?:the|this)\s+function\s+)?is\s+"
_RETURNS_NULL = re.compile(rf"\breturns?\s+{_NULL}|\b{_NULL}\s+is\s+returned|{_YIELD}{_NULL}", re.I)
_ERRNO_SET = re.compile(r"\berrno\s+(?:is\s+|will\s+be\s+)?(?:set\s+)?(?:to\s+|=\s*)\[?(E[A-Z0-9]+)"
                        r"|\bfails?\s+with\s+(E[A-Z0-9]+)|\bsets?\s+errno\s+to\s+(E[A-Z0-9]+)")

# error conventions: (when, pattern); the first that matches a sentence about what is returned
_CONVENTIONS = [
    ("null", re.compile(rf"\breturns?\s+{_NULL}|\b{_NULL}\s+(?:is|will\s+be)\s+returned"
                        rf"|{_YIELD}{_NULL}|\botherwise,?\s+(?:it\s+returns\s+)?NULL\b|\bor\s+NULL\b",
                        re.I)),
    ("negative", re.compile(r"\breturns?\s+-1\b|-1\s+(?:is|will\s+be)\s+returned"
                            r"|(?<!\w)-1\s+(?:on|if|upon|in\s+case\s+of|when|to\s+indicate)"
                            r"|\bnegative\s+(?:value|number|integer|error(?:\s+code)?|errno|code|result)"
                            r"|\bless\s+than\s+(?:zero|0)\b|\breturns?\s+<\s*0", re.I)),
    ("eof", re.compile(r"\bEOF\s+(?:is\s+returned|on|if|upon)|\breturns?\s+EOF\b")),
    ("nonzero", re.compile(r"(?:zero|\b0)\s+(?:on|if|upon|for|when)\s+success.*"
                           r"(?:non-?zero|error\s+code)"
                           r"|\bnon-?zero\s+(?:value\s+)?(?:on|if|upon|in\s+case\s+of)\s+"
                           r"(?:error|failure)|\b(?:0|zero)\s+is\s+returned\s+(?:on|upon)\s+success",
                           re.I)),
    ("zero", re.compile(r"\b(?:0|zero|false|FALSE)\s+(?:on|if|upon|in\s+case\s+of|when)\s+(?:an?\s+)?"
                        r"(?:error|failure|fail)"
                        r"|\breturns?\s+(?:0|zero|false|FALSE)\s+(?:on|if|upon)\s+(?:error|failure)"
                        r"|\b(?:1|true|TRUE|non-?zero)\s+(?:on|if|upon)\s+success\b.*"
                        r"\b(?:0|zero|false|FALSE)\b", re.I)),
]
_ANSWER_NULL = re.compile(r"\bnot\s+found\b|\bno\s+(?:such|more|match)\b"
                          r"|\bdoes\s+not\s+(?:exist|contain)|\bend\s+of\b|\bis\s+empty\b|\bnone\b"
                          r"|\bif\s+there\s+is\s+no\b", re.I)


@dataclass(frozen=True)
class Function:
    """What the rules need of a function."""
    name: str
    params: tuple              # ((name, datatype, kind), ...); kind: pointer, integer, floating, span
    returns: str = "integer"   # pointer, integer, floating, void
    signed: bool = True        # an integer return's signedness
    macros: tuple = ()         # ((name, int value), ...) the header defines


@dataclass(frozen=True)
class Promise:
    kind: str             # error (the convention), accepts, errors, undefined
    param: str = ""
    values: tuple = ()    # value names of the parameter's datatype
    errno: str = ""
    when: str = ""        # the convention, for kind error
    doubt: str = ""       # why it is commented out; "" when sure
    sentence: object = None

    def short(self):
        """One line of it, as the corpus writes it: `errors code NULL EINVAL`,
        `error null`, with `?` before one in doubt."""
        words = [self.kind, self.when] if self.kind == "error" else \
            [self.kind, self.param, ",".join(self.values)] + ([self.errno] if self.errno else [])
        return ("?" if self.doubt else "") + " ".join(words)


def promises(sentence, fn):
    """The promises one sentence makes of fn."""
    values = _undefined(sentence, fn) + _accepts(sentence, fn) + _conditions(sentence, fn)
    convention = _convention(sentence, fn)
    if values and all(p.doubt for p in convention):
        convention = []  # "if code is NULL, returns NULL": said of that value, not of every error
    return _unique(convention + values)


def _unique(found):
    seen, out = set(), []
    for p in found:
        key = (p.kind, p.param, p.values, p.when)
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out


# ---- the parameters and values a phrase names ----

def _params_in(subject, fn, sentence):
    """The parameters a subject phrase names: not `strm->next_in`, not
    `*ptr` (a field, what it points to); the @param paragraph's own when the
    phrase names none and no field of it."""
    names = _by_position(subject, fn)
    for name, _, _ in fn.params:
        for m in re.finditer(rf"(?<![\w*&>.]){re.escape(name)}\b(?!\s*(?:->|\.\w|\[))", subject):
            names.append(name)
            break
    names = list(dict.fromkeys(names))
    if not names and sentence.param in {n for n, _, _ in fn.params} \
            and not re.search(r"\w(?:->|\.)\w|\*\s*\w", subject) \
            and not re.search(r"\b(?:the\s+)?(?:return(?:ed)?\s+value|result|output)\b", subject, re.I):
        names = [sentence.param]
    return names


_ORDINALS = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3,
             "4th": 3, "fifth": 4, "5th": 4, "sixth": 5, "6th": 5}


def _by_position(subject, fn):
    """"the second argument", "the 5th parameter"; "the argument", "its
    argument" of a function of one."""
    m = re.search(r"\b(?:the|its)\s+(?:(\w+)\s+)?(?:argument|parameter)\b(?!\s+\w+\s+(?:is|are)\b)",
                  subject, re.I)
    if not m or re.search(r"\b(?:both|either|all|any)\b", subject[:m.start()], re.I):
        return []
    word = (m.group(1) or "").lower()
    if not word and len(fn.params) == 1:
        return [fn.params[0][0]]
    i = _ORDINALS.get(word)
    return [fn.params[i][0]] if i is not None and i < len(fn.params) else []


def _value(what):
    what = what.strip().lower()
    if "null" in what or what == "nil" or "nullptr" in what:
        return "NULL"
    if "empty" in what or what == '""':
        return "EMPTY"
    return "MINUS_ONE" if what == "-1" else "ZERO"


def _fits(fn, param, value):
    """(value names, doubt) for a parameter: the values of its datatype the
    words mean, or why it has none. A buffer drawn with its length as one
    value (a span `trebuchet init` drafts) has its NULL and empty shapes."""
    datatype, kind = next((d, k) for n, d, k in fn.params if n == param)
    if kind == "span":
        # the pointer's NULL, the length's zero: the pair's values that hold them
        shapes = {"NULL": ("NULL_ZERO", "NULL_LEN"), "ZERO": ("EMPTY", "NULL_ZERO")}
        if (datatype == "span") == (value == "ZERO") and value in shapes:
            return shapes[value], ""
        return (value,), f"{param} is drawn with its buffer or length as one value: pick its values by hand"
    if value == "NULL":
        if kind == "pointer" and (datatype in _HAS_NULL or datatype not in _HAS_ZERO):
            return (value,), ""
        return (value,), f"{param} is no pointer ({datatype})"
    if value == "MINUS_ONE":
        named = _MINUS_ONE.get(datatype)
        return (named or value,), "" if named and kind == "integer" else f"{datatype} has no -1"
    if value == "EMPTY":
        return (value,), "" if datatype in _HAS_EMPTY else f"{datatype} has no EMPTY value"
    if kind in ("integer", "floating") and datatype in _HAS_ZERO:
        return (value,), ""
    if kind == "pointer":
        return (value,), f"{param} is a pointer: zero may mean NULL or a zero it points to"
    return (value,), f"{datatype} has no ZERO value"


def _onto_span(fn, param, values):
    """(parameter, values): a span's length is named by its buffer, which
    holds the pair's values in the spec."""
    names = [n for n, _, _ in fn.params]
    i = names.index(param)
    if fn.params[i][1] == "span" and i > 0:
        return names[i - 1], values
    return param, values


def _each(kind, params, value, sentence, fn, doubt="", errno=""):
    out = []
    for p in params:
        values, why = _fits(fn, p, value)
        out.append(Promise(kind, *_onto_span(fn, p, values), errno, doubt=doubt or why, sentence=sentence))
    return out


# ---- the rules ----

# words without which a rule cannot match: the patterns, slow on a long
# sentence, run only where they could
_MODAL = re.compile(r"\b(?:must|shall|should|cannot|can\s*not|may\s+not)\b", re.I)
_PERMISSION = re.compile(r"\b(?:may|can|might|allowed|permitted)\b", re.I)
_A_VALUE = re.compile(r"null|\bnil\b|\bzero\b|\b0|-1\b|empty|\"\"", re.I)


def _undefined(sentence, fn):
    out, text = [], sentence.text
    if not _MODAL.search(text):
        return out
    for m in _MUST_NOT.finditer(text):
        doubt = "\"should\" is advice, not a rule" if m.group("modal").lower() == "should" else ""
        out += _each("undefined", _params_in(m.group("subj"), fn, sentence), _value(m.group("what")),
                     sentence, fn, doubt)
    for pattern in (_MUST_BE_SET, _MUST_VALID):
        for m in pattern.finditer(text):
            doubt = "\"should\" is advice, not a rule" if m.group("modal").lower() == "should" else ""
            value = "EMPTY" if "empty" in m.group(0).lower() else "NULL"
            for p in _params_in(m.group("subj"), fn, sentence):
                values, why = _fits(fn, p, value)
                if why and pattern is _MUST_VALID:
                    why = f"which values of {p} are invalid is not said"
                out.append(Promise("undefined", *_onto_span(fn, p, values), doubt=doubt or why,
                                   sentence=sentence))
    return out


def _accepts(sentence, fn):
    out, text = [], sentence.text
    for m in _MAY.finditer(text) if _PERMISSION.search(text) else ():
        out += _each("accepts", _params_in(m.group("subj"), fn, sentence), _value(m.group("what")),
                     sentence, fn)
    if sentence.param and any(sentence.param == n for n, _, _ in fn.params):
        if re.search(rf"\bor\s+{_NULL}\s*(?:[,.;)]|$|\bif\b|\bfor\b|\bto\b)", text) \
                and not _MUST_NOT.search(text):
            out += _each("accepts", [sentence.param], "NULL", sentence, fn)
        elif re.search(r"\boptional\b", text, re.I) and not _MUST_NOT.search(text):
            out += _each("accepts", [sentence.param], "NULL", sentence, fn,
                         doubt="\"optional\" may not mean NULL")
        elif re.match(rf"^\w+:\s*(?:if|when)\s+(?:it\s+is\s+|set\s+to\s+)?{_VALUE}\s*,", text, re.I):
            out += _each("accepts", [sentence.param], "NULL", sentence, fn)
    return out


def _conditions(sentence, fn):
    """A value in a condition ("if code is NULL, ...", "... when len is 0"):
    an error promised where the sentence names one, undefined where it says
    so, else a value the function describes and accepts."""
    out, text = [], sentence.text
    if not _A_VALUE.search(text):
        return out
    found = [(m.group("subj"), m.group("what"), m.start()) for m in _CONDITION.finditer(text)]
    found += [(m.group("subj"), m.group("what"), m.start())
              for pattern in _PASSED for m in pattern.finditer(text)]
    length = _length_param(fn)
    found += [(length, "0", m.start()) for m in _A_LENGTH_OF_ZERO.finditer(text) if length]
    for subject, what, _ in found:
        if re.search(r"\b(?:not|never|non)\b", subject, re.I) or _MUST_NOT.search(text) \
                or _MAY.search(text):
            continue
        params = _params_in(subject, fn, sentence) if subject else []
        value = _value(what)
        errno = sentence.errno or _errno_of(text)
        if _UNDEFINED_WORDS.search(text):
            out += _each("undefined", params, value, sentence, fn)
        elif errno or _is_error(text, fn):
            doubt = "the function reports no error (void)" if fn.returns == "void" and not errno else ""
            out += _each("errors", params, value, sentence, fn, doubt, errno)
        else:  # described: it returns (whether "returns 0" is an error is no matter)
            out += _each("accepts", params, value, sentence, fn)
    return out


_A_LENGTH_OF_ZERO = re.compile(r"\b(?:an?|with\s+a)\s+(?:length|size|count)\s+of\s+(?:zero|0)\b",
                               re.I)
_LENGTH_NAME = re.compile(r"len|size|count|bytes", re.I)


def _length_param(fn):
    """The parameter "a length of zero" speaks of: the one length the
    function takes (a span's, or an integer named for one), or None."""
    found = [n for n, datatype, kind in fn.params
             if datatype == "span" or kind == "integer" and _LENGTH_NAME.search(n)]
    return found[0] if len(found) == 1 else None


def _errno_of(text):
    m = _ERRNO_SET.search(text)
    name = next((g for g in m.groups() if g), None) if m else None
    return name if name in _ERRNOS else ""


def _is_error(text, fn):
    """The sentence names an error as the outcome."""
    if _NO_OP.search(text):
        return False
    if _ERROR_MACRO.search(text) or _ERROR_WORDS.search(text):
        return True
    return fn.returns == "pointer" and bool(_RETURNS_NULL.search(text))


_ABOUT_RETURN = re.compile(r"\breturn|\byield\b|\bresult\b", re.I)
_DEMANDED = re.compile(r"\b(?:should|must|shall)\s+(?:[\w,]+\s+){0,12}?(?:and\s+)?return\b", re.I)
_OF_MOST = re.compile(r"\b(?:most|some|many|several)\s+(?:of\s+the(?:se)?\s+)?functions\b", re.I)
_CALLED = re.compile(r"\b(\w+)\s*\(\)|\b(\w+)\([^)]*\)\s+(?:should|must|will|returns?)\b")
_NULL_IS_ERROR = re.compile(r"\b(?:otherwise|cannot|could\s+not|insufficient|out\s+of\s+memory"
                            r"|unable)\b", re.I)


def _convention(sentence, fn):
    """The error convention a sentence about the return value gives."""
    text = sentence.text
    if fn.returns == "void" or not _ABOUT_RETURN.search(text + " " + sentence.section):
        return []
    if _DEMANDED.search(text):
        return []  # what a callback must do, not what this function does
    called = {a or b for a, b in _CALLED.findall(text)}
    if called and not {fn.name, unwidened(fn.name)} & called:
        return []  # about another function (a callback's out()), not this one
    for when, pattern in _CONVENTIONS:
        if not pattern.search(text):
            continue
        if when == "null":
            if fn.returns == "pointer":
                return [Promise("error", when=when, doubt=_null_doubt(text), sentence=sentence)]
            continue
        if fn.returns != "integer" or (when == "negative" and not fn.signed):
            continue
        if when in ("negative", "nonzero", "zero") and not (
                _ERROR_WORDS.search(text) or re.search(r"\bsuccess|\botherwise\b", text, re.I)):
            continue
        doubt = "said of most functions of the page, not surely of this one" \
            if _OF_MOST.search(text) else ""
        return [Promise("error", when=when, doubt=doubt, sentence=sentence)]
    return _convention_by_macro(sentence, fn)


def _null_doubt(text):
    """Why a NULL return is not surely an error, or ""."""
    if _ERROR_WORDS.search(text) or _NULL_IS_ERROR.search(text):
        return ""
    if _ANSWER_NULL.search(text):
        return "NULL may be an answer here (then null_valid)"
    return "the sentence does not say NULL is an error"


_SUCCESS_CODE = re.compile(r"\b([A-Z][A-Z0-9_]+)\s+(?:(?:is\s+returned\s+)?"
                           r"(?:if|on|upon|for|in\s+case\s+of)\s+success|\(0\))")


def _convention_by_macro(sentence, fn):
    """"returns Z_STREAM_ERROR if ...": the sign of the error code's value
    (a macro's, or a member's of the enum the function returns)."""
    if fn.returns != "integer":
        return []
    macros = dict(fn.macros)
    success = _SUCCESS_CODE.search(sentence.text)
    for name in _ERROR_MACRO.findall(sentence.text):
        if not re.search(rf"\b{name}\s+(?:is|will\s+be)\s+returned|\b{name}\s+(?:if|on|when|for)\b",
                         sentence.text):
            continue
        value = macros.get(name)
        if value is None:
            return [Promise("error", when="negative", sentence=sentence,
                            doubt=f"the value of {name} is not known to be negative")]
        if success and macros.get(success.group(1)) == 0:
            # "Z_OK if success, Z_STREAM_ERROR if ...": every other code is an error
            return [Promise("error", when="nonzero", sentence=sentence)]
        if value < 0 and fn.signed:
            return [Promise("error", when="negative", sentence=sentence)]
        if value == 0:  # expat's XML_STATUS_ERROR
            return [Promise("error", when="zero", sentence=sentence)]
        if value > 0:
            return [Promise("error", when="nonzero", sentence=sentence,
                            doubt=f"{name} is {value}: is every nonzero return an error?")]
    return []
