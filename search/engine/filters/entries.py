"""Full-text search's `filter`: the chunk searches' filter language, evaluated on entry rows.

A chunk's metadata is `{"content_type", "status", "source_kind", "fields": {...}}`
(ingestion/sources.py). On the entry row `e` the filter reads the same values where they
are: the fields from `e.data` itself (so a containment test costs what it costs on a
chunk, with no object built per row), and the three other keys from ENTRY_KEYS_SQL, built
only for conditions that name them. So the compiler (search/engine/filters/compile.py) needs no second
dialect: the same keys, operators, codes and status refusal as a chunk search. One
difference, in the entry's favour: chunk metadata holds text cut to 256 characters, the
entry its whole value (`$contains` finds text past the 256th character here).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cms.access import WorkspaceAccess
from ingestion.models import SourceKind
from search.engine.filters.compile import CompiledFilter
from search.engine.filters.scoped import scoped_filter_compile

# The keys of chunk metadata besides the fields, for entry `e` (trusted SQL without
# parameters: the compiler repeats it per condition). The api id is looked up by primary key.
ENTRY_KEYS_SQL = (
    "jsonb_build_object('content_type', (SELECT mct.api_id FROM cms_contenttype mct WHERE mct.id = e.content_type_id),"
    f" 'status', e.status, 'source_kind', '{SourceKind.ENTRY.value}')"
)
ENTRY_FIELDS_SQL = "e.data"


def entry_filter_compile(spec: Any, *, content_type: str | None, access: WorkspaceAccess,
                         schemas: Mapping[str, Sequence[dict]]) -> CompiledFilter:
    """`spec` as a boolean SQL expression over `cms_entry e` (TRUE when there is none).

    Field keys must be fields of `content_type` (an api id the caller has checked) or, when
    None, of any content type in `schemas`. The read policy is not in it: full-text ANDs its
    own. Raises FilterError (400, coded) or SearchError `status_not_visible` (403).
    """
    if spec is None:
        return CompiledFilter("TRUE", [])
    return scoped_filter_compile(spec, column=f"({ENTRY_KEYS_SQL})", fields_column=ENTRY_FIELDS_SQL,
                                 content_type=content_type, access=access, schemas=schemas)
