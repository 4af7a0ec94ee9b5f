"""The survey's page (survey.html), its text (survey.md) and numbers
(survey.json, with the bars the figure drew): the libraries
side by side, as Ballista set fifteen operating systems side by side, then
one section per library, its own survey.md (examples/<library>/) rendered
below its figures, linking its findings in the report.

Per library, from its newest finished run in the survey's store: the raw
normalized failure rate (ABORT + RESTART, the mean of its functions'
rates, as every rate here), the same over the cases whose values its
contract accepts, ABORT and RESTART apart, Corrupt over memcheck's sample,
its distinct findings and its contract violations.  The rows are sorted by
the raw rate, as Ballista's figure sorted its systems."""
import contextlib
import json
from dataclasses import dataclass
from pathlib import Path

import markdown
from markupsafe import Markup

from trebuchet.memcheck import corrupt
from trebuchet.report import html, metrics, writer as report
from trebuchet.store.runs import latest_runs
from trebuchet.store import database as store


@dataclass
class Row:
    name: str           # the survey folder's
    summary: metrics.TargetSummary
    memcheck: corrupt.Sample  # what memcheck judged of its run
    section: str        # the library's survey.md

    @property
    def corrupt_rate(self):
        """Over every case memcheck judged; None: none was."""
        return self.memcheck.all.rate if self.memcheck.all.function_count else None

    @property
    def corrupt_acceptable_rate(self):
        """Over the judged cases of acceptable values alone; None: none was."""
        a = self.memcheck.acceptable
        return a.rate if a.function_count else None

    @property
    def findings(self):
        return len(self.summary.findings)

    @property
    def violations(self):
        return len(self.summary.violations)

    @property
    def acceptable_rate(self):
        a = self.summary.acceptable
        return a.rate if a else None

    def as_dict(self):
        s = self.summary
        return dict(library=self.name, target=s.target, version=s.target_version, run=s.run,
                    functions=s.function_count, cases=s.cases, failure_rate=s.failure_rate,
                    abort_rate=s.abort_rate, restart_rate=s.restart_rate,
                    acceptable_failure_rate=self.acceptable_rate,
                    corrupt_rate=self.corrupt_rate, corrupt_cases=self.memcheck.all.count,
                    corrupt_checked=self.memcheck.all.judged,
                    corrupt_acceptable_rate=self.corrupt_acceptable_rate,
                    corrupt_acceptable_checked=self.memcheck.acceptable.judged,
                    findings=self.findings, acted_findings=len(s.acted_findings),
                    contract_violations=self.violations)


def rows(db, libraries):
    """[Row] of the libraries that have a finished run in db, by raw rate."""
    out = []
    with contextlib.closing(store.connect(db)) as conn:
        runs = latest_runs(conn)
        for m in libraries:
            target = m.target
            if target not in runs:
                continue
            out.append(Row(m.name, metrics.summarize(conn, target, runs[target], db),
                           corrupt.sample(conn, runs[target], target), m.section.read_text()))
    return sorted(out, key=lambda r: (-r.summary.failure_rate, r.name))


def figure(out, table):
    """Ballista's cross-system figure, for libraries: per library, its raw
    normalized rate (ABORT dark, RESTART hatched, stacked), the rate over
    acceptable values and the Corrupt rate as thinner bars below it."""
    from trebuchet.report import figures

    plt = figures.plt
    names = [r.name for r in table]
    fig, ax = plt.subplots(figsize=(7.5, 0.55 * len(table) + 1.4), layout="constrained")
    ys = range(len(table))
    aborts = [r.summary.abort_rate for r in table]
    restarts = [r.summary.restart_rate for r in table]
    acceptable = [r.acceptable_rate or 0.0 for r in table]
    corrupts = [r.corrupt_acceptable_rate or 0.0 for r in table]
    bars_abort = ax.barh([y - 0.2 for y in ys], aborts, height=0.36, label="ABORT", **figures.DARK)
    bars_restart = ax.barh([y - 0.2 for y in ys], restarts, height=0.36, left=aborts,
                           label="RESTART", **figures.LIGHT)
    bars_ok = ax.barh([y + 0.12 for y in ys], acceptable, height=0.2,
                      label="ABORT + RESTART over acceptable values", color="0.6",
                      edgecolor="black")
    bars_corrupt = ax.barh([y + 0.32 for y in ys], corrupts, height=0.2,
                           label="Corrupt over acceptable values (memcheck's sample)",
                           **figures.STUDY_BAR)
    ax.bar_label(bars_restart, labels=[f"{r.summary.failure_rate:.1f}" for r in table],
                 fontsize=7, padding=2)
    ax.bar_label(bars_ok, labels=["n/a" if r.acceptable_rate is None else
                                  f"{r.acceptable_rate:.1f}" for r in table], fontsize=6,
                 padding=2)
    ax.bar_label(bars_corrupt, labels=["none checked" if r.corrupt_acceptable_rate is None else
                                       f"{r.corrupt_acceptable_rate:.1f}" for r in table],
                 fontsize=6, padding=2)
    ax.set_yticks(list(ys), names)
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("normalized rate (%): the mean of the functions' rates")
    ax.set_title("the survey's libraries: normalized failure rates")
    # below the axes: over the bars it would hide a library's
    legend = fig.legend(fontsize=7, loc="outside lower center", ncol=2)
    files = figures._save(fig, out, "survey")
    width = lambda bars: [round(b.get_width(), 6) for b in bars]
    return dict(files=files, labels=names, title=ax.get_title(),
                legend=[t.get_text() for t in legend.get_texts()],
                bars={"ABORT": width(bars_abort), "RESTART": width(bars_restart),
                      "acceptable": width(bars_ok), "corrupt": width(bars_corrupt)})


