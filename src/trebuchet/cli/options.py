"""What the commands share: the options several of them take, each declared
once here (its flag, type, choices and default; a command may say its own
help), the argument types that turn bad values into one-line errors, and
the small helpers every handler uses to write and to say."""
import argparse
import functools
import os
import re
import sqlite3
import sys
from dataclasses import dataclass, field

from trebuchet.core.errors import HarnessError, TrebuchetError
from trebuchet.core.exitcodes import Exit
from trebuchet.harness import sanitizers
from trebuchet.store.database import IncompleteStore

DICTIONARIES = ("ours", "ballista")  # datatypes/dictionary.h
# the largest number a store keeps as it is (SQLite's INTEGER): a cap, seed
# or run id past it would come back negative
STORED_MAX = (1 << 63) - 1


class Parser(argparse.ArgumentParser):
    """Usage errors in one line, as every input error (the usage is --help's)."""

    def error(self, message):
        print(f"trebuchet: {message} (see `{self.prog} --help`)", file=sys.stderr)
        sys.exit(Exit.INPUT)


def bounded(kind, low, high=None, low_open=False):
    """An argparse type: a number of kind in [low, high] ((low, high] when
    low_open), else a one-line error saying what is wanted.  A high of
    STORED_MAX is said only to a number past it: no one means a cap that large."""
    def convert(text):
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is not None and high == STORED_MAX and value > high:
            raise argparse.ArgumentTypeError(f"wants a number at most {high}, what a store"
                                             f" keeps, not '{text}'")
        if value is None or (value <= low if low_open else value < low) or \
                (high is not None and value > high):
            wanted = f"above {low}" if low_open else f"at least {low}"
            wanted += f" and at most {high}" if high not in (None, STORED_MAX) else ""
            raise argparse.ArgumentTypeError(f"wants a {'whole ' if kind is int else ''}"
                                             f"number {wanted}, not '{text}'")
        return value
    return convert


def target_name(text):
    """A target's name as the schema has it (^[a-z][a-z0-9_]*$)."""
    if not re.fullmatch(r"[a-z][a-z0-9_]*", text):
        raise argparse.ArgumentTypeError(f"{text!r}: lower-case letters, digits and _, from a"
                                         f" letter")
    return text


def names(known):
    """An argparse type: a comma-separated selection from known, in known's
    order, each once."""
    def convert(text):
        chosen = [n for n in text.split(",") if n]
        unknown = [n for n in chosen if n not in known]
        if unknown or not chosen:
            raise argparse.ArgumentTypeError(
                f"wants some of {','.join(known)}, not '{','.join(unknown) or text}'")
        return [n for n in known if n in chosen]
    return convert


def blocks(text):
    """An argparse type: comma-separated block sizes in bytes, each 1 to 16 MiB."""
    sizes = []
    for part in text.split(","):
        if not part.isdigit() or not 1 <= int(part) <= 1 << 24:
            raise argparse.ArgumentTypeError(
                f"wants block sizes in bytes (1 to {1 << 24}), comma-separated, not '{text}'")
        sizes.append(int(part))
    return list(dict.fromkeys(sizes))


def shard(text):
    """An argparse type: K/N with 1 <= K <= N, kept as the text."""
    k, _, n = text.partition("/")
    if not (k.isdigit() and n.isdigit() and 1 <= int(k) <= int(n)):
        raise argparse.ArgumentTypeError(f"wants K/N with 1 <= K <= N, not '{text}'")
    return f"{int(k)}/{int(n)}"


@dataclass(frozen=True)
class Option:
    """One option as several commands take it; add() puts it on a command,
    whose own words (help, metavar, required) override the shared ones."""
    flag: str
    settings: dict = field(default_factory=dict)

    def add(self, parser, **own):
        return parser.add_argument(self.flag, **{**self.settings, **own})


DB = Option("--db", dict(default="trebuchet.db", help="the store (default ./trebuchet.db)"))
DBS = Option("--db", dict(action="append", help="a store (repeat for several; default"
                                                " ./trebuchet.db)"))
TARGET = Option("--target")
FUNCTIONS = Option("--functions", dict(help="comma-separated functions (default: all)"))
SEED = Option("--seed", dict(type=bounded(int, 0, STORED_MAX)))
JOBS = Option("--jobs", dict(type=bounded(int, 1, 256)))
TIMEOUT = Option("--timeout", dict(type=bounded(float, 0, 3600, low_open=True)))
DICTIONARY = Option("--dictionary", dict(choices=DICTIONARIES))
SANITIZER = Option("--sanitizer", dict(choices=sanitizers.NAMES))
QUIET = Option("--quiet", dict(action="store_true"))
JSON = Option("--json", dict(action="store_true"))
OUT = Option("--out")


def target_of(text):
    """--target of a command that reads a store: a target's name, or the path
    of its spec, as `run` and `baseline` take it, read as the spec's name."""
    from trebuchet.spec import load as specs

    if text and specs.names_a_file(text):
        return specs.load(specs.find_spec(text)).target
    return text


def split(text):
    """A comma-separated option's names, or None when not given."""
    return [s for s in text.split(",") if s] if text else None


def write_failed(path, error):
    """The one line an output that could not be written gets once the work is
    done; the command's exit code says the rest."""
    print(f"trebuchet: {path}: not written: {getattr(error, 'strerror', None) or error}",
          file=sys.stderr)


def say(text):
    """Prints a verdict's text.  A reader gone early (`| head`) changes no
    exit code: the rest goes to /dev/null."""
    try:
        print(text, flush=True)
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def never_one(command):
    """For baseline and gate, whose exit 1 CI reads as "robustness
    regressed": an error no check foresaw is a harness error (3) in one
    line, never Python's traceback and 1."""
    @functools.wraps(command)
    def guarded(args):
        try:
            return command(args)
        except IncompleteStore as e:
            raise HarnessError(f"the store is broken (no such table {', '.join(e.missing)})",
                               args.db) from None
        except (TrebuchetError, KeyboardInterrupt, BrokenPipeError):
            raise
        except sqlite3.DatabaseError as e:
            raise HarnessError(f"the store is broken ({e})", args.db) from None
        except Exception as e:
            raise HarnessError(f"stopped by an error of trebuchet itself, so there is no "
                               f"verdict: {type(e).__name__}: {e}") from None
    return guarded
