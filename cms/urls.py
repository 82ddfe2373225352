"""URL routes: the admin, the health check, and the search API."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("search.api.urls")),
]
