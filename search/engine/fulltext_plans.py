"""How full-text finds an entry search's rows: the plan (recent scan or gram index), its statements and the facet counts beside them.

How rows are found: the planner cannot know how common a term is inside one workspace, so
the code chooses the plan (measured by bench/fulltext.py):

1. Recent scan: read the newest rows of the workspace through `entry_ws_newest`, up to a
   small budget, and test each one. If that yields the whole page (a common term), or
   covers the whole workspace, the answer is exact and no GIN index is touched. A term in
   half the rows costs ~40 rows here, against thousands of rows through a bitmap. When
   the budget shows the term is fairly common (a third of a page found), one longer scan
   sized from that rate is still cheaper than an index.
2. Otherwise the gram index. `search_grams` holds every character and character pair of
   the entry's values as '<workspace id>:<gram>' (cms migration 0005), so each GIN posting
   list holds one workspace's rows. The tsquery asks for the query's one or two characters,
   or up to GRAM_QUERY_PAIRS of its pairs (likeliest rare first), and the substring test is
   the final check. The statement runs with index walks and sequential scans disabled
   (`SET LOCAL`), leaving only bitmap plans.

What a search may cost, whatever other workspaces hold: it reads only its own workspace's
rows (in the recent scan, at most RECENT_SCAN_MAX_ROWS of its newest rows twice, through a
B-tree keyed by workspace) and, in the index plan, the posting lists of at most
GRAM_QUERY_PAIRS of its own grams and the rows they name. Other workspaces' data only
deepens the B-tree and the GIN entry tree: one page per level per lookup, a level per
~hundredfold growth of the table. bench/tenancy_cost.py measures it: when the other
tenants' data doubles, a search's page reads change by 0.97-1.04x in the index plan and
1.09-1.11x in the recent scan (up to 3.6x with the global trigram index this replaced).
What a large workspace's own data costs is capped by the statement timeout
(SEARCH_STATEMENT_TIMEOUT_MS, search/engine/db/statements.py), answered 503 `search_timeout`.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cms.folding import text_fold
from search.engine.db.statements import SearchCursor, search_cursor
from search.engine.facet_sample import SampledFacets, entry_facet_counts_sampled
from search.engine.facets import EntryFacetSource, entry_facet_counts, facet_counts_shape, facet_counts_sql
from search.engine.filters.compile import CompiledFilter

# or more (3 rows per wanted hit), never fewer than RECENT_SCAN_MIN_ROWS, never more than
# RECENT_SCAN_MAX_ROWS (a few ms of LIKE) for deep pages.
RECENT_SCAN_ROWS_PER_HIT = 3
RECENT_SCAN_MIN_ROWS = 64
RECENT_SCAN_MAX_ROWS = 2_000
# A recent scan whose hit rate is at least this goes on (stopping at the page) for up to
# MARGIN times the rows that rate says a page needs, at most EXTEND_MAX_ROWS. Reaching k
# hits by walking costs ~k/rate rows; a bitmap costs every match in the workspace
# (rate x size). At 4,000 rows a workspace and a page of 21 they cross near 7%.
RECENT_SCAN_EXTEND_MIN_RATE = 0.06
RECENT_SCAN_EXTEND_MARGIN = 2.0
RECENT_SCAN_EXTEND_MAX_ROWS = 1_000
# Character pairs of a 3+ character query put in a gram-index tsquery (see _gram_sample).
GRAM_QUERY_PAIRS = 3
# Did-you-mean: the most corrected queries offered when nothing is found.
_COMMON_LETTERS = frozenset("etaoinshrdlu")
# Characters of context kept before and after the first match in a snippet.


class SearchPlan(enum.StrEnum):
    RECENT_SCAN = "recent_scan"
    GRAM_INDEX = "gram_index"


@dataclass(frozen=True)
class EntryFilters:
    """The caller's predicates on `cms_entry e`: `sql` for the recent scan (the workspace
    predicate drives entry_ws_newest), `beside_grams_sql` for the index statement, and the
    caller's `filter` (`matched`), tested with the substring on each candidate row."""

    workspace_id: int
    sql: str
    params: tuple
    # The workspace-keyed grams already confine the index statement to the workspace, which
    # the planner cannot know: given an indexable workspace predicate, it ANDs in a bitmap of
    # all the workspace's rows from a btree (for a one-gram query, whose rarity it cannot
    # estimate), which never removes a row. `+ 0` keeps the predicate as a check only.
    beside_grams_sql: str
    content_type_id: int | None = None
    # The `filter` option compiled over `e` (search/engine/filters/entries.py); TRUE when not given.
    # It is part of the match, not of the scan's predicates: the recent scan still reads at
    # most its budget of newest rows, and a selective filter sends the search to the index.
    matched: CompiledFilter = CompiledFilter("TRUE", [])
    # The workspace's schemas, when the filter needed them (the facets reuse them).
    schemas: Mapping[str, Any] | None = None


