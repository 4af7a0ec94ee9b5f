"""Target specs: loading, validation against schemas/target.schema.json, and
the checks a schema cannot make (unique names, known datatypes, parameters
that exist, libraries that are installed).  Every error names the spec file
and line.

A spec may extend another (`extends: ../sfio/sfio.yaml`): it gets that
spec's functions, datatypes and sources, and states what differs, such as
the target name and the libraries linked.  One list of functions then serves
two libraries."""
import dataclasses
import errno
import hashlib
import json
import os
import re
import shlex
import subprocess
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Optional

import jsonschema

from trebuchet.harness import executor
from trebuchet.core import paths, yamlines
from trebuchet.core.errors import TrebuchetError
from trebuchet.core.text_files import read_text
from trebuchet.spec import sequences as sequences_module

ERRNO_NAMES = frozenset(errno.errorcode.values())


# a function pointer's abstract declarator, `(*)` of `int (*)(const void *)`:
# the name goes after its stars (and their qualifiers)
_HOLE = re.compile(r"\((\s*\*[\s*]*(?:(?:const|volatile|restrict)\b[\s*]*)*)\)(?=\s*[(\[])")


def declaration(ctype, name):
    """C declaring name of type ctype, as a reader would write it: `char
    *s`, `size_t n`, `int (*compar)(const void *, const void *)`; a type
    spelled otherwise with parentheses is declared through __typeof__."""
    holes = list(_HOLE.finditer(ctype))
    if holes:
        hole = holes[-1]  # the innermost: `void (*(*f)(int))(void)`
        stars = hole.group(1).rstrip()
        stars += " " * stars[-1].isalpha()  # `(* const name)`
        return f"{ctype[:hole.start()]}({stars}{name}){ctype[hole.end():]}"
    if "(" in ctype:
        return f"__typeof__({ctype}) {name}"
    return f"{ctype}{name}" if ctype.endswith("*") else f"{ctype} {name}"


@dataclass(frozen=True)
class Param:
    name: str
    ctype: str
    datatype: str
    # `convert: true`: the datatype's values may change in the conversion to
    # ctype (src/trebuchet/build/plugin_check.py); those that become equal run once
    convert: bool = False
    undefined: tuple = ()  # values its documentation leaves undefined (misuse here)
    accepts: tuple = ()    # values its documentation accepts: the call must return
    where: tuple = field(default=(None, None), compare=False)  # (spec file, line)


@dataclass(frozen=True)
class PromisedError:
    """Cases whose parameters in `when` hold one of the values listed must
    report an error, with one of `errnos` when given (docs/contracts.md)."""
    when: tuple              # ((param, (VALUE, ...)), ...)
    errnos: tuple = ()
    source: str = ""
    drafted: bool = False    # its own `drafted: true`, or its contract's


RETURNS_STRENGTH = {None: 0, "acceptable": 1, "always": 2}  # always promises more


@dataclass(frozen=True)
class Contract:
    """What a function's documentation promises, and where it says so."""
    source: str
    returns: Optional[str] = None  # None, "acceptable" or "always"
    errors: tuple = ()             # (PromisedError, ...)
    # `drafted: true`: written from the documentation by a tool or in haste
    # and not yet reviewed (its `returns`, its errors, and a function's
    # parameters' `accepts`): a violation is shown, the gate does not fail on it
    drafted: bool = False


@dataclass(frozen=True)
class Function:
    name: str
    call: str
    returns: str
    params: tuple
    error_when: str
    error_value: Optional[int] = None
    error_param: Optional[str] = None
    error_eof: Optional[str] = None   # short_count: C expression true at end of input
    error_expr: Optional[str] = None  # expr: C expression true when an error was reported
    extra_args: tuple = ()
    equivalent: Optional[str] = None
    note: Optional[str] = None
    errnos: Optional[tuple] = None  # the errno names its documentation allows; None: not stated
    contract: Optional[Contract] = None  # its own, before the target's is added (Spec.contract_of)
    returns_where: tuple = field(default=(None, None), compare=False)  # (spec file, line)

    def named_values(self):
        """(kind, Param, VALUE, (spec file, line)) of each value the contract
        names: kind "accepts", "undefined" or "error" (a promised error's
        `when`), at its parameter's line or, for an error, the function's."""
        named = [(kind, p, v, p.where) for p in self.params
                 for kind, values in (("accepts", p.accepts), ("undefined", p.undefined))
                 for v in values]
        params = {p.name: p for p in self.params}
        named += [("error", params[name], v, self.returns_where)
                  for rule in (self.contract.errors if self.contract else ())
                  for name, values in rule.when if name in params for v in values]
        return named

    @property
    def signature(self):
        args = ", ".join(declaration(p.ctype, p.name) for p in self.params)
        extra = "".join(f", {a}" for a in self.extra_args)
        called = f"{self.call}({args or 'void'}{extra})"
        # a function pointer returned wraps the call: `void (*signal(int sig, ...))(int)`
        return declaration(self.returns, called) if "(" in self.returns else \
            f"{self.returns} {called}"


