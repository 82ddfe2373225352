"""Keyword index writes: the postings of chunks (BM25 terms) and the compaction of their statistics.

Sync calls `keyword_index_chunks` in the same transaction as the chunk writes, so a chunk
is keyword-searchable the moment its content commits, whether or not it is ever embedded.

Statistics (document frequency per term, chunk count and total length per workspace) are
kept by the database itself: statement triggers on the posting table append one
KeywordStatDelta row per (workspace, term) and statement (migration 0003). A save never
updates a shared row, so concurrent saves in one workspace never wait on each other's
statistics and cannot deadlock on them; the true figure at any moment is KeywordStat plus
the deltas, read in one snapshot by search. `keyword_stats_compact` folds deltas into
KeywordStat in its own short transaction (on commit after a sync, and from the beat sweep).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db import connection, transaction

from cms.citus_mode import same_workspace
from ingestion.keywords import LENGTH_TERM, bm25_index_term, bm25_term_weight, keyword_index_terms
from ingestion.models import KeywordPosting, KeywordStat, KeywordStatDelta, KeywordText
from ingestion.selectors import workspace_length_sql

logger = logging.getLogger(__name__)

POSTING_TABLE = KeywordPosting._meta.db_table
STAT_TABLE = KeywordStat._meta.db_table
DELTA_TABLE = KeywordStatDelta._meta.db_table
TEXT_TABLE = KeywordText._meta.db_table

# Advisory lock class for compaction (pg_try_advisory_xact_lock(class, workspace_id)).
_COMPACT_LOCK_CLASS = 0x4B57  # "KW"
# Chunks indexed per statement by the backfill.
BACKFILL_BATCH = 500


@dataclass(frozen=True)
class ChunkText:
    """What the index needs of a chunk."""

    id: int
    workspace_id: int
    text: str


def workspace_average_length(*, workspace_id: int) -> float | None:
    """The workspace's mean chunk length in BM25 tokens (committed and in this transaction), or None."""
    with connection.cursor() as cursor:
        cursor.execute(*workspace_length_sql(workspace_id=workspace_id))
        chunks, total = cursor.fetchone()
    if not chunks:
        return None
    return float(total) / float(chunks)


@transaction.atomic(savepoint=False)  # joins the chunk writes' transaction
def keyword_index_chunks(*, chunks: Sequence[ChunkText], replace: bool = True, text: bool = True) -> int:
    """Write the postings of `chunks` from their text, replacing any they had; returns the rows written.

    `replace=False` skips the delete (the chunks were created in this transaction). `text=False`
    leaves the BM25 index's documents (TEXT_TABLE) alone: a migration before ingestion 0017, which
    creates that table and fills it from the postings, writes the postings only. Each
    chunk gets one posting per term plus the LENGTH_TERM posting (tf = its length), so a
    chunk with no words still counts in its workspace's chunk count.
    """
    if not chunks:
        return 0
    if replace:
        with connection.cursor() as cursor:
            cursor.execute(f"DELETE FROM {POSTING_TABLE} WHERE chunk_id = ANY(%s)", [[c.id for c in chunks]])
            if text:
                cursor.execute(f"DELETE FROM {TEXT_TABLE} WHERE chunk_id = ANY(%s)", [[c.id for c in chunks]])
    terms_of = {c.id: keyword_index_terms(c.text) for c in chunks}
    averages: dict[int, float] = {}
    for workspace_id in {c.workspace_id for c in chunks}:
        average = workspace_average_length(workspace_id=workspace_id)
        if average is None:  # the workspace's first chunks: their own mean
            lengths = [terms_of[c.id].length for c in chunks if c.workspace_id == workspace_id]
            average = max(1.0, sum(lengths) / len(lengths))
        averages[workspace_id] = average
    chunk_ids: list[int] = []
    terms: list[str] = []
    workspace_ids: list[int] = []
    tfs: list[int] = []
    lengths: list[int] = []
    impacts: list[float] = []
    for chunk in chunks:
        indexed = terms_of[chunk.id]
        average = averages[chunk.workspace_id]
        for term, tf in (*indexed.frequencies.items(), (LENGTH_TERM, indexed.length)):
            chunk_ids.append(chunk.id)
            terms.append(term)
            workspace_ids.append(chunk.workspace_id)
            tfs.append(tf)
            lengths.append(indexed.length)
            impacts.append(0.0 if term == LENGTH_TERM else
                           bm25_term_weight(tf=tf, length=indexed.length, average_length=average))
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {POSTING_TABLE} (chunk_id, term, workspace_id, tf, length, impact)"
            " SELECT * FROM unnest(%s::bigint[], %s::text[], %s::bigint[], %s::int[], %s::int[], %s::float8[])",
            [chunk_ids, terms, workspace_ids, tfs, lengths, impacts],
        )
        # The BM25 index's documents (ingestion.models.KeywordText): the same terms, as text.
        if text:
            cursor.execute(
                f"INSERT INTO {TEXT_TABLE} (chunk_id, workspace_id, terms)"
                " SELECT * FROM unnest(%s::bigint[], %s::bigint[], %s::text[])",
                [[c.id for c in chunks], [c.workspace_id for c in chunks],
                 [keyword_text(terms_of[c.id].frequencies) for c in chunks]],
            )
    return len(terms)


def keyword_text(frequencies: dict[str, int]) -> str:
    """A chunk's terms as the BM25 index's document: each term as often as it occurs, by spaces."""
    return " ".join(bm25_index_term(term) for term, tf in frequencies.items() for _ in range(tf))