def like_pattern(query: str) -> str:
    """The LIKE pattern of `query`, folded as search_text is (cms.folding.text_fold)."""
    escaped = text_fold(query).replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def _gram_sample(query: str) -> list[str]:
    """The query itself if 1-2 characters, else up to GRAM_QUERY_PAIRS of its character
    pairs, likeliest rare first: every pair of a long query in the tsquery makes the GIN
    scan read the posting lists of common pairs ("an", "の") for no gain, since the
    substring test is the final check anyway."""
    if len(query) <= 2:
        return [query]
    pairs = list(dict.fromkeys(query[i : i + 2] for i in range(len(query) - 1)))
    ranked = sorted(pairs, key=lambda pair: sum(_char_commonness(ch) for ch in pair))
    return ranked[:GRAM_QUERY_PAIRS]


def _char_commonness(ch: str) -> int:
    if ch.isspace():
        return 3
    if ch.lower() in _COMMON_LETTERS or "\u3040" <= ch <= "\u309f":  # hiragana
        return 2
    if ch.isascii() and ch.isalpha():
        return 1
    return 0  # digits, punctuation, kanji, katakana, other scripts


HIT_COLUMNS = "e.id, ct.api_id, ct.fields, e.status, e.created_at, e.updated_at, e.data"

# The recent scan, in one statement: test the newest `budget` rows, count them and the hits,
# and return the hits of the requested page if that settles the answer (enough hits, or
# the whole workspace read). Every read of cms_entry names the workspace, the page's too: on
# Citus the statement then runs on the workspace's shard alone.
_RECENT_SQL = """
    WITH recent AS MATERIALIZED (
        SELECT e.id, e.created_at, {hit} AS hit FROM cms_entry e
        WHERE {filters} ORDER BY e.created_at DESC, e.id DESC LIMIT %s
    ), summary AS (
        SELECT count(*) AS scanned, count(*) FILTER (WHERE hit) AS hits,
               (array_agg(id ORDER BY created_at DESC, id DESC) FILTER (WHERE hit))[%s:%s] AS page
        FROM recent
    )
    SELECT summary.scanned, summary.hits, hit.*
    FROM summary LEFT JOIN LATERAL (
        SELECT {columns} FROM cms_entry e JOIN cms_contenttype ct ON ct.id = e.content_type_id
        WHERE e.id = ANY(summary.page) AND e.workspace_id = %s AND (summary.hits >= %s OR summary.scanned < %s)
    ) AS hit ON true
    ORDER BY hit.created_at DESC, hit.id DESC
"""

