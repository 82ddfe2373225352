"""The read policy (cms/access.py) as SQL: the predicate every chunk query ANDs in.

Chunks carry their entry's status in `metadata.status` (kept current by ingestion's sync,
in the same transaction as the entry's save). Asset chunks have no status: whoever may
search the workspace sees them.
"""

from __future__ import annotations

from cms.access import WorkspaceAccess
from cms.models import EntryStatus
from ingestion.models import SourceKind
from search.engine.filters.compile import CompiledFilter


def chunk_visibility_filter(access: WorkspaceAccess, *, alias: str = "c") -> CompiledFilter:
    """TRUE for a caller who sees drafts; else only asset chunks and published entries' chunks."""
    if access.include_drafts:
        return CompiledFilter("TRUE", [])
    return CompiledFilter(
        f"({alias}.source_kind = %s OR ({alias}.metadata ->> 'status') = %s)",
        [SourceKind.ASSET.value, EntryStatus.PUBLISHED.value],
    )


def caller_visibility(access: WorkspaceAccess) -> CompiledFilter | None:
    """What the caller may see as a chunk filter (alias `c`), or None when it sees every chunk:
    the scope of whatever it is told about the workspace's chunks as a whole (the keyword
    dictionary, search.engine.dictionary; pending counts)."""
    return None if access.include_drafts else chunk_visibility_filter(access)
