"""The contracts the specs state (docs/contracts.md): they load, name real
values, leave each spec's digest as it was, and a target's `returns: always`
outranks the `acceptable` of the spec it extends."""
import pytest
import yaml

from conftest import ROOT, trebuchet
from trebuchet.spec import load as specs
from trebuchet.core.errors import TrebuchetError

SPECS = {"stdio": "stdio", "sfio": "sfio", "robust_sfio": "robust_sfio",
         "expat": str(ROOT / "examples/expat/expat.yaml")}


def without_contracts(data):
    """The spec with every contract key taken out."""
    if isinstance(data, dict):
        return {k: without_contracts(v) for k, v in data.items()
                if k not in ("contract", "undefined", "accepts")}
    if isinstance(data, list):
        return [without_contracts(v) for v in data]
    return data


@pytest.mark.parametrize("target", SPECS)
def test_a_contract_leaves_the_digest_as_it_was(target, tmp_path):
    path = specs.find_spec(SPECS[target])
    stated = specs.load(path)
    if target == "robust_sfio":
        assert stated.contract.returns == "always"
        return
    assert any(f.contract for f in stated.functions)
    for beside in path.parent.iterdir():  # its sources, found beside it
        if beside.is_file() and beside != path:
            (tmp_path / beside.name).symlink_to(beside)
    bare = tmp_path / path.name
    bare.write_text(yaml.safe_dump(without_contracts(yaml.safe_load(path.read_text())),
                                   sort_keys=False))
    assert specs.load(bare).digest == stated.digest


@pytest.mark.parametrize("target", SPECS)
def test_every_promise_cites_a_source_and_an_allowed_errno(target):
    spec = specs.load(specs.find_spec(SPECS[target]))
    for f in spec.functions:
        contract = spec.contract_of(f)
        if not contract:
            continue
        assert contract.source.strip(), f.name
        for promise in contract.errors:
            if f.errnos is not None:
                assert set(promise.errnos) <= set(f.errnos), (f.name, promise)


def test_a_bare_null_in_a_value_list_is_the_value_null():
    stdio = specs.load(specs.find_spec("stdio"))
    assert stdio.function("fflush").params[0].accepts == ("NULL",)
    assert stdio.function("fclose").params[0].undefined == ("NULL",)
    freopen = stdio.function("freopen").contract.errors[0]
    assert dict(freopen.when)["path"] == ("EXISTING", "NULL")


def test_robust_sfio_promises_to_return_from_every_function():
    robust = specs.load(specs.find_spec("robust_sfio"))
    sfio = specs.load(specs.find_spec("sfio"))
    assert sfio.contract_of(sfio.function("sfclose")).returns == "acceptable"
    for f in robust.functions:
        contract = robust.contract_of(f)
        assert contract.returns == "always", f.name
        assert "robust_sfio.h" in contract.source
    # sfio's own promises come along
    sfsync = robust.contract_of(robust.function("sfsync"))
    assert sfsync.source.startswith("sfio(3)")


def test_a_value_its_datatype_lacks_is_refused_at_its_line(tmp_path):
    text = (ROOT / "targets/stdio/stdio.yaml").read_text()
    bad = text.replace("undefined: [NULL, READ_ONLY]}", "undefined: [NULL, READ_ONLY, NOPE]}", 1)
    assert bad != text
    path = tmp_path / "stdio.yaml"
    path.write_text(bad)
    line = bad[:bad.index("NOPE")].count("\n") + 1
    with pytest.raises(TrebuchetError) as raised:
        specs.load(path)
    assert "'NOPE' is not a value of datatype buffer" in str(raised.value)
    assert f"stdio.yaml:{line}" in str(raised.value)


def test_the_target_datatypes_know_every_value_a_contract_names():
    """The loader checks only the base datatypes' names; a target's own
    (Sfio_t, XML_Parser) are listed by its plugin."""
    for target in ("sfio", str(ROOT / "examples/expat/expat.yaml")):
        listed = trebuchet("list", "datatypes", "--target", target).stdout
        names = {}
        current = None
        for line in listed.splitlines():
            if line and not line.startswith(" "):
                current = names.setdefault(line.split(":")[0], set())
            elif line.strip():
                current.add(line.split()[0])
        spec = specs.load(specs.find_spec(target))
        for f in spec.functions:
            params = {p.name: p for p in f.params}
            named = [(p.name, v) for p in f.params for v in p.undefined + p.accepts]
            for promise in (f.contract.errors if f.contract else ()):
                named += [(param, v) for param, values in promise.when for v in values]
            for param, value in named:
                assert value in names[params[param].datatype], (target, f.name, param, value)


def test_a_drafted_mark_is_read_and_a_mark_that_is_no_boolean_refused(tmp_path):
    """`drafted: true` marks a contract, or one promised error, as not yet
    reviewed (the gate reports its violations without failing on them)."""
    text = (ROOT / "targets/stdio/stdio.yaml").read_text()
    fopen = '      source: "POSIX.1-2017 fopen() ERRORS (shall fail); fopen(3) ERRORS"\n'
    assert fopen in text
    path = tmp_path / "stdio.yaml"
    path.write_text(text.replace(fopen, fopen + "      drafted: true\n", 1))
    spec = specs.load(path)
    contract = spec.function("fopen").contract
    assert contract.drafted and all(e.drafted for e in contract.errors)
    assert not spec.function("fclose").contract.drafted
    assert specs.load(path).digest == specs.load(ROOT / "targets/stdio/stdio.yaml").digest

    path.write_text(text.replace(fopen, fopen + "      drafted: yes please\n", 1))
    with pytest.raises(TrebuchetError) as raised:
        specs.load(path)
    assert "drafted: 'yes please' is not of type 'boolean'" in str(raised.value)
    assert f"stdio.yaml:{text[:text.index(fopen)].count(chr(10)) + 2}" in str(raised.value)


def test_a_drafted_promise_never_hides_a_reviewed_one():
    """A crash on a case a drafted promised error covers, under a reviewed
    `returns: acceptable`, breaks the reviewed promise: that one is named,
    and the finding is no drafted violation."""
    from trebuchet.findings import violations
    from trebuchet.findings.signature import Case
    param = specs.Param("s", "const char *", "string")
    drafted = specs.PromisedError((("s", ("EMPTY",)),), (), "", drafted=True)
    reviewed = specs.Contract("man page", "acceptable", (drafted,))
    function = specs.Function("f", "f", "int", (param,), "none", contract=reviewed)
    judged = violations.JudgedContract(function, reviewed, [{"string:EMPTY": True}])
    case = Case("f", 0, ["string:EMPTY"], "ABORT", acceptable=[True])
    assert judged.broken_by_crash(case) == ("returns on acceptable values (man page)", False)
    alone = specs.Contract("man page", None, (drafted,))
    judged = violations.JudgedContract(function, alone, [{"string:EMPTY": True}])
    assert judged.broken_by_crash(case) == ("answers s = EMPTY with an error (man page)", True)
