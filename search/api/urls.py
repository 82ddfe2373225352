"""Routes under /api/."""

from django.urls import path

from search.api import views
from search.api.entries import EntrySearchView
from search.api.hybrid import HybridSearchView
from search.api.semantic import SemanticSearchView

urlpatterns = [
    path("health", views.health, name="health"),
    path("v1/workspaces/<slug:slug>/search/entries", EntrySearchView.as_view(), name="search-entries"),
    path("v1/workspaces/<slug:slug>/search/semantic", SemanticSearchView.as_view(), name="search-semantic"),
    path("v1/workspaces/<slug:slug>/search/hybrid", HybridSearchView.as_view(), name="search-hybrid"),
]
