"""Celery tasks of the search app: thin, one service call each (routed by ingestion/queues.py)."""

from __future__ import annotations

from celery import shared_task

from search.insights.search_log import search_log_prune


@shared_task(name="search.search_log_prune")
def search_log_prune_task() -> dict[str, int]:
    """Beat's pruning of the search log past SEARCH_LOG_RETENTION_DAYS (maintenance queue)."""
    return search_log_prune()
