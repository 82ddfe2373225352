"""Search: statement timeout, the search log, health and metrics."""

from config.settings.base import env

# --- Search -----------------------------------------------------------------------------
# Every search statement is cancelled after this many milliseconds and answered 503
# search_timeout (0: no limit). See search/engine/db/statements.py.
SEARCH_STATEMENT_TIMEOUT_MS = env.int("SEARCH_STATEMENT_TIMEOUT_MS", default=3000)
# How the keyword leg cuts Japanese text (a text with kana): "sudachi-A+bigrams" (Sudachi's
# normalised words plus character bigrams; chosen by leave-one-set-out, docs/design/cjk-tokenizers.md)
# or "bigrams" (bigrams only: no dictionary in memory, faster indexing). ingestion/segmentation.py;
# after a change, `manage.py keyword_reindex` rewrites existing postings.
SEARCH_KEYWORD_JA_TOKENIZER = env("SEARCH_KEYWORD_JA_TOKENIZER", default="sudachi-A+bigrams")
# Where the keyword leg finds its candidates when a query's common terms would make it read
# many postings: "auto" (the BM25 index of pg_textsearch once it exists and is valid, else the
# postings) or "postings" (the postings' impact order only). Scores are exact BM25 with the
# workspace's own statistics either way. "postings" by default until the index is measured a
# win: at 20k chunks it was not (docs/design/bm25-index.md "Figures").
# search/engine/legs/keyword_bm25.py, docs/operators.md "The keyword index".
SEARCH_KEYWORD_INDEX = env("SEARCH_KEYWORD_INDEX", default="postings")

# --- Search log (search/insights/search_log.py, docs/operators.md "Search insights") ----------------
# Days a logged search and its clicks are kept; the beat task below deletes older rows.
SEARCH_LOG_RETENTION_DAYS = env.int("SEARCH_LOG_RETENTION_DAYS", default=90)
# How often beat prunes the log (on the maintenance queue).
SEARCH_LOG_PRUNE_SECONDS = env.float("SEARCH_LOG_PRUNE_SECONDS", default=3600.0)
# Searches are appended in memory and written by a background thread of each process when
# this many are waiting, or when the oldest has waited this long; 0 seconds: no thread, only
# an explicit flush or the process's exit writes them (the test suite's setting).
SEARCH_LOG_BATCH_SIZE = env.int("SEARCH_LOG_BATCH_SIZE", default=200)
SEARCH_LOG_FLUSH_SECONDS = env.float("SEARCH_LOG_FLUSH_SECONDS", default=2.0)
# Rows held in memory at most (the database is down): the oldest are dropped beyond it.
SEARCH_LOG_MAX_BUFFER = env.int("SEARCH_LOG_MAX_BUFFER", default=50_000)

# --- Health -----------------------------------------------------------------------------
# /api/health tells anyone only whether the service is ok. Its details go to superusers, or to a
# caller presenting this token (`Authorization: Bearer <token>` or `X-Health-Token`); empty
# disables the token.
HEALTH_TOKEN = env("HEALTH_TOKEN", default="")
# A broker check's result is reused this long, so polling opens no connection per call.
HEALTH_BROKER_CACHE_SECONDS = env.float("HEALTH_BROKER_CACHE_SECONDS", default=5.0)
# Health is degraded when a chunk has waited longer than this to be embedded, or when chunks
# wait and no worker consuming their queue is alive (search/operations/health.py).
HEALTH_PENDING_MAX_AGE_SECONDS = env.float("HEALTH_PENDING_MAX_AGE_SECONDS", default=600.0)

# --- Metrics (/metrics; search/operations/metrics.py, search/operations/metrics_view.py) --------------------------
# Protected like health details (a superuser session or HEALTH_TOKEN). With several gunicorn
# workers, set PROMETHEUS_MULTIPROC_DIR to an empty directory only they write to (prometheus-
# client reads it itself, at import): each worker counts there and a scrape sums them all.
PROMETHEUS_MULTIPROC_DIR = env("PROMETHEUS_MULTIPROC_DIR", default="")
# Per-workspace chunk gauges name this many workspaces (the most chunks waiting or failed);
# the rest are summed as "other", so the number of series stays bounded.
METRICS_TOP_WORKSPACES = env.int("METRICS_TOP_WORKSPACES", default=20)
