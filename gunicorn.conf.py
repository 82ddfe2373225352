"""gunicorn's settings for every deployment: docker/Dockerfile runs `gunicorn --config
gunicorn.conf.py`, and so does a production without Docker (from the repository's root, where
gunicorn also finds this file by itself). Command-line options and GUNICORN_CMD_ARGS override
any of these (tests bind their own port and choose their worker count that way).

Slow clients. A sync worker reads a request's headers and body itself, so one client that
sends them a byte at a time holds a whole worker: two such connections blocked /api/health
for 8-12 s on two sync workers (review item 10). gthread workers accept connections in one
loop and hand each to a thread once bytes arrive, so a slow client holds one thread, not a
worker; the others keep answering. What a direct connection can hold is workers x threads
slow clients at once (bench/slow_clients.py measures it); docker/compose.yaml's Caddy reads
every request's headers and (up to API_MAX_BODY_BYTES) its body before it forwards it
(docker/Caddyfile), so behind it a slow client holds no thread at all.

gevent was the other candidate; it would monkey-patch the threads and queues that the MCP
bridge (search/interfaces/mcp/http.py) and the local embedding model rely on.
"""

wsgi_app = "config.wsgi:application"
bind = "0.0.0.0:8000"
# cms/shared_caches.py reads this default (GUNICORN_CONF_WORKERS) for `check --deploy`: more
# than one worker in production needs caches they share (on_starting below refuses otherwise).
workers = 3
worker_class = "gthread"
# Each thread serves one request at a time and keeps its own persistent database connection
# (CONN_MAX_AGE): at most workers x threads = 48 connections from the web service.
threads = 16
# gthread workers report to the master from their own loop, so this only restarts a worker
# whose loop hangs; a long request is bounded by SEARCH_STATEMENT_TIMEOUT_MS and MCP_HTTP_TIMEOUT.
timeout = 60
graceful_timeout = 30
# An idle kept-alive connection waits in the worker's loop (holding no thread), at most this long.
keepalive = 5
# gunicorn refuses a request line over this many bytes with its own 414, before the app sees
# it (in the API's error shape: post_fork below). 8190 (its largest finite value) fits the
# longest valid search URL: a query of 500 characters percent-encoded (up to 12 bytes each)
# with every other parameter.
limit_request_line = 8190
# gunicorn's pure-Python HTTP parser, whatever else is installed: post_fork wraps its
# request-line parser so that curl's raw UTF-8 reads as percent-encoded
# (config/gunicorn_request_line.py); the optional C parser (gunicorn_h1c) would refuse it.
http_parser = "python"


# gunicorn's own refusals (a request line too long, a header it cannot parse) answer in the
# API's error shape, with a code, instead of gunicorn's HTML page (config/gunicorn_errors.py).
def post_fork(server, worker):
    from config import gunicorn_errors, gunicorn_request_line

    gunicorn_errors.install()
    # curl's raw UTF-8 (`?q=返品`) read as percent-encoded, instead of gunicorn's 400.
    gunicorn_request_line.install()


# The embedding model and its confidence background, loaded while the worker already answers,
# instead of by its first search (search/operations/preload.py). After the app is loaded, so
# Django is set up.
def post_worker_init(worker):
    from search.operations.preload import query_side_preload_started

    query_side_preload_started()


# Metrics (search/operations/metrics.py): with PROMETHEUS_MULTIPROC_DIR set, every worker writes its counts
# to files there and /metrics sums them. prometheus-client reads the variable itself, so the
# hooks do too. The directory starts empty (counts of an earlier run would be summed in), and a
# worker that exits has its live gauges dropped (its counters stay in the totals).
def on_starting(server):
    import os
    from pathlib import Path

    # Several workers each with their own results cache and rate counters lose clicks and
    # count limits apart (cms/shared_caches.py): refuse to start. gunicorn prints the
    # RuntimeError's sentence ("Error: ...") and exits with status 1.
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from cms.shared_caches import shared_caches_missing_message

    message = shared_caches_missing_message(workers=server.cfg.workers)
    if message:
        raise RuntimeError(message)

    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if directory:
        Path(directory).mkdir(parents=True, exist_ok=True)
        for stale in Path(directory).glob("*.db"):
            stale.unlink()


def child_exit(server, worker):
    import os

    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)


# Searches keep two things in memory and write them in batches: provider usage, flushed every
# SEARCH_USAGE_FLUSH_SECONDS (ingestion/services/usage.py), and the search log
# (search/insights/search_log.py). A worker that exits (a graceful stop, a restart, max_requests) writes
# what it still holds. atexit hooks do the same; this one runs first, while the worker's logging
# is still set up, and also when gunicorn ends the worker's loop without a normal exit.
def worker_exit(server, worker):
    try:
        from ingestion.services.usage import usage_flush
        from search.insights.search_log import search_log_flush
    except Exception:  # the app never loaded in this worker: nothing was counted
        return
    usage_flush()
    written = search_log_flush()
    if written:
        server.log.info("search log: %d rows written at exit of worker %s", written, worker.pid)
