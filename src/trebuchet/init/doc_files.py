"""A documentation file given with `--docs` or found in the manual, read as
text whether gzip'd or not, and told apart: a manual page (groff) or a
plain-text reference."""
import gzip
from pathlib import Path

from trebuchet.core.errors import TrebuchetError


def read(path):
    path = Path(path)
    try:
        raw = path.read_bytes()
        if path.suffix == ".gz":
            raw = gzip.decompress(raw)
    except (OSError, EOFError, gzip.BadGzipFile) as e:
        raise TrebuchetError(f"cannot read it: {getattr(e, 'strerror', None) or e}", path) from None
    return raw.decode("utf-8", "replace")


def is_manual_page(text):
    """groff: a request among its first lines (.TH, .Dd, .so, a comment)."""
    return any(line.startswith((".TH", ".Dd", ".so ", ".\\\"", "'\\\""))
               for line in text.split("\n", 40)[:40])
