"""How the API knows its caller: workspace API keys as `Authorization: Bearer`, and rate limits.

Logged-in members keep session authentication (the admin's users, with their role); agents
send a workspace API key. Every failure is a 401 with a `code` and a `WWW-Authenticate:
Bearer` challenge (RFC 6750); a key that is fine but names another workspace gets the 404 of
cms/access.py, never a 401 or 403 that would confirm the workspace exists.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.cache import caches
from django.utils.connection import ConnectionProxy
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle

from cms.api_keys import ApiKeyRejected
from cms.models import ApiKey
from cms.services import api_key_authenticate

REALM = "cms"


class ApiKeyUser(AnonymousUser):
    """`request.user` for a request made with an API key: authenticated, but not a member.

    What it may see comes from the key (request.auth), never from memberships.
    """

    def __init__(self, api_key: ApiKey):
        self.api_key = api_key
        self.username = f"key:cms_{api_key.prefix}"

    @property
    def is_authenticated(self) -> bool:
        return True

    def __str__(self) -> str:
        return self.username


class ApiKeyAuthenticationFailed(exceptions.AuthenticationFailed):
    """A presented key that grants nothing; its code is cms.api_keys.ApiKeyRejected's."""

    def __init__(self, rejection: ApiKeyRejected):
        super().__init__(rejection.message, code=rejection.code)


class ApiKeyAuthentication(BaseAuthentication):
    """`Authorization: Bearer cms_<prefix>_<secret>`. Other schemes are left to the next authenticator."""

    def authenticate(self, request: Request) -> tuple[ApiKeyUser, ApiKey] | None:
        scheme, _, credential = get_authorization_header(request).partition(b" ")
        if scheme.lower() != b"bearer":
            return None
        try:
            raw_key = credential.strip().decode("ascii")
        except UnicodeDecodeError:
            raw_key = ""
        try:
            api_key = api_key_authenticate(raw_key=raw_key)
        except ApiKeyRejected as rejection:
            request._api_key_rejection = rejection
            raise ApiKeyAuthenticationFailed(rejection) from rejection
        return ApiKeyUser(api_key), api_key

    def authenticate_header(self, request: Request) -> str:
        """The challenge of every 401: `error="invalid_token"` once a key was presented and refused."""
        rejection: ApiKeyRejected | None = getattr(request, "_api_key_rejection", None)
        if rejection is None:
            return f'Bearer realm="{REALM}"'
        return f'Bearer realm="{REALM}", error="invalid_token", error_description="{rejection.message}"'


# The counters live in the "throttle" cache alias, which production points at Redis
# (THROTTLE_CACHE_URL) so that every gunicorn worker counts the same requests.
throttle_cache = ConnectionProxy(caches, "throttle")


_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def _parse_rate(rate: str) -> tuple[int, int]:
    """"600/min" -> (600, 60); the period is read from its first letter, as DRF does."""
    count, _, period = rate.partition("/")
    return int(count), _PERIODS[period.strip()[0].lower()]


class _WindowRateThrottle(BaseThrottle):
    """At most N requests per fixed window (a second, minute, hour or day) per caller.

    DRF's SimpleRateThrottle keeps a list of timestamps that it reads, edits and writes
    back: requests racing in two workers both pass, and at high rates every request
    rewrites a long list. A counter per window is one atomic increment (INCR in Redis) and
    never undercounts; the price is that a burst may straddle two windows. The rate comes
    from Django settings when a request is checked, so tests and deployments can change it.
    """

    scope = ""
    rate_setting = ""

    def __init__(self) -> None:
        self._wait: float | None = None

    def get_ident(self, request: Request) -> str | None:  # type: ignore[override]
        raise NotImplementedError

    def allow_request(self, request: Request, view) -> bool:
        rate = getattr(settings, self.rate_setting)
        ident = self.get_ident(request) if rate else None
        if ident is None:
            return True
        limit, period = _parse_rate(rate)
        now = time.time()
        key = f"throttle:{self.scope}:{ident}:{int(now // period)}"
        throttle_cache.add(key, 0, timeout=period + 1)
        try:
            count = throttle_cache.incr(key)
        except ValueError:  # expired between add and incr: a new window
            throttle_cache.add(key, 1, timeout=period + 1)
            count = 1
        if count <= limit:
            return True
        self._wait = period - now % period
        return False

    def wait(self) -> float | None:
        return self._wait


class ApiKeyRateThrottle(_WindowRateThrottle):
    """API_RATE_LIMIT_KEY requests per key (e.g. "600/min")."""

    scope = "api_key"
    rate_setting = "API_RATE_LIMIT_KEY"

    def get_ident(self, request: Request) -> str | None:  # type: ignore[override]
        return request.auth.prefix if isinstance(request.auth, ApiKey) else None


class UserRateThrottle(_WindowRateThrottle):
    """API_RATE_LIMIT_USER requests per logged-in user."""

    scope = "user"
    rate_setting = "API_RATE_LIMIT_USER"

    def get_ident(self, request: Request) -> str | None:  # type: ignore[override]
        if isinstance(request.auth, ApiKey) or not getattr(request.user, "pk", None):
            return None
        return str(request.user.pk)
