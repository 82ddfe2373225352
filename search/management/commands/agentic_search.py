"""`manage.py agentic_search <workspace> "<question>" [--part "<sub-question>" ...]`: agentic search from a terminal."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from search.agentic import agentic_search
from search.errors import SearchError
from search.fusion import FUSION_METHODS
from search.management.access import access_from_options, add_access_arguments
from search.management.errors import command_error_from
from search.management.filters import filter_option_parse
from search.semantic import DEFAULT_TOP_K


class Command(BaseCommand):
    help = ("Answer a compound question part by part: each part by the hybrid search, every part in the top k "
            "(the same search as the API's agentic endpoint).")

    def add_arguments(self, parser: CommandParser) -> None:
        add_access_arguments(parser)
        parser.add_argument("query")
        parser.add_argument("--part", action="append", dest="queries", default=None, metavar="QUERY",
                            help="a part of the question, when you split it yourself (repeat for each part)")
        parser.add_argument("--top-k", type=int, default=DEFAULT_TOP_K)
        parser.add_argument("--min-score", type=float, default=None, help="on each part's final score, 0..1")
        parser.add_argument("--content-type", default=None, help="content type api id")
        parser.add_argument("--filter", default=None, help='metadata filter as JSON, e.g. \'{"version": {"$gte": 2}}\'')
        parser.add_argument("--fusion", choices=FUSION_METHODS, default=None)
        parser.add_argument("--keyword-weight", type=float, default=None)
        parser.add_argument("--semantic-weight", type=float, default=None)
        parser.add_argument("--rerank", action="store_true", help="rerank the merged candidates against the question")
        parser.add_argument("--ef-search", type=int, default=None)
        parser.add_argument("--json", action="store_true", help="print the API's JSON answer")

    def handle(self, *args: Any, **options: Any) -> None:
        access = access_from_options(
            workspace=options["workspace"], user=options["user"], published_only=options["published_only"]
        )
        filter_spec = filter_option_parse(options["filter"])
        try:
            result = agentic_search(
                access=access,
                query=options["query"],
                queries=options["queries"],
                top_k=options["top_k"],
                min_score=options["min_score"],
                content_type=options["content_type"],
                filter=filter_spec,
                fusion=options["fusion"],
                keyword_weight=options["keyword_weight"],
                semantic_weight=options["semantic_weight"],
                rerank=options["rerank"],
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
            f"{meta['returned']} result(s) in {access.workspace.slug}: path {meta['path']}, "
            f"{len(meta['parts'])} part(s) ({meta['parts_source']}), legs {'+'.join(meta['legs_used'])}, "
            f"{meta['pending']} chunk(s) pending"
        )
        reason = meta["fallback_reason"]
        if reason:
            self.stdout.write(f"  fell back to the whole question: {reason['stage']} [{reason['code']}] "
                              f"{reason['message']}")
        for number, part in enumerate(meta["parts"], start=1):
            placed = next((p["returned"] for p in meta.get("part_results", []) if p["query"] == part), None)
            self.stdout.write(f"  part {number}: {part}" + (f"  ({placed} placed)" if placed is not None else ""))
        for leg, why in meta.get("degraded", {}).items():
            self.stdout.write(f"  {leg} leg not used: [{why['code']}] {why['message']}")
        for rank, source in enumerate(body["sources"], start=1):
            md = source["metadata"]
            where = f"entry {md['entry_id']}" if "entry_id" in md else f"asset {md.get('asset_id')}"
            self.stdout.write(
                f"\n{rank:>3}. {source['score']:.3f}  {md['title'] or '(untitled)'}  "
                f"[{md['content_type'] or md['source_kind']}, {where}, {md['field']} #{md['ordinal']}]"
            )
            text = " ".join(source["document"].split())
            self.stdout.write(f"     {text[:200]}{'…' if len(text) > 200 else ''}")
