"""API views. Each validates input, calls one search function, and formats the answer."""

from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from search.health import health_report


@api_view(["GET"])
@permission_classes([AllowAny])
def health(request: Request) -> Response:
    report = health_report()
    return Response(report, status=200 if report["ok"] else 503)
