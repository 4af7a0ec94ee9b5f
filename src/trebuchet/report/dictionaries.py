"""The study's targets under each dictionary, side by side: SFIO's and
STDIO's normalized ABORT rates and STDIO over SFIO across the equivalent
pairs, from the newest finished run of sfio and of stdio in each dictionary
(ours, the default; Ballista's, `run --dictionary ballista`), with the
study's figures beside them.  Numbers come from metrics' summaries."""
import statistics
from dataclasses import dataclass
from typing import Optional

from trebuchet.report import metrics
from trebuchet.core import rates
from trebuchet.store.runs import newest_by_dictionary

ORDER = ("ours", "ballista")  # datatypes/dictionary.h


@dataclass
class DictionaryColumn:
    """The study's measures under one dictionary."""
    dictionary: str
    sfio: Optional[metrics.TargetSummary]
    stdio: Optional[metrics.TargetSummary]
    pairs: list  # [metrics.Pair]: an sfio function, its stdio equivalent

    @property
    def sfio_functions(self):
        return len(self.sfio.functions) if self.sfio else 0

    @property
    def stdio_functions(self):
        return len(self.stdio.functions) if self.stdio else 0

    @property
    def pair_count(self):
        return len(self.pairs)

    @property
    def sfio_abort(self):
        return self.sfio.abort_rate if self.sfio else None

    @property
    def stdio_abort(self):
        return self.stdio.abort_rate if self.stdio else None

    @property
    def pair_aborts(self):
        """(SFIO's, STDIO's) normalized ABORT over the paired functions only."""
        if not self.pairs:
            return None
        return (rates.mean([p.left.abort_rate for p in self.pairs]),
                rates.mean([p.right.abort_rate for p in self.pairs]))

    @property
    def ratio(self):
        """STDIO's normalized ABORT over SFIO's, across the pairs."""
        aborts = self.pair_aborts
        return aborts[1] / aborts[0] if aborts and aborts[0] else None

    @property
    def factors(self):
        """(median, lowest, highest) of STDIO's failure rate over SFIO's per
        pair, where SFIO fails at all (the study's "factor of 3 to 10")."""
        each = sorted(p.right.failure_rate / p.left.failure_rate for p in self.pairs
                      if p.left.failure_rate > 0)
        return (statistics.median(each), each[0], each[-1]) if each else None

    def as_dict(self):
        aborts = self.pair_aborts
        return dict(dictionary=self.dictionary,
                    sfio_run=self.sfio.run if self.sfio else None,
                    stdio_run=self.stdio.run if self.stdio else None,
                    sfio_functions=self.sfio_functions, stdio_functions=self.stdio_functions,
                    sfio_abort_rate=self.sfio_abort, stdio_abort_rate=self.stdio_abort,
                    pairs=self.pair_count,
                    pairs_sfio_abort_rate=aborts and aborts[0],
                    pairs_stdio_abort_rate=aborts and aborts[1],
                    stdio_over_sfio=self.ratio,
                    pair_factors=self.factors)


def side_by_side(sources, equivalents_of, summarized=()):
    """[DictionaryColumn], one per dictionary holding a run of sfio or stdio;
    sources: [(conn, db path)], a later store winning as in the report;
    summarized: TargetSummaries already made (the report's body), reused."""
    done = {(s.db, s.run): s for s in summarized}
    chosen = {}
    for conn, db in sources:
        for (target, dictionary), run in newest_by_dictionary(conn).items():
            if target in ("sfio", "stdio"):
                chosen[target, dictionary] = (conn, db, run)
    columns = []
    for dictionary in sorted({d for _, d in chosen}, key=lambda d: (d not in ORDER, ORDER.index(d)
                                                                    if d in ORDER else 0, d)):
        sides = {t: done.get((str(db), run)) or metrics.summarize(c, t, run, db)
                 for (t, d), (c, db, run) in chosen.items() if d == dictionary}
        sfio, stdio = sides.get("sfio"), sides.get("stdio")
        pairs = metrics.pairs(sfio, stdio, equivalents_of("sfio")) if sfio and stdio else []
        columns.append(DictionaryColumn(dictionary, sfio, stdio, pairs))
    return columns
