"""The embedding and rerank providers, chunking and the embedding work's pacing."""

from config.settings.base import BASE_DIR, env

# --- Embeddings -------------------------------------------------------------------------
# EMBEDDING_PROVIDER: "e5-small" (offline multilingual-e5-small, the default without a Voyage
# key), "local" (the offline USE model, the default before issue 37: workspaces that hold its
# vectors stay on it, pinned by migration ingestion.0015), "minilm", "voyage" (the default with
# VOYAGE_API_KEY), or "none" (chunks stay pending and semantic search answers not_configured).
# "fake" is a deterministic provider for plumbing tests.
VOYAGE_API_KEY = env("VOYAGE_API_KEY", default="")
# A search's provider usage (query embedding, rerank) is counted in the process and written
# to EmbeddingUsage at most this many seconds later, and at exit (ingestion/services/usage.py).
SEARCH_USAGE_FLUSH_SECONDS = env.float("SEARCH_USAGE_FLUSH_SECONDS", default=5.0)
# USD per million tokens, for usage records and reindex estimates (also with no provider).
EMBEDDING_PRICE_PER_MTOK = env.float("EMBEDDING_PRICE_PER_MTOK", default=0.06)
EMBEDDING_PROVIDER = env("EMBEDDING_PROVIDER", default="voyage" if VOYAGE_API_KEY else "e5-small")
_EMBEDDING_BACKEND_CLASSES = {
    "local": "ingestion.embeddings.local.LocalEmbeddingBackend",
    # Offline and English-only, far better than `local` on English text (docs/operators.md, "How it runs").
    "minilm": "ingestion.embeddings.minilm.MiniLMEmbeddingBackend",
    # Offline and multilingual, far better than `local`; the default (docs/design/vectors.md, "multilingual-e5-small").
    "e5-small": "ingestion.embeddings.e5.E5EmbeddingBackend",
    "voyage": "ingestion.embeddings.voyage.VoyageEmbeddingBackend",
    "fake": "ingestion.embeddings.fake.FakeEmbeddingBackend",
}
_EMBEDDING_OPTIONS = {
    "api_key": VOYAGE_API_KEY,
    "base_url": env("VOYAGE_BASE_URL", default=""),
    "model": env("VOYAGE_MODEL", default="voyage-3.5"),
    "timeout": env.float("VOYAGE_TIMEOUT", default=30.0),
    "max_retries": env.int("VOYAGE_MAX_RETRIES", default=4),
    # Embedding a search query: a caller is waiting, so fail fast (503) rather than
    # hold a web worker through ingestion's patient retries.
    "query_timeout": env.float("VOYAGE_QUERY_TIMEOUT", default=2.0),
    "query_max_retries": env.int("VOYAGE_QUERY_MAX_RETRIES", default=1),
    # First backoff wait in seconds; doubles per retry (with jitter), capped at 30 s.
    "retry_base_delay": env.float("VOYAGE_RETRY_BASE_DELAY", default=1.0),
    "threads": env.int("LOCAL_EMBEDDING_THREADS", default=1),
    # e5-small's forward pass: "onnx" (int8 matmuls in onnxruntime, the faster) or "numpy" (fp32
    # OpenBLAS); their speed and agreement: docs/design/vectors.md, "multilingual-e5-small". The onnx
    # runtime builds its int8 graph once per weights file into E5_ONNX_CACHE_DIR.
    "e5_runtime": env("E5_RUNTIME", default="onnx"),
    "e5_cache_dir": env("E5_ONNX_CACHE_DIR", default=str(BASE_DIR / "var" / "e5")),
}
# Load the embedding models (the configured one, and the others workspaces use) when a worker
# process starts (ingestion/worker_start.py), not in its first task; and in each web worker the
# configured model with its confidence background, on a thread, not in its first search
# (search/operations/preload.py).
EMBEDDING_WORKER_PRELOAD = env.bool("EMBEDDING_WORKER_PRELOAD", default=True)
SEARCH_EMBEDDING_BACKENDS = {
    "default": {
        "BACKEND": _EMBEDDING_BACKEND_CLASSES.get(EMBEDDING_PROVIDER, EMBEDDING_PROVIDER),
        "OPTIONS": _EMBEDDING_OPTIONS,
        "PRICE_PER_MILLION_TOKENS": EMBEDDING_PRICE_PER_MTOK,
    }
    if EMBEDDING_PROVIDER != "none"
    else None,
}
# What `embedding_switch start --model M` may name: a backend alias, or the model name one of
# these backends makes (ingestion.embeddings.get_embedding_backend_for_model). The configured
# provider is always one of them. Voyage's other models: the alias "voyage:<model>".
SEARCH_EMBEDDING_MODELS = {
    alias: {"BACKEND": path, "OPTIONS": _EMBEDDING_OPTIONS, "PRICE_PER_MILLION_TOKENS": EMBEDDING_PRICE_PER_MTOK}
    for alias, path in {
        **_EMBEDDING_BACKEND_CLASSES,
        # More backends to switch to, by dotted path: "alias=package.module.Class,alias2=...".
        **dict(item.split("=", 1) for item in env.list("EMBEDDING_BACKENDS_EXTRA", default=[]) if "=" in item),
    }.items()
}
# Target chunk size in characters; the fit that chose 500: docs/design/ingestion.md, "Chunk size".
CHUNK_SIZE_CHARS = env.int("CHUNK_SIZE_CHARS", default=500)
CHUNK_OVERLAP_CHARS = env.int("CHUNK_OVERLAP_CHARS", default=80)
EMBED_BATCH_MAX_CHUNKS = env.int("EMBED_BATCH_MAX_CHUNKS", default=256)
# A model switch's backfill yields to searches: after each claim of backfill-only chunks a
# worker rests this many times as long as the claim took (1.0: at most half its time, at
# half the speed). 0 backfills at full speed. bench/switch.py measures the trade.
EMBED_BACKFILL_PAUSE = env.float("EMBED_BACKFILL_PAUSE", default=1.0)
# After a transient provider error a chunk waits BASE * 2^(attempts - 1) seconds, at most MAX,
# before it is claimed again; it is never failed for a transient error (see ingestion/services/claims.py).
EMBED_RETRY_BASE_SECONDS = env.float("EMBED_RETRY_BASE_SECONDS", default=30.0)
EMBED_RETRY_MAX_SECONDS = env.float("EMBED_RETRY_MAX_SECONDS", default=3600.0)

