"""The rules that draft a contract from documentation sentences, run over a
corpus of real sentences (tests/data/contract_sentences.yaml), each with
the promises it must give; those the rules miss are marked, and must stay
missed until a rule learns their shape."""
import gzip
import re
from pathlib import Path

import pytest
import yaml

from trebuchet.init import contract_rules, sentences
from trebuchet.spec import load as specs

CORPUS = yaml.safe_load((Path(__file__).parent / "data" / "contract_sentences.yaml").read_text())
ENTRIES = CORPUS["sentences"]
_INTEGERS = {"int", "int64", "size", "offset", "fd", "whence"}


def _function(entry):
    params = tuple((name, datatype, "integer" if datatype in _INTEGERS
                    else "floating" if datatype in ("double", "float")
                    else "span" if datatype == "span" or datatype.startswith("bytes_") else "pointer")
                   for name, datatype in entry["params"].items())
    returns = entry["returns"]
    return contract_rules.Function(entry["function"], params,
                                   "integer" if returns == "unsigned" else returns,
                                   returns != "unsigned", tuple(CORPUS["macros"].items()))


def _drafted(entry):
    file, line = entry["from"].rsplit(":", 1)
    said = sentences.Sentence(entry["text"], Path(file).name, int(line), entry.get("section", ""),
                              entry.get("param", ""), entry.get("errno", ""))
    return sorted(p.short() for p in contract_rules.promises(said, _function(entry)))


def test_the_corpus_is_large_enough():
    assert len(ENTRIES) >= 60
    assert len({e["from"].rsplit(":", 1)[0] for e in ENTRIES}) >= 20


@pytest.mark.parametrize("entry", [e for e in ENTRIES if "missed" not in e],
                         ids=lambda e: e["from"].rsplit("/", 1)[-1])
def test_a_sentence_gives_its_promises(entry):
    assert _drafted(entry) == sorted(entry["expect"]), entry["text"]


@pytest.mark.parametrize("entry", [e for e in ENTRIES if "missed" in e],
                         ids=lambda e: e["from"].rsplit("/", 1)[-1])
def test_a_missed_shape_is_still_missed(entry):
    """A rule that learns the shape drafts the promise: then the mark goes,
    and docs/contracts.md's list of missed shapes loses the line."""
    assert _drafted(entry) != sorted(entry["expect"]), \
        f"the rules now draft {entry['expect']}: remove `missed:` from {entry['from']}"


def _source_lines(path):
    raw = Path(path).read_bytes()
    return (gzip.decompress(raw) if path.endswith(".gz") else raw).decode("utf-8", "replace") \
        .split("\n")


def _words(text):
    return re.findall(r"[A-Za-z][A-Za-z0-9_]{2,}", text)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e["from"].rsplit("/", 1)[-1])
def test_a_sentence_is_quoted_from_its_source(entry):
    """Where its file is on this machine, the sentence's first words are on
    the line cited or the few after it (a manual page puts a word per macro)."""
    path, line = entry["from"].rsplit(":", 1)
    if not Path(path).is_file():
        pytest.skip(f"{path} is not installed here")
    near = " ".join(_source_lines(path)[int(line) - 1:int(line) + 6])
    text = re.sub(r"^E[A-Z]+: |^\w+: ", "", entry["text"])
    if re.search(r"[@\\]returns?\b", near):  # "Returns" is the splitter's, for the tag
        text = text.removeprefix("Returns ")
    first = _words(text)[:3]
    assert all(w in near for w in first), (entry["from"], first, near)


def test_the_datatypes_the_rules_know_have_the_values_they_name():
    """NULL, EMPTY and ZERO as the rules give them are values of the base
    datatypes they give them to (the executor's own list)."""
    base = specs.base_datatypes()
    for names, value in [(contract_rules._HAS_NULL, "NULL"), (contract_rules._HAS_EMPTY, "EMPTY"),
                         (contract_rules._HAS_ZERO, "ZERO")]:
        for name in names:
            assert value in base[name], (name, value)
    for name, value in contract_rules._MINUS_ONE.items():
        assert value in base[name], (name, value)
