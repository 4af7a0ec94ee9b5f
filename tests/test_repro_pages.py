"""The `trebuchet repro` commands a report prints are the ones a user
copies: run from a plain shell (not the run's environment), each must give
the outcome and signal the store holds for its case."""
import html
import json
import random
import re
import shlex

from conftest import query, trebuchet

COMMAND = re.compile(r"trebuchet repro --target \S+ --function \S+ --case \d+")


def test_twenty_random_repro_commands_from_the_pages_reproduce_the_store(tmp_path):
    db, out = tmp_path / "r.db", tmp_path / "report"
    trebuchet("run", "--target", "stdio", "--functions", "fseek,rewind,fclose,fwrite,fgets",
              "--cap", "300", "--db", db, "--quiet", env={"MAKEFLAGS": "-j2", "MAKELEVEL": "1"})
    trebuchet("run", "--target", "sfio", "--functions", "sfpopen,sfseek,sfgetc", "--cap", "300",
              "--db", db, "--quiet")
    trebuchet("report", "--db", db, "--out", out)
    commands = sorted({html.unescape(c) for page in out.glob("*.html")
                       for c in COMMAND.findall(page.read_text())})
    assert len(commands) >= 20
    for command in random.Random(9).sample(commands, 20):
        args = shlex.split(command)[1:]
        target, function, case = args[2], args[4], int(args[6])
        stored = query(db, "SELECT r.outcome, r.signal FROM results r JOIN runs u ON u.id = r.run_id"
                           " WHERE u.target = ? AND r.function = ? AND r.case_index = ?",
                       target, function, case)
        # from another directory, with an environment of its own
        got = json.loads(trebuchet(*args, "--json", cwd=tmp_path, env={"A": "1", "B": "2"}).stdout)
        assert [(got["outcome"], got["signal"])] == stored, command
