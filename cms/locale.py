"""The interface language: the admin follows the browser (or its chooser); the API and MCP stay English.

Agents and integrations key on an error's `code` and read its `message` in English whatever
Accept-Language their HTTP library sends, so /api/ and /mcp/ never switch language.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.middleware.locale import LocaleMiddleware
from django.utils import translation

from cms.api.errors import API_PATH_PREFIXES


class AdminLocaleMiddleware(LocaleMiddleware):
    """Django's LocaleMiddleware for every page but the API's and MCP's, which answer in LANGUAGE_CODE."""

    def process_request(self, request: HttpRequest) -> None:
        if request.path.startswith(API_PATH_PREFIXES):
            translation.activate(settings.LANGUAGE_CODE)
            request.LANGUAGE_CODE = settings.LANGUAGE_CODE
            return
        super().process_request(request)

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        if request.path.startswith(API_PATH_PREFIXES):
            return response
        return super().process_response(request, response)
