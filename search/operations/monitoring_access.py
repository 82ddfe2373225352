"""Who may read what describes the whole deployment: health details and /metrics.

A superuser (by session), or a caller presenting HEALTH_TOKEN (`Authorization: Bearer <token>`
or `X-Health-Token`); never anyone else. Not every staff session: staff includes each
workspace's viewers, and these pages describe every workspace and the servers.
"""

from __future__ import annotations

import hmac

from django.conf import settings


def may_see_deployment_details(request) -> bool:
    """`request` is Django's or DRF's: both have `.user` and `.headers`."""
    user = getattr(request, "user", None)
    if user is not None and user.is_active and user.is_superuser:
        return True
    expected = settings.HEALTH_TOKEN
    if not expected:
        return False
    authorization = request.headers.get("Authorization", "")
    scheme, _, credential = authorization.partition(" ")
    presented = credential.strip() if scheme.lower() == "bearer" else request.headers.get("X-Health-Token", "")
    return bool(presented) and hmac.compare_digest(presented.encode(), expected.encode())
