"""Writes to the chunk table and the usage table: the only code that changes them.

One module per job; the public services are re-exported here, so callers write
`from ingestion import services` and `services.chunks_embed_pending(...)`:

- `sync`: make chunk rows match their entry or asset (runs inside the content's transaction);
- `claims`: claim pending chunks with leases, record failed attempts, requeue;
- `vectors`: store vectors per (chunk, model) (hash-checked), find reusable ones, settle chunks;
- `usage`: provider usage per workspace, model and day;
- `embed`: the embed loop that ties claims, the provider, vectors and usage together;
- `estimate`: the dry run of reindex (writes nothing);
- `keyword`: the keyword index (BM25 postings and each chunk's terms as text) written with the chunks, and its statistics;
- `keyword_bm25`: the BM25 index (pg_textsearch) over those texts: the extension and the index build.
- `rerank`: rerank a search's documents and record the provider usage;
- `switch`: a workspace's embedding model switch (start, promote, rollback, abort, prune).
"""

from ingestion.services.claims import (
    ClaimedChunk,
    chunks_claim_ids,
    chunks_claim_pending,
    chunks_reclaim_expired_leases,
    chunks_requeue,
)
from ingestion.services.embed import EmbedReport, chunks_embed_batch, chunks_embed_pending
from ingestion.services.estimate import EmbedEstimate, chunks_reindex_estimate
from ingestion.services.keyword import (
    keyword_index_chunks,
    keyword_index_missing,
    keyword_index_rebuild,
    keyword_stats_compact,
    keyword_stats_compact_all,
    keyword_stats_compact_on_commit,
)
from ingestion.services.rerank import RerankOutcome, documents_rerank
from ingestion.services.sync import (
    ChunkSyncResult,
    chunks_delete_for_asset,
    chunks_delete_for_entry,
    chunks_sync_for_asset,
    chunks_sync_for_assets,
    chunks_sync_for_content_type,
    chunks_sync_for_entry,
)

__all__ = [
    "ChunkSyncResult",
    "ClaimedChunk",
    "EmbedEstimate",
    "EmbedReport",
    "RerankOutcome",
    "chunks_claim_ids",
    "chunks_claim_pending",
    "chunks_delete_for_asset",
    "chunks_delete_for_entry",
    "chunks_embed_batch",
    "chunks_embed_pending",
    "chunks_reclaim_expired_leases",
    "chunks_reindex_estimate",
    "chunks_requeue",
    "chunks_sync_for_asset",
    "chunks_sync_for_assets",
    "chunks_sync_for_content_type",
    "chunks_sync_for_entry",
    "keyword_index_chunks",
    "keyword_index_missing",
    "keyword_index_rebuild",
    "keyword_stats_compact",
    "keyword_stats_compact_all",
    "keyword_stats_compact_on_commit",
    "documents_rerank",
]