# --- Reranking ---------------------------------------------------------------------------
# RERANK_PROVIDER: "voyage" (rerank-2.5; the default with VOYAGE_API_KEY) or "none" (the
# default without a key: a search asking to rerank answers not_configured). "fake" scores
# word overlap, for plumbing tests. Voyage's OPTIONS (base URL, timeout, retries) are the
# embedding backend's.
RERANK_PROVIDER = env("RERANK_PROVIDER", default="voyage" if VOYAGE_API_KEY else "none")
# USD per million tokens (rerank-2.5: 0.05), for usage records.
RERANK_PRICE_PER_MTOK = env.float("RERANK_PRICE_PER_MTOK", default=0.05)
_RERANK_BACKEND_CLASSES = {
    "voyage": "ingestion.embeddings.voyage_rerank.VoyageRerankBackend",
    "fake": "ingestion.embeddings.fake.FakeRerankBackend",
}
SEARCH_RERANK_BACKENDS = {
    "default": {
        "BACKEND": _RERANK_BACKEND_CLASSES.get(RERANK_PROVIDER, RERANK_PROVIDER),
        "OPTIONS": {
            "api_key": VOYAGE_API_KEY,
            "base_url": env("VOYAGE_BASE_URL", default=""),
            "model": env("VOYAGE_RERANK_MODEL", default="rerank-2.5"),
            "timeout": env.float("VOYAGE_TIMEOUT", default=30.0),
            "max_retries": env.int("VOYAGE_MAX_RETRIES", default=4),
            "retry_base_delay": env.float("VOYAGE_RETRY_BASE_DELAY", default=1.0),
        },
        "PRICE_PER_MILLION_TOKENS": RERANK_PRICE_PER_MTOK,
    }
    if RERANK_PROVIDER != "none"
    else None,
}
