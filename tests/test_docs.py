"""The documentation holds together: every relative link in README.md and
docs/*.md leads to a file that exists, and where it names a heading
(`page.md#anchor`), to a heading of that page, as GitHub makes its anchors;
and the README stays a front door, short enough to read at once."""
import re

import pytest

from conftest import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
README_MOST_LINES = 220


def prose(text):
    """text without its fenced blocks and code spans, where a bracket is code."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def anchor(heading):
    """GitHub's anchor of a heading: lower case, punctuation dropped but
    hyphens, spaces made hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(path):
    found = set()
    text = re.sub(r"^```.*?^```", "", path.read_text(), flags=re.S | re.M)
    for heading in re.findall(r"^#{1,6} (.+)$", text, flags=re.M):
        name = anchor(heading.replace("`", ""))
        n = 1
        unique = name
        while unique in found:
            unique = f"{name}-{n}"
            n += 1
        found.add(unique)
    return found


def links(path):
    return [t for t in LINK.findall(prose(path.read_text()))
            if not re.match(r"[a-z]+:", t)]


def test_the_pages_have_links():
    assert len(links(ROOT / "README.md")) >= 10
    assert len(links(ROOT / "docs" / "README.md")) >= 15


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page):
    broken = []
    for target in links(page):
        file, _, name = target.partition("#")
        dest = (page.parent / file).resolve() if file else page
        if not dest.exists():
            broken.append(f"{target}: no such file")
        elif name and dest.suffix == ".md" and name not in anchors(dest):
            broken.append(f"{target}: no heading #{name} in {dest.relative_to(ROOT)}")
    assert broken == []


def test_the_anchor_rule_is_githubs():
    assert anchor("Starting from a draft: trebuchet init") == "starting-from-a-draft-trebuchet-init"
    assert anchor("The study's I/O benchmarks") == "the-studys-io-benchmarks"
    assert anchor("In a library's repository, sharded over CI jobs") == \
        "in-a-librarys-repository-sharded-over-ci-jobs"


def test_the_readme_is_short():
    lines = (ROOT / "README.md").read_text().count("\n")
    assert lines <= README_MOST_LINES
