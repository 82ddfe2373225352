"""URL routes: the admin (with the ingestion status pages), the health check, and the search API."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    # Before the admin's own catch-all: these pages live under /admin/ and use its login.
    path("admin/ingestion/status/", include("ingestion.admin_urls")),
    path("admin/", admin.site.urls),
    path("api/", include("search.api.urls")),
]
