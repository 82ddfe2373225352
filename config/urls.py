"""URL routes: the admin (with the ingestion status and search pages), the search API (with its
OpenAPI schema and docs), and MCP over HTTP."""

from django.contrib import admin
from django.urls import include, path

from search.interfaces.mcp.http import McpView
from search.operations.metrics_view import metrics_view

urlpatterns = [
    # Before the admin's own catch-all: these pages live under /admin/ and use its login.
    # The admin header's language chooser posts here (Django's set_language: a session cookie).
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/ingestion/status/", include("ingestion.admin.urls")),
    path("admin/search/", include("search.interfaces.admin.urls")),
    path("admin/", admin.site.urls),
    path("api/", include("search.interfaces.api.urls")),
    # Prometheus scrapes it (superuser session or HEALTH_TOKEN, like the health details).
    path("metrics", metrics_view, name="metrics"),
    # Both spellings: agent configs name either, and a POST cannot follow APPEND_SLASH's redirect.
    path("mcp/", McpView.as_view(), name="mcp"),
    path("mcp", McpView.as_view()),
]

# Outside any view (no route matched, a refused request, a crash), the API's paths still answer
# {"code", "message"} (cms/api/errors.py); other paths get Django's pages.
handler400 = "cms.api.errors.bad_request"
handler404 = "cms.api.errors.page_not_found"
handler500 = "cms.api.errors.server_error"
