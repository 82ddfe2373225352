"""Search insights: what a workspace's search log (search/models.py) says about its searches.

Selectors over one workspace's log rows of the last `days` days: the top queries, the queries
that found nothing, those whose results are rarely opened, the slowest, and searches per day.
They read the primary (the ORM's router), only the workspace's own rows (every statement
filters on workspace_id, the leading column of the tables' keys and index), and only what the
log holds: normalised, redacted queries and counts, never who searched.

`popular_queries` and `zero_result_queries` are what other pages pick queries from (the
promotions page's "choose from popular queries").

Suggest's rows (kind "suggest": completions of what was typed so far, logged for its metrics)
are not searches: a search box asks for one per keystroke, and a prefix that completes to
nothing is not a query that found nothing. Every figure here leaves them out (`_SEARCHES`).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta

from django.db import connection
from django.utils import timezone

from cms.csv_cells import csv_cell_neutralise
from cms.access import workspace_access_for_operator
from cms.models import Workspace
from search.engine.filters.visibility import chunk_visibility_filter
from search.engine.words_held import entries_holding_count, word_clauses

DEFAULT_DAYS = 30
MAX_DAYS = 366
LIST_LIMIT = 20
CSV_LIMIT = 10_000
# "Low click-through" means low: a query (in one mode) searched with results at least
# LOW_CLICK_THROUGH_MIN_SEARCHES times, in fewer than LOW_CLICK_THROUGH_BELOW of which a
# result was opened. A query at 50% is not on the list.
LOW_CLICK_THROUGH_MIN_SEARCHES = 3
LOW_CLICK_THROUGH_BELOW = 0.20
# The log rows that are searches: every statement below reads only these (see the docstring).
_SEARCHES = "workspace_id = %(ws)s AND created_at >= %(since)s AND kind <> 'suggest'"


@dataclass(frozen=True)
class QueryStats:
    """One normalised query in one mode (full-text, semantic, hybrid, agentic) over the period:
    the modes answer differently, so their figures are never added together."""

    query: str
    mode: str
    searches: int
    zero_results: int  # searches that found nothing
    average_results: float
    clicked: int  # searches with at least one click
    median_ms: float
    max_ms: float
    last_seen: datetime

    @property
    def answered(self) -> int:
        """Searches that returned results."""
        return self.searches - self.zero_results

    @property
    def click_through(self) -> float:
        """Share of the searches that returned results in which a result was opened."""
        return self.clicked / self.answered if self.answered else 0.0

    def as_dict(self) -> dict:
        return {"query": self.query, "mode": self.mode, "searches": self.searches, "zero_results": self.zero_results,
                "average_results": round(self.average_results, 2), "clicked": self.clicked,
                "click_through": round(self.click_through, 4), "median_ms": round(self.median_ms, 2),
                "max_ms": round(self.max_ms, 2), "last_seen": self.last_seen.isoformat()}


@dataclass(frozen=True)
class DayCount:
    day: date
    searches: int
    zero_results: int


@dataclass(frozen=True)
class Insights:
    workspace: Workspace
    days: int
    since: datetime
    searches: int
    zero_results: int
    clicked: int
    callers: int
    distinct_queries: int
    top_queries: list[QueryStats]
    zero_result_queries: list[QueryStats]
    low_click_through: list[QueryStats]
    slowest: list[QueryStats]
    per_day: list[DayCount]
    by_interface: dict[str, int]
    by_mode: dict[str, int]
    # Queries that found nothing although published entries hold every word: the confidence
    # floor refused them (or a search ranked by meaning found nothing near); not missing content.
    no_good_match_queries: list[QueryStats] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {
            "workspace": self.workspace.slug, "days": self.days, "since": self.since.isoformat(),
            "searches": self.searches, "zero_results": self.zero_results, "clicked": self.clicked,
            "callers": self.callers, "distinct_queries": self.distinct_queries, "by_interface": self.by_interface,
            "by_mode": self.by_mode,
            "top_queries": [q.as_dict() for q in self.top_queries],
            "zero_result_queries": [q.as_dict() for q in self.zero_result_queries],
            "no_good_match_queries": [q.as_dict() for q in self.no_good_match_queries],
            "low_click_through": [q.as_dict() for q in self.low_click_through],
            "slowest": [q.as_dict() for q in self.slowest],
            "per_day": [{"day": d.day.isoformat(), "searches": d.searches, "zero_results": d.zero_results}
                        for d in self.per_day],
        }


def _since(days: int, now: datetime | None) -> datetime:
    """Midnight UTC `days - 1` days ago: the period is whole days, today included."""
    now = (now or timezone.now()).astimezone(UTC)
    return (now - timedelta(days=days - 1)).replace(hour=0, minute=0, second=0, microsecond=0)


# Per query and mode: its searches in the period, each joined to whether it had a click. A query
# is its folded form (query_key: 退貨 and 退货 are one), shown as it was most often typed.
_PER_QUERY = """
    WITH s AS (
        SELECT id, query, query_key, kind, results, latency_ms, created_at FROM search_searchlog
        WHERE {searches}
    ), c AS (
        SELECT DISTINCT search_id FROM search_searchclick WHERE workspace_id = %(ws)s AND created_at >= %(since)s
    ), q AS (
        SELECT mode() WITHIN GROUP (ORDER BY s.query) AS query, s.kind AS mode, count(*) AS searches,
               count(*) FILTER (WHERE s.results = 0) AS zero_results,
               avg(s.results)::float AS average_results,
               count(c.search_id) FILTER (WHERE s.results > 0) AS clicked,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY s.latency_ms) AS median_ms,
               max(s.latency_ms) AS max_ms, max(s.created_at) AS last_seen
        FROM s LEFT JOIN c ON c.search_id = s.id
        GROUP BY s.query_key, s.kind
    )
    SELECT query, mode, searches, zero_results, average_results, clicked, median_ms, max_ms, last_seen FROM q
    {where} ORDER BY {order}, mode LIMIT %(limit)s
