"""The same outcome wherever and however a campaign runs: a case's outcome,
signal, exit status, errno and error flag do not depend on the folder the
plugins and the store are in (the checkout's, a short one of 16 bytes or
less, a long one) nor on --jobs.  The campaigns hold the values whose fate
hangs on the memory a test process inherits: freed blocks, closed and
released streams and libxml2 objects, whose cases followed the heap the
plugin's path left (harness/world.c, tb_world_memory), and fwrite on a
MEMSTREAM, whose cases crashed or not with the number of slots a fork
server had (harness/forkserver.c)."""
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from conftest import ROOT, outcomes, trebuchet

# {name: (target, options)}
CAMPAIGNS = {
    "stdio": ("stdio", ["--cap", "100"]),
    # fwrite on MEMSTREAM alone (seed 7): cases 7366, 7996 and 14317 among them
    "fwrite on MEMSTREAM": ("stdio", ["--cap", "200", "--pin", "fwrite.stream=MEMSTREAM",
                                      "--seed", "7"]),
    # the functions that read freed and closed streams (sfseek's endless
    # seeks left out: each costs its timeout)
    "sfio": ("sfio", ["--functions", "sfpopen,sfgetc,sfclose,sfread,sfswap",
                      "--cap", "300", "--timeout", "1"]),
    # a survey library's released objects and freed strings: 14 of
    # xmlReaderForMemory's 400 cases followed the folder
    "libxml2": (ROOT / "examples" / "libxml2" / "libxml2.yaml",
                ["--functions", "xmlReaderForMemory,xmlStrcat,xmlFreeDoc,xmlFreeNode,"
                 "xmlBufferFree,xmlFreeTextReader,xmlTextReaderRead", "--cap", "400"]),
}
# (place, --jobs): every place and every --jobs at least once; the first is
# what the others are compared with
RUNS = [("checkout", 1), ("short", 4), ("long", 2), ("checkout", 4)]
# At full size, by hand (minutes, not part of make test): each campaign at
# its default cap, and a second survey library's whole campaign, at every
# place with --jobs 1, 2 and 4.
#     TREBUCHET_FULL_SIZE=1 .venv/bin/pytest -s tests/test_same_outcome_anywhere.py
if os.environ.get("TREBUCHET_FULL_SIZE"):
    CAMPAIGNS = {name: (target, [o for i, o in enumerate(options)
                                 if o != "--cap" and (i == 0 or options[i - 1] != "--cap")])
                 for name, (target, options) in CAMPAIGNS.items()}
    CAMPAIGNS["zlib"] = (ROOT / "examples" / "zlib" / "zlib.yaml", [])
    RUNS = [(place, jobs) for place in ("checkout", "short", "long") for jobs in (1, 2, 4)]


@pytest.fixture
def places(tmp_path):
    """{place: build folder (None: the checkout's own build/), store folder}.
    The short and long folders have fixed lengths (15 and 122 bytes), at
    which, before the heap was made the same, outcomes differed from the
    checkout's (sfpopen case 2933; libxml2's xmlReaderForMemory)."""
    short = Path(tempfile.mkdtemp(prefix="tb", dir="/tmp"))
    long = Path(tempfile.mkdtemp(prefix=("a-checkout-somewhere-with-a-long-name-" * 3)[:109],
                                 dir="/tmp"))
    assert (len(str(short)), len(str(long))) == (15, 122)
    yield {"checkout": (None, tmp_path), "short": (short / "b", short),
           "long": (long / "trebuchet" / "build", long)}
    shutil.rmtree(short)
    shutil.rmtree(long)


def test_outcomes_do_not_depend_on_the_folder_nor_on_jobs(places):
    report, differing = [], {}
    for name, (target, options) in CAMPAIGNS.items():
        runs = {}
        for place, jobs in RUNS:
            build, folder = places[place]
            db = folder / f"{name.split()[0]}-{jobs}.db"
            trebuchet("run", "--target", target, *options, "--jobs", jobs, "--db", db,
                      "--quiet", *(["--build-dir", build] if build else []))
            runs[place, jobs] = outcomes(db)
        expected = runs[RUNS[0]]
        # what makes it a strong test: misuse values are there, and crash
        assert sum(v[0] == "ABORT" for v in expected.values()) > 50, name
        for run, got in runs.items():
            assert got.keys() == expected.keys(), (name, run)
            diff = sorted(k for k in expected if got[k] != expected[k])
            report.append(f"{name} at {run[0]} --jobs {run[1]}: {len(expected)} cases,"
                          f" {len(diff)} differ from {RUNS[0][0]} --jobs {RUNS[0][1]}")
            if diff:
                differing[name, run] = [(k, expected[k], got[k]) for k in diff[:3]]
    print("\n" + "\n".join(report))
    assert not differing, differing
