"""Routes under /api/."""

from django.urls import path

from search.api import views
from search.api.entries import EntrySearchView

urlpatterns = [
    path("health", views.health, name="health"),
    path("v1/workspaces/<slug:slug>/search/entries", EntrySearchView.as_view(), name="search-entries"),
]
