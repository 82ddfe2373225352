"""What the `<action> <workspace>` commands share: their subcommands and the judged-queries files they read."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser

from search.operations.compare import qrels_parse, queries_parse

QUERIES_HELP = "file: one query a line, or `id<TAB>query`"
QRELS_HELP = "file: `query_id doc relevance` a line (doc = entry id)"


def workspace_actions(parser: CommandParser) -> Callable[[str, str], CommandParser]:
    """A maker of the command's actions: `action(name, help)` adds a subcommand whose first
    argument is the workspace slug, and returns it for the action's own options."""
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")

    def action(name: str, help_text: str) -> CommandParser:
        sub = actions.add_parser(name, help=help_text)
        sub.add_argument("workspace", help="workspace slug")
        return sub

    return action


def add_judged_queries_arguments(parser: CommandParser, *, required: bool) -> None:
    """`--queries FILE [--qrels FILE]`, as judged_queries_read reads them."""
    parser.add_argument("--queries", required=required, default=None, help=QUERIES_HELP)
    parser.add_argument("--qrels", default=None, help=QRELS_HELP)


def judged_queries_read(
    *, queries: str, qrels: str | None
) -> tuple[list[tuple[str, str]], dict[str, dict[str, int]] | None]:
    """The queries file and, if named, the qrels file, parsed by search.operations.compare.

    CommandError `[file_unreadable]` or `[file_invalid]` (not UTF-8) for a file that cannot be
    read; search.operations.compare.CompareInputError for one whose lines are wrong (the caller maps it)."""
    parsed_queries = queries_parse(_file_text(queries, "--queries"))
    parsed_qrels = qrels_parse(_file_text(qrels, "--qrels")) if qrels else None
    return parsed_queries, parsed_qrels


def report_json(report: Any) -> str:
    return json.dumps(report, ensure_ascii=False, indent=2)


def _file_text(path: str, option: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"[file_unreadable] {option} {path}: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise CommandError(f"[file_invalid] {option} {path} is not UTF-8 text.") from exc
