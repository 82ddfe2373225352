"""A caller's filter checked against the workspace's content types and the caller's read policy, over any metadata column.

Chunk searches (search/engine/filters/chunks.py) compile it over `ingestion_chunk.metadata`;
full-text search (search/engine/filters/entries.py) over the same shape built from the entry row.
Either way a key means the same field, a tags field matches by membership, and asking
for a status the caller may not see is a 403.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext_noop

from cms.access import WorkspaceAccess
from cms.models import EntryStatus, FieldType
from search.contract.errors import SearchError
from search.contract.filter_language import filter_statuses_requested
from search.engine.filters.compile import CompiledFilter, filter_compile


def scoped_filter_compile(spec: Any, *, column: str, content_type: str | None, access: WorkspaceAccess,
                          schemas: Mapping[str, Sequence[dict]], fields_column: str | None = None) -> CompiledFilter:
    """`spec` (search/contract/filter_language.py) compiled over `column` (a trusted SQL expression of the
    metadata shape `{"content_type", "status", "source_kind", "fields": {...}}`; with
    `fields_column`, the fields are read there instead).

    Its field keys must be fields of a content type in scope: `content_type`'s (an api id
    in `schemas`, checked by the caller) or, when None, any of `schemas` (api_id -> fields).
    Raises FilterError with a code and path, or SearchError `status_not_visible` (403).
    The read policy itself is the caller's to AND in.
    """
    in_scope = [schemas[content_type]] if content_type is not None else list(schemas.values())
    field_ids = {spec_["id"] for fields in in_scope for spec_ in fields}
    list_fields = {spec_["id"] for fields in in_scope for spec_ in fields if spec_["type"] == FieldType.TAGS}
    compiled = filter_compile(spec, column=column, field_ids=field_ids, list_fields=list_fields,
                              fields_column=fields_column)
    invisible_statuses_refuse(spec, access)
    return compiled


def invisible_statuses_refuse(spec: Any, access: WorkspaceAccess) -> None:
    """403 `status_not_visible` when the filter asks for a status `access` hides, as the
    full-text search answers `status=draft`.

    The rule is the full-text one, read per condition: naming a hidden status where the
    condition selects it (`status: "draft"`, `$in: ["draft", ...]`, `$ne` under `$not`) is
    refused even beside visible ones (`$in: ["draft", "published"]`, `$or` of both), since
    the answer would silently leave out what was asked for; conditions that exclude it
    (`$ne: "draft"`, `$nin`) only narrow and pass. The visibility predicate is ANDed in
    regardless: this decides whether the caller hears "not for you" instead of an empty list.
    """
    if access.include_drafts:
        return
    for status, path in filter_statuses_requested(spec, statuses=EntryStatus.values):
        if status in EntryStatus.values and not access.may_see_status(status):
            raise SearchError("status_not_visible", gettext_noop("This caller sees %(statuses)s entries only; %(at)s asks for "
                                                                 "status %(asked)r, which is not available (a filter may "
                                                                 "exclude it with $ne or $nin)."),
                              status=403, path=path, statuses=" and ".join(access.entry_statuses), at=path, asked=status)
