"""Work one search does for its query once, however often it reruns: the query's vector and the
reranker's relevance of a passage.

A chunk search with facets reruns itself once per constrained facet, with that facet's own
constraint taken off (search.engine.facets.chunk_search_facets, disjunctive counts); an agentic
search reruns every part. The query is the same in every rerun, so its vector is too, and so is
the relevance of a passage already reranked. `query_work_reused` (on each chunk search's `run`)
opens a memo for the call, and the embedding and rerank steps read it: a rerun makes no
provider call for what the first run already paid for.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from contextvars import ContextVar
from typing import Any, TypeVar

T = TypeVar("T")
_MEMO: ContextVar[dict[Hashable, Any] | None] = ContextVar("query_work_memo", default=None)


def query_work_reused(run: Callable[..., T]) -> Callable[..., T]:
    """Run `run` with a memo of its query work (the outermost call opens it, nested ones share it)."""

    @functools.wraps(run)
    def reusing(*args: Any, **kwargs: Any) -> T:
        if _MEMO.get() is not None:
            return run(*args, **kwargs)
        token = _MEMO.set({})
        try:
            return run(*args, **kwargs)
        finally:
            _MEMO.reset(token)

    return reusing


def query_work_memo() -> dict[Hashable, Any] | None:
    """The current search's memo, or None outside one (each call then does its own work)."""
    return _MEMO.get()
