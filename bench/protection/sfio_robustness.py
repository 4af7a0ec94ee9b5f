"""What each protection scheme buys SFIO in robustness: from a store holding
Ballista campaigns (`trebuchet run --target T --dictionary D --cap N`) of
sfio and of the targets that put it behind a scheme (robust_sfio,
sfio_guarded, sfio_proxy, sfio_proxy_usercopy), each target's normalized
ABORT and RESTART rates (the unweighted mean of its functions' rates, cases
that could not be set up left out, as docs/architecture.md defines them),
and what became of the cases that killed plain SFIO: still an ABORT or a
RESTART, or a return, by errno (EFAULT: the guard or the kernel's copy,
EBADF: refused, ECONNRESET: the server died).  The newest finished run of
each target and dictionary is read.

    python3 bench/protection/sfio_robustness.py STORE
"""
import errno
import sqlite3
import sys

TARGETS = ("sfio", "robust_sfio", "sfio_guarded", "sfio_proxy", "sfio_proxy_usercopy")


def newest_runs(db):
    rows = db.execute("select target, dictionary, max(id) from runs where finished is not null"
                      " group by target, dictionary").fetchall()
    return {(t, d): run for t, d, run in rows}


def normalized(db, run, outcome):
    rates = db.execute(
        "select 1.0 * sum(outcome = ?) / sum(outcome != 'SETUP') from results where run_id = ?"
        " group by function having sum(outcome != 'SETUP') > 0", (outcome, run)).fetchall()
    return 100 * sum(r for r, in rates) / len(rates)


def fates(db, plain, run):
    """What the cases that ended in ABORT on plain SFIO became in run."""
    rows = db.execute(
        "select p.outcome, p.errno, count(*) from results s join results p"
        " on p.function = s.function and p.case_index = s.case_index"
        " where s.run_id = ? and p.run_id = ? and s.outcome = 'ABORT'"
        " group by p.outcome, p.errno order by count(*) desc", (plain, run)).fetchall()
    return ", ".join(f"{o if o != 'PASS' else errno.errorcode.get(e, e) if e else 'success'} {n}"
                     for o, e, n in rows)


def main():
    db = sqlite3.connect(sys.argv[1])
    runs = newest_runs(db)
    print("dictionary\ttarget\tcases\tABORT %\tRESTART %\tplain SFIO's ABORT cases became")
    for dictionary in ("ours", "ballista"):
        plain = runs.get(("sfio", dictionary))
        for target in TARGETS:
            run = runs.get((target, dictionary))
            if run is None:
                continue
            cases, = db.execute("select count(*) from results where run_id = ? and outcome != 'SETUP'",
                                (run,)).fetchone()
            print(f"{dictionary}\t{target}\t{cases}\t{normalized(db, run, 'ABORT'):.2f}"
                  f"\t{normalized(db, run, 'RESTART'):.2f}\t{fates(db, plain, run) if plain else ''}")


if __name__ == "__main__":
    main()
