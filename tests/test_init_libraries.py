"""`trebuchet init` on real libraries no spec here was written from (Debian's
bzip2 and LZ4, `make test` installs their -dev packages): each draft runs
as written, every drafted function runs, and the handle types the headers
hide are found with a constructor and a destructor.  Capped at a few cases
a function, so that it takes seconds."""
import sqlite3

import pytest

from conftest import trebuchet

LIBRARIES = {
    # library: (headers, functions drafted, handle types with constructor and destructor)
    "libbz2.so.1.0": (["/usr/include/bzlib.h"], 24, {"BZFILE"}),
    "liblz4.so.1": (["/usr/include/lz4.h", "/usr/include/lz4frame.h", "/usr/include/lz4hc.h"],
                    91, {"LZ4_stream_t", "LZ4_streamDecode_t", "LZ4_streamHC_t", "LZ4F_cctx",
                         "LZ4F_dctx"}),
}


@pytest.mark.parametrize("library", sorted(LIBRARIES))
def test_draft_runs_as_written(tmp_path, library):
    headers, functions, handles = LIBRARIES[library]
    said = trebuchet("init", *headers, "--library", library, "--out", tmp_path).stdout
    both = (f"{len(handles)} handle type{'s' if len(handles) != 1 else ''}, {len(handles)} with a"
            f" constructor and a destructor")
    assert f"drafted {functions} of {functions} functions" in said and both in said, said
    [spec] = tmp_path.glob("*.yaml")
    text = spec.read_text()
    for handle in handles:
        assert f"# Handle {handle}: made by " in text
        assert "freed by nothing found" not in text
    db = tmp_path / "t.db"
    trebuchet("run", "--target", spec, "--db", db, "--cap", "4", "--quiet")
    conn = sqlite3.connect(db)
    ran = conn.execute("SELECT count(DISTINCT function) FROM results"
                       " WHERE outcome != 'SETUP'").fetchone()[0]
    assert ran == functions
    # each handle made by the library's first constructor is freed by its destructor
    for handle in handles:
        line = next(l for l in text.splitlines() if l.startswith(f"# Handle {handle}: "))
        made, freed = line.split("made by ")[1].split("; freed by ")
        said = trebuchet("repro", "--target", spec, "--function", freed, "--values",
                         f"{handle}:{made.split(', ')[0].upper()}").stdout
        assert "PASS" in said, said
