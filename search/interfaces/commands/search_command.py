"""The base of the search commands: arguments built from a search kind's declared options.

`manage.py <kind> <workspace> "<query>" [--option value ...]`: every option but the query is
a `--kebab-case` flag (a flag option is `--name` / `--no-name`; an object, such as
`--filter`, is JSON text read by the bounded loader; a list repeats its flag). Values are
read as text and turned into values by the options themselves (search/contract/options.py), so a
command refuses what the API refuses, with the same `[code] message`.

A command says how to print its result as a table (`write_table`); `--json` prints the API's
JSON instead.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from rest_framework import serializers

from search.contract.errors import SearchError
from search.interfaces.errors import command_error_from
from search.kinds import SearchKind
from search.interfaces.commands.access import access_from_options, add_access_arguments
from search.interfaces.commands.filters import filter_option_parse
from search.contract.options import option_from_text
from search.contract.option_fields import FlagField

# The commands' own names for options, where they differ from `--<option>`.
ARGUMENT_NAMES = {"queries": "--part"}


def argument_name(option: str) -> str:
    return ARGUMENT_NAMES.get(option, "--" + option.replace("_", "-"))


class SearchCommand(BaseCommand):
    """A search from a terminal; subclasses set `kind` and write the table."""

    kind: SearchKind

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        self.help = self.kind.summary
        return super().create_parser(prog_name, subcommand, **kwargs)

    def add_arguments(self, parser: CommandParser) -> None:
        add_access_arguments(parser)
        for name, field in self.kind.options().fields.items():
            help_text = str(field.help_text or "")
            if name == "query":
                parser.add_argument("query", help=help_text)
            elif isinstance(field, FlagField):
                parser.add_argument(argument_name(name), dest=name, action=argparse.BooleanOptionalAction,
                                    default=None, help=help_text)
            elif isinstance(field, serializers.ListField):
                parser.add_argument(argument_name(name), dest=name, action="append", default=None, metavar="TEXT",
                                    help=f"{help_text} (repeat for each)")
            elif isinstance(field, (serializers.DictField, serializers.Serializer)):
                parser.add_argument(argument_name(name), dest=name, default=None, metavar="JSON",
                                    help=f"{help_text} (JSON)")
            else:
                choices = f" ({', '.join(field.choices)})" if isinstance(field, serializers.ChoiceField) else ""
                parser.add_argument(argument_name(name), dest=name, default=None, metavar="VALUE",
                                    help=help_text + choices)
        parser.add_argument("--json", action="store_true", help="print the API's JSON answer")

    def handle(self, *args: Any, **arguments: Any) -> None:
        access = access_from_options(
            workspace=arguments["workspace"], user=arguments["user"], published_only=arguments["published_only"]
        )
        options = self.options_from_arguments(arguments)
        try:
            result = self.search(access, options, arguments)
        except SearchError as exc:
            raise command_error_from(exc) from exc
        if result is None:
            return
        if arguments["json"]:
            self.stdout.write(json.dumps(result.as_dict(), ensure_ascii=False, indent=2))
        else:
            if (line := no_good_match_line(result)) is not None:
                self.stdout.write(line)
            self.write_table(access, result)

    def options_from_arguments(self, arguments: dict[str, Any]) -> dict[str, Any]:
        """The options given on the command line, as values (what was left out is left out)."""
        options: dict[str, Any] = {}
        for name, field in self.kind.options().fields.items():
            given = arguments.get(name)
            if given is None:
                continue
            if isinstance(field, (serializers.DictField, serializers.Serializer)):
                options[name] = filter_option_parse(given, what=argument_name(name))
            elif isinstance(given, str) and name != "query":
                options[name] = option_from_text(self.kind.options, name, given)
            else:
                options[name] = given
        return options

    def search(self, access: Any, options: dict[str, Any], arguments: dict[str, Any]) -> Any:
        """Run the search (a subclass may print something else and return None)."""
        return self.kind.search(access, options, interface="command")

    def write_table(self, access: Any, result: Any) -> None:
        raise NotImplementedError


def no_good_match_line(result: Any) -> str | None:
    """"No good match ..." when a chunk search's results are under the relevance floor (search/engine/confidence.py)."""
    meta = getattr(result, "extra_meta", {})
    if meta.get("answerable") is not False:
        return None
    best = meta.get("best_confidence")
    shown = "the nearest results below are candidates" if result.hits else "--include-candidates shows the nearest"
    line = (f"No good match: best confidence "
            f"{'-' if best is None else format(best, '.3f')} < floor {meta['min_confidence']:g} ({shown}).")
    if words := meta.get("words"):  # search/engine/words_held.py: nothing near in meaning, but the words stand
        line += (f" No passage is near in meaning, but {words['entries']} entries contain the words: "
                 f"`{words['follow_up']['search']}_search` lists them.")
    return line


def chunk_source_lines(rank: int, source: dict[str, Any], *, legs: bool) -> list[str]:
    """One chunk source as two lines: its rank, score, title and place (and per-leg scores), then its text."""
    md = source["metadata"]
    where = f"entry {md['entry_id']}" if "entry_id" in md else f"asset {md.get('asset_id')}"
    leg_scores = ""
    if legs and "legs" in source:
        leg_scores = "  " + "  ".join(
            f"{leg} {'-' if info.get('score') is None else format(info['score'], '.3f')}"
            + (f" #{info['rank']}" if info.get("rank") else "")
            for leg, info in source["legs"].items() if leg != "fused"
        )
    if "confidence" in source:
        leg_scores += f"  confidence {source['confidence']:.3f}"
    text = " ".join(source["document"].split())
    return [
        f"\n{rank:>3}. {source['score']:.3f}  {md['title'] or '(untitled)'}  "
        f"[{md['content_type'] or md['source_kind']}, {where}, {md['field']} #{md['ordinal']}]{leg_scores}",
        f"     {text[:200]}{'…' if len(text) > 200 else ''}",
    ]
