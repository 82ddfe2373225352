"""`manage.py reindex`: re-chunk content and embed what changed (idempotent; --dry-run estimates)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from ingestion import selectors, services
from ingestion.management.progress import Progress
from ingestion.management.scope import content_types_from_option, workspace_from_option
from ingestion.models import Chunk
from ingestion.tasks import chunks_embed_enqueue
from ingestion.embeddings import EmbeddingNotConfigured, EmbeddingProviderError, get_embedding_backend


class Command(BaseCommand):
    help = (
        "Re-chunk entries of opted-in content types and text assets, in pk order, and embed the "
        "chunks whose text changed (or that failed, or were made by another model). Safe to re-run."
    )

    def add_arguments(self, parser):
        parser.add_argument("--workspace", metavar="SLUG", help="Only this workspace.")
        parser.add_argument("--content-type", metavar="API_ID", help="Only entries of this content type.")
        parser.add_argument("--assets", action="store_true", help="Only assets (with --content-type: both).")
        parser.add_argument("--dry-run", action="store_true", help="Print what would be embedded and its cost; write nothing.")
        parser.add_argument("--async", dest="run_async", action="store_true", help="Enqueue the embedding for workers.")

    def handle(self, *args, workspace=None, content_type=None, assets=False, dry_run=False, run_async=False,
               verbosity=1, **options):
        ws = workspace_from_option(workspace)
        types = content_types_from_option(content_type, ws)
        only_assets = assets and not content_type
        if only_assets:
            types = []
        include_assets = assets or not content_type

        if dry_run:
            return self._dry_run(ws, types, include_assets, verbosity)

        sync = services.ChunkSyncResult()
        for ct in types:
            with Progress(stream=self.stdout, label=f"sync {ct.workspace.slug}/{ct.api_id}", total=ct.entries.count(),
                          verbosity=verbosity, unit="entries") as progress:
                sync.add(services.chunks_sync_for_content_type(content_type=ct, progress=progress))
        if include_assets:
            with Progress(stream=self.stdout, label="sync assets", total=None, verbosity=verbosity,
                          unit="assets") as progress:
                sync.add(services.chunks_sync_for_assets(workspace=ws, progress=progress))
        # Chunks written before the keyword index existed (their text unchanged, so sync kept them).
        keyword_indexed = services.keyword_index_missing(workspace_id=ws.pk if ws else None)
        # The workspace's active model (the configured one unless it switched): a chunk without
        # a current vector of it is requeued. Without --workspace, a switched workspace's chunks
        # may be requeued too; its workers then find nothing missing and settle them unsent.
        if ws is not None:
            model_name = selectors.embedding_models(workspace=ws).active
        else:
            try:
                model_name = get_embedding_backend().model_name
            except EmbeddingNotConfigured:
                model_name = None
        requeued = services.chunks_requeue(
            workspace=ws, content_types=None if not content_type and not only_assets else types,
            include_assets=include_assets, model_name=model_name,
        )
        if verbosity >= 1:
            self.stdout.write(
                f"Synced {sync.sources} sources: {sync.created} new, {sync.changed} changed, "
                f"{sync.deleted} deleted chunks; {requeued} failed or other-model chunks requeued"
                + (f"; {keyword_indexed} chunks keyword-indexed for the first time." if keyword_indexed else ".")
            )

        if run_async:
            ok = chunks_embed_enqueue(workspace_id=ws.pk if ws else None)
            if not ok:
                raise CommandError("Could not reach the broker; the chunks are pending and the sweep will enqueue them.")
            if verbosity >= 1:
                self.stdout.write("Embedding enqueued for the workers.")
            return
        self._embed_inline(ws, verbosity)

    def _embed_inline(self, ws, verbosity: int) -> None:
        pending = Chunk.objects.queued()
        if ws is not None:
            pending = pending.for_workspace(ws)
        with Progress(stream=self.stdout, label="embed", total=pending.count(), verbosity=verbosity) as progress:
            try:
                report = services.chunks_embed_pending(workspace=ws, progress=progress)
            except EmbeddingProviderError as exc:
                raise CommandError(f"Embedding stopped: {exc}") from exc
        if report.not_configured:
            self.stderr.write(f"not_configured: {report.error} Chunks stay pending.")
            return
        if verbosity >= 1:
            self.stdout.write(
                f"Embedded {report.embedded} chunks with {report.model} ({report.reused} reused vectors, "
                f"{report.discarded} discarded as stale) in {report.requests} requests, {report.tokens} tokens."
            )

    def _dry_run(self, ws, types, include_assets: bool, verbosity: int) -> None:
        with Progress(stream=self.stdout, label="estimate", total=None, verbosity=verbosity, unit="sources") as progress:
            estimate = services.chunks_reindex_estimate(
                workspace=ws, content_types=types, include_assets=include_assets, progress=progress
            )
        provider = estimate.model if estimate.configured else "no provider (not_configured)"
        self.stdout.write(
            f"Dry run: {estimate.sources} sources; would embed {estimate.chunks} chunks "
            f"({estimate.texts} distinct texts) in {estimate.requests} requests to {provider}: "
            f"~{estimate.tokens} tokens, ~${estimate.cost_usd:.4f}. Nothing was written."
        )
