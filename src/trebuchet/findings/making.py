"""Makes a run's findings and stores them (src/trebuchet/findings/signature.py has the
rules): when `trebuchet run` ends, stopped or not, and when `merge` has
joined shards.  What the contract accepts is read from the spec and from
the executor's listing of the run's own values (the dictionary it drew
from), so a report made later, elsewhere, needs neither."""
import contextlib
import os
import sqlite3
import tempfile
from pathlib import Path

from trebuchet.findings import violations as contract, storage as findings_store
from trebuchet.findings import flaky, minimise, signature as findings_model
from trebuchet.harness import crash_sites as symbolize
from trebuchet.store import database as store
from trebuchet.store import findings as findings_tables, results
from trebuchet.store.runs import RunInfo, newest_run_any, selection

from trebuchet.build import plugins as build
from trebuchet.harness import executor
from trebuchet.spec import load as specs
from trebuchet.core.errors import TrebuchetError
from trebuchet.core.outcomes import FAILING


def _misuse(plugin, dictionary):
    return {d["name"]: {v["name"]: v.get("misuse", False) for v in d["values"]}
            for d in executor.list_datatypes(plugin, dictionary)}


def _runner(plugin, info, with_sites):
    """run(pairs) for the minimiser: [(function, case index)] run in the
    sandbox, as the run ran them, returned as signature.Case records with
    their frames named.  with_sites False: a run without crash sites, whose
    cases are compared with replacements as bare as they are."""
    def run(pairs):
        with tempfile.NamedTemporaryFile("w", suffix=".cases") as listing:
            listing.writelines(f"{function} {index}\n" for function, index in pairs)
            listing.flush()
            results = executor.run_cases(plugin, listing.name, info.timeout_ms / 1000,
                                         info.dictionary)
        made = [findings_model.Case(r["function"], r["case"], r["values"], r["outcome"],
                                    None if r["signal"] < 0 else r["signal"],
                                    None if r["exit_status"] < 0 else r["exit_status"],
                                    r["errno"], r["error_reported"], r["stderr"] or None,
                                    dict(r["site"], frames=r["frames"])
                                    if with_sites and r["site"] else None)
                for r in results]
        for c, frames in zip(made, symbolize.symbolize(
                [c.site["frames"].splitlines() if c.site and c.site["frames"] else []
                 for c in made])):
            c.frames = frames
        return made
    return run


def record(db, run, spec, plugin=None, budget=minimise.BUDGET):
    """Analyzes run of db and stores its findings; returns them.  budget:
    the most cases minimising them may run (minimise.py)."""
    plugin = plugin or build.build_plugin(spec, quiet=True)
    conn = store.connect(db)
    info = RunInfo.read(conn, run)
    with_sites = results.has_crash_sites(conn, run)
    conn.close()
    listed = executor.list_functions(plugin, info.dictionary)
    contracts = contract.contracts_for(spec, listed, _misuse(plugin, info.dictionary))
    lock = store.writer_lock(db)  # no run writes the store meanwhile
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    try:
        runner = _runner(plugin, info, with_sites)
        minimiser = minimise.Minimiser(listed, runner, budget)
        modules = findings_model.library_modules(spec)
        found, cases = findings_model.analyze(conn, run, spec, contracts, modules, minimiser)
        flaky.mark(found, runner,
                   lambda c: findings_model.crash_finding(c, modules).signature)
        with conn:
            findings_store.persist(conn, run, found, cases, minimiser.ran)
    except sqlite3.Error as e:
        raise TrebuchetError(f"cannot store the findings of run {run}: {e}", db) from None
    finally:
        conn.close()
        os.close(lock)
    return found


def record_latest(db, spec, plugin=None, budget=minimise.BUDGET):
    """record() for the target's newest run in db, if it has one."""
    conn = store.connect(db)
    run = newest_run_any(conn, spec.target)
    conn.close()
    return record(db, run, spec, plugin, budget) if run else []


def broken_promise(spec, result, dictionary=None, plugin=None):
    """The contract's promise one case breaks (result: a `repro` record), in
    the words a finding's violation uses; None when it breaks none."""
    plugin = plugin or build.build_plugin(spec, quiet=True)
    listed = executor.list_functions(plugin, dictionary)
    judged = contract.contracts_for(spec, listed, _misuse(plugin, dictionary)).get(
        result["function"])
    if judged is None:
        return None
    case = findings_model.Case(result["function"], result["case"], result["values"],
                               result["outcome"], result.get("signal"), result.get("exit_status"),
                               result.get("errno"), result.get("error_reported"))
    case.acceptable = judged.accepts(case.values)
    if case.outcome in FAILING:
        broken = judged.broken_by_crash(case)  # (words, drafted)
    else:
        broken = judged.broken_by_return(case) if case.outcome == "PASS" else None
        broken = broken and broken[2:]
    if not broken:
        return None
    words, drafted = broken
    return (findings_model.DRAFTED if drafted else "") + words


UNHELD_SHOWN = 5  # notes of promises no case held, before "and N more"


def unheld_promises(db, spec):
    """Notes, one line each, of the contract's promises (a value accepted,
    or answered with an error) that no case of the target's newest run
    held: a capped or pinned run leaves a promise untested, which a run
    without a violation does not say."""
    with contextlib.closing(store.connect(db)) as conn:
        run = newest_run_any(conn, spec.target)
        held = {(fn, i, v) for fn, i, v, _ in findings_tables.value_verdicts(conn, run)}
        ran = set(selection(conn, run))
    notes = []
    for f in spec.functions:
        if f.name not in ran:
            continue
        index = {p.name: i for i, p in enumerate(f.params)}
        for kind, p, value, (path, line) in f.named_values():
            words = (f"accepts {p.name} = {value}" if kind == "accepts" else
                     f"answers {p.name} = {value} with an error" if kind == "error" else None)
            if words and (f.name, index[p.name], f"{p.datatype}:{value}") not in held:
                notes.append(f"note: {Path(path).name}:{line}: {f.name} {words}: no case of"
                             f" this run holds it")
    more = len(notes) - UNHELD_SHOWN
    return notes[:UNHELD_SHOWN] + ([f"note: and {more} more promises no case held"]
                                   if more > 0 else [])


def libraries_without_debug_info(conn, run):
    """The paths of the libraries under test whose frames in run's findings
    were named without debug information: the findings say so once each."""
    modules = findings_model.library_modules(spec_of_run(conn, run))
    paths = {module for frames in findings_tables.example_frames(conn, run)
             for module, _ in map(symbolize.parse, frames.splitlines())
             if os.path.basename(module) in modules}
    return sorted(p for p in paths if not symbolize.has_debug_info(p))


def spec_of_run(conn, run):
    """The spec a stored run was made with, found again as `run --target`
    named it; None when it is not here."""
    info = RunInfo.read(conn, run)
    target, path = info.target, info.spec
    try:
        return specs.load(specs.find_spec(path or target))
    except TrebuchetError:
        return None
