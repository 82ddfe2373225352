"""The API and /mcp/: body limits, DRF, rate limits, caches, API keys, the OpenAPI document."""

from cms import __version__
from config.settings.base import ALLOWED_HOSTS, SECRET_KEY, env

# --- API --------------------------------------------------------------------------------
# The largest request body the API and /mcp/ read (413 request_too_large above it). Admin
# uploads are elsewhere: DATA_UPLOAD_MAX_MEMORY_SIZE above bounds them.
API_MAX_BODY_BYTES = env.int("API_MAX_BODY_BYTES", default=256 * 1024)
REST_FRAMEWORK = {
    "DEFAULT_PARSER_CLASSES": [
        "search.interfaces.api.limits.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # Agents send a workspace API key (Authorization: Bearer); members of the admin keep
    # their session. The first class answers the 401's WWW-Authenticate challenge.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "cms.api.auth.ApiKeyAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_THROTTLE_CLASSES": ["cms.api.auth.ApiKeyRateThrottle", "cms.api.auth.UserRateThrottle"],
    # JSON only: the API's clients are agents, and every answer, errors included, is the JSON
    # the document describes. (The browsable API answered `Accept: text/html` with an HTML
    # page, even for errors.) People read the API at /api/docs/ (drf-spectacular's own views).
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "cms.api.errors.exception_handler",
    "UNAUTHENTICATED_USER": None,
}
# Requests per key and per logged-in user: "<n>/<sec|min|hour|day>"; empty turns a limit off.
API_RATE_LIMIT_KEY = env("API_RATE_LIMIT_KEY", default="600/min")
API_RATE_LIMIT_USER = env("API_RATE_LIMIT_USER", default="600/min")
# Failed authentications (401s: a bad key, no credentials) per client address on the API and
# /mcp/; past it the address gets 429 auth_throttled until the window ends (cms/api/auth.py).
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
    # Each search's results and caller, for its clicks (search/insights/search_log.py): shared by every
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