@dataclass(frozen=True)
class Spec:
    path: Path
    target: str
    functions: tuple
    includes: tuple = ()
    pkg_config: tuple = ()  # packages whose `pkg-config --cflags` every compilation takes
    cflags: tuple = ()      # then these; a relative -I made absolute from its spec's folder
    libraries: tuple = ()
    install: str = ""       # what provides the libraries, said where one is missing
    sources: tuple = ()
    datatypes: dict = field(default_factory=dict)
    version_label: str = ""
    version_expr: Optional[str] = None
    version_line: Optional[int] = None  # of `version:`'s expr, where a wrong type is told
    description: str = ""
    datatype_lines: dict = field(default_factory=dict)  # name -> (spec file, line)
    base_folders: tuple = ()  # folders of the specs this one extends
    extends: Optional[str] = None  # the target name of the spec this one extends
    # exported functions the spec leaves out on purpose: {name: why}
    # (build/api_coverage.py, which lists the rest as untested)
    leaves_out: dict = field(default_factory=dict)
    functions_line: Optional[int] = None  # where the spec lists (or inherits) its functions
    contract: Optional[Contract] = None  # the target's, for every function
    # values made by calls (`values:`, and those of its `states:` file),
    # spec/sequences.py: (Sequence, ...)
    sequences: tuple = ()
    states_file: Optional[Path] = None  # its `states:`, resolved

    @property
    def folder(self):
        return self.path.parent

    @property
    def include_dirs(self):
        """Where the plugin's headers are found: this spec's folder first."""
        return (self.folder,) + self.base_folders

    def source_path(self, source):
        """A source named in this spec, or (absolute) inherited from a base."""
        return self.folder / source

    def function(self, name):
        return next((f for f in self.functions if f.name == name), None)

    def contract_of(self, function):
        """A function's contract: its own, with the target's `returns` where
        it states none or a weaker one (a hardened library's `always` over
        the `acceptable` of the spec it extends); None when neither states one."""
        own, whole = function.contract, self.contract
        if not whole:
            return own
        if not own:
            return whole
        if RETURNS_STRENGTH[own.returns] >= RETURNS_STRENGTH[whole.returns]:
            return own
        return dataclasses.replace(own, returns=whole.returns, drafted=whole.drafted,
                                   source=f"{own.source}; {whole.source}")

    @property
    def digest(self):
        """What makes a case mean the same call in two runs: each function's
        name, the call it makes, its C types, datatypes and error convention.
        Comments, layout, libraries, `note:` and `equivalent:` do not count, so a
        new build of the same library under the same spec keeps its digest
        and its runs stay comparable (the gate)."""
        calls = [[f.name, f.call, f.returns, [[p.name, p.ctype, p.datatype] for p in f.params],
                  f.error_when, f.error_value, f.error_param, list(f.extra_args)]
                 + ([f.error_eof, f.error_expr] if f.error_eof or f.error_expr else [])
                 for f in self.functions]
        # a value made by calls is part of what a case hands over: its
        # sequence counts, and a spec with none keeps the digest it had
        calls += [[s.label, s.digest] for s in self.sequences]
        text = json.dumps(calls, separators=(",", ":"))
        return "sha256:" + hashlib.sha256(text.encode()).hexdigest()[:16]


@lru_cache(maxsize=None)
def _schema():
    return json.loads(paths.TARGET_SCHEMA.read_text())


