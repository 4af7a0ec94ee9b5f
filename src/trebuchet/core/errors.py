"""The one exception type the CLI turns into a one-line message and exit code 2."""
from trebuchet.core.exitcodes import Exit


class TrebuchetError(Exception):
    """Bad input or an unusable environment: a message for the user, not a traceback."""

    exit_code = Exit.INPUT

    def __init__(self, message, path=None, line=None):
        where = ""
        if path is not None:
            where = f"{path}:{line}: " if line else f"{path}: "
        super().__init__(where + message)


class HarnessError(TrebuchetError):
    """The harness itself failed (an executor died, the store broke): exit
    code 3, so that a gate's 1 only ever means "regressed"."""

    exit_code = Exit.HARNESS
