"""Promoted results (editors' picks): entries pinned to a query phrase come first, marked `promoted`.

The one lookup every search kind makes (`promoted_entry_ids`), after its own ranking:
full-text puts the pinned entries at the top of its first page (search/engine/fulltext.py builds
their rows); the chunk searches put each pinned entry's best chunk first
(`promotions_apply_chunks`): its best-scoring chunk in the answer's candidates, else its
first chunk. Only entries the caller may see are ever pinned into an answer: the lookup
applies the read policy (a viewer or a published-only key never gets a pinned draft), the
content type asked for, and for chunk searches the whole chunk filter. The query is matched
normalised like the phrase's stored key, `phrase_key` (cms.models.promotion_phrase_normalise:
NFKC, case, script variants, whitespace). Statements run through search_cursor (a replica when
configured).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from cms.access import WorkspaceAccess
from cms.models import PromotionMatch, promotion_phrase_normalise
from search.engine.filters.chunks import chunk_filter_for
from search.contract.results import ChunkHit, SearchResult, json_object
from search.engine.db.statements import search_cursor


def promoted_entry_ids(*, access: WorkspaceAccess, query: str, content_type_id: int | None = None,
                       status: str | None = None) -> list[int]:
    """The entries pinned to `query` that `access` may see, in the editors' order."""
    phrase = promotion_phrase_normalise(query)
    if not phrase:
        return []
    # "is": the phrase is the query; "contains": the phrase is in it (a workspace's promotions
    # are few, and the equality alone still uses the unique index's workspace prefix).
    sql = ["p.workspace_id = %s", "(p.phrase_key = %s OR (p.match = %s AND strpos(%s, p.phrase_key) > 0))",
           "e.status = ANY(%s)"]
    params: list[Any] = [access.workspace.pk, phrase, PromotionMatch.CONTAINS, phrase, list(access.entry_statuses)]
    if content_type_id is not None:
        sql.append("e.content_type_id = %s")
        params.append(content_type_id)
    if status is not None:
        sql.append("e.status = %s")
        params.append(status)
    with search_cursor() as cursor:
        cursor.execute(
            "SELECT p.entry_id FROM cms_promotion p JOIN cms_entry e ON e.id = p.entry_id"
            f" AND e.workspace_id = p.workspace_id WHERE {' AND '.join(sql)} ORDER BY p.position, p.id",
            params,
        )
        return list(dict.fromkeys(row[0] for row in cursor.fetchall()))


def promotions_apply_chunks(result: SearchResult, *, access: WorkspaceAccess,
                            request: Mapping[str, Any]) -> SearchResult:
    """The answer with each pinned entry's best chunk first (promoted), the rest after, top_k in all."""
    entry_ids = promoted_entry_ids(access=access, query=request["query"])
    if not entry_ids:
        return result
    best: dict[int, ChunkHit] = {}
    for hit in result.hits:
        if hit.entry_id in entry_ids and hit.entry_id not in best:
            best[hit.entry_id] = hit
    missing = [entry_id for entry_id in entry_ids if entry_id not in best]
    if missing:
        # Under `min_score`, a pinned entry is shown by a chunk that reached it (the answer's
        # pool), or not at all: a floor the caller set holds for pins too.
        within = None if request.get("min_score") is None else result.pool
        best.update(_first_chunks(access=access, request=request, entry_ids=missing, within=within))
    pinned = [replace(best[entry_id], promoted=True) for entry_id in entry_ids if entry_id in best]
    if not pinned:
        return result
    taken = {hit.id for hit in pinned}
    rest = [hit for hit in result.hits if hit.id not in taken]
    return replace(result, hits=[*pinned, *rest][: result.top_k])


def _first_chunks(*, access: WorkspaceAccess, request: Mapping[str, Any], entry_ids: Sequence[int],
                  within: Sequence[int] | None = None) -> dict[int, ChunkHit]:
    """Each entry's first chunk that the search's filter, content type and the caller's
    visibility allow, among the chunk ids `within` when given (an entry none of whose chunks
    pass is not pinned)."""
    where = chunk_filter_for(access=access, spec=request.get("filter"), content_type=request.get("content_type"))
    among = "" if within is None else " AND c.id = ANY(%s)"
    with search_cursor() as cursor:
        cursor.execute(
            "SELECT DISTINCT ON (c.entry_id) c.id, c.text, c.title, c.field, c.ordinal, c.source_kind, c.entry_id,"
            " c.asset_id, c.metadata FROM ingestion_chunk c"
            f" WHERE c.workspace_id = %s AND c.entry_id = ANY(%s){among} AND {where.sql}"
            " ORDER BY c.entry_id, c.field, c.ordinal",
            [access.workspace.pk, list(entry_ids), *([] if within is None else [list(within)]), *where.params],
        )
        rows = cursor.fetchall()
    return {
        row[6]: ChunkHit(id=row[0], score=0.0, text=row[1], title=row[2], field=row[3], ordinal=row[4],
                         source_kind=row[5], entry_id=row[6], asset_id=row[7], metadata=json_object(row[8]))
        for row in rows
    }
