"""`trebuchet findings`: a store's findings on a terminal or as JSON, from
the newest run of each target (latest_runs)."""
from dataclasses import asdict
from pathlib import Path

from trebuchet.findings import flaky, making
from trebuchet.harness.crash_sites import DEBUG_HINT

from trebuchet.report import metrics
from trebuchet.core import readable
from trebuchet.store import slow_cases
from trebuchet.store.runs import latest_runs


def summaries(conn, db, target=None):
    runs = latest_runs(conn)
    summaries = [metrics.summarize(conn, name, run, db) for name, run in sorted(runs.items())
                 if target in (None, name)]
    for t in summaries:
        t.undebugged = making.libraries_without_debug_info(conn, t.run)
    return summaries


def as_text(targets):
    lines = []
    for t in targets:
        rate = t.acceptable.rate if t.acceptable else None
        targeted = f", targeted: {t.info.targeted()}" if t.info.targeted() else ""
        lines.append(f"{t.target} (run {t.run}, {t.target_version}{targeted}): "
                     f"{t.findings_count}, {t.violations_count}; normalized failure rate (the mean"
                     f" of its functions') "
                     + (f"{rate:.2f}% over the cases of acceptable values, "
                        if rate is not None else "")
                     + f"{t.failure_rate:.2f}% over every case")
        for f in t.findings:
            misuse = f", {f.misuse_cases} misuse" if f.misuse_cases else ""
            lines.append(f"  #{f.id} {'VIOLATION ' if f.is_violation else ''}{f.title} "
                         f"[{', '.join(f.functions)}: {readable.plural(f.cases, 'case')}{misuse}]")
            if f.is_violation:
                lines.append(f"     breaks: {f.violation}")
            lines.append(f"     trigger: {f.trigger}")
            if f.cause is not None:
                lines.append(f"     needs: {f.cause or 'any values'}")
            if f.flaky:
                lines.append(f"     flaky: run {flaky.RERUNS} times more, it ended: {f.flaky}")
            if f.place:
                lines.append(f"     at: {f.place}")
            if f.last_words:
                lines.append(f"     last words: {f.last_words}")
            # the note as a shell comment: the line works pasted whole
            lines.append(f"     {t.repro_command(f.example_function, f.shown_case[0])}"
                         f"  # --emit-c DIR: a standalone C reproducer")
        lines += ["  note: " + DEBUG_HINT.format(name=Path(p).name, spec=t.info.target_arg)
                  for p in t.undebugged]
        if t.slow:
            lines.append(f"  {slow_cases.described(t.slow)}")
    return "\n".join(lines)


def as_json(targets):
    return [dict(target=t.target, run=t.run, library=t.target_version,
                 targeted=t.info.targeted() or None,
                 acceptable_failure_rate=t.acceptable.rate if t.acceptable else None,
                 failure_rate=t.failure_rate,
                 libraries_without_debug_info=t.undebugged,
                 slow=[asdict(c) for c in t.slow],
                 findings=[dict(asdict(f), violation=f.violation,
                                repro=t.repro_command(f.example_function, f.shown_case[0]))
                           for f in t.findings])
            for t in targets]
