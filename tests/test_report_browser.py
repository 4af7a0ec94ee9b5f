"""The report renders in a real headless browser (Debian's chromium) without
console messages, and a screenshot of it is taken: report/screenshot.png
beside the page, for a person to look at."""
import shutil
import subprocess

import pytest

from conftest import trebuchet

CHROMIUM = shutil.which("chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--enable-logging=stderr", "--v=0"]


def render(page, shot, profile):
    """Loads page, writes a screenshot; returns the browser's console lines."""
    result = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}",
                             "--window-size=1280,2400", f"--screenshot={shot}", page.as_uri()],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    return [line for line in result.stderr.splitlines() if ":CONSOLE" in line]


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is installed by `make test`")
def test_report_renders_without_console_messages(tmp_path):
    db, out = tmp_path / "b.db", tmp_path / "report"
    trebuchet("run", "--target", "stdio", "--functions", "fclose,fputs", "--db", db, "--quiet")
    trebuchet("run", "--target", "sfio", "--functions", "sfclose,sfputr", "--db", db, "--quiet")
    trebuchet("report", "--db", db, "--out", out)
    page = out / "index.html"
    for image in page.read_text().split('<img src="')[1:]:
        assert (out / image.split('"')[0]).is_file()

    assert render(page, out / "screenshot.png", tmp_path / "profile") == []
    assert (out / "screenshot.png").stat().st_size > 20000

    # the check can fail: a page that logs to the console is caught
    bad = tmp_path / "bad.html"
    bad.write_text("<p>x</p><script>console.error('broken')</script>")
    assert render(bad, tmp_path / "bad.png", tmp_path / "profile")
