"""URL routes: the admin (with the ingestion status pages), the search API (with its OpenAPI
schema and docs), and MCP over HTTP."""

from django.contrib import admin
from django.urls import include, path

from search.mcp_http import McpView

urlpatterns = [
    # Before the admin's own catch-all: these pages live under /admin/ and use its login.
    path("admin/ingestion/status/", include("ingestion.admin_urls")),
    path("admin/", admin.site.urls),
    path("api/", include("search.api.urls")),
    # Both spellings: agent configs name either, and a POST cannot follow APPEND_SLASH's redirect.
    path("mcp/", McpView.as_view(), name="mcp"),
    path("mcp", McpView.as_view()),
]
