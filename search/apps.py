"""App config for search; connects read-your-writes to the content signals and writes the search
log's buffer when a Celery worker process shuts down. (The insights' queries reach the promotion
form's picker from search/admin.py, which loads with the admin.)"""

from django.apps import AppConfig


class SearchConfig(AppConfig):
    name = "search"

    def ready(self) -> None:
        from celery.signals import worker_process_shutdown

        from search.engine.db.read_your_writes import receivers_connect

        receivers_connect()
        # A pool process can leave by os._exit, skipping atexit: write the log first.
        worker_process_shutdown.connect(_search_log_flush, weak=False, dispatch_uid="search_log_flush")


def _search_log_flush(**kwargs) -> None:
    from search.insights.search_log import search_log_flush

    search_log_flush()
