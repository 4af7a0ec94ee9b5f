"""Signal and errno numbers as people read them (SIGSEGV, EBADF), in the
CLI's lines and the reports alike; a number with no name stays a number."""
import errno
import re
import signal


def signal_name(number):
    try:
        return signal.Signals(int(number)).name
    except ValueError:
        return f"signal {number}"


def errno_name(number):
    return errno.errorcode.get(number, str(number)) if number else "0"


def stderr_text(data):
    """What a test process wrote to stderr (bytes, as stored), as text:
    UTF-8, with U+FFFD for a byte that is not; None for nothing."""
    return data.decode("utf-8", "replace") if data else None


def outcome_brief(outcome, signal=None, exit_status=None, errno=None):
    """An outcome in a few words: "ABORT SIGSEGV", "ABORT exit 3", "PASS errno
    EBADF" (when errno is given), "RESTART".  A signal of None or -1 is none."""
    if outcome == "ABORT":
        if signal is not None and signal >= 0:
            return f"ABORT {signal_name(signal)}"
        return f"ABORT exit {exit_status}"
    if outcome == "PASS" and errno is not None:
        return f"PASS errno {errno_name(errno)}"
    return outcome


def setup_why(setup_errno=None, setup_reason=None, signal=None):
    """Why a SETUP case's value could not be built, as the store keeps it:
    "the lock file x is held (EACCES)", "errno ENOENT", "its setup died of
    SIGSEGV"; a setup that hung was killed, by SIGKILL or SIGXCPU."""
    if signal is not None and signal >= 0:
        how = "hung" if signal in (9, 24) else f"died of {signal_name(signal)}"
        return f"its setup {how}"
    said = f"errno {errno_name(setup_errno)}" if setup_errno else ""
    if setup_reason:
        return f"{setup_reason} ({said})" if said else setup_reason
    return said or "its setup gave no reason"


# A sanitizer's "==PID==ABORTING", after its SUMMARY line: nobody's last words.
_CLOSING = re.compile(r"^==\d+==ABORTING$")


def last_line(text):
    """The last line of a text that is not blank, stripped, and not a
    sanitizer's closing line; '' for none."""
    lines = [line.strip() for line in (text or "").splitlines()
             if line.strip() and not _CLOSING.match(line.strip())]
    return lines[-1] if lines else ""


def plural(count, word):
    """"1 finding", "2 findings"."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"
