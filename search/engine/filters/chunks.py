"""The one predicate every chunk search ANDs in: the caller's filter, the content type and the read policy.

Both legs of a search (vectors and keywords) call `chunk_filter_compile`, so a filter means
the same thing on each. `chunk_filter_compile` is pure (no database access): the caller reads the workspace's
schemas once and passes them in; `chunk_filter_for` does that read, when it is needed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext_noop

from cms.access import WorkspaceAccess
from cms.selectors import content_type_schemas
from search.contract.errors import SearchInputError
from search.engine.filters.compile import CompiledFilter
from search.engine.filters.scoped import scoped_filter_compile
from search.engine.filters.visibility import chunk_visibility_filter


def chunk_filter_compile(
    spec: Any,
    *,
    content_type: Any,
    access: WorkspaceAccess,
    schemas: Mapping[str, Sequence[dict]],
    alias: str = "c",
) -> CompiledFilter:
    """A boolean SQL expression over the chunk alias `alias` (trusted, from code).

    - `spec`: the caller's metadata filter (search/contract/filter_language.py); its field keys must be fields
      of a content type in scope: the one named by `content_type`, or any of `schemas`
      (api_id -> fields, the workspace's content types);
    - `content_type`: an api id or None; an id not in `schemas` is `unknown_content_type`;
    - `access`: what the caller may see (drafts or not), always ANDed in.

    `schemas` may be empty when `spec` is empty and `content_type` is None (nothing to check).
    Raises SearchInputError (a FilterError for the filter) with a code and, for a filter, the
    path of the bad part; SearchError `status_not_visible` (403) for a filter that asks for
    a status the caller may not see.
    """
    if content_type is not None and (not isinstance(content_type, str) or content_type not in schemas):
        raise SearchInputError("unknown_content_type", gettext_noop("This workspace has no content type %(content_type)r."),
                               content_type=str(content_type)[:80])
    compiled = scoped_filter_compile(spec, column=f"{alias}.metadata", content_type=content_type, access=access,
                                     schemas=schemas)
    parts = [part for part in (chunk_visibility_filter(access, alias=alias), compiled) if part.sql != "TRUE"]
    if content_type is not None:
        parts.insert(0, CompiledFilter(f"({alias}.metadata ->> 'content_type') = %s", [content_type]))
    if not parts:
        return CompiledFilter("TRUE", [])  # every chunk passes (the vector leg counts on the spelling)
    return CompiledFilter(
        "(" + " AND ".join(part.sql for part in parts) + ")", [p for part in parts for p in part.params]
    )


def chunk_filter_needs_schemas(spec: Any, content_type: Any) -> bool:
    """Whether chunk_filter_compile will read `schemas` (callers skip the query otherwise)."""
    return content_type is not None or spec not in (None, {})


def chunk_filter_for(*, access: WorkspaceAccess, spec: Any, content_type: Any) -> CompiledFilter:
    """The caller's filter, ANDed with the content type and what the caller may see, as every
    chunk search applies it; the workspace's schemas are read only when the filter or the
    content type needs them."""
    schemas = content_type_schemas(workspace=access.workspace) if chunk_filter_needs_schemas(spec, content_type) else {}
    return chunk_filter_compile(spec, content_type=content_type, access=access, schemas=schemas)
