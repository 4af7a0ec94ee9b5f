"""A function's sentences put together into one drafted contract: the
convention chosen, conflicts put in doubt, silence read as undefined,
`returns: acceptable` only where every parameter is described."""
from trebuchet.init import contract_draft, contract_rules
from trebuchet.init.sentences import Sentence


def _drafted(params, texts, returns="integer"):
    fn = contract_rules.Function("f", params, returns)
    said = [Sentence(text, "f.h", i + 1, *extra)
            for i, (text, *extra) in enumerate(texts)]
    c = contract_draft.draft(fn, said)
    return c, sorted(p.short() for p in c.values)


def test_the_return_value_section_gives_the_convention_first():
    c, _ = _drafted((("p", "buffer", "pointer"),), [
        ("If p is NULL, returns 0 on failure.",),
        ("Returns -1 on error.", "RETURN VALUE")])
    assert (c.convention.when, c.convention.sentence.line) == ("negative", 2)


def test_a_value_both_promised_and_undefined_is_in_doubt_on_both_sides():
    _, promised = _drafted((("p", "buffer", "pointer"),), [
        ("p may be NULL.",), ("p must not be NULL.",)])
    assert promised == ["?accepts p NULL", "?undefined p NULL"]


def test_a_span_conflicts_value_by_value():
    _, promised = _drafted((("buf", "bytes_x", "span"), ("len", "span", "span")), [
        ("buf must not be NULL.",), ("If len is 0, nothing is done.",)])
    assert promised == ["?accepts buf EMPTY,NULL_ZERO", "?undefined buf NULL_ZERO,NULL_LEN"]


def test_an_error_promise_holds_the_value_it_accepts():
    _, promised = _drafted((("p", "buffer", "pointer"),), [
        ("If p is NULL, nothing is read.",), ("Returns -1 if p is NULL.",)])
    assert promised == ["errors p NULL"]


def test_an_error_a_void_function_cannot_report_is_in_doubt():
    c, promised = _drafted((("p", "buffer", "pointer"),), [("Fails if p is NULL.",)],
                           returns="void")
    assert promised == ["?errors p NULL"]


def test_silence_is_undefined_where_every_parameter_is_described():
    c, promised = _drafted((("src", "string", "pointer"), ("out", "buffer", "pointer"),
                            ("count", "int", "integer")),
                           [("Copies count bytes of src to out.",), ("If out is not NULL, ...",)])
    assert promised == ["undefined src NULL"]  # out's NULL is spoken of; count is no pointer
    # every parameter described, but out is a raw block: BUF_0 is described nowhere
    assert (c.returns, c.returns_doubt[:4]) == ("", "out:")
    c, promised = _drafted((("src", "string", "pointer"), ("count", "int", "integer")),
                           [("Copies src.",)])
    assert (c.returns, promised) == ("", [])  # count undescribed: too thin to be silent
    # a parameter named like a word is described by its @param only
    c, _ = _drafted((("s", "string", "pointer"),), [("Counts s's bytes.",)])
    assert c.returns == ""
    c, _ = _drafted((("s", "string", "pointer"),), [("s: the string.", "", "s")])
    assert c.returns == "acceptable"