"""
_LISTS = {
    "top": ("", "searches DESC, query"),
    "zero": ("WHERE zero_results > 0", "zero_results DESC, last_seen DESC, query"),
    "low_click_through": (f"WHERE searches - zero_results >= {LOW_CLICK_THROUGH_MIN_SEARCHES} "
                          f"AND clicked < {LOW_CLICK_THROUGH_BELOW} * (searches - zero_results)",
                          "clicked::float / (searches - zero_results), searches DESC, query"),
    "slowest": ("", "median_ms DESC, query"),
    "all": ("", "searches DESC, query"),
}


def _query_list(workspace: Workspace, since: datetime, which: str, limit: int) -> list[QueryStats]:
    where, order = _LISTS[which]
    with connection.cursor() as cursor:
        cursor.execute(_PER_QUERY.format(searches=_SEARCHES, where=where, order=order),
                       {"ws": workspace.pk, "since": since, "limit": limit})
        return [QueryStats(*row) for row in cursor.fetchall()]


def popular_queries(*, workspace: Workspace, days: int = DEFAULT_DAYS, limit: int = LIST_LIMIT,
                    now: datetime | None = None) -> list[QueryStats]:
    """The workspace's most searched queries of the last `days` days, most first."""
    return _query_list(workspace, _since(days, now), "top", limit)


def zero_result_queries(*, workspace: Workspace, days: int = DEFAULT_DAYS, limit: int = LIST_LIMIT,
                        now: datetime | None = None) -> list[QueryStats]:
    """The queries of the last `days` days that found nothing at least once, most often first,
    leaving out those whose every word stands in published content (zero_results_split)."""
    return zero_results_split(workspace, _query_list(workspace, _since(days, now), "zero", limit))[0]


def zero_results_split(workspace: Workspace, stats: list[QueryStats]) -> tuple[list[QueryStats], list[QueryStats]]:
    """`stats` (queries that found nothing at least once) split into those no published entry
    holds every word of (missing content: "no results") and those some published entry holds
    every word of (refused by the floor: "no good match"), each in its order. One statement per
    query (search/engine/words_held.py, as a published-only caller counts them)."""
    published = chunk_visibility_filter(workspace_access_for_operator(workspace=workspace, include_drafts=False))
    missing, refused = [], []
    for stat in stats:
        clauses = word_clauses(stat.query)
        held = clauses is not None and entries_holding_count(workspace_id=workspace.pk, clauses=clauses,
                                                             visible=published, limit=1) > 0
        (refused if held else missing).append(stat)
    return missing, refused


