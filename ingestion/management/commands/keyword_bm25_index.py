"""`manage.py keyword_bm25_index`: build the keyword leg's BM25 indexes (pg_textsearch), or say why it cannot."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from cms.models import Workspace
from ingestion.services.keyword_bm25 import (
    WORKSPACE_INDEX_MIN_CHUNKS,
    keyword_bm25_index_build,
    keyword_bm25_workspace_index_build,
    keyword_bm25_workspaces_to_index,
)


class Command(BaseCommand):
    help = (
        "Build the BM25 indexes the keyword leg reads (CREATE INDEX CONCURRENTLY: searches and ingestion go on "
        "meanwhile), creating the pg_textsearch extension first where the server has it preloaded: the index over "
        "every chunk, and each large workspace's own (its statistics the workspace's). Safe to re-run: a valid "
        "index is kept, an interrupted build's is built again. docs/operators.md 'The keyword index'."
    )

    def add_arguments(self, parser):
        parser.add_argument("--workspace", action="append", default=[], metavar="SLUG",
                            help="build this workspace's own index whatever its size (repeatable)")
        parser.add_argument("--min-chunks", type=int, default=WORKSPACE_INDEX_MIN_CHUNKS,
                            help="build the own index of every workspace with at least this many chunks "
                                 f"(default {WORKSPACE_INDEX_MIN_CHUNKS})")

    def handle(self, *args, verbosity=1, workspace=(), min_chunks=WORKSPACE_INDEX_MIN_CHUNKS, **options):
        outcomes = [keyword_bm25_index_build()]
        named = [Workspace.objects.get(slug=slug).pk for slug in workspace]
        for workspace_id in dict.fromkeys([*named, *keyword_bm25_workspaces_to_index(min_chunks=min_chunks)]):
            outcomes.append(keyword_bm25_workspace_index_build(workspace_id=workspace_id))
        if verbosity:
            self.stdout.write("\n".join(outcomes))
