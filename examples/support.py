"""`make examples-support`: the support/ folder of each reproducer kept under
examples/<library>/findings/, written again from trebuchet's own files as
`trebuchet repro --emit-c` writes it (src/trebuchet/run/emit_c.py,
write_support).  Only repro.c and the Makefile are kept in git: support/
holds copies of the datatypes, the reproducer's templates and the target's
headers, which would otherwise be committed once per reproducer and go
stale whenever the originals change.

    python examples/support.py [FOLDER...]   (default: every reproducer)

Each support/ is removed and written whole, so a second run changes nothing."""
import re
import shutil
import sys
from pathlib import Path

from trebuchet.core.errors import TrebuchetError
from trebuchet.run import emit_c
from trebuchet.spec import load as specs

EXAMPLES = Path(__file__).resolve().parent
# the command repro.c's header says made it names its spec as the
# checkout's root does (emit_c._as_named)
TARGET = re.compile(r"`trebuchet repro --target (\S+) ")


def reproducers():
    """Every reproducer folder kept under examples/."""
    return sorted(p.parent for p in EXAMPLES.glob("*/findings/*/repro.c"))


def spec_of(repro_c):
    """The spec a repro.c was written for, as its header names it."""
    named = TARGET.search(repro_c)
    if not named:
        raise TrebuchetError("repro.c names no `trebuchet repro --target`")
    target = named[1]
    if specs.names_a_file(target):  # from the checkout's root, which holds examples/
        target = str(EXAMPLES.parent / target)
    return specs.load(specs.find_spec(target))


def generate(folder):
    """Writes the support/ of the reproducer in folder, replacing what
    support/ held."""
    repro_c = (folder / "repro.c").read_text()
    shutil.rmtree(folder / "support", ignore_errors=True)
    emit_c.write_support(spec_of(repro_c), repro_c, folder)


def main(folders):
    for folder in folders or reproducers():
        try:
            generate(Path(folder))
        except (TrebuchetError, OSError) as e:  # a one-line message, as the CLI gives
            sys.exit(f"{folder}: {e}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