def query_stats_all(*, workspace: Workspace, days: int = DEFAULT_DAYS, now: datetime | None = None) -> list[QueryStats]:
    """Every query of the period (at most CSV_LIMIT), most searched first: the CSV export."""
    return _query_list(workspace, _since(days, now), "all", CSV_LIMIT)


def search_insights(*, workspace: Workspace, days: int = DEFAULT_DAYS, limit: int = LIST_LIMIT,
                    now: datetime | None = None) -> Insights:
    """Everything the insights page and the command show, for the last `days` days (today included)."""
    since = _since(days, now)
    params = {"ws": workspace.pk, "since": since}
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            SELECT count(*), count(*) FILTER (WHERE results = 0), count(DISTINCT caller), count(DISTINCT query_key)
            FROM search_searchlog WHERE {_SEARCHES}
            """, params)
        searches, zero, callers, distinct = cursor.fetchone()
        cursor.execute(
            """
            SELECT count(DISTINCT c.search_id) FROM search_searchclick c
            JOIN search_searchlog s ON s.workspace_id = c.workspace_id AND s.id = c.search_id
            WHERE c.workspace_id = %(ws)s AND c.created_at >= %(since)s AND s.created_at >= %(since)s
            """, params)
        clicked = cursor.fetchone()[0]
        cursor.execute(
            f"""
            SELECT (created_at AT TIME ZONE 'UTC')::date, count(*), count(*) FILTER (WHERE results = 0)
            FROM search_searchlog WHERE {_SEARCHES}
            GROUP BY 1 ORDER BY 1
            """, params)
        counted = {day: (n, z) for day, n, z in cursor.fetchall()}
        cursor.execute(
            f"""
            SELECT interface, count(*) FROM search_searchlog WHERE {_SEARCHES}
            GROUP BY 1 ORDER BY 1
            """, params)
        by_interface = dict(cursor.fetchall())
        cursor.execute(
            f"""
            SELECT kind, count(*) FROM search_searchlog WHERE {_SEARCHES}
            GROUP BY 1 ORDER BY 1
            """, params)
        by_mode = dict(cursor.fetchall())
    missing, refused = zero_results_split(workspace, _query_list(workspace, since, "zero", limit))
    first = since.astimezone(UTC).date()
    per_day = [DayCount(day, *counted.get(day, (0, 0))) for day in (first + timedelta(days=i) for i in range(days))]
    return Insights(
        workspace=workspace, days=days, since=since, searches=searches, zero_results=zero, clicked=clicked,
        callers=callers, distinct_queries=distinct,
        top_queries=_query_list(workspace, since, "top", limit),
        zero_result_queries=missing, no_good_match_queries=refused,
        low_click_through=_query_list(workspace, since, "low_click_through", limit),
        slowest=_query_list(workspace, since, "slowest", limit),
        per_day=per_day, by_interface=by_interface, by_mode=by_mode,
    )


CSV_COLUMNS = ("query", "mode", "searches", "zero_results", "average_results", "clicked", "click_through", "median_ms",
               "max_ms", "last_seen")


def query_stats_csv(stats: list[QueryStats]) -> str:
    """The per-query figures as CSV (a header row, then a row per query). Every text cell is
    neutralised (cms/csv_cells.py): a spreadsheet shows a query such as `=1+1` or `x;=1+1` as
    text, not a formula."""
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_ALL)
    writer.writerow(CSV_COLUMNS)
    for stat in stats:
        row = stat.as_dict()
        writer.writerow([csv_cell_neutralise(row[column]) for column in CSV_COLUMNS])
    return out.getvalue()


def promotion_phrase_suggestions(workspaces) -> list[str]:
    """Phrases for the promotion form's "choose from popular queries" (cms.admin.promotions):
    each workspace's queries that found nothing, then its most searched, over DEFAULT_DAYS;
    redacted queries ([email], [number]) are left out."""
    phrases: list[str] = []
    for workspace in workspaces:
        for stats in (zero_result_queries(workspace=workspace) + popular_queries(workspace=workspace)):
            if "[email]" not in stats.query and "[number]" not in stats.query:
                phrases.append(stats.query)
    return list(dict.fromkeys(phrases))