def keyword_index_missing(*, workspace_id: int | None = None, batch_size: int = BACKFILL_BATCH) -> int:
    """Index every chunk that has no postings yet (chunks written before the keyword index
    existed); one transaction per batch, idempotent. Returns how many chunks were indexed."""
    return _keyword_index_batches(workspace_id=workspace_id, batch_size=batch_size, missing_only=True)


def keyword_stats_compact(*, workspace_id: int) -> int:
    """Fold the workspace's committed KeywordStatDelta rows into KeywordStat; returns how many.

    Meant to run in its own transaction (not inside a save's, where the KeywordStat rows it
    locks would stay locked until that save commits). One
    compactor per workspace at a time (an advisory lock); a second one returns 0 at once
    and the next run folds what is left. Deltas committed meanwhile stay counted, as
    deltas, by every search. Rows whose df falls to 0 (terms no chunk has any more) go.
    """
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s, %s)", [_COMPACT_LOCK_CLASS, int(workspace_id)])
        if not cursor.fetchone()[0]:
            return 0
        cursor.execute(
            f"WITH moved AS (DELETE FROM {DELTA_TABLE} WHERE workspace_id = %s RETURNING term, df, tf),"
            " summed AS (SELECT term, sum(df) AS df, sum(tf) AS tf, count(*) AS n FROM moved GROUP BY term),"
            f" folded AS (INSERT INTO {STAT_TABLE} AS s (workspace_id, term, df, tf)"
            "   SELECT %s, term, df, tf FROM summed ORDER BY term"
            "   ON CONFLICT (workspace_id, term) DO UPDATE SET df = s.df + excluded.df, tf = s.tf + excluded.tf"
            "   RETURNING term, df)"
            " SELECT (SELECT coalesce(sum(n), 0) FROM summed), ARRAY(SELECT term FROM folded WHERE df = 0)",
            [workspace_id, workspace_id],
        )
        moved, emptied = cursor.fetchone()
        if emptied:
            cursor.execute(f"DELETE FROM {STAT_TABLE} WHERE workspace_id = %s AND term = ANY(%s) AND df = 0",
                           [workspace_id, list(emptied)])
    return int(moved)


def keyword_stats_compact_on_commit(*, workspace_id: int) -> None:
    """Compact the workspace's statistics once the current transaction commits (at once outside one).

    A failure is logged, never raised into the save that already committed: the deltas stay
    counted and the beat sweep folds them later.
    """
    def compact() -> None:
        try:
            keyword_stats_compact(workspace_id=workspace_id)
        except Exception:  # noqa: BLE001 - the save committed; the sweep retries
            logger.warning("Keyword statistics compaction failed for workspace %s; the sweep will retry.",
                           workspace_id, exc_info=True)

    transaction.on_commit(compact)


def keyword_stats_pending_workspaces() -> list[int]:
    """Workspaces with deltas to fold (for the beat sweep)."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT DISTINCT workspace_id FROM {DELTA_TABLE}")
        return sorted(row[0] for row in cursor.fetchall())


def keyword_stats_compact_all(workspace_ids: Iterable[int] | None = None) -> int:
    """Compact every workspace with deltas (or the given ones); returns the deltas folded."""
    ids = keyword_stats_pending_workspaces() if workspace_ids is None else list(workspace_ids)
    return sum(keyword_stats_compact(workspace_id=ws) for ws in ids)


def keyword_index_rebuild(*, workspace_id: int | None = None, batch_size: int = BACKFILL_BATCH,
                          text: bool = True) -> int:
    """Rewrite the postings of every chunk (of one workspace, or all) from its text with the
    tokenizer as it is now: after the keyword tokenizer changed (ingestion/segmentation.py,
    `keyword_reindex`) or its normalisation did (cms.folding, ingestion migration 0014, `refold`).

    One transaction per batch of chunks, in id order, each replacing its chunks' postings and
    statistics at once: searches keep working throughout, a chunk answering with its old terms
    until its batch commits. Idempotent; returns how many chunks were indexed."""
    return _keyword_index_batches(workspace_id=workspace_id, batch_size=batch_size, missing_only=False, text=text)


def _keyword_index_batches(*, workspace_id: int | None, batch_size: int, missing_only: bool,
                           text: bool = True) -> int:
    """Index chunks (of one workspace, or all; `missing_only`: those with no postings yet) from
    their text, in id order, one transaction per batch, each replacing its chunks' postings
    and statistics at once. Returns how many chunks were indexed."""
    missing = (f" AND NOT EXISTS (SELECT 1 FROM {POSTING_TABLE} p WHERE p.chunk_id = c.id"
               f"{same_workspace('p', 'c')} AND p.term = %s)") if missing_only else ""
    done = 0
    last_id = 0
    while True:
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT c.id, c.workspace_id, c.text FROM ingestion_chunk c"
                    f" WHERE c.id > %s AND (%s::bigint IS NULL OR c.workspace_id = %s){missing}"
                    " ORDER BY c.id LIMIT %s FOR UPDATE OF c SKIP LOCKED",
                    [last_id, workspace_id, workspace_id, *([LENGTH_TERM] if missing_only else []), batch_size],
                )
                rows = [ChunkText(id=r[0], workspace_id=r[1], text=r[2]) for r in cursor.fetchall()]
            if not rows:
                break
            keyword_index_chunks(chunks=rows, replace=True, text=text)
        done += len(rows)
        last_id = rows[-1].id
        if not connection.in_atomic_block:  # e.g. a migration runs in one transaction
            keyword_stats_compact_all({r.workspace_id for r in rows})
    return done