"""App config for search; connects read-your-writes to the content signals, writes the search
log's buffer when a Celery worker process shuts down, and offers the insights' queries to the
promotion form's picker."""

from django.apps import AppConfig


class SearchConfig(AppConfig):
    name = "search"

    def ready(self) -> None:
        from celery.signals import worker_process_shutdown

        from cms.admin.promotions import popular_queries_register
        from search.insights.insights import promotion_phrase_suggestions
        from search.engine.db.read_your_writes import receivers_connect

        receivers_connect()
        popular_queries_register(promotion_phrase_suggestions)
        # A pool process can leave by os._exit, skipping atexit: write the log first.
        worker_process_shutdown.connect(_search_log_flush, weak=False, dispatch_uid="search_log_flush")


def _search_log_flush(**kwargs) -> None:
    from search.insights.search_log import search_log_flush

    search_log_flush()
