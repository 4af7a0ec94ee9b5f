"""`trebuchet merge`: joins the shard runs of one campaign (`trebuchet run
--shard K/N`, one store each, typically one per CI job) into one finished
run, shard 1 of 1, as if the campaign had run whole.

Each input store gives its newest shard run (of --target when it holds
shard runs of several targets); that run must be finished.  The shards must
agree on everything that decides which cases a shard holds and what an
outcome means (SAME), and together be shards 1..N of N, each once.  The
merged run takes their parameters, the earliest start and the latest
finish, every host that ran a shard, the most jobs any shard had; its
functions' cases_run is the shards' sum and must equal cases_drawn.  Every
result row, and every crash site, is copied as it is.

The output is a new store or an existing store of this schema version: the
merged run is appended to it, as `trebuchet run` appends its runs, so one
store can keep a history of merged runs beside runs of other targets.  The
inputs are only read.  Every check is made before the output is touched,
and the run is written in one transaction, so a refusal leaves the output
as it was (or absent) and a kill leaves no half-merged run."""
from dataclasses import dataclass
from pathlib import Path

from trebuchet.spec import load as specs
from trebuchet.core.errors import TrebuchetError

from trebuchet.store import database as store, merged

# What every shard of one campaign must share: they decide which cases the
# campaign draws and deals, and what each outcome means.
SAME = ("target", "extends", "target_version", "harness_version", "spec_digest", "dictionary",
        "dictionary_digest", "seed", "cap", "timeout_ms", "functions", "shards", "pins",
        "sanitizer")
# Sandbox levels, weakest first: a merged run has its weakest shard's.
SANDBOXES = ("none", "user", "full")
# What a function row must share across shards (cases_run is summed).
SAME_FUNCTION = ("signature", "datatypes", "cases_total", "cases_drawn")


@dataclass
class Shard:
    path: Path
    run: dict        # its runs row
    functions: dict  # name -> its functions row
    stored: dict     # name -> result rows stored for it
    listed: list     # [(function, case index)] a --values-file run lists, sorted; else []

    @property
    def k(self):
        return self.run["shard"]

    @property
    def label(self):
        return f"shard {self.k} of {self.run['shards']}"


def _shard_run(conn, path, target):
    """The store's newest shard run (of target, when given), finished."""
    runs = merged.shard_runs(conn, target)
    targets = sorted({r["target"] for r in runs})
    if not runs:
        of = f" of {target}" if target else ""
        raise TrebuchetError(f"holds no shard run{of} (`trebuchet run --shard K/N` makes one)",
                             path)
    if len(targets) > 1:
        raise TrebuchetError(f"holds shard runs of several targets ({', '.join(targets)}):"
                             " say which with --target", path)
    run = dict(runs[0])
    if run["finished"] is None:
        raise TrebuchetError(f"shard {run['shard']} of {run['shards']} of {run['target']}"
                             f" (run {run['id']}) is unfinished: `trebuchet run --target"
                             f" {run['spec'] or run['target']} --db {path} --resume` finishes it",
                             path)
    return run


def read_shard(path, target=None):
    """The shard run a store holds, its functions and how many results each has."""
    conn = store.connect(path)
    try:
        run = _shard_run(conn, path, target)
        functions = merged.run_functions(conn, run["id"])
        stored = merged.stored_per_function(conn, run["id"])
        listed = merged.listed_cases(conn, run["id"])
    finally:
        conn.close()
    return Shard(Path(path), run, functions, stored, listed)


