"""Routes under /api/: health, the search endpoints, and the OpenAPI schema with its docs page."""

from django.urls import path
from drf_spectacular.utils import OpenApiResponse, extend_schema
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from search.interfaces.api.events import SearchEventView
from search.interfaces.api.health import health as health_view
from search.interfaces.api.schema import HealthResponseDoc
from search.interfaces.api.synonyms import SynonymSetsView, SynonymSetView
from search.interfaces.api.searches import (
    AgenticSearchView,
    EntrySearchView,
    HybridSearchView,
    SemanticSearchView,
    SuggestView,
)

health = extend_schema(
    tags=["health"],
    operation_id="health",
    summary="Service health",
    description="Whether the database, broker, workers and embedding provider are usable (degraded when chunks "
    "wait with no live worker, or longer than HEALTH_PENDING_MAX_AGE_SECONDS). No credential needed.",
    auth=[],
    responses={200: HealthResponseDoc, 503: OpenApiResponse(HealthResponseDoc, description="Something is down.")},
)(health_view)

urlpatterns = [
    path("health", health, name="health"),
    path("v1/workspaces/<slug:slug>/search/entries", EntrySearchView.as_view(), name="search-entries"),
    path("v1/workspaces/<slug:slug>/search/semantic", SemanticSearchView.as_view(), name="search-semantic"),
    path("v1/workspaces/<slug:slug>/search/hybrid", HybridSearchView.as_view(), name="search-hybrid"),
    path("v1/workspaces/<slug:slug>/search/agentic", AgenticSearchView.as_view(), name="search-agentic"),
    path("v1/workspaces/<slug:slug>/search/events", SearchEventView.as_view(), name="search-events"),
    path("v1/workspaces/<slug:slug>/search/suggest", SuggestView.as_view(), name="search-suggest"),
    path("v1/workspaces/<slug:slug>/synonyms", SynonymSetsView.as_view(), name="synonym-sets"),
    path("v1/workspaces/<slug:slug>/synonyms/<uuid:set_id>", SynonymSetView.as_view(), name="synonym-set"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves the page's script from its own URL: the CSP allows no inline script.
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="docs"),
]
