"""The map stays true: every package of the tree has its line in docs/design/layout.md, and every
folder the map names under the apps exists. Pure Python, no database."""

from __future__ import annotations

import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LAYOUT = REPO / "docs" / "design" / "layout.md"
ROOTS = ("config", "cms", "ingestion", "search")
# Django's slots whose parent's line names them (management/commands/, migrations/).
SLOT_NAMES = {"commands", "migrations"}


def _mapped_folders() -> set[str]:
    text = LAYOUT.read_text()
    block = text.split("```", 2)[1]
    return {match.group(1).rstrip("/") for match in re.finditer(r"^(\S+/)\s", block, re.MULTILINE)}


def _packages() -> set[str]:
    return {init.parent.relative_to(REPO).as_posix()
            for root in ROOTS for init in (REPO / root).rglob("__init__.py")
            if "migrations" not in init.parent.relative_to(REPO).parts and init.parent.name not in SLOT_NAMES}


def test_every_package_has_its_line_in_the_layout_doc():
    missing = sorted(_packages() - _mapped_folders())
    assert not missing, f"docs/design/layout.md has no line for: {missing}"


def test_every_folder_the_layout_doc_names_exists():
    named = {folder for folder in _mapped_folders() if folder.split("/")[0] in ROOTS}
    gone = sorted(folder for folder in named if not (REPO / folder).is_dir())
    assert not gone, f"docs/design/layout.md names folders that do not exist: {gone}"


def test_a_missing_package_is_reported(tmp_path, monkeypatch):
    """The check itself: a package the map does not name makes the first test fail."""
    (tmp_path / "search" / "newpart").mkdir(parents=True)
    (tmp_path / "search" / "newpart" / "__init__.py").write_text("")
    (tmp_path / "docs" / "design").mkdir(parents=True)
    (tmp_path / "docs" / "design" / "layout.md").write_text("# Code layout\n\n```\nsearch/   answers\n```\n")
    module = sys.modules[__name__]
    monkeypatch.setattr(module, "REPO", tmp_path)
    monkeypatch.setattr(module, "LAYOUT", tmp_path / "docs" / "design" / "layout.md")
    assert sorted(_packages() - _mapped_folders()) == ["search/newpart"]