# The longer recent scan: walk up to `budget` newest rows but stop at the `wanted`-th hit,
# and return the page's rows. Fewer than `wanted` rows back means "not settled".
_RECENT_UNTIL_SQL = """
    WITH hits AS (
        SELECT e.id, e.created_at FROM (
            SELECT e.id, e.created_at, e.search_text, e.status, e.content_type_id, e.data FROM cms_entry e
            WHERE {filters} ORDER BY e.created_at DESC, e.id DESC LIMIT %s
        ) AS e
        WHERE {hit} LIMIT %s
    )
    SELECT (SELECT count(*) FROM hits), {columns}
    FROM (SELECT id FROM hits ORDER BY created_at DESC, id DESC OFFSET %s) AS page
    JOIN cms_entry e ON e.id = page.id AND e.workspace_id = %s JOIN cms_contenttype ct ON ct.id = e.content_type_id
    ORDER BY e.created_at DESC, e.id DESC
"""

# In force for the index statement alone (search.engine.db.statements sets them in the same message
# and puts back what was there): leave the planner only bitmap plans.
PLANNER_SETTINGS = {
    # Only bitmap plans: no walk of entry_ws_newest (the recent scan just showed matches
    # are sparse there) and no sequential scan.
    "enable_indexscan": "off",
    "enable_seqscan": "off",
    # The pages a search touches are cached. At the default 4.0 the planner ANDs in a
    # 4,000-row workspace btree bitmap to save reading a handful of heap pages, which
    # costs more than it saves when the gram index already holds the workspace.
    "random_page_cost": "1.1",
}


def _hit_test(filters: EntryFilters, *, many: bool = False) -> tuple[str, tuple]:
    """The recent scan's test of one row of `e`, with its params (the LIKE pattern first, an
    array of them when `many`: the query and its variants): the substring, then, only on a
    row that has it, the caller's filter."""
    like = ("e.search_text LIKE ANY (ARRAY(SELECT lower(p) FROM unnest(%s::text[]) AS p))" if many
            else "e.search_text LIKE lower(%s)")
    if filters.matched.sql == "TRUE":
        return like, ()
    return f"(CASE WHEN {like} THEN {filters.matched.sql} ELSE FALSE END)", tuple(filters.matched.params)


def entry_rows_find(
    *, filters: EntryFilters, query: str, limit: int, offset: int, explain: bool = False,
    facets: EntryFacetSource | None = None, also: tuple[str, ...] = (),
) -> tuple[SearchPlan, list, dict[str, dict[str, int]] | None]:
    """(plan, hit rows for offset..offset+limit, plus one more if there is one, facet counts),
    or (plan, EXPLAIN lines of the statement that finds them, None) when `explain`.

    The recent scan first; the gram index when it does not settle the page. The facet counts
    come back only when the index plan found the page: its statement finds every match anyway,
    and counts them in the same pass (_index_with_facets). Otherwise (the recent scan stops at
    the page) they are None and the caller counts them (entry_facets_count)."""
    with search_cursor() as cursor:
        found = _recent_scan(cursor, filters=filters, query=query, limit=limit, offset=offset, explain=explain,
                             also=also)
        if found is not None:
            return SearchPlan.RECENT_SCAN, found, None
        return _gram_index(cursor, filters=filters, query=query, limit=limit, offset=offset, explain=explain,
                           facets=facets, also=also)


def _recent_scan(cursor: SearchCursor, *, filters: EntryFilters, query: str, limit: int, offset: int,
                 explain: bool, also: tuple[str, ...]) -> list | None:
    """The page's rows (or EXPLAIN lines) when the newest rows settle it, else None (the index must)."""
    wanted = offset + limit + 1
    budget = min(max(RECENT_SCAN_MIN_ROWS, RECENT_SCAN_ROWS_PER_HIT * wanted), RECENT_SCAN_MAX_ROWS)
    hit_sql, hit_params = _hit_test(filters, many=bool(also))
    pattern = [like_pattern(text) for text in (query, *also)] if also else like_pattern(query)
    recent_sql = _RECENT_SQL.format(hit=hit_sql, filters=filters.sql, columns=HIT_COLUMNS)
    recent_params = (pattern, *hit_params, *filters.params, budget, offset + 1, wanted,
                     filters.workspace_id, wanted, budget)
    cursor.execute(recent_sql, recent_params)
    rows = cursor.fetchall()
    scanned, hits = rows[0][0], rows[0][1]
    if hits >= wanted or scanned < budget:
        if explain:
            return _explain(cursor, recent_sql, recent_params)
        return [row[2:] for row in rows if row[2] is not None]
    if hits >= RECENT_SCAN_EXTEND_MIN_RATE * scanned:
        until_sql = _RECENT_UNTIL_SQL.format(hit=hit_sql, filters=filters.sql, columns=HIT_COLUMNS)
        longer = min(math.ceil(RECENT_SCAN_EXTEND_MARGIN * scanned * wanted / hits), RECENT_SCAN_EXTEND_MAX_ROWS)
        until_params = (*filters.params, max(longer, budget), pattern, *hit_params, wanted, offset,
                        filters.workspace_id)
        cursor.execute(until_sql, until_params)
        rows = cursor.fetchall()
        if rows and rows[0][0] >= wanted:
            if explain:
                return _explain(cursor, until_sql, until_params)
            return [row[1:] for row in rows]
    return None


