"""Work one search does for its query once, however often it reruns: the query's vector and the
reranker's relevance of a passage.

A chunk search with facets reruns itself once per constrained facet, with that facet's own
constraint taken off (search.engine.facets.chunk_search_facets, disjunctive counts); an agentic
search reruns every part. The query is the same in every rerun, so its vector is too, and so is
the relevance of a passage already reranked. `with query_work_reused():` (in each chunk search's
`run`) opens a memo for the call, and the embedding and rerank steps read it: a rerun makes no
provider call for what the first run already paid for.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

_MEMO: ContextVar[dict[Hashable, Any] | None] = ContextVar("query_work_memo", default=None)


@contextmanager
def query_work_reused() -> Iterator[None]:
    """A memo of the query work done inside the block (the outermost block opens it, nested ones share it)."""
    if _MEMO.get() is not None:
        yield
        return
    token = _MEMO.set({})
    try:
        yield
    finally:
        _MEMO.reset(token)


def query_work_memo() -> dict[Hashable, Any] | None:
    """The current search's memo, or None outside one (each call then does its own work)."""
    return _MEMO.get()
