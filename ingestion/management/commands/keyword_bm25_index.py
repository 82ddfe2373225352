"""`manage.py keyword_bm25_index`: build the keyword leg's BM25 index (pg_textsearch), or say why it cannot."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from ingestion.services.keyword_bm25 import keyword_bm25_index_build


class Command(BaseCommand):
    help = (
        "Build the BM25 index the keyword leg reads (CREATE INDEX CONCURRENTLY: searches and ingestion go on "
        "meanwhile), creating the pg_textsearch extension first where the server has it preloaded. Safe to "
        "re-run: a valid index is kept, an interrupted build's is built again. docs/operators.md 'The keyword index'."
    )

    def handle(self, *args, verbosity=1, **options):
        outcome = keyword_bm25_index_build()
        if verbosity:
            self.stdout.write(outcome)
