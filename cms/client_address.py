"""The address of the client behind a request: what failed-login and failed-key limits count by.

One function for both (cms/api/auth.py's throttle of failed API authentication and
django-axes's admin lockout, AXES_CLIENT_IP_CALLABLE), so both count the same client.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    """The client's IP address: REMOTE_ADDR, or X-Forwarded-For behind TRUSTED_PROXY_COUNT proxies.

    Each trusted proxy appends the address it received the request from to X-Forwarded-For,
    so with N proxies the client is the N-th entry from the right; entries further left are
    whatever the client wrote and are never read. With no trusted proxy (the default) the
    header is ignored entirely: anyone can send it.
    """
    remote = request.META.get("REMOTE_ADDR", "") or ""
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies <= 0:
        return remote
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
    if len(forwarded) >= proxies:
        return forwarded[-proxies]
    # Fewer entries than proxies: the request did not come through all of them (a direct
    # connection inside the network), so the peer is the closest thing to the client.
    return remote
