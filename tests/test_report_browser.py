"""The report as a browser has it (Debian's chromium, headless): the page
renders without console messages and a screenshot is taken
(report/screenshot.png beside the page, for a person to look at); the
rendered DOM of a drill-down page names its failing cases' values; the
rendered SVG of figure (a) labels each pair once and its legend names
exactly sfio and stdio; nothing anywhere is a Python repr."""
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest

from conftest import trebuchet

CHROMIUM = shutil.which("chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--enable-logging=stderr", "--v=0"]
REPR = ("<built-in", "object at 0x", "<bound method", "<function ")
SVG = "{http://www.w3.org/2000/svg}"

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is installed by `make test`")


def browse(page, profile, *args):
    """Loads page in chromium; returns the CompletedProcess."""
    result = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *args, page.as_uri()],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    return result


def render(page, shot, profile):
    """Loads page, writes a screenshot; returns the browser's console lines."""
    result = browse(page, profile, "--window-size=1280,2400", f"--screenshot={shot}")
    return [line for line in result.stderr.splitlines() if ":CONSOLE" in line]


def dom(page, profile):
    """The document as the browser built it, serialized."""
    return browse(page, profile, "--dump-dom").stdout


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """The three study targets, robust_sfio included: figure (a) went wrong
    only when a robust_sfio run was present."""
    base = tmp_path_factory.mktemp("browser")
    db, out = base / "b.db", base / "report"
    for target, functions in (("stdio", "fclose,fputs"), ("sfio", "sfclose,sfputr"),
                              ("robust_sfio", "sfclose,sfputr")):
        trebuchet("run", "--target", target, "--functions", functions, "--db", db, "--quiet")
    trebuchet("report", "--db", db, "--out", out)
    return dict(out=out, profile=base / "profile")


def test_report_renders_without_console_messages(report, tmp_path):
    out = report["out"]
    page = out / "index.html"
    for image in page.read_text().split('<img src="')[1:]:
        assert (out / image.split('"')[0]).is_file()

    assert render(page, out / "screenshot.png", report["profile"]) == []
    assert (out / "screenshot.png").stat().st_size > 20000

    # the check can fail: a page that logs to the console is caught
    bad = tmp_path / "bad.html"
    bad.write_text("<p>x</p><script>console.error('broken')</script>")
    assert render(bad, tmp_path / "bad.png", report["profile"])


def test_drill_down_dom_names_the_failing_values(report):
    """fclose's cases are its whole product (21 FILE values), so FILE:NULL,
    on which glibc's fclose crashes, is among its failing cases."""
    text = dom(report["out"] / "stdio-fclose.html", report["profile"])
    table = text.split('<table class="cases">')[1].split("</table>")[0]
    rows = re.findall(r"<tr>(.*?)</tr>", table, re.S)[1:]
    assert rows and all("<code>FILE:" in row for row in rows)
    assert any("<code>FILE:NULL</code>" in row and "SIGSEGV" in row for row in rows)


def svg_texts(tree, prefix):
    """The text of every <text> under the groups whose id starts with prefix."""
    return [t.text for g in tree.iter(f"{SVG}g") if g.get("id", "").startswith(prefix)
            for t in g.iter(f"{SVG}text")]


def test_figure_a_labels_each_pair_once_and_names_exactly_sfio_and_stdio(report):
    svg = ET.fromstring(dom(report["out"] / "figure_a_sfio_vs_stdio.svg", report["profile"]))
    labels = svg_texts(svg, "ytick_")
    assert labels == ["sfclose / fclose", "sfputr / fputs"]
    assert svg_texts(svg, "legend_") == ["sfio", "stdio"]
    title = [t.text for t in svg.iter(f"{SVG}text")
             if t.text and t.text.startswith("sfio vs stdio")]
    assert title == ["sfio vs stdio: failure rate per equivalent pair"]


def test_no_python_repr_in_any_output(report):
    out = report["out"]
    outputs = [p for p in out.iterdir() if p.suffix in (".html", ".json", ".csv", ".svg")]
    assert len(outputs) > 10
    for path in outputs:
        text = path.read_text()
        assert not [r for r in REPR if r in text], path.name
    for page in ("index.html", "stdio-fclose.html", "robust_sfio-sfclose.html"):
        text = dom(out / page, report["profile"])
        assert not [r for r in REPR if r in text], page
