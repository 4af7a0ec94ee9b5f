"""The runs table: a run's row, and which run a command reads, each choice a
selector named for what it picks:

  latest_runs           the newest finished run of each target (findings,
                        memcheck, compare, the survey)
  report_runs           the report's: the newest finished run of each target
                        in our dictionary, else in another
  newest_by_dictionary  the newest finished run of each target and dictionary
                        (the study's side-by-side pages)
  newest_in_stores      the same over several stores, a later store winning
                        (the Silent, Hindering and Corrupt judges)
  newest_full_run       the gate's and the baseline's: the newest finished run
                        of a target, refused when it holds one shard only
  newest_run_any        the newest run of a target, finished or not: what a
                        run just stopped or ended stored, to make its findings
  newest_run            the store's newest run, of any target (run --repeat's
                        throwaway stores)
  newest_finished       a target's N newest finished runs (compare)
  newest_state_of_spec  whether target's newest run of a spec as it is now
                        finished (the survey goes on from it)
  unfinished_dictionary the dictionary of the run `run --resume` finishes
  unfinished_after      a run of a target newer than a given one and not
                        finished: the gate refuses to read past it
"""
from dataclasses import dataclass, fields
from typing import Optional

from trebuchet.core.errors import TrebuchetError
from trebuchet.core.readable import plural


@dataclass
class RunInfo:
    """A run's row: when, where and how it ran."""
    id: int
    target: str
    extends: Optional[str]
    target_version: str
    host: str
    harness_version: str
    seed: int
    cap: int
    timeout_ms: int
    jobs: int
    started: str
    finished: Optional[str]
    dictionary: str
    dictionary_digest: str
    spec_digest: str
    shard: int        # the run holds shard K of N of its campaign's cases
    shards: int       # (run --shard K/N); 1 of 1: all of them
    sandbox: str      # the namespaces around its test processes: full, user, none
    libc: str         # with sandbox, its platform (src/trebuchet/core/platform.py): "glibc 2.36"
    kernel: str       # "Linux 6.1.0-18-amd64 x86_64"
    spec: Optional[str] = None  # the spec's path as the run was given it, or None
    pins: str = ""    # `run --pin`: the runs.pins text (harness/pins.h), "" if none
    sanitizer: str = ""  # `run --sanitizer`: the runtime its test processes ran under, "" none
    listed: int = 0   # `run --values-file`: how many cases it listed (not a runs column)

    @property
    def target_arg(self):
        """The target as a `trebuchet repro --target` names it: the spec's
        path when the run was given one, else the target's name."""
        return self.spec or self.target

    @property
    def partial(self):
        """Whether the run holds only one shard, so its numbers are that shard's."""
        return self.shards > 1

    def targeted(self, function=None):
        """What the run held its cases to, as people read it (function's
        pins alone, when given); "" for a whole campaign."""
        if self.listed:
            return f"the {plural(self.listed, 'case')} of its values file"
        return pins_shown(self.pins, function)

    @classmethod
    def read(cls, conn, run):
        names = [f.name for f in fields(cls) if f.name != "listed"]
        row = conn.execute(f"SELECT {', '.join(names)}, (SELECT count(*) FROM listed_cases"
                           f" WHERE run_id = runs.id) FROM runs WHERE id = ?", (run,)).fetchone()
        return cls(*row)


def latest_runs(conn):
    """{target: run id} of the newest finished run of each target."""
    rows = conn.execute("SELECT target, max(id) FROM runs WHERE finished IS NOT NULL"
                        " GROUP BY target ORDER BY target")
    return {target: run for target, run in rows}


def report_runs(conn):
    """{target: run id} the report's body shows: the newest finished run of
    each target in our dictionary, or the newest in another for a target run
    only there (the dictionaries module sets them side by side)."""
    rows = conn.execute("SELECT target, coalesce(max(CASE WHEN dictionary = 'ours' THEN id END),"
                        " max(id)) FROM runs WHERE finished IS NOT NULL"
                        " GROUP BY target ORDER BY target")
    return {target: run for target, run in rows}


