"""`manage.py semantic_search <workspace> "<query>"`: the semantic search from a terminal."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from search.errors import SearchError
from search.management.access import access_from_options, add_access_arguments
from search.management.errors import command_error_from
from search.management.filters import filter_option_parse
from search.semantic import DEFAULT_TOP_K, semantic_search


class Command(BaseCommand):
    help = "Rank a workspace's chunks by meaning against a query (the same search as the API)."

    def add_arguments(self, parser: CommandParser) -> None:
        add_access_arguments(parser)
        parser.add_argument("query")
        parser.add_argument("--top-k", type=int, default=DEFAULT_TOP_K)
        parser.add_argument("--min-score", type=float, default=None)
        parser.add_argument("--content-type", default=None, help="content type api id")
        parser.add_argument("--filter", default=None, help='metadata filter as JSON, e.g. \'{"version": {"$gte": 2}}\'')
        parser.add_argument("--ef-search", type=int, default=None)
        parser.add_argument("--json", action="store_true", help="print the API's JSON answer")

    def handle(self, *args: Any, **options: Any) -> None:
        access = access_from_options(
            workspace=options["workspace"], user=options["user"], published_only=options["published_only"]
        )
        workspace = access.workspace
        filter_spec = filter_option_parse(options["filter"])
        try:
            result = semantic_search(
                access=access,
                query=options["query"],
                top_k=options["top_k"],
                min_score=options["min_score"],
                content_type=options["content_type"],
                filter=filter_spec,
                ef_search=options["ef_search"],
            )
        except SearchError as exc:
            raise command_error_from(exc) from exc

        body = result.as_dict()
        if options["json"]:
            self.stdout.write(json.dumps(body, ensure_ascii=False, indent=2))
            return
        meta = body["meta"]
        self.stdout.write(
            f"{meta['returned']} result(s) in {workspace.slug} (model {meta['model']}, "
            f"{meta['pending']} chunk(s) pending)"
        )
        for rank, source in enumerate(body["sources"], start=1):
            md = source["metadata"]
            where = f"entry {md['entry_id']}" if "entry_id" in md else f"asset {md.get('asset_id')}"
            self.stdout.write(
                f"\n{rank:>3}. {source['score']:.3f}  {md['title'] or '(untitled)'}  "
                f"[{md['content_type'] or md['source_kind']}, {where}, {md['field']} #{md['ordinal']}]"
            )
            text = " ".join(source["document"].split())
            self.stdout.write(f"     {text[:200]}{'…' if len(text) > 200 else ''}")
