"""`manage.py search_entries <workspace> "<query>"`: the full-text search over entries, from a shell."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandParser

from search.errors import SearchError
from search.fulltext import (
    DEFAULT_LIMIT,
    MAX_LIMIT,
    MAX_OFFSET,
    EntrySearchResult,
    search_entries,
    search_entries_explain,
    search_int_param,
)
from search.management.access import access_from_options, add_access_arguments
from search.management.errors import command_error_from


class Command(BaseCommand):
    help = "Search a workspace's entries for a literal, case-insensitive substring of their values, newest first."

    def add_arguments(self, parser: CommandParser) -> None:
        add_access_arguments(parser)
        parser.add_argument("query", help="text to find (literal: % and _ are ordinary characters)")
        parser.add_argument("--content-type", dest="content_type", help="only entries of this content type (api_id)")
        parser.add_argument("--status", help="only entries with this status (draft or published)")
        parser.add_argument("--limit", default=str(DEFAULT_LIMIT), help=f"hits to show, 1-{MAX_LIMIT}")
        parser.add_argument("--offset", default="0", help=f"hits to skip, 0-{MAX_OFFSET}")
        parser.add_argument("--json", action="store_true", help="print the result as JSON")
        parser.add_argument("--explain", action="store_true", help="print the chosen plan and its EXPLAIN instead")

    def handle(self, *args, **options) -> None:
        access = access_from_options(
            workspace=options["workspace"], user=options["user"], published_only=options["published_only"]
        )
        try:
            params = {
                "access": access,
                "query": options["query"],
                "content_type": options["content_type"],
                "status": options["status"],
                "limit": search_int_param(
                    name="limit", raw=options["limit"], default=DEFAULT_LIMIT, minimum=1, maximum=MAX_LIMIT
                ),
                "offset": search_int_param(name="offset", raw=options["offset"], default=0, minimum=0, maximum=MAX_OFFSET),
            }
            if options["explain"]:
                plan, explain = search_entries_explain(**params)
                self.stdout.write(f"plan: {plan.value}\n{explain}")
                return
            result = search_entries(**params)
        except SearchError as exc:
            raise command_error_from(exc) from exc
        self.stdout.write(_as_json(result) if options["json"] else _as_table(result))


def _as_json(result: EntrySearchResult) -> str:
    return json.dumps(result.as_dict(), ensure_ascii=False, indent=2)


def _as_table(result: EntrySearchResult) -> str:
    if not result.hits:
        return f"No entries contain {result.query!r}."
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
    lines = ["  ".join([*(cell.ljust(width) for cell, width in zip(row[:-1], widths)), row[-1]]) for row in (header, *rows)]
    first, last = result.offset + 1, result.offset + len(result.hits)
    more = " (more: use --offset)" if result.has_more else ""
    lines.append(f"{first}-{last} of the matches, newest first{more}.")
    return "\n".join(lines)
