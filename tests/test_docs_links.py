"""The documentation's links work: every relative link in README.md and docs/ names a file in
the repository, and every #anchor names a heading of its target, by GitHub's rules.

Pure Python, no database: the docs are read as text. The README stays a one-screen map.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

import pytest

REPO = Path(__file__).resolve().parents[1]
README_MAX_LINES = 150

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
ATX_HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
SETEXT_UNDERLINE = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)
# [text](target "title") and ![alt](src): the target, with or without <...>.
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]\\]|\\.|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)")
REFERENCE_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
HTML_ANCHOR = re.compile(r"<a\s[^>]*\b(?:name|id)\s*=\s*[\"']([^\"']+)[\"']", re.IGNORECASE)
HTML_TAG = re.compile(r"<[^>]+>")
URL_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def markdown_files() -> list[Path]:
    return [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]


def github_slug(heading: str) -> str:
    """The anchor GitHub gives a heading (github-slugger): the rendered text lowercased, every
    character but letters, digits, marks, `_`, `-` and spaces dropped, each space a `-`."""
    parts = []
    for index, part in enumerate(CODE_SPAN.split(heading)):
        if index % 3 == 2:  # a code span's content, kept as written
            parts.append(part)
        elif index % 3 == 0:
            part = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", part)  # a link or image: its text
            part = HTML_TAG.sub("", part)
            parts.append(re.sub(r"\*+|(?<!\w)_+|_+(?!\w)", "", part))  # emphasis, not snake_case
    kept = "".join(ch for ch in "".join(parts).lower() if ch in "-_ " or unicodedata.category(ch)[0] in "LNM")
    return kept.replace(" ", "-")


def _without_code(lines: list[str]) -> list[tuple[int, str]]:
    """The lines outside fenced code blocks, numbered from 1."""
    kept, fence = [], None
    for number, line in enumerate(lines, start=1):
        opening = FENCE.match(line)
        if fence is None and opening:
            fence = opening.group(1)[0] * len(opening.group(1))
        elif fence is not None and line.strip().startswith(fence) and not line.strip().strip(fence[0]):
            fence = None
        elif fence is None:
            kept.append((number, line))
    return kept


def anchors(path: Path) -> set[str]:
    """Every anchor a Markdown file has: its headings' slugs (a repeated one gets -1, -2...) and
    explicit <a name/id>."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    lines = _without_code(path.read_text(encoding="utf-8").splitlines())
    headings = []
    for index, (number, line) in enumerate(lines):
        found.update(HTML_ANCHOR.findall(line))
        atx = ATX_HEADING.match(line)
        if atx:
            headings.append(atx.group(2) or "")
            continue
        previous = lines[index - 1] if index else None
        if (SETEXT_UNDERLINE.match(line) and previous is not None and previous[0] == number - 1
                and previous[1].strip() and not ATX_HEADING.match(previous[1]) and "|" not in previous[1]):
            headings.append(previous[1].strip())
    for heading in headings:
        slug = github_slug(heading)
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


@dataclass(frozen=True)
class Link:
    source: Path
    line: int
    target: str

    def __str__(self) -> str:
        return f"{self.source.relative_to(REPO)}:{self.line}: {self.target}"


def links(path: Path) -> list[Link]:
    """The link targets of a Markdown file, outside code blocks and code spans."""
    found = []
    for number, line in _without_code(path.read_text(encoding="utf-8").splitlines()):
        text = CODE_SPAN.sub("", line)
        targets = [m.group(1) for m in INLINE_LINK.finditer(text)]
        definition = REFERENCE_DEFINITION.match(text)
        if definition:
            targets.append(definition.group(1))
        found += [Link(path, number, target.strip("<>")) for target in targets]
    return found


def link_problem(link: Link, *, root: Path = REPO) -> str | None:
    """Why a link is broken, or None. Links with a scheme (https:, mailto:) are not checked."""
    if URL_SCHEME.match(link.target):
        return None
    location, _, anchor = link.target.partition("#")
    location = unquote(location.split("?", 1)[0])
    target = (link.source.parent / location).resolve() if location else link.source
    if not target.is_relative_to(root):
        return "points outside the repository"
    if not target.exists():
        return "no such file"
    if anchor and target.is_file() and target.suffix == ".md" and unquote(anchor) not in anchors(target):
        return f"no heading #{anchor} in {target.relative_to(root)}"
    return None


def test_readme_is_one_screen():
    lines = (REPO / "README.md").read_text(encoding="utf-8").splitlines()

    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines; move detail into docs/"


@pytest.mark.parametrize("path", markdown_files(), ids=lambda p: str(p.relative_to(REPO)))
def test_every_relative_link_and_anchor_resolves(path):
    found = links(path)
    broken = [f"{link}: {problem}" for link in found if (problem := link_problem(link))]

    assert not broken, "broken links:\n" + "\n".join(broken)


def test_the_docs_link_to_each_other():
    # Guards the test above against passing on nothing: the map links into docs/, with anchors.
    readme_links = links(REPO / "README.md")

    assert any(link.target.startswith("docs/") for link in readme_links)
    assert any("#" in link.target for link in readme_links)
    assert len(markdown_files()) > 5


@pytest.mark.parametrize(("heading", "slug"), [
    ("Who sees what", "who-sees-what"),
    ("Roles: who may write what", "roles-who-may-write-what"),
    ("A slow provider stays the provider's problem", "a-slow-provider-stays-the-providers-problem"),
    ("Connections and poolers (PgBouncer)", "connections-and-poolers-pgbouncer"),
    ("`search_entries` over `/api/v1/`", "search_entries-over-apiv1"),
    ("Where to add X", "where-to-add-x"),
    ("`_private` and _emphasis_", "_private-and-emphasis"),
    ("返品ポリシー？ 2024", "返品ポリシー-2024"),
    ("Design: the why, and the *figures*", "design-the-why-and-the-figures"),
    ("[Link text](other.md) -- two  spaces", "link-text----two--spaces"),
])
def test_slugs_follow_githubs_rules(heading, slug):
    assert github_slug(heading) == slug


def test_a_broken_link_or_anchor_is_reported(tmp_path):
    (tmp_path / "other.md").write_text("# Title\n\n## Part\n\n## Part\n\n```\n# not a heading\n```\n")
    doc = tmp_path / "doc.md"
    doc.write_text(
        "# Doc\n\n"
        "[ok](other.md#part-1) [ok](#doc) [ok](other.md) [web](https://example.com/x)\n"
        "[gone](missing.md) [no anchor](other.md#not-a-heading) [fenced](other.md#not-a-heading-1)\n"
        "[outside](../outside.md) `[in code](missing.md)`\n"
    )

    problems = {link.target: link_problem(link, root=tmp_path) for link in links(doc)}

    assert problems == {
        "other.md#part-1": None,
        "#doc": None,
        "other.md": None,
        "https://example.com/x": None,
        "missing.md": "no such file",
        "other.md#not-a-heading": "no heading #not-a-heading in other.md",
        "other.md#not-a-heading-1": "no heading #not-a-heading-1 in other.md",
        "../outside.md": "points outside the repository",
    }


def test_the_filter_operator_table_in_the_docs_is_the_compilers():
    from search.contract.filter_language import filter_operator_table

    text = (REPO / "docs" / "agents.md").read_text()
    table = text.split("<!-- operators:start -->\n", 1)[1].split("\n<!-- operators:end -->", 1)[0]

    assert table == filter_operator_table()
