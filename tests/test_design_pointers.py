"""The code's pointers to docs/design/ hold: every page a module names exists, and a section named
after it in quotes (`docs/design/vectors.md, "The walk's settings"`) begins one of that page's
headings. Figures live in those pages, so a pointer that goes nowhere loses them. Pure Python."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
APPS = ("cms", "ingestion", "search", "config")
# The page, then (across a comment's line break) an optional quoted section name.
POINTER = re.compile(r'docs/design/([\w.-]+\.md)(?:[,:]?\s*(?:#\s*)?"([^"\n]+)")?')
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.MULTILINE)


def _pointers() -> list[tuple[str, str, str | None]]:
    found = []
    for app in APPS:
        for path in sorted((REPO / app).rglob("*.py")):
            for match in POINTER.finditer(path.read_text()):
                found.append((path.relative_to(REPO).as_posix(), match.group(1), match.group(2)))
    return found


def _headings(page: Path) -> list[str]:
    text = re.sub(r"^```.*?^```", "", page.read_text(), flags=re.MULTILINE | re.DOTALL)
    return [heading.replace("`", "") for heading in HEADING.findall(text)]


def test_the_code_points_at_design_pages():
    assert len({page for _, page, _ in _pointers()}) >= 10


def test_every_design_page_the_code_names_exists_with_the_section_it_names():
    broken = []
    for module, page, section in _pointers():
        target = REPO / "docs" / "design" / page
        if not target.is_file():
            broken.append(f"{module}: docs/design/{page} does not exist")
        elif section and not any(heading.startswith(section.replace("`", "")) for heading in _headings(target)):
            broken.append(f'{module}: docs/design/{page} has no heading "{section}"')
    assert not broken, "\n".join(broken)
