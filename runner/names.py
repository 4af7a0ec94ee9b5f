"""Signal and errno numbers as people read them (SIGSEGV, EBADF), in the
CLI's lines and the reports alike; a number with no name stays a number."""
import errno
import signal


def signal_name(number):
    try:
        return signal.Signals(int(number)).name
    except ValueError:
        return f"signal {number}"


def errno_name(number):
    return errno.errorcode.get(number, str(number)) if number else "0"
