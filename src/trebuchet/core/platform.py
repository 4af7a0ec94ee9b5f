"""The platform a run's outcomes belong to: the C library the executor ran
on and its version, the kernel, and the sandbox level.  What a case does with
freed memory or a closed stream legitimately differs from one C library
version to the next (where a freed block's bytes land is the allocator's
business), so two runs from different platforms may differ in such cases
with nothing wrong on either side.  `compare` and the gate say so in one
line, a note and never a verdict; the report's runs table shows each run's."""

KEYS = ("libc", "kernel", "sandbox")


def of(info):
    """{libc, kernel, sandbox} of a run (RunInfo or a run's row)."""
    get = info.get if isinstance(info, dict) else lambda k: getattr(info, k, None)
    return {k: get(k) for k in KEYS}


def difference(before, after, names=("the first", "the second")):
    """One line when two platforms differ (in what both record), else None."""
    differ = [f"{k} {before[k]} in {names[0]}, {after[k]} in {names[1]}"
              for k in KEYS if before.get(k) and after.get(k) and before[k] != after[k]]
    if not differ:
        return None
    return ("different platforms: " + "; ".join(differ)
            + " (outcomes on freed memory may legitimately differ between them)")