def _gram_index(cursor: SearchCursor, *, filters: EntryFilters, query: str, limit: int, offset: int,
                explain: bool, facets: EntryFacetSource | None, also: tuple[str, ...],
                ) -> tuple[SearchPlan, list, dict[str, dict[str, int]] | None]:
    """The index statement: the page (or its EXPLAIN lines), with the facet counts when `facets`."""
    plan = SearchPlan.GRAM_INDEX
    # Each gram's posting list holds this workspace's rows only; the substring test is
    # the final check (strpos: the same test as LIKE, without escaping).
    match_sql, match_params = gram_match(filters.workspace_id, query, also)
    if facets is not None and not explain:
        cursor.execute(*_index_with_facets(filters, facets, match_sql, match_params, limit, offset),
                       local_settings=PLANNER_SETTINGS)
        rows = cursor.fetchall()
        hit_rows = [row[1:-3] for row in rows if row[0] == 0]
        facet_rows = [row[-3:] for row in rows if row[0] == 1]
        return plan, hit_rows, facet_counts_shape(facets.facets, facet_rows)
    index_sql = f"""
        SELECT {HIT_COLUMNS} FROM (
            SELECT e.id, e.content_type_id, e.status, e.created_at, e.updated_at, e.data
            FROM cms_entry e WHERE {filters.beside_grams_sql} AND {match_sql} AND {filters.matched.sql}
            ORDER BY e.created_at DESC, e.id DESC LIMIT %s OFFSET %s
        ) AS e JOIN cms_contenttype ct ON ct.id = e.content_type_id
        ORDER BY e.created_at DESC, e.id DESC
    """
    index_params = (*filters.params, *match_params, *filters.matched.params, limit + 1, offset)
    if explain:
        index_sql = f"EXPLAIN {index_sql}"
    cursor.execute(index_sql, index_params, local_settings=PLANNER_SETTINGS)
    rows = cursor.fetchall()
    if explain:
        return plan, [row[0] for row in rows], None
    return plan, rows, None


