"""The core: the environment, secrets, HTTPS, apps, middleware, templates, admin sign-in, static
files, uploads and logging. The only settings module that reads .env (config/settings/__init__.py
composes this one and the others, one per concern)."""

from datetime import timedelta
from pathlib import Path

import environ
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parents[2]

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
    "config.admin_site.AdminSiteConfig",  # django.contrib.admin, with our default site (config/admin_site.py)
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
    "cms.api.headers.ApiNoStoreMiddleware",
    # Outside everything that can refuse an API request: counts API and MCP error answers by
    # code, and times the API's searches (search/operations/metrics.py).
    "search.operations.metrics.ApiMetricsMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After sessions, before CommonMiddleware (Django's order): the admin speaks the browser's
    # language (Accept-Language, or the header's chooser); the API and MCP stay English (cms/locale.py).
    "cms.locale.AdminLocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    # Before anything reads a request body: refuses API bodies over API_MAX_BODY_BYTES.
    "search.interfaces.api.limits.ApiBodyLimitMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Names the caller, so a caller who just saved content searches the primary (search/engine/db/read_your_writes.py).
    "search.engine.db.read_your_writes.CallerMiddleware",
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

ROOT_URLCONF = "config.urls"

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

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

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

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="WARNING")},
}
