"""trebuchet's exit codes: the one table every command and trebuchet-exec
(harness/main.c, which uses the same numbers) answer with."""
import enum


class Exit(enum.IntEnum):
    OK = 0           # done; for compare and gate: nothing got worse
    REGRESSED = 1    # the gate failed, or compare found new failures
    INPUT = 2        # usage or input error: a one-line message names the file and line
    HARNESS = 3      # the harness itself failed (a fork server died, the store broke)
    INTERRUPTED = 130  # stopped by Ctrl-C; `trebuchet run --resume` finishes the run
    TERMINATED = 143   # stopped by SIGTERM, as by Ctrl-C (core/stopping.py)