def base_datatypes():
    """{name: [value names]} of the executor's built-in datatypes."""
    return {d["name"]: [v["name"] for v in d["values"]] for d in _list_base()}


@lru_cache(maxsize=None)
def _list_base():
    return executor.list_datatypes()


def find_spec(target):
    """The spec file for a target name, or a path to a spec of one's own."""
    candidate = Path(target)
    if names_a_file(target):
        if not candidate.is_file():
            raise TrebuchetError("no such spec file", candidate)
        return candidate.resolve()
    spec = paths.TARGETS / target / f"{target}.yaml"
    if not spec.is_file():
        known = ", ".join(available_targets()) or "none"
        raise TrebuchetError(f"unknown target '{target}' (known: {known}; or the path of a "
                             f"spec file, path/to/mylib.yaml)")
    return spec


def names_a_file(target):
    """Whether --target names a spec file (by its path) rather than a
    target under targets/."""
    return Path(target).suffix in (".yaml", ".yml")


def available_targets():
    return sorted(p.parent.name for p in paths.TARGETS.glob("*/*.yaml")
                  if p.stem == p.parent.name)


def load(path, _extended_by=()):
    path = Path(path).resolve()
    try:
        text = read_text(path)
    except OSError as e:
        raise TrebuchetError(e.strerror or str(e), path) from None
    data, lines = yamlines.load(text, path)
    _null_convention(data)
    _null_arguments(data)
    _validate_schema(data, lines, path)
    spec = _build(data, path, lines)
    if "states" in data:
        spec = _include_states(spec, data, lines)
    if "extends" in data:
        spec = _extend(spec, data, lines, _extended_by + (path,))
    _check(spec, data, lines)
    return spec


def _extend(spec, data, lines, chain):
    base_path = (spec.folder / data["extends"]).resolve()
    where = yamlines.line_of(lines, ("extends",))
    if base_path in chain:
        raise TrebuchetError(f"extends '{data['extends']}' goes round in a circle", spec.path, where)
    if not base_path.is_file():
        raise TrebuchetError(f"extends '{data['extends']}': no such spec file", spec.path, where)
    base = load(base_path, chain)
    stated = lambda key, own, inherited: own if key in data else inherited
    return dataclasses.replace(
        spec,
        functions=base.functions + spec.functions,
        includes=stated("includes", spec.includes, base.includes),
        pkg_config=stated("pkg-config", spec.pkg_config, base.pkg_config),
        cflags=stated("cflags", spec.cflags, base.cflags),
        libraries=stated("libraries", spec.libraries, base.libraries),
        install=stated("install", spec.install, base.install),
        sources=tuple(str(base.source_path(s)) for s in base.sources) + spec.sources,
        datatypes={**base.datatypes, **spec.datatypes},
        datatype_lines={**base.datatype_lines, **spec.datatype_lines},
        description=spec.description or base.description,
        leaves_out={**base.leaves_out, **spec.leaves_out},
        sequences=tuple(s for s in base.sequences
                        if s.label not in {own.label for own in spec.sequences}) + spec.sequences,
        base_folders=base.include_dirs,
        extends=base.target,
        contract=spec.contract or base.contract)


def _include_states(spec, data, lines):
    """The values of the spec's `states:` file added after its own: a file
    of `values:` alone (what `trebuchet states` writes), whose mistakes are
    told at its own lines, and none of whose names the spec's own values use."""
    path = (spec.folder / data["states"]).resolve()
    if not path.is_file():
        raise TrebuchetError(f"states '{data['states']}': no such file (`trebuchet states` "
                             f"writes it)", spec.path, yamlines.line_of(lines, ("states",)))
    included, included_lines = yamlines.load(read_text(path), path)
    _null_arguments(included)
    _validate_schema(included, included_lines, path, _states_schema())
    own = {s.label: s for s in spec.sequences}
    added = sequences_module.read(included, included_lines, path)
    for s in added:
        if s.label in own:
            raise TrebuchetError(f"{s.label} is a value of the spec already (line "
                                 f"{own[s.label].where[1]} of {spec.path.name})", *s.where)
    return dataclasses.replace(spec, sequences=spec.sequences + added, states_file=path)


