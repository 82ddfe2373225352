"""`manage.py embed_pending`: embed pending chunks inline, without a worker."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from ingestion import services
from ingestion.management.progress import Progress
from ingestion.management.scope import workspace_from_option
from ingestion.models import Chunk
from ingestion.embeddings import EmbeddingProviderError


class Command(BaseCommand):
    help = "Embed pending chunks now, in this process (no worker needed)."

    def add_arguments(self, parser):
        parser.add_argument("--workspace", metavar="SLUG", help="Only this workspace.")
        parser.add_argument("--limit", type=int, metavar="N", help="Embed at most N chunks.")

    def handle(self, *args, workspace=None, limit=None, verbosity=1, **options):
        if limit is not None and limit <= 0:
            raise CommandError("--limit must be a positive number of chunks.")
        ws = workspace_from_option(workspace)
        pending = Chunk.objects.queued() if ws is None else Chunk.objects.queued().for_workspace(ws)
        total = pending.count()
        with Progress(stream=self.stdout, label="embed", total=min(total, limit) if limit else total,
                      verbosity=verbosity) as progress:
            try:
                report = services.chunks_embed_pending(workspace=ws, limit=limit, progress=progress)
            except EmbeddingProviderError as exc:
                raise CommandError(f"Embedding stopped: {exc}") from exc
        if report.not_configured:
            raise CommandError(f"not_configured: {report.error}")
        if verbosity >= 1:
            self.stdout.write(
                f"Embedded {report.embedded} chunks with {report.model} ({report.reused} reused vectors, "
                f"{report.discarded} discarded as stale) in {report.requests} requests, {report.tokens} tokens."
            )