def _rate(value):
    return "n/a" if value is None else html.pct(value)


TABLE_HEAD = ("| library | version | functions | cases | failure | over acceptable values | ABORT"
              " | RESTART | Corrupt (checked) | Corrupt over acceptable values (checked) | findings"
              " | contract violations |\n"
              "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")


def table_markdown(table):
    """The comparison as a Markdown table (survey.md, docs/survey.md)."""
    return TABLE_HEAD + "".join(
        f"| {r.name} | {r.summary.target_version} | {r.summary.function_count} |"
        f" {r.summary.cases} | {html.pct(r.summary.failure_rate)} | {_rate(r.acceptable_rate)} |"
        f" {html.pct(r.summary.abort_rate)} | {html.pct(r.summary.restart_rate)} |"
        f" {_rate(r.corrupt_rate)} ({r.memcheck.all.judged}) |"
        f" {_rate(r.corrupt_acceptable_rate)} ({r.memcheck.acceptable.judged}) | {r.findings} |"
        f" {r.violations} |\n" for r in table)


INTRODUCTION = """\
Each library below was run through the same campaign (`make survey`:
`trebuchet survey`): the same dictionary of exceptional values, cap and
seed for all, its own datatypes adding only what its documentation
describes. Rates are normalized (the mean of the functions' rates).
"Over acceptable values" counts the cases whose every value the library's
contract accepts; Corrupt is over a sample of PASS cases run again under
Valgrind's memcheck (the number checked in brackets), and over acceptable
values of those cases alone (a use of a handle the caller freed is the
caller's error). A contract violation is a finding whose cases break a
promise the documentation makes; each is written up in its library's
section, with the promise, the smallest case, a standalone reproducer and
what upstream knows of it. The sections are each library's write-up, made
from a run of its own: their figures may differ a little from the table's.

How far to read it: the contract violations are a lower bound, since a
function with more cases than the cap is sampled and a violation in cases
not drawn is not counted; a Corrupt rate of 0 over a few dozen cases
bounds the true rate only loosely; and which values are acceptable is each
spec's reading of its library's documentation, written down beside the
value. The raw rates are driven mostly by misuse values (wild, freed and
garbage pointers), so their order ranks no library by how it keeps its
word: the rates over acceptable values and the violations do that.
"""


def text(table):
    """survey.md: the comparison, then each library's section as written."""
    return (f"# A survey of {len(table)} C libraries\n\n{INTRODUCTION}\n"
            + table_markdown(table) + "\n"
            + "\n".join(r.section.rstrip() + "\n" for r in table))


def write(db, out, libraries):
    """Writes the report of the survey's store into out, and its page
    survey.html and text survey.md beside index.html; returns survey.html."""
    out = Path(out)
    report.write([db], out)
    table = rows(db, libraries)
    drawn = figure(out, table) if table else None
    sections = [(r, Markup(markdown.markdown(r.section, extensions=["tables"]))) for r in table]
    runs = [html.RunRow(r.summary.info, r.summary.db) for r in table]
    page = html._env().get_template("survey.html.j2").render(
        table=table, libraries=len(table), sections=sections, figure=drawn, runs=runs,
        version=report.VERSION,
        missing=[m.name for m in libraries if m.name not in {r.name for r in table}])
    (out / "survey.html").write_text(page)
    (out / "survey.json").write_text(json.dumps(
        dict(libraries=[r.as_dict() for r in table], figure=drawn), indent=1, sort_keys=True))
    (out / "survey.md").write_text(text(table))
    return out / "survey.html"
