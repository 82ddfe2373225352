"""How the API knows its caller: workspace API keys as `Authorization: Bearer`, and rate limits.

Logged-in members keep session authentication (the admin's users, with their role); agents
send a workspace API key. Every failure is a 401 with a `code` and a `WWW-Authenticate:
Bearer` challenge (RFC 6750); a key that is fine but names another workspace gets the 404 of
cms/access.py, never a 401 or 403 that would confirm the workspace exists.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.cache import caches
from django.utils.connection import ConnectionProxy
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle

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


# DRF's throttles read the default cache; ours read the "throttle" alias, which production
# points at Redis (THROTTLE_CACHE_URL) so that every gunicorn worker counts the same requests.
throttle_cache = ConnectionProxy(caches, "throttle")


class _SettingsRateThrottle(SimpleRateThrottle):
    """Rates come from Django settings when a request is checked, not when DRF was imported."""

    cache = throttle_cache
    rate_setting = ""

    def get_rate(self) -> str | None:
        return getattr(settings, self.rate_setting) or None


class ApiKeyRateThrottle(_SettingsRateThrottle):
    """API_RATE_LIMIT_KEY requests per key (e.g. "600/min")."""

    scope = "api_key"
    rate_setting = "API_RATE_LIMIT_KEY"

    def get_cache_key(self, request: Request, view) -> str | None:
        if not isinstance(request.auth, ApiKey):
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.auth.prefix}


class UserRateThrottle(_SettingsRateThrottle):
    """API_RATE_LIMIT_USER requests per logged-in user."""

    scope = "user"
    rate_setting = "API_RATE_LIMIT_USER"

    def get_cache_key(self, request: Request, view) -> str | None:
        if isinstance(request.auth, ApiKey) or not getattr(request.user, "pk", None):
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}