def newest_by_dictionary(conn):
    """{(target, dictionary): run id} of the newest finished run of each."""
    rows = conn.execute("SELECT target, dictionary, max(id) FROM runs WHERE finished IS NOT NULL"
                        " GROUP BY target, dictionary")
    return {(target, dictionary): run for target, dictionary, run in rows}


def newest_in_stores(sources, targets=None):
    """{(target, dictionary): (conn, run, db)} of the newest finished run of
    each of targets (None: every target) in each dictionary, over sources
    [(conn, db)]; a later store wins (the judges' choice)."""
    chosen = {}
    for conn, db in sources:
        for (target, dictionary), run in newest_by_dictionary(conn).items():
            if targets is None or target in targets:
                chosen[target, dictionary] = (conn, run, db)
    return chosen


def newest_full_run(conn, target, db):
    """The newest finished run of target that holds the whole campaign."""
    row = conn.execute("SELECT id, shard, shards FROM runs WHERE target = ? AND finished"
                       " IS NOT NULL ORDER BY id DESC LIMIT 1", (target,)).fetchone()
    if row is None:
        raise TrebuchetError(f"no finished run of {target}", db)
    if row["shards"] > 1:
        raise TrebuchetError(f"run {row['id']} of {target} holds shard {row['shard']} of "
                             f"{row['shards']} only: `trebuchet merge` joins the shards first",
                             db)
    return row["id"]


def newest_run_any(conn, target):
    """The id of target's newest run, finished or not; None when it has none."""
    row = conn.execute("SELECT max(id) FROM runs WHERE target = ?", (target,)).fetchone()
    return row[0] if row else None


def unfinished_after(conn, target, run):
    """(id, started) of the newest unfinished run of target newer than run,
    or None.  A job killed mid-run, or a workspace reused, leaves one: the
    gate would read the finished run before it without a word."""
    return conn.execute("SELECT id, started FROM runs WHERE target = ? AND id > ? AND finished"
                        " IS NULL ORDER BY id DESC LIMIT 1", (target, run)).fetchone()


def newest_state_of_spec(conn, target, spec_digest):
    """"finished", "unfinished" or None: the state of target's newest run
    made from the spec whose digest is spec_digest (the survey's resume)."""
    row = conn.execute("SELECT finished FROM runs WHERE target = ? AND spec_digest = ?"
                       " ORDER BY id DESC LIMIT 1", (target, spec_digest)).fetchone()
    return None if row is None else "finished" if row[0] else "unfinished"


def unfinished_dictionary(conn, target):
    """The dictionary of target's newest unfinished run, or None."""
    row = conn.execute("SELECT dictionary FROM runs WHERE target = ? AND finished IS NULL"
                       " ORDER BY id DESC LIMIT 1", (target,)).fetchone()
    return row[0] if row else None


def exists(conn, run):
    return conn.execute("SELECT 1 FROM runs WHERE id = ?", (run,)).fetchone() is not None


def newest_run(conn):
    """The id of the store's newest run, finished or not; None in an empty store."""
    return conn.execute("SELECT max(id) FROM runs").fetchone()[0]


def selection(conn, run):
    """The functions run ran, in run order."""
    return conn.execute("SELECT functions FROM runs WHERE id = ?",
                        (run,)).fetchone()[0].split(",")


def newest_finished(conn, target, count):
    """The rows (id, seed, cap, libc, kernel, sandbox) of target's `count`
    newest finished runs, newest first."""
    return conn.execute("SELECT id, seed, cap, libc, kernel, sandbox FROM runs WHERE target = ?"
                        " AND finished IS NOT NULL ORDER BY id DESC LIMIT ?",
                        (target, count)).fetchall()


def pins_shown(text, function=None):
    """The runs.pins text (harness/pins.h) as people read it:
    "fwrite.stream=FILE:NULL" (only function's pins, when given)."""
    return " ".join(pin.split("#", 1)[0] + "=" + pin.split("=", 1)[1] for pin in text.split()
                    if function in (None, pin.split(".", 1)[0]))