@lru_cache(maxsize=None)
def _states_schema():
    """A states file: the spec's `values:`, and nothing else."""
    whole = _schema()
    return {"$defs": whole["$defs"], "type": "object", "additionalProperties": False,
            "required": ["values"], "properties": {"values": whole["properties"]["values"]}}


def _null_convention(data):
    """`error: {when: null}` names the convention "a NULL return is the
    error", and `undefined: [NULL]` (likewise `accepts:` and a promised
    error's `when:` lists) the value NULL; YAML reads the bare word as no
    value, so it is put back."""
    if not isinstance(data, dict) or not isinstance(data.get("functions"), list):
        return
    for f in data["functions"]:
        err = f.get("error") if isinstance(f, dict) else None
        if isinstance(err, dict) and "when" in err and err["when"] is None:
            err["when"] = "null"
        lists = []
        params = f.get("params") if isinstance(f, dict) else None
        for p in params if isinstance(params, list) else ():
            if isinstance(p, dict):
                lists += [p.get("undefined"), p.get("accepts")]
        contract = f.get("contract") if isinstance(f, dict) else None
        for e in (contract.get("errors") if isinstance(contract, dict) else None) or ():
            when = e.get("when") if isinstance(e, dict) else None
            lists += list(when.values()) if isinstance(when, dict) else []
        for values in lists:
            if isinstance(values, list):
                values[:] = ["NULL" if v is None else v for v in values]


def _null_arguments(data):
    """A call's argument `{p: NULL}` names the value NULL (see above)."""
    made = data.get("values") if isinstance(data, dict) else None
    for values in made.values() if isinstance(made, dict) else ():
        for steps in values.values() if isinstance(values, dict) else ():
            for step in steps if isinstance(steps, list) else ():
                args = step.get("args") if isinstance(step, dict) else None
                if isinstance(args, dict):
                    args.update({k: "NULL" for k, v in args.items() if v is None})


def _schema_message(e):
    """A schema error in words: a missing key by its name, never a repr of
    the whole mapping."""
    if e.validator == "required":
        missing = next(k for k in e.validator_value if k not in e.instance)
        return f"missing key '{missing}'"
    if e.validator == "maxItems" and list(e.absolute_path)[-1:] == ["params"]:
        return (f"{len(e.instance)} parameters, where a function has at most "
                f"{e.validator_value} parameters")
    if e.validator in ("anyOf", "oneOf") and e.context and \
            all(c.validator == "required" for c in e.context):
        keys = [k for c in e.context for k in c.validator_value]
        return "missing key: one of " + ", ".join(f"'{k}'" for k in keys)
    if e.validator == "enum":
        return (f"{json.dumps(e.instance)} is not one of "
                + ", ".join(json.dumps(v) for v in e.validator_value))
    return e.message if len(e.message) < 200 else e.message[:200] + "..."


def _validate_schema(data, lines, path, schema=None):
    validator = jsonschema.Draft202012Validator(schema or _schema())
    errors = sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:
        e = errors[0]
        where = "/".join(str(p) for p in e.absolute_path) or "top level"
        raise TrebuchetError(f"{where}: {_schema_message(e)}", path,
                             yamlines.line_of(lines, e.absolute_path))


