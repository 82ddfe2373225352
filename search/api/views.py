"""API views. Each validates input, calls one search function, and formats the answer."""

import hmac

from django.conf import settings
from rest_framework.authentication import SessionAuthentication
from rest_framework.decorators import api_view, authentication_classes, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from search.health import health_report


@api_view(["GET"])
# Session only: a monitor's `Authorization: Bearer <HEALTH_TOKEN>` is not an API credential,
# and must not be rejected by one.
@authentication_classes([SessionAuthentication])
@permission_classes([AllowAny])
def health(request: Request) -> Response:
    report = health_report(detailed=_may_see_health_details(request))
    return Response(report, status=200 if report["ok"] else 503)


def _may_see_health_details(request: Request) -> bool:
    """A superuser (by session), or a caller presenting HEALTH_TOKEN; never anyone else.

    Not every staff session: staff includes each workspace's viewers, and the details (database
    version and extensions, broker transport, embedding model) describe the whole deployment.
    """
    user = request.user
    if user is not None and user.is_active and user.is_superuser:
        return True
    expected = settings.HEALTH_TOKEN
    if not expected:
        return False
    authorization = request.headers.get("Authorization", "")
    scheme, _, credential = authorization.partition(" ")
    presented = credential.strip() if scheme.lower() == "bearer" else request.headers.get("X-Health-Token", "")
    return bool(presented) and hmac.compare_digest(presented.encode(), expected.encode())
