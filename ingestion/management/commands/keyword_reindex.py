"""`manage.py keyword_reindex`: rewrite the keyword postings of existing chunks with the tokenizer as configured now."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from ingestion import services
from ingestion.management.scope import workspace_from_option


class Command(BaseCommand):
    help = (
        "Rewrite every chunk's keyword postings from its text with the current keyword tokenizer "
        "(SEARCH_KEYWORD_JA_TOKENIZER, ingestion/segmentation.py). Run it after changing the tokenizer; "
        "search keeps working meanwhile. Embeddings are untouched. Safe to re-run."
    )

    def add_arguments(self, parser):
        parser.add_argument("--workspace", metavar="SLUG", help="Only this workspace.")

    def handle(self, *args, workspace=None, verbosity=1, **options):
        ws = workspace_from_option(workspace)
        done = services.keyword_index_rebuild(workspace_id=ws.pk if ws else None)
        services.keyword_stats_compact_all()
        if verbosity:
            self.stdout.write(f"Rewrote the keyword postings of {done} chunks"
                              f"{f' in workspace {ws.slug}' if ws else ''}.")
