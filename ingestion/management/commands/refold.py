"""`manage.py refold`: store every entry's search text and every chunk's keyword postings folded
by today's rule (cms.folding). Safe to re-run; searches keep answering while it runs."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from cms.refold import REFOLD_BATCH, entries_refold
from ingestion.services.keyword import keyword_index_rebuild


class Command(BaseCommand):
    help = (
        "Recompute entries' search_text and grams (cms_text_fold) and index every chunk's keyword "
        "postings again, in id order, one short transaction per batch. Cms migration 0012 and "
        "ingestion migration 0014 run the same steps; run it again after the folding table changes."
    )

    def add_arguments(self, parser):
        parser.add_argument("--batch-size", type=int, default=REFOLD_BATCH, help="Rows per transaction.")

    def handle(self, *args, batch_size=REFOLD_BATCH, verbosity=1, **options):
        entries = entries_refold(batch_size=batch_size)
        chunks = keyword_index_rebuild(batch_size=batch_size)
        if verbosity >= 1:
            self.stdout.write(f"Refolded {entries} entries and {chunks} chunks' keyword postings.")
