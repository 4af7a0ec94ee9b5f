"""Text files a user hands trebuchet (specs, values files, headers), read as
UTF-8.  A file that is not is bad input, one line naming the file and the
line of the first byte that is not, never a traceback; a path that is not
UTF-8 is shown with its bytes escaped (Python's surrogateescape, \\udcff
for the byte 0xff)."""
from trebuchet.core.errors import TrebuchetError


def read_text(path):
    data = open(path, "rb").read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        column = e.start - data.rfind(b"\n", 0, e.start)
        raise TrebuchetError(f"not UTF-8 text: byte {data[e.start]:#04x} at column {column}",
                             path, data.count(b"\n", 0, e.start) + 1) from None
