"""GET /api/health: whether the database, broker, workers and embedding provider are usable (details for monitors)."""

from rest_framework.authentication import SessionAuthentication
from rest_framework.decorators import api_view, authentication_classes, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from search.operations.health import health_report
from search.operations.monitoring_access import may_see_deployment_details


@api_view(["GET"])
# Session only: a monitor's `Authorization: Bearer <HEALTH_TOKEN>` is not an API credential,
# and must not be rejected by one.
@authentication_classes([SessionAuthentication])
@permission_classes([AllowAny])
def health(request: Request) -> Response:
    # Superusers and HEALTH_TOKEN only: staff includes each workspace's viewers, and the details
    # describe the whole deployment.
    report = health_report(detailed=may_see_deployment_details(request))
    return Response(report, status=200 if report["ok"] else 503)