def _build(data, path, lines):
    functions = []
    for i, f in enumerate(data.get("functions", ())):
        err = f["error"]
        params = tuple(Param(p["name"], p["type"].strip(), p["datatype"], p.get("convert", False),
                             tuple(p.get("undefined", ())), tuple(p.get("accepts", ())),
                             (path.resolve(), yamlines.line_of(lines, ("functions", i, "params", j))))
                       for j, p in enumerate(f["params"]))
        functions.append(Function(
            name=f["name"], call=f.get("call", f["name"]), returns=f["returns"].strip(),
            params=params,
            error_when=err["when"], error_value=err.get("value"), error_param=err.get("param"),
            error_eof=err.get("eof"), error_expr=err.get("expr"),
            extra_args=tuple(f.get("extra_args", ())), equivalent=f.get("equivalent"),
            note=f.get("note"), errnos=tuple(f["errnos"]) if "errnos" in f else None,
            contract=_contract(f.get("contract")),
            returns_where=(path.resolve(), yamlines.line_of(lines, ("functions", i, "returns")))))
    version = data.get("version", {})
    return Spec(path=path.resolve(), target=data["target"], functions=tuple(functions),
                includes=tuple(data.get("includes", ())),
                pkg_config=tuple(data.get("pkg-config", ())),
                cflags=tuple(_from_folder(flag, path.parent) for flag in data.get("cflags", ())),
                libraries=tuple(data.get("libraries", ())),
                install=data.get("install", ""),
                sources=tuple(data.get("sources", ())),
                datatypes=dict(data.get("datatypes", {})),
                datatype_lines={name: (path.resolve(), yamlines.line_of(lines, ("datatypes", name)))
                                for name in data.get("datatypes", {})},
                version_label=version.get("label", data["target"]),
                version_expr=version.get("expr"),
                version_line=yamlines.line_of(lines, ("version", "expr")) if "expr" in version
                else None,
                description=data.get("description", ""),
                leaves_out=dict(data.get("leaves_out", {})),
                functions_line=yamlines.line_of(
                    lines, ("functions",) if "functions" in data else ("extends",)),
                contract=_contract(data.get("contract")),
                sequences=sequences_module.read(data, lines, path.resolve()))


def _from_folder(flag, folder):
    """A relative -I names a folder from the spec's own, as its paths do."""
    if flag.startswith("-I") and len(flag) > 2 and not Path(flag[2:]).is_absolute():
        return f"-I{(folder / flag[2:]).resolve()}"
    return flag


def _contract(data):
    if not data:
        return None
    drafted = data.get("drafted", False)
    errors = tuple(PromisedError(tuple((param, tuple(values)) for param, values in e["when"].items()),
                                 tuple(e.get("errno", ())), e.get("source", ""),
                                 drafted or e.get("drafted", False))
                   for e in data.get("errors", ()))
    return Contract(data["source"], data.get("returns"), errors, drafted)


def _stated(data, key, items):
    """(index in this file, item) for the items of a list this spec states
    itself.  Items inherited from an extended spec come first and were
    checked when that spec was loaded."""
    first = len(items) - len(data.get(key, ()))
    return [(i - first, item) for i, item in enumerate(items) if i >= first]


def _check(spec, data, lines):
    def fail(message, *where):
        raise TrebuchetError(message, spec.path, yamlines.line_of(lines, where))

    if not spec.functions:
        fail("a spec lists functions, or extends a spec that does", "target")
    known = set(base_datatypes()) | set(spec.datatypes)
    own_functions = _stated(data, "functions", spec.functions)
    seen = {f.name for f in spec.functions[:len(spec.functions) - len(own_functions)]}
    for i, f in own_functions:
        if f.name in seen:
            fail(f"function '{f.name}' is listed twice", "functions", i, "name")
        seen.add(f.name)
        names = [p.name for p in f.params]
        for j, p in enumerate(f.params):
            if p.datatype not in known:
                fail(f"unknown datatype '{p.datatype}' (known: {', '.join(sorted(known))})",
                     "functions", i, "params", j, "datatype")
        for k, name in enumerate(f.errnos or ()):
            if name not in ERRNO_NAMES:
                fail(f"unknown errno '{name}'", "functions", i, "errnos", k)
        _check_contract(f, fail, ("functions", i))
        if f.error_when in ("less_than_param", "short_count", "out_param") and \
                f.error_param not in names:
            fail(f"error param '{f.error_param}' is not a parameter of {f.name}",
                 "functions", i, "error", "param")
    sequences_module.check(spec, [s for s in spec.sequences
                                  if s.where[0] in (spec.path, spec.states_file)],
                           base_datatypes())
    for i, package in _stated(data, "pkg-config", spec.pkg_config):
        if not pkg_config_knows(package):
            fail(f"pkg-config knows no package '{package}' (nor does PKG_CONFIG_PATH)",
                 "pkg-config", i)
    for i, source in _stated(data, "sources", spec.sources):
        if not spec.source_path(source).is_file():
            fail(f"source file '{source}' not found in {spec.folder}", "sources", i)
    remedy = f"; {spec.install}" if spec.install else ""
    for i, lib in _stated(data, "libraries", spec.libraries):
        if "/" in lib and not library_file(spec, lib).is_file():
            places = " nor ".join(str(p) for p in _library_places(spec, lib))
            fail(f"library '{lib}' is not built: not at {places}{remedy}", "libraries", i)
        if "/" not in lib and not library_installed(lib):
            fail(f"library '{lib}' is not installed (nor in a folder of LD_LIBRARY_PATH){remedy}",
                 "libraries", i)


