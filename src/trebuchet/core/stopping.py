"""How a command stops when asked to: Ctrl-C (SIGINT, which the terminal
sends to every process of the job) and SIGTERM (sent to trebuchet alone, by
CI's cancel or `kill`) end it the same way.  SIGTERM is passed on to the
processes trebuchet started and is waiting for (the executor, Valgrind, a
survey's step), which store what they finished and stop, and then raised
here as Terminated, a KeyboardInterrupt, so every place that keeps what was
done on Ctrl-C keeps it on SIGTERM too; the command ends with 143 and the
line that resumes it, as with 130 on Ctrl-C.

Where what a process does is worth nothing unfinished (a case under
Valgrind, stored only when it ends), a command runs it in Processes and
ends them on a stop instead of waiting for them, so the stop takes effect
at once."""
import signal
import subprocess
import tempfile
import threading
from contextlib import contextmanager

_children = set()
_lock = threading.Lock()
_terminated = False


class Terminated(KeyboardInterrupt):
    """SIGTERM, taken as Ctrl-C is."""


def terminated():
    """Whether SIGTERM asked this process to stop."""
    return _terminated


def _on_term(signum, frame):
    global _terminated
    _terminated = True
    with _lock:
        waited_for = list(_children)
    for process in waited_for:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
    raise Terminated()


def install():
    """SIGTERM handled as above, for this process (the CLI's main thread)."""
    signal.signal(signal.SIGTERM, _on_term)


@contextmanager
def passed_on(process):
    """While in it, a SIGTERM to trebuchet goes to process too."""
    with _lock:
        _children.add(process)
    try:
        yield process
    finally:
        with _lock:
            _children.discard(process)


def run(argv, timeout=None, **popen):
    """subprocess.run(argv, capture_output=True, text=True, timeout=...) for
    one process a SIGTERM is passed on to; any thread may call it."""
    return Processes().run(argv, timeout, **popen)


class Processes:
    """Processes started by run(), from any thread, that end() kills: those
    running, and any started afterwards (by a thread that took its task
    before the stop)."""

    def __init__(self):
        self._running = set()
        self._ended = False

    def run(self, argv, timeout=None, **popen):
        """subprocess.run(argv, capture_output=True, text=True, timeout=...)
        for a process a SIGTERM is passed on to."""
        out = []
        done = self.run_lines(argv, lambda line, pid: out.append(line), timeout, **popen)
        return subprocess.CompletedProcess(argv, done.returncode, "".join(out), done.stderr)

    def run_lines(self, argv, each_line, timeout=None, **popen):
        """run(), but each line of the process's output goes to
        each_line(line, pid) as it is written, and is not kept; a timeout
        kills it and raises subprocess.TimeoutExpired."""
        with tempfile.TemporaryFile("w+") as err:
            process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=err, text=True,
                                       **popen)
            expired = threading.Event()
            timer = threading.Timer(timeout, lambda: (expired.set(), process.kill())) \
                if timeout else None
            with passed_on(process), self._held(process):
                try:
                    if timer:
                        timer.start()
                    for line in process.stdout:
                        each_line(line, process.pid)
                    process.wait()
                except BaseException:  # a timeout, Ctrl-C, SIGTERM: nothing is left running
                    process.kill()
                    process.wait()
                    raise
                finally:
                    if timer:
                        timer.cancel()
            if expired.is_set():
                raise subprocess.TimeoutExpired(argv, timeout)
            err.seek(0)
            return subprocess.CompletedProcess(argv, process.returncode, None, err.read())

    def end(self):
        """Kills them, and from now on each as it starts."""
        with _lock:
            self._ended = True
            running = list(self._running)
        for process in running:
            process.kill()

    @contextmanager
    def _held(self, process):
        with _lock:
            self._running.add(process)
            if self._ended:
                process.kill()
        try:
            yield
        finally:
            with _lock:
                self._running.discard(process)
