"""Facet counts: how the matches of a search split by content type, status and facetable fields.

What is counted (docs/design/facets.md): every entry that matches within the caller's
visibility, each once. Full-text: every entry matching the query (not just the page).
Chunk searches (semantic, hybrid, agentic): the entries of the search's candidate pool that
score at least `min_score` (semantic: the `ef_search` nearest chunks; hybrid: every fused
candidate; agentic: every part's). Counts are disjunctive: a facet whose own key the
request constrains (`content_type`, `status`, or a top-level filter condition on the field)
is counted as if that constraint were not there.

A field is facetable when its schema says `facet: true` (cms.schemas): text (the first
FACET_TEXT_CHARS characters), tags (each tag), booleans, numbers (into the schema's
`facet_ranges`) and dates (by month, YYYY-MM). Each facet returns its top MAX_FACET_VALUES
values and, when there are more, an "other" count (the sum of the rest; a tagged entry
counts once per tag).

All facets are counted in ONE statement over rows with the entry's content type, status
and fields (from chunk metadata or from the entry): see facet_counts_sql.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_noop

from cms.citus_mode import workspace_unindexed
from cms.models import FieldType
from cms.text_numbers import month_from_text
from search.contract.errors import SearchInputError
from search.contract.filter_language import FIELD_PREFIX, RESERVED_KEYS
from search.contract.option_fields import MAX_FACETS  # noqa: F401 - the limit, declared with the option

BUILTIN_FACETS = ("content_type", "status")
MAX_FACET_VALUES = 20
FACET_TEXT_CHARS = 100
OTHER = "other"


@dataclass(frozen=True)
class Facet:
    name: str
    kind: str  # "builtin" or a FieldType value
    ranges: tuple[float, ...] = ()


def facetable_fields(schemas: Mapping[str, Sequence[dict]]) -> dict[str, Facet]:
    """The fields whose schema says `facet: true`, in schema order (the first content type
    that declares a field id gives its type and ranges)."""
    facetable: dict[str, Facet] = {}
    for fields in schemas.values():
        for spec in fields:
            if spec.get("facet") and spec["id"] not in facetable and spec["id"] not in BUILTIN_FACETS:
                facetable[spec["id"]] = Facet(spec["id"], spec["type"], tuple(spec.get("facet_ranges") or ()))
    return facetable


def facets_resolve(names: Sequence[str], schemas: Mapping[str, Sequence[dict]]) -> list[Facet]:
    """The facets asked for, checked against the workspace's schemas (`unknown_facet` otherwise)."""
    facetable = facetable_fields(schemas)
    resolved = []
    for name in names:
        if name in BUILTIN_FACETS:
            resolved.append(Facet(name, "builtin"))
        elif name in facetable:
            resolved.append(facetable[name])
        else:
            listed = ", ".join([*BUILTIN_FACETS, *sorted(facetable)])
            raise SearchInputError("unknown_facet", gettext_noop("%(name)r is not a facet of this workspace; facets: "
                                                                 "%(facets)s (a field is a facet when its schema says "
                                                                 "facet: true)."), path="facets", name=str(name)[:80],
                                   facets=listed)
    return resolved


def _range_label(low: float | None, high: float | None) -> str:
    def text(x: float) -> str:
        return str(int(x)) if float(x).is_integer() else str(x)
    if low is None:
        return f"<{text(high)}"
    if high is None:
        return f">={text(low)}"
    return f"{text(low)}-{text(high)}"


