"""`manage.py search_entries <workspace> "<query>"`: the full-text search over entries, from a shell."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser

from search.engine.fulltext import EntrySearchResult, search_entries_explain
from search.kinds import SEARCH_ENTRIES
from search.interfaces.commands.search_command import SearchCommand


class Command(SearchCommand):
    kind = SEARCH_ENTRIES

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument("--explain", action="store_true", help="print the chosen plan and its EXPLAIN instead")

    def search(self, access: Any, options: dict[str, Any], arguments: dict[str, Any]) -> EntrySearchResult | None:
        if not arguments["explain"]:
            return super().search(access, options, arguments)
        plan, explain = search_entries_explain(access=access, **options)
        self.stdout.write(f"plan: {plan.value}\n{explain}")
        return None

    def write_table(self, access: Any, result: EntrySearchResult) -> None:
        if not result.hits:
            self.stdout.write(f"No entries contain {result.query!r}.")
            if result.suggestions:
                self.stdout.write("Did you mean: " + ", ".join(repr(s) for s in result.suggestions) + "?")
            return
        if result.corrected_query is not None:
            self.stdout.write(f"No entries contain {result.query!r}; showing results for {result.corrected_query!r}.")
        if result.also_searched:
            self.stdout.write("Also searched for: " + ", ".join(repr(s) for s in result.also_searched) + ".")
        header = ("id", "type", "status", "updated", "fields", "snippet")
        rows = [
            (
                str(hit.entry_id),
                hit.content_type,
                hit.status,
                hit.updated_at.strftime("%Y-%m-%d %H:%M"),
                ",".join(hit.matched_fields),
                " ".join((hit.snippet.text if hit.snippet else "").split())[:70],
            )
            for hit in result.hits
        ]
        widths = [max(len(row[i]) for row in (header, *rows)) for i in range(len(header) - 1)]
        lines = ["  ".join([*(cell.ljust(width) for cell, width in zip(row[:-1], widths)), row[-1]])
                 for row in (header, *rows)]
        first, last = result.offset + 1, result.offset + len(result.hits)
        more = " (more: use --offset)" if result.has_more else ""
        lines.append(f"{first}-{last} of the matches, newest first{more}.")
        self.stdout.write("\n".join(lines))
