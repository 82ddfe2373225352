"""The keyword leg's candidates from the BM25 index (pg_textsearch), when it is switched on and ready.

The index (ingestion.keywords.BM25_INDEX, over each chunk's terms as text) finds a query's best
chunks with Block-Max WAND without reading a common term's postings. Its scores use statistics
over every workspace in the table, so they only choose candidates: search.engine.legs.keyword
rescores each with the workspace's own statistics, from its postings, and the answer's scores
and order are those of the workspace alone (docs/design/tenancy.md "The BM25 index").

SEARCH_KEYWORD_INDEX (config/settings/search.py): "auto" reads the index once it exists and is
valid (a CREATE INDEX CONCURRENTLY still running, or interrupted, leaves it invalid), "postings"
(the default until the index is measured a win) never does. docs/design/bm25-index.md has the figures.
"""

from __future__ import annotations

import time

from django.conf import settings

from cms.citus_mode import citus_active
from ingestion.models import KeywordText
from ingestion.selectors import keyword_bm25_index_state

TEXT_TABLE = KeywordText._meta.db_table
# Candidates the index proposes for a query, rescored exactly (hybrid asks 50, a page 10-20);
# the postings' leg rescores as many (RESCORE_DEPTH).
BM25_DEPTH = 100
# How long a process trusts what it read of the index's state: a new index is used, or a
# dropped one left, within this many seconds.
STATE_SECONDS = 30.0

_state: dict[str, tuple[float, bool]] = {}


def keyword_bm25_active() -> bool:
    """Whether the keyword leg reads the BM25 index: switched on, the index valid, and not on Citus.

    On Citus, pg_textsearch resolves a query's index when the coordinator parses the statement,
    to the coordinator's (empty) index, and the shard refuses that name ("index ... is not on
    column terms"); a query the coordinator cannot resolve reaches the shard unresolved ("no BM25
    index found"). So there the leg reads the postings, as before (docs/design/bm25-index.md)."""
    if getattr(settings, "SEARCH_KEYWORD_INDEX", "postings") != "auto" or citus_active():
        return False
    now = time.monotonic()
    seen = _state.get("default")
    if seen is None or now - seen[0] > STATE_SECONDS:
        seen = (now, keyword_bm25_index_state() == "valid")
        _state["default"] = seen
    return seen[1]


def keyword_bm25_forget() -> None:
    """Read the index's state again at the next search (after building or dropping it)."""
    _state.clear()


def bm25_candidates_sql() -> str:
    """A statement body listing (`id`) the workspace's `depth` best chunks by the index's BM25 of
    the query's terms. Params: workspace id, the terms joined by spaces, depth.

    `terms <@> 'query'` without the index's name: pg_textsearch resolves the column's index."""
    return (f"SELECT k.chunk_id AS id FROM {TEXT_TABLE} k WHERE k.workspace_id = %s"
            " ORDER BY k.terms <@> %s::text LIMIT %s")