def facet_value_condition(facet: Facet, value: str) -> Any:
    """The filter condition (search/contract/filter_language.py) on the facet's key that selects the entries
    counted under `value`, one of its labels: the inverse of how the facet labels a value.

    Tags: `{"$in": [tag]}`; a number range: `{"$gte": low, "$lt": high}`; a month:
    `{"$gte": "2024-05-01", "$lt": "2024-06-01"}`; a boolean: true or false; text: the value
    (a label of FACET_TEXT_CHARS characters may be the start of a longer value: `$contains`).
    SearchInputError `facet_value_invalid` for a label the facet never gives (a hand-edited URL).
    """
    def refuse() -> SearchInputError:
        return SearchInputError("facet_value_invalid", gettext_noop("%(value)r is not a value of facet %(facet)s."),
                                path=f"facets.{facet.name}", value=value[:40], facet=facet.name)

    if facet.kind == "builtin" or facet.kind == FieldType.TEXT:
        if facet.kind == FieldType.TEXT and len(value) >= FACET_TEXT_CHARS:
            return {"$contains": value}
        return value
    if facet.kind == FieldType.TAGS:
        return {"$in": [value]}
    if facet.kind == FieldType.BOOLEAN:
        if value not in ("true", "false"):
            raise refuse()
        return value == "true"
    if facet.kind == FieldType.DATE:
        month_and_next = month_from_text(value)
        if month_and_next is None:
            raise refuse()
        month, following = month_and_next
        return {"$gte": month.isoformat(), "$lt": following.isoformat()}
    if facet.kind == FieldType.NUMBER:
        if facet.ranges:
            bounds = [None, *facet.ranges, None]
            for low, high in zip(bounds, bounds[1:]):
                if _range_label(low, high) == value:
                    return {**({"$gte": low} if low is not None else {}), **({"$lt": high} if high is not None else {})}
            raise refuse()
        try:
            number = float(value)
        except ValueError:
            raise refuse() from None
        if not math.isfinite(number):
            raise refuse()
        return int(number) if number.is_integer() else number
    raise refuse()


def _value_sql(facet: Facet, params: list[Any]) -> tuple[str, bool]:
    """(SQL over the source's columns `content_type`, `status` (text) and `fields` (jsonb),
    is_list): the facet's text value for one entry, or, when is_list, a jsonb array of its
    values (params appended in placeholder order)."""
    if facet.kind == "builtin":
        return facet.name, False  # a column of the source, named by the trusted facet name
    def ref(text: bool = False) -> str:
        params.append(facet.name)
        return "(fields ->> %s)" if text else "(fields -> %s)"

    if facet.kind == FieldType.TAGS:
        return f"CASE WHEN jsonb_typeof({ref()}) = 'array' THEN {ref()} ELSE jsonb_build_array({ref()}) END", True
    if facet.kind == FieldType.TEXT:
        return f"left({ref(text=True)}, {FACET_TEXT_CHARS})", False
    if facet.kind == FieldType.DATE:
        return f"left({ref(text=True)}, 7)", False
    if facet.kind == FieldType.NUMBER:
        if not facet.ranges:
            return f"CASE WHEN jsonb_typeof({ref()}) = 'number' THEN {ref(text=True)} END", False
        sql = f"CASE WHEN jsonb_typeof({ref()}) <> 'number' THEN NULL"
        bounds = [None, *facet.ranges, None]
        for low, high in zip(bounds, bounds[1:]):
            conditions = []
            if low is not None:
                conditions.append(f"{ref()}::numeric >= {float(low)!r}")
            if high is not None:
                conditions.append(f"{ref()}::numeric < {float(high)!r}")
            sql += f" WHEN {' AND '.join(conditions)} THEN '{_range_label(low, high)}'"
        return sql + " END", False
    return ref(text=True), False  # boolean: 'true' / 'false'