def check_campaign(shards):
    """Refuses shards of different campaigns, a shard given twice, a shard
    missing, or a shard whose stored cases do not add up."""
    first = shards[0]
    for s in shards[1:]:
        for key in SAME:
            if s.run[key] != first.run[key]:
                raise TrebuchetError(f"{key} is {s.run[key]!r} here but {first.run[key]!r}"
                                     f" in {first.path}: not shards of one campaign", s.path)
        if s.listed != first.listed:
            raise TrebuchetError(f"lists other cases than {first.path} (--values-file): not"
                                 f" shards of one campaign", s.path)
    seen = {}
    for s in shards:
        if s.k in seen:
            raise TrebuchetError(f"{s.label} again ({seen[s.k].path} holds it too)", s.path)
        seen[s.k] = s
    n = first.run["shards"]
    missing = [k for k in range(1, n + 1) if k not in seen]
    if missing:
        raise TrebuchetError(f"{first.run['target']}: shard{'s' if len(missing) > 1 else ''}"
                             f" {', '.join(map(str, missing))} of {n} missing: merge wants"
                             f" every shard of the campaign")
    for s in shards:
        _check_functions(first, s)
    _check_counts(shards)


def _check_functions(first, s):
    if set(s.functions) != set(first.functions):
        odd = sorted(set(s.functions) ^ set(first.functions))
        raise TrebuchetError(f"functions differ from {first.path}'s ({', '.join(odd)})", s.path)
    for name, f in s.functions.items():
        for key in SAME_FUNCTION:
            if f[key] != first.functions[name][key]:
                raise TrebuchetError(f"{name}: {key} is {f[key]!r} here but"
                                     f" {first.functions[name][key]!r} in {first.path}", s.path)


def _check_counts(shards):
    """Each shard stored the cases it says it ran, and together the shards
    hold every case the campaign drew."""
    for s in shards:
        for name, f in s.functions.items():
            if s.stored.get(name, 0) != f["cases_run"]:
                raise TrebuchetError(f"{name}: {s.stored.get(name, 0)} results stored but"
                                     f" cases_run says {f['cases_run']}", s.path)
    for name, f in shards[0].functions.items():
        held = sum(s.functions[name]["cases_run"] for s in shards)
        if held != f["cases_drawn"]:
            raise TrebuchetError(f"{name}: the shards hold {held} of its {f['cases_drawn']}"
                                 " drawn cases: a shard is missing cases")


def merged_run(shards):
    """The merged run's row: the shards' parameters, shard 1 of 1, from the
    first start to the last finish, every host, C library and kernel (in
    shard order), the most jobs any shard had, the weakest sandbox any shard
    had."""
    shards = sorted(shards, key=lambda s: s.k)
    run = dict(shards[0].run)
    del run["id"]

    def every(key):
        return ", ".join(dict.fromkeys(s.run[key] for s in shards))

    run.update(shard=1, shards=1, host=every("host"), libc=every("libc"), kernel=every("kernel"),
               started=min(s.run["started"] for s in shards),
               finished=max(s.run["finished"] for s in shards),
               jobs=max(s.run["jobs"] for s in shards),
               sandbox=min((s.run["sandbox"] for s in shards), key=SANDBOXES.index))
    return run


def _check_output(out, shards):
    """Refuses an output that is one of the shards or not a trebuchet store
    of this schema version, before anything is written."""
    for s in shards:
        if out.exists() and out.samefile(s.path):
            raise TrebuchetError("is one of the shards: merge into another store", out)
    merged.check_output(out)


def _write(out, shards, run):
    """Appends the merged run to out in one transaction; returns its id."""
    functions = [dict(f, cases_run=sum(s.functions[f["name"]]["cases_run"] for s in shards))
                 for f in shards[0].functions.values()]
    return merged.append_merged_run(out, run, functions, shards[0].listed,
                                    [(s.path, s.run["id"]) for s in shards])


def merge(paths, out, target=None):
    """Merges the shard runs held by the stores at paths into a new run of
    out; returns (target, run id)."""
    out = Path(out)
    if target and specs.names_a_file(target):  # a spec's path names its `target:`
        target = specs.load(specs.find_spec(target)).target
    shards = [read_shard(p, target) for p in paths]
    check_campaign(shards)
    _check_output(out, shards)
    run = merged_run(shards)
    return run["target"], _write(out, shards, run)
