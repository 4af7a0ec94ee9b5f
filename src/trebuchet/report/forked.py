"""A step of a report run in a child process while this one goes on: a
report has two cores to use and steps that need nothing of each other (the
Silent and Hindering judges beside the metrics; half the figures beside the
other half).  The child is forked, so it starts from this process's memory
as it is (specs read, data built); it must open its own stores (an SQLite
connection must not cross a fork) and sends back only its result."""
import os
import pickle

from trebuchet.core.errors import TrebuchetError


def start(step):
    """Runs step() in a child; returns a call that waits for its result (or
    raises what the step raised)."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: run, send, leave without this process's clean-ups
        os.close(read_end)
        try:
            try:
                outcome = (True, step())
            except BaseException as e:  # noqa: BLE001  (sent to the parent as it is)
                outcome = (False, e)
            with os.fdopen(write_end, "wb") as out:
                pickle.dump(outcome, out)
        finally:
            os._exit(0)
    os.close(write_end)

    def result():
        with os.fdopen(read_end, "rb") as got:
            data = got.read()
        _, status = os.waitpid(pid, 0)
        if not data:
            raise TrebuchetError(f"a report step's process ended without a result "
                                 f"(wait status {status})")
        ok, value = pickle.loads(data)
        if not ok:
            raise value
        return value
    return result
