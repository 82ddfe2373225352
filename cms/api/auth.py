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
from cms.client_address import client_address
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
        # No check of the address's failures here: a key that verifies is answered whatever
        # others sent from its address; a refusal is counted, and past the limit answered with 429
        # (auth_failure_record, from the exception handler).
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


def _window_count(scope: str, ident: str, period: int, *, increment: bool) -> tuple[int, float]:
    """The count of `ident` in the current window of `period` seconds (after adding one, if
    `increment`), and the seconds until that window ends."""
    now = time.time()
    key = f"throttle:{scope}:{ident}:{int(now // period)}"
    wait = period - now % period
    if not increment:
        return throttle_cache.get(key, 0), wait
    throttle_cache.add(key, 0, timeout=period + 1)
    try:
        count = throttle_cache.incr(key)
    except ValueError:  # expired between add and incr: a new window
        throttle_cache.add(key, 1, timeout=period + 1)
        count = 1
    return count, wait


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
        count, wait = _window_count(self.scope, ident, period, increment=True)
        if count <= limit:
            return True
        self._wait = wait
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


# --- failed authentication, per client address ------------------------------------------------
# A guessed key costs an indexed lookup and says whether it exists; without a limit an address
# could try thousands a second. Every 401 of the API and /mcp/ (a bad key, or no credentials)
# counts against the client's address (cms/client_address.py) in the shared "throttle" cache;
# past API_RATE_LIMIT_AUTH_FAILURES in a window, each further failure of the address is answered
# 429 auth_throttled instead of 401, until the window ends. The failures are throttled, not the
# address: a key that verifies is answered (GitHub's and Stripe's rule), so one client's bad keys
# behind a shared NAT or an agent platform's egress lock no other agent out. A guess costs one
# indexed lookup by the key's prefix; its 256-bit secret is what makes guessing hopeless.

AUTH_FAILURE_SCOPE = "auth_failure"


def _auth_failure_throttled(wait: float) -> exceptions.Throttled:
    return exceptions.Throttled(
        wait=wait,
        detail="Too many failed authentication attempts from this address.",
        code="auth_throttled",
    )


def auth_failure_record(request) -> exceptions.Throttled | None:
    """Count one failed authentication for the client's address; the 429 to answer instead, once over the limit."""
    rate = settings.API_RATE_LIMIT_AUTH_FAILURES
    if not rate:
        return None
    limit, period = _parse_rate(rate)
    count, wait = _window_count(AUTH_FAILURE_SCOPE, client_address(request), period, increment=True)
    return _auth_failure_throttled(wait) if count > limit else None