def _index_with_facets(filters: EntryFilters, source: EntryFacetSource, match_sql: str, match_params: tuple,
                       limit: int, offset: int) -> tuple[str, list]:
    """The index statement with the facet counts, in one: every entry the grams and the
    substring match is read once into `m` (within the caller's visibility: what every facet
    may count), with whether the page's own predicates take it (`in_page`) and the facets'
    flags; the page is m's newest `in_page` rows, the counts one pass over m
    (search.engine.facets.facet_counts_sql). Rows: (0, HIT_COLUMNS..., NULL, NULL, NULL) for the
    page, newest first, then (1, NULLs..., facet index, value, count). Counting in a statement
    of its own would find the matches again (gram bitmap and substring test): 6-9 ms of
    bench/facets.py's rare words."""
    matches = (f"SELECT e.id, e.content_type_id, e.status, e.created_at, e.updated_at, e.data,"
               f" ({filters.beside_grams_sql} AND {filters.matched.sql}) AS in_page,"
               f" {source.flags_sql} FROM cms_entry e WHERE {source.visible_sql} AND {match_sql}")
    flags = ", ".join(f"f{i}" for i in range(len(source.facets)))
    counts_sql, counts_params = facet_counts_sql(
        source.facets, source_sql=f"SELECT content_type_id AS content_type, status, data AS fields, {flags} FROM m",
        source_params=[], content_type_ids=True)
    no_hit = ", ".join(["NULL"] * len(HIT_COLUMNS.split(",")))
    sql = (f"WITH m AS MATERIALIZED ({matches}),"
           " page AS (SELECT m.id FROM m WHERE m.in_page ORDER BY m.created_at DESC, m.id DESC LIMIT %s OFFSET %s)"
           f" SELECT 0 AS part, {HIT_COLUMNS}, NULL::int AS facet, NULL::text AS value, NULL::bigint AS n"
           " FROM page JOIN m e ON e.id = page.id JOIN cms_contenttype ct ON ct.id = e.content_type_id"
           f" UNION ALL SELECT 1, {no_hit}, c.facet, c.value, c.n FROM ({counts_sql}) AS c"
           " ORDER BY part, created_at DESC, id DESC")
    params = [*filters.params, *filters.matched.params, *source.flags_params, *source.visible_params, *match_params,
              limit + 1, offset, *counts_params]
    return sql, params


def gram_match(workspace_id: int, query: str, also: tuple[str, ...] = ()) -> tuple[str, tuple]:
    """The index-backed match on `cms_entry e`: the workspace's gram posting lists, then the
    substring test (strpos: the same test as LIKE, without escaping). With variants (`also`),
    an OR of each one's match: a BitmapOr of their gram lookups."""
    if also:
        parts = [gram_match(workspace_id, text) for text in (query, *also)]
        return "(" + " OR ".join(f"({sql})" for sql, _ in parts) + ")", tuple(v for _, ps in parts for v in ps)
    # Sampled as typed (hiragana reads as common), then folded as the grams and search_text
    # are (cms.folding.text_fold: one character to one, so a folded pair is the pair folded).
    pairs = [text_fold(pair) for pair in _gram_sample(query)]
    grams_sql = " && ".join(["cms_search_grams_query(%s, %s)"] * len(pairs))
    match_sql = f"e.search_grams @@ ({grams_sql}) AND strpos(e.search_text, lower(%s)) > 0"
    return match_sql, (*(value for pair in pairs for value in (workspace_id, pair)), text_fold(query))


def entry_facets_count(source: EntryFacetSource, filters: EntryFilters, query: str, also: tuple[str, ...], *,
                       exhaustive: bool) -> tuple[dict[str, dict[str, int]], SampledFacets | None]:
    """The facet counts when the page's statement did not count them: a sample's, scaled
    (search/engine/facet_sample.py), unless `exhaustive` or the sample declines; else every match's
    (pinned entries that match count, as any match). Returns the counts and the sample, if one was used."""
    sampled = None
    if not exhaustive:
        sampled = entry_facet_counts_sampled(source=source, workspace_id=filters.workspace_id,
                                             patterns=[like_pattern(text) for text in (query, *also)])
        if sampled is not None:
            return sampled.counts, sampled
    return _facets(source, filters, query, also), None


def _facets(source: EntryFacetSource, filters: EntryFilters, query: str,
            also: tuple[str, ...] = ()) -> dict[str, dict[str, int]]:
    """Counts over every entry the query matches, in a statement of their own, with the same
    index-backed predicate as the index statement (the recent scan found the page)."""
    match_sql, match_params = gram_match(filters.workspace_id, query, also)
    return entry_facet_counts(source=source, match_sql=match_sql, match_params=match_params,
                              local_settings=PLANNER_SETTINGS)


def _explain(cursor: SearchCursor, sql: str, params: tuple) -> list[str]:
    cursor.execute(f"EXPLAIN {sql}", params)
    return [row[0] for row in cursor.fetchall()]
