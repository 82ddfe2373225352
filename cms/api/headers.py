"""Headers every answer of the API and /mcp/ carries: it is the caller's own, never to be stored.

One middleware for every answer under those paths, errors included (a 401, a 404 of an unknown
route, a 413 refused before any view), so no view can forget them.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers

from cms.api.errors import API_PATH_PREFIXES


class ApiNoStoreMiddleware:
    """`Cache-Control: no-store` and `Vary: Authorization, Cookie` on the API's and MCP's answers.

    An answer depends on the key or session that asked; a shared cache (a proxy, a CDN) or the
    browser's disk must keep none of them, and anything that does cache must key on both.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.path.startswith(API_PATH_PREFIXES):
            response["Cache-Control"] = "no-store"
            patch_vary_headers(response, ("Authorization", "Cookie"))
        return response
