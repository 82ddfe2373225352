"""The panels other apps add below an entry's form (ingestion: the entry's chunks), so cms imports neither of them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest

from cms.models import Entry


@dataclass(frozen=True)
class EntryPanel:
    """A block below an entry's form: `template` rendered with `context(request, entry)` as
    `panel`; `saved_message(request, entry)`, if given, is said after each save."""

    template: str
    context: Callable[[HttpRequest, Entry], dict[str, Any]]
    saved_message: Callable[[HttpRequest, Entry], str | None] | None = None


ENTRY_PANELS: list[EntryPanel] = []


def entry_panel_register(panel: EntryPanel) -> None:
    ENTRY_PANELS.append(panel)
