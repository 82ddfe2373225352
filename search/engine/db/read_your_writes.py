"""Read-your-writes: a caller who changed content in the last few seconds searches the primary.

A replica replays the primary's changes a moment later, so an editor who saves an entry and
searches at once could miss the save there. `CallerMiddleware` names the caller of each
request (its Authorization header, or its session cookie, hashed: no credential is kept);
the content signals (cms/signals.py), and the saves and deletes of pins and synonym sets, mark
that caller in the shared cache for
READ_YOUR_WRITES_SECONDS, and search/engine/db/replicas.py sends a marked caller's searches to the primary.

The marks live in the cache all web workers share (THROTTLE_CACHE_URL in production; the
throttle counts live there too): a save on one gunicorn worker is seen by a search on another.
"""

from __future__ import annotations

import contextvars
import hashlib

from django.conf import settings
from django.core.cache import caches
from django.db.models.signals import post_delete, post_save

from cms import signals
from cms.models import Promotion, SynonymSet

_caller: contextvars.ContextVar[str | None] = contextvars.ContextVar("search_caller", default=None)
CACHE_ALIAS = "throttle"
_PREFIX = "ryw:"


def caller_of(request) -> str | None:
    """A stable, credential-free name for the request's caller, or None when it has none."""
    authorization = request.headers.get("Authorization", "")
    if authorization:
        material = "auth:" + authorization
    else:
        session = request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")
        if not session:
            return None
        material = "session:" + session
    return hashlib.sha256(material.encode()).hexdigest()[:32]


def caller_wrote_recently() -> bool:
    caller = _caller.get()
    return caller is not None and bool(caches[CACHE_ALIAS].get(_PREFIX + caller))


def caller_mark_wrote() -> None:
    """Note that the current caller (if any) just wrote: its searches use the primary for a while."""
    caller = _caller.get()
    if caller is not None and settings.READ_YOUR_WRITES_SECONDS > 0:
        caches[CACHE_ALIAS].set(_PREFIX + caller, 1, timeout=settings.READ_YOUR_WRITES_SECONDS)


class caller_context:  # lower case: used like contextlib's context managers
    """Run a block as `caller` (the middleware's, or a test's, or a command's)."""

    def __init__(self, caller: str | None):
        self._caller = caller

    def __enter__(self):
        self._token = _caller.set(self._caller)
        return self

    def __exit__(self, *exc):
        _caller.reset(self._token)


class CallerMiddleware:
    """Names the request's caller for the block that serves it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        with caller_context(caller_of(request)):
            return self.get_response(request)


def _content_written(sender, **kwargs) -> None:
    caller_mark_wrote()


def receivers_connect() -> None:
    """Mark the caller on every write a search reads (called once, from SearchConfig.ready):
    content, by the content services' signals; pins and synonym sets, on every save and delete
    of their rows (services, the admin's change form and its bulk delete alike)."""
    for name in ("entry_saved", "entry_deleted", "asset_saved", "asset_deleted"):
        getattr(signals, name).connect(_content_written, dispatch_uid=f"search.engine.db.read_your_writes.{name}")
    for model in (Promotion, SynonymSet):
        for signal in (post_save, post_delete):
            signal.connect(_content_written, sender=model,
                           dispatch_uid=f"search.engine.db.read_your_writes.{model.__name__}.{signal is post_save}")