def _check_contract(f, fail, where):
    """Names a contract uses: parameters of the function, values of their
    datatypes (those the executor lists; a target's own datatypes are
    checked when the findings are made), errno names."""
    known = base_datatypes()
    params = {p.name: p for p in f.params}

    def check_values(values, datatype, *at):
        for k, value in enumerate(values):
            if datatype in known and value not in known[datatype]:
                fail(f"'{value}' is not a value of datatype {datatype}", *at, k)

    for j, p in enumerate(f.params):
        for key in ("undefined", "accepts"):
            check_values(getattr(p, key), p.datatype, *where, "params", j, key)
        for k, value in enumerate(p.accepts):
            if value in p.undefined:  # the documentation cannot say both
                fail(f"{p.name} = {value} is both accepted and undefined", *where, "params", j,
                     "accepts", k)
    for k, promise in enumerate(f.contract.errors if f.contract else ()):
        at = where + ("contract", "errors", k)
        for param, values in promise.when:
            if param not in params:
                fail(f"'{param}' is not a parameter of {f.name}", *at, "when", param)
            check_values(values, params[param].datatype, *at, "when", param)
        for m, name in enumerate(promise.errnos):
            if name not in ERRNO_NAMES:
                fail(f"unknown errno '{name}'", *at, "errno", m)


def pkg_config_knows(package):
    try:
        return subprocess.run(["pkg-config", "--exists", package]).returncode == 0
    except OSError:
        raise TrebuchetError("the spec names pkg-config packages, and pkg-config is not "
                             "installed") from None


def compile_flags(spec):
    """What every compilation of the target's C takes (the type probe, the
    plugin, a reproducer): its packages' `pkg-config --cflags`, then its
    own `cflags`."""
    return [*_pkg_config_cflags(spec.pkg_config), *spec.cflags]


@lru_cache(maxsize=None)
def _pkg_config_cflags(packages):
    if not packages:
        return ()
    out = subprocess.run(["pkg-config", "--cflags", *packages], capture_output=True, text=True)
    if out.returncode != 0:
        raise TrebuchetError(f"pkg-config --cflags {' '.join(packages)}: "
                             f"{out.stderr.strip() or 'failed'}")
    return tuple(shlex.split(out.stdout))


def _library_places(spec, name):
    """Where a library named by a path is looked for: beside the spec (or the
    specs it extends), then in trebuchet's own folder, where its own builds go
    (build/lib/librobust_sfio.so)."""
    if Path(name).is_absolute():
        return [Path(name)]
    return [folder / name for folder in spec.include_dirs] + [paths.ROOT / name]


def library_file(spec, name):
    """The file of a library named by its path: the first place that holds it
    (the first place, when none does)."""
    places = _library_places(spec, name)
    return next((p for p in places if p.is_file()), places[0]).resolve()


def library_folder(name):
    """The folder of LD_LIBRARY_PATH that holds a library named by its file
    name, or None: how a user points trebuchet at a library not installed."""
    filename = name if ".so" in name else f"lib{name}.so"
    folders = [d for d in os.environ.get("LD_LIBRARY_PATH", "").split(":") if d]
    return next((Path(d) for d in folders if (Path(d) / filename).exists()), None)


def library_installed(name):
    """True when the dynamic linker finds the library (a file name such as
    libgvpr.so.2, or an -l name such as m)."""
    filename = name if ".so" in name else f"lib{name}.so"
    return filename in _ldconfig_names() or library_folder(name) is not None or any(
        (Path(d) / filename).exists() for d in ("/usr/lib/x86_64-linux-gnu", "/usr/lib",
                                               "/lib/x86_64-linux-gnu", "/usr/local/lib"))


@lru_cache(maxsize=None)
def _ldconfig_names():
    try:
        out = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True).stdout
    except OSError:
        return frozenset()
    return frozenset(re.findall(r"^\s*(\S+) \(", out, re.M))