def facet_counts_sql(facets: Sequence[Facet], *, source_sql: str, source_params: Sequence[Any],
                     content_type_ids: bool = False) -> tuple[str, list[Any]]:
    """One statement: `source_sql` yields one row per entry (or asset) with text columns
    `content_type` and `status`, a jsonb `fields`, and, per facet i, a boolean column `f<i>`
    (whether the row counts for that facet: the other facets' constraints). Returns (sql,
    params) of rows (facet index, value, count). With `content_type_ids`, the source's
    `content_type` is the content type's id, named after counting (no join per row).

    Every facet is counted in ONE pass over the rows: GROUP BY GROUPING SETS, one set per
    facet, each counting only its own rows (`count(*) FILTER (WHERE f<i>)`). A tags facet is
    grouped by the entry's whole list, and the few groups are expanded into tags after.
    Each earlier shape cost more over 20,000 matching entries (bench/facets.py, full-text):
    a jsonb document per entry expanded by a lateral set function (140 ms of a 170 ms
    statement); the fields materialised whole (6 MB, spilled to disk, parsed again per
    facet); the values materialised and grouped once per facet (61 ms against 41 ms now, of
    which 28 ms are finding the matches: docs/design/facets.md)."""
    params: list[Any] = []
    values, counts, is_lists = [], [], []
    for i, facet in enumerate(facets):
        value, is_list = _value_sql(facet, params)
        values.append(f"{value} AS v{i}, s.f{i}")
        counts.append(f"count(*) FILTER (WHERE f{i}) AS n{i}")
        is_lists.append(is_list)
    names = [f"v{i}" for i in range(len(facets))]
    grouped = (f"SELECT grouping({', '.join(names)}) AS grouping_set, {', '.join(names)}, {', '.join(counts)}"
               f" FROM (SELECT {', '.join(values)} FROM ({source_sql}) AS s) AS t"
               f" GROUP BY GROUPING SETS ({', '.join(f'({name})' for name in names)})")
    branches = []
    for i, is_list in enumerate(is_lists):
        # grouping() has a bit per argument, the first the highest, set when the argument is
        # not grouped in the row's set: facet i's set leaves every bit set but its own.
        own_set = ((1 << len(facets)) - 1) & ~(1 << (len(facets) - 1 - i))
        if facets[i].name == "content_type" and content_type_ids:
            branches.append(f"SELECT {i} AS facet, ct.api_id::text AS value, n{i} AS n FROM g"
                            f" JOIN cms_contenttype ct ON ct.id = g.v{i} WHERE g.grouping_set = {own_set} AND n{i} > 0")
        elif is_list:
            branches.append(f"SELECT {i} AS facet, v AS value, sum(n{i})::bigint AS n FROM g"
                            f" CROSS JOIN LATERAL jsonb_array_elements_text(g.v{i}) AS v"
                            f" WHERE g.grouping_set = {own_set} AND n{i} > 0 AND v IS NOT NULL GROUP BY v")
        else:
            branches.append(f"SELECT {i} AS facet, v{i}::text AS value, n{i} AS n FROM g"
                            f" WHERE g.grouping_set = {own_set} AND n{i} > 0 AND v{i} IS NOT NULL")
    sql = f"WITH g AS ({grouped}) " + " UNION ALL ".join(branches)
    return sql, [*params, *source_params]


def facet_counts_shape(facets: Sequence[Facet], rows: Sequence[tuple[int, str, int]]) -> dict[str, dict[str, int]]:
    """{facet: {value: count}}, top MAX_FACET_VALUES by count (then value), plus "other"."""
    grouped: dict[int, list[tuple[str, int]]] = {i: [] for i in range(len(facets))}
    for index, value, count in rows:
        grouped[index].append((value, count))
    answer: dict[str, dict[str, int]] = {}
    for i, facet in enumerate(facets):
        ordered = sorted(grouped[i], key=lambda vc: (-vc[1], vc[0]))
        top = dict(ordered[:MAX_FACET_VALUES])
        rest = sum(count for _, count in ordered[MAX_FACET_VALUES:])
        if rest:
            top[OTHER] = rest
        answer[facet.name] = top
    return answer


def filter_without_key(spec: Any, name: str) -> Any:
    """The filter without its top-level conditions on facet `name` (disjunctive counting)."""
    if not isinstance(spec, dict):
        return spec
    keys = {name, FIELD_PREFIX + name} if name not in RESERVED_KEYS else {name}
    rest = {key: value for key, value in spec.items() if key not in keys}
    return rest or None


def facet_is_constrained(facet: Facet, request: Mapping[str, Any]) -> bool:
    if facet.name == "content_type" and request.get("content_type") is not None:
        return True
    if facet.name == "status" and request.get("status") is not None:
        return True
    return filter_without_key(request.get("filter"), facet.name) != (request.get("filter") or None)


def chunk_facet_counts(*, workspace_id: int, facets: Sequence[Facet],
                       pools: Sequence[Sequence[int]]) -> dict[str, dict[str, int]]:
    """Counts over candidate pools of chunk ids (pools[i]: facet i's pool), each entry (or
    asset) once, in one statement."""
    if not facets:
        return {}
    union = sorted(set().union(*map(set, pools)))
    if all(set(pool) == set(pools[0]) for pool in pools):
        # The common case (no facet constrained): one pool, no per-facet membership test.
        flags, flag_params = ", ".join(f"TRUE AS f{i}" for i in range(len(facets))), []
    else:
        flags = ", ".join(f"bool_or(c.id = ANY(%s::bigint[])) AS f{i}" for i in range(len(facets)))
        flag_params = [list(pool) for pool in pools]
    # Each entry (or asset) once, with its first chunk's metadata (every chunk of an entry
    # carries the same content type, status and fields).
    source = (f"SELECT m ->> 'content_type' AS content_type, m ->> 'status' AS status, m -> 'fields' AS fields,"
              f" {', '.join(f'f{i}' for i in range(len(facets)))} FROM ("
              f"SELECT (array_agg(c.metadata))[1] AS m, {flags} FROM ingestion_chunk c "
              "WHERE c.workspace_id = %s AND c.id = ANY(%s::bigint[]) GROUP BY c.entry_id, c.asset_id) AS one")
    sql, params = facet_counts_sql(facets, source_sql=source, source_params=[*flag_params, workspace_id, union])
    from search.engine.db.statements import search_cursor  # noqa: PLC0415 - statements imports the settings chain late

    with search_cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    return facet_counts_shape(facets, rows)


