"""The signature rule (src/trebuchet/findings/signature.py) against its corpus,
tests/data/signatures/: failing cases written by hand, each with the
signature and title expected of it and why."""
import json
from pathlib import Path

import pytest

from trebuchet.findings import signature as findings
from trebuchet.harness import crash_sites as symbolize

CORPUS = Path(__file__).parent / "data/signatures"


def frame(text):
    """"function@module@file:line" (an unnamed one: "@module+0xOFF@")."""
    function, module, place = text.split("@")
    if not function:
        module, offset = symbolize.parse(module)
        return symbolize.Frame(module, offset)
    file, _, line = place.rpartition(":")
    return symbolize.Frame(module, 0, function, file or None, int(line) if line else None)


@pytest.mark.parametrize("path", sorted(CORPUS.glob("*.json")), ids=lambda p: p.stem)
def test_signature(path):
    entry = json.loads(path.read_text())
    c = entry["case"]
    site = c.get("site")
    case = findings.Case(function="df_quit", index=0, values=[], outcome=c["outcome"],
                         signal=c.get("signal"), exit_status=c.get("exit_status"),
                         stderr=c.get("stderr"), site=site,
                         frames=[frame(f) for f in site["frames"]] if site else [])
    made = findings.crash_finding(case, findings._Modules(entry["library"]))
    assert (made.signature, made.title) == (entry["signature"], entry["title"]), entry["why"]
