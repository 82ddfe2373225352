"""`manage.py search_insights <workspace> --days 30 [--json]`: the insights page's figures at the shell,
and the operator's switch for a workspace's search log (`--logging on|off`)."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from ingestion.management.scope import workspace_from_option
from search.insights.insights import DEFAULT_DAYS, LIST_LIMIT, MAX_DAYS, QueryStats, search_insights
from search.insights.search_log import search_log_flush, search_log_set_enabled


class Command(BaseCommand):
    help = ("A workspace's search insights: top queries, queries with no results, low click-through, the "
            "slowest queries and searches per day, over the last --days days. --logging on|off turns the "
            "workspace's search log on or off.")

    def add_arguments(self, parser):
        parser.add_argument("workspace", help="The workspace's slug.")
        parser.add_argument("--days", type=int, default=DEFAULT_DAYS, help=f"Days back, today included (1-{MAX_DAYS}).")
        parser.add_argument("--limit", type=int, default=LIST_LIMIT, help="Queries per list (1-1000).")
        parser.add_argument("--json", action="store_true", help="Print one JSON object.")
        parser.add_argument("--logging", choices=["on", "off"], help="Turn the workspace's search log on or off.")

    def handle(self, *args, workspace, days, limit, json: bool = False, logging=None, **options):
        if not 1 <= days <= MAX_DAYS:
            raise CommandError(f"[days_out_of_range] --days must be from 1 to {MAX_DAYS}.")
        if not 1 <= limit <= 1000:
            raise CommandError("[limit_out_of_range] --limit must be from 1 to 1000.")
        ws = workspace_from_option(workspace)
        if logging is not None:
            search_log_set_enabled(workspace=ws, enabled=logging == "on")
            self.stderr.write(f"Search logging is {logging} for {ws.slug}.")
        search_log_flush()  # this process's own searches, if any, count too
        insights = search_insights(workspace=ws, days=days, limit=limit)
        if json:
            self.stdout.write(_json_dumps({**insights.as_dict(), "logging": ws.search_log_enabled}))
            return
        self._print(insights, logging_on=ws.search_log_enabled)

    def _print(self, insights, *, logging_on: bool) -> None:
        out = self.stdout.write
        out(f"Search insights for {insights.workspace.slug}, last {insights.days} days (since "
            f"{insights.since:%Y-%m-%d}), logging {'on' if logging_on else 'OFF'}")
        out(f"  {insights.searches} searches, {insights.zero_results} found nothing, {insights.clicked} with a result "
            f"opened, {insights.distinct_queries} distinct queries, {insights.callers} distinct searchers")
        if insights.by_mode:
            out("  by mode: " + ", ".join(f"{k} {v}" for k, v in insights.by_mode.items()))
        if insights.by_interface:
            out("  by interface: " + ", ".join(f"{k} {v}" for k, v in insights.by_interface.items()))
        sections = [
            ("Top queries", insights.top_queries, lambda q: f"{q.searches:>6} searches  {q.average_results:6.1f} avg results"
                                                            f"  {q.click_through:6.0%} opened"),
            ("Queries with no results", insights.zero_result_queries,
             lambda q: f"{q.zero_results:>6} of {q.searches:<6} found nothing  last {q.last_seen:%Y-%m-%d %H:%M}"),
            ("Queries with no good match (published entries contain every word; the floor refused them)",
             insights.no_good_match_queries,
             lambda q: f"{q.zero_results:>6} of {q.searches:<6} found nothing  last {q.last_seen:%Y-%m-%d %H:%M}"),
            ("Low click-through", insights.low_click_through,
             lambda q: f"{q.answered:>6} with results  {q.click_through:6.0%} opened"),
            ("Slowest queries", insights.slowest, lambda q: f"{q.median_ms:>8.1f} ms median  {q.max_ms:8.1f} ms max"),
        ]
        for title, stats, describe in sections:
            out(f"\n{title}:")
            if not stats:
                out("  (none)")
            for stat in stats:
                out(f"  {_shown(stat)}  {describe(stat)}")
        out("\nSearches per day (day searches found-nothing):")
        for day in insights.per_day:
            out(f"  {day.day.isoformat()} {day.searches:>6} {day.zero_results:>6}")


def _shown(stat: QueryStats, width: int = 40) -> str:
    text = stat.query if len(stat.query) <= width else stat.query[: width - 1] + "…"
    return f"{text:<{width}} {stat.mode:<9}"


def _json_dumps(value) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2)
