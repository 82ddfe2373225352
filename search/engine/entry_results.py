"""One row per entry: a chunk search's ranked chunks grouped by the entry (or asset) they belong to.

As Algolia's `distinct` and Meilisearch's distinct attribute do, semantic, hybrid and agentic
search answer one result per entry by default (issue 34): the entry's best chunk is the result
(its score, its text as the passage) and the entry's other ranked chunks, best first, are its
`passages` (at most MAX_PASSAGES). `top_k` counts entries. `raw_chunks: true`
(search/contract/options.py) gives the ranked chunks as they come, an entry possibly several times, and
`top_k` counts chunks.

To fill a page of `top_k` entries the search ranks more chunks than it shows: `chunk_fetch`
of them (4 per entry asked, at least top_k + 30, at most MAX_FETCH). When they hold fewer
than `top_k` entries and the ranking had more to give, it ranks once more with MAX_FETCH
chunks (`entries_ranked`): the ranking alone, inside the one run of the search, so the
query's embedding, facets, promotions, the pending count and the confidence floor are done
once (a whole second run had cost every such search twice: issue 54). Hybrid search ranks
CANDIDATE_DEPTH (50) candidates per leg anyway, so the default page (10 entries, 40 chunks)
costs it no more candidates; bench/hybrid.py measures what it costs.

A promoted entry (search/engine/promotions.py) comes first by its pinned chunk, and its other chunks
become its passages: it is never shown again lower down. Passages come from the same ranked
chunks as the results, so they are what the caller may see (the search's visibility scoping).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, TypeVar

from search.contract.results import ChunkHit, SearchResult

# Other passages shown with an entry (its best chunk is the result itself).
MAX_PASSAGES = 3
# Chunks ranked to fill a page: FETCH_PER_ENTRY per entry asked, at least top_k + FETCH_MARGIN.
FETCH_PER_ENTRY = 4
FETCH_MARGIN = 30
MAX_FETCH = 300

T = TypeVar("T")


def chunk_fetch(top_k: int) -> int:
    """How many chunks to rank for a page of `top_k` entries."""
    return min(MAX_FETCH, max(top_k * FETCH_PER_ENTRY, top_k + FETCH_MARGIN))


def entry_key(hit: ChunkHit) -> tuple[str, int]:
    """What a row stands for: its entry, or its asset (or the chunk itself when it has neither)."""
    return ("entry", hit.entry_id) if hit.entry_id is not None else ("asset", hit.asset_id or -hit.id)


def entries_ranked(rank: Callable[[int], T], hits: Callable[[T], list[ChunkHit]], *, fetch: int,
                   entries: int | None) -> T:
    """`rank(fetch)`; when its hits hold fewer than `entries` entries and it gave all `fetch`
    asked for (it had more to give), `rank(MAX_FETCH)` instead. `entries` None: raw chunks,
    ranked once. The one place a chunk search widens its ranking for the entry grouping."""
    ranked = rank(fetch)
    found = hits(ranked)
    if (entries is not None and fetch < MAX_FETCH and len(found) >= fetch
            and len({entry_key(hit) for hit in found}) < entries):
        ranked = rank(MAX_FETCH)
    return ranked


def hits_by_entry(hits: list[ChunkHit]) -> list[ChunkHit]:
    """`hits` (best first) with each entry's (or asset's) first hit kept, holding the entry's
    next MAX_PASSAGES hits as its `passages`; order kept."""
    rows: dict[tuple[str, int], ChunkHit] = {}
    others: dict[tuple[str, int], list[ChunkHit]] = {}
    for hit in hits:
        key = entry_key(hit)
        if key not in rows:
            rows[key], others[key] = hit, []
        elif len(others[key]) < MAX_PASSAGES:
            others[key].append(hit)
    return [replace(hit, passages=tuple(others[key])) for key, hit in rows.items()]


def chunks_shown(hits: list[ChunkHit], entries: int) -> list[ChunkHit]:
    """The chunks of `hits` (best first) that a page of `entries` rows shows: those of its first
    `entries` entries, at most 1 + MAX_PASSAGES of each, in order. A search keeps only these
    before its confidence floor, which copies every hit it is given (a widened ranking has up to
    MAX_FETCH chunks, most of them in no row shown); the verdict reads chunks_judged beside them."""
    kept: dict[tuple[str, int], int] = {}
    shown = []
    for hit in hits:
        key = entry_key(hit)
        if key not in kept:
            if len(kept) == entries:
                continue
            kept[key] = 0
        if kept[key] <= MAX_PASSAGES:
            kept[key] += 1
            shown.append(hit)
    return shown


def chunks_judged(hits: list[ChunkHit], entries: int | None) -> list[ChunkHit]:
    """The chunks whose confidence says whether a page of `entries` rows answers: the first
    chunk_fetch(entries) the search ranked (raw chunks: all), shown in a row or not. The floor
    was fitted on those (bench/confidence_fit.py reads the chunks a default request ranks); on
    the page's own chunks alone, a page whose answer ranked under another entry's chunks was
    refused (USE, DRCD: 3 of 600 test questions with their answer first)."""
    return hits if entries is None else hits[:chunk_fetch(entries)]


def entries_shown(result: SearchResult, entries: int | None) -> SearchResult:
    """`result` holding only the chunks a page of `entries` rows shows (chunks_shown), and how
    many it ranked in `meta.chunks_ranked`; unchanged for raw chunks (`entries` None)."""
    if entries is None:
        return result
    return replace(result, hits=chunks_shown(result.hits, entries),
                   meta=replace(result.meta, chunks_ranked=len(result.hits)))


def rows_by_entry(hits: list[ChunkHit], top_k: int) -> list[ChunkHit]:
    """The first `top_k` rows of hits_by_entry, copying only those (each row is a copy that holds
    its passages)."""
    return hits_by_entry(chunks_shown(hits, top_k))


def entries_grouped(run: Callable[..., SearchResult], access: Any, request: Mapping[str, Any],
                    **kwargs: Any) -> SearchResult:
    """Chunk search `run(access, request, ..., fetch_k=None, entries_k=None)` answering entries
    unless `request` (validated options) says `raw_chunks`: it runs once, ranking `fetch_k` chunks
    and widening its ranking itself (entries_ranked) when they hold fewer than `entries_k` entries;
    its hits are then grouped. `kwargs` go to `run` as they are."""
    if request["raw_chunks"]:
        result = run(access, request, **kwargs)
        return replace(result, meta=replace(result.meta, results="chunks"))
    top_k = request["top_k"]
    result = run(access, request, fetch_k=chunk_fetch(top_k), entries_k=top_k, **kwargs)
    chunks_ranked = len(result.hits) if result.meta.chunks_ranked is None else result.meta.chunks_ranked
    return replace(result, hits=rows_by_entry(result.hits, top_k), top_k=top_k,
                   meta=replace(result.meta, chunks_ranked=chunks_ranked, results="entries"))