def chunk_search_facets(*, access: Any, request: Mapping[str, Any], pool: Sequence[int],
                        rerun: Any) -> dict[str, dict[str, int]] | None:
    """The `facets` of a chunk search's answer, or None when none were asked for.

    `pool`: the answer's candidate chunk ids above min_score; `rerun(options)` runs the
    same search with other options and returns its pool (for a constrained facet, without
    its own constraint: disjunctive counts).
    """
    names = request.get("facets") or []
    if not names:
        return None
    from cms.selectors import content_type_schemas  # noqa: PLC0415

    facets = facets_resolve(names, content_type_schemas(workspace=access.workspace))
    pools = []
    for facet in facets:
        if facet_is_constrained(facet, request):
            widened = {**request, "facets": None, "filter": filter_without_key(request.get("filter"), facet.name)}
            if facet.name == "content_type":
                widened["content_type"] = None
            pools.append(rerun(widened))
        else:
            pools.append(pool)
    return chunk_facet_counts(workspace_id=access.workspace.pk, facets=facets, pools=pools)


@dataclass(frozen=True)
class EntryFacetSource:
    """What full-text's facet counts read from `cms_entry e`: `visible_sql` (the workspace and
    the caller's visibility: every row any facet may count) and `flags_sql`, the select list
    of one boolean `f<i>` per facet (whether a row counts for facet i: the request's other
    constraints), each with its params."""

    facets: tuple[Facet, ...]
    visible_sql: str
    visible_params: tuple[Any, ...]
    flags_sql: str
    flags_params: tuple[Any, ...]


def entry_facet_source(*, access: Any, facets: Sequence[Facet], content_type_id: int | None, status: str | None,
                       matched: Sequence[Any] | None = None) -> EntryFacetSource:
    """The content_type/status options narrow every facet but their own, and `matched[i]` (a
    CompiledFilter over `e`: the caller's filter without facet i's own condition) narrows facet i."""
    # `+ 0`: the workspace-keyed grams of the match already confine the rows (search/engine/fulltext.py).
    visible, visible_params = [f"{workspace_unindexed('e')} = %s"], [access.workspace.pk]
    if not access.include_drafts:
        visible.append("e.status = %s")
        visible_params.append("published")
    constraints = {"content_type": ("e.content_type_id = %s", content_type_id), "status": ("e.status = %s", status)}
    flags, flag_params = [], []
    for i, facet in enumerate(facets):
        others = [(sql, value) for name, (sql, value) in constraints.items() if value is not None and name != facet.name]
        conditions = [sql for sql, _ in others]
        flag_params.extend(value for _, value in others)
        if matched is not None and matched[i].sql != "TRUE":
            conditions.append(matched[i].sql)
            flag_params.extend(matched[i].params)
        flags.append(f"({' AND '.join(conditions) or 'TRUE'}) AS f{i}")
    return EntryFacetSource(tuple(facets), " AND ".join(visible), tuple(visible_params), ", ".join(flags),
                            tuple(flag_params))


def entry_facet_counts(*, source: EntryFacetSource, match_sql: str, match_params: Sequence[Any],
                       local_settings: Mapping[str, str] | None = None) -> dict[str, dict[str, int]]:
    """Full-text: counts over every entry matching (`match_sql` over `e`, index-backed) within
    the caller's visibility, in one statement."""
    rows_sql = (f"SELECT e.content_type_id AS content_type, e.status AS status, e.data AS fields, {source.flags_sql}"
                f" FROM cms_entry e WHERE {source.visible_sql} AND {match_sql}")
    sql, params = facet_counts_sql(source.facets, source_sql=rows_sql, content_type_ids=True,
                                   source_params=[*source.flags_params, *source.visible_params, *match_params])
    from search.engine.db.statements import search_cursor  # noqa: PLC0415

    with search_cursor() as cursor:
        cursor.execute(sql, params, local_settings=local_settings)
        rows = cursor.fetchall()
    return facet_counts_shape(source.facets, rows)
