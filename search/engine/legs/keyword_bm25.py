"""The keyword leg's candidates from a workspace's own BM25 index (pg_textsearch), when switched on and ready.

A workspace's index (ingestion.keywords.bm25_workspace_index, partial to its rows) finds a
query's best chunks with Block-Max WAND without reading a common term's postings. Its
statistics are the workspace's own, so which chunks are candidates depends on the workspace
alone; its scores are not quite ours (float4, quantised lengths, CJK unigrams in the length,
deleted rows until a merge), so search.engine.legs.keyword rescores each candidate exactly
from the postings, and the answer's scores and order are those of the workspace alone
(docs/design/tenancy.md "The BM25 index").

SEARCH_KEYWORD_INDEX (config/settings/search.py): "auto" reads a workspace's index once it
exists and is valid (a CREATE INDEX CONCURRENTLY still running, or interrupted, leaves it
invalid; a workspace without one reads the postings), "postings" never does.
docs/design/bm25-index.md has the figures.
"""

from __future__ import annotations

import time

from django.conf import settings

from cms.citus_mode import citus_active
from ingestion.models import KeywordText
from ingestion.keywords import bm25_workspace_index
from ingestion.selectors import keyword_bm25_index_state

TEXT_TABLE = KeywordText._meta.db_table
# Candidates the index proposes for a query, rescored exactly (hybrid asks 50, a page 10-20);
# the postings' leg rescores as many (RESCORE_DEPTH).
BM25_DEPTH = 100
# How long a process trusts what it read of the index's state: a new index is used, or a
# dropped one left, within this many seconds.
STATE_SECONDS = 30.0

_state: dict[int, tuple[float, bool]] = {}


def keyword_bm25_active(workspace_id: int) -> bool:
    """Whether the keyword leg reads the workspace's own BM25 index: switched on, the index valid,
    and not on Citus.

    On Citus, pg_textsearch resolves a query's index when the coordinator parses the statement,
    to the coordinator's (empty) index, and the shard refuses that name ("index ... is not on
    column terms"); a query the coordinator cannot resolve reaches the shard unresolved ("no BM25
    index found"). So there the leg reads the postings, as before (docs/design/bm25-index.md)."""
    if getattr(settings, "SEARCH_KEYWORD_INDEX", "postings") != "auto" or citus_active():
        return False
    now = time.monotonic()
    seen = _state.get(workspace_id)
    if seen is None or now - seen[0] > STATE_SECONDS:
        seen = (now, keyword_bm25_index_state(bm25_workspace_index(workspace_id)) == "valid")
        _state[workspace_id] = seen
    return seen[1]


def keyword_bm25_forget() -> None:
    """Read the indexes' state again at the next search (after building or dropping one)."""
    _state.clear()


def bm25_candidates_sql(workspace_id: int) -> str:
    """A statement body listing (`id`) the workspace's `depth` best chunks by its own index's BM25
    of the query's terms. Params: workspace id, the terms joined by spaces, depth.

    The index is named (a partial index is only read by name); the name is built from the
    workspace's integer id."""
    return (f"SELECT k.chunk_id AS id FROM {TEXT_TABLE} k WHERE k.workspace_id = %s"
            f" ORDER BY k.terms <@> to_bm25query(%s, '{bm25_workspace_index(workspace_id)}') LIMIT %s")
