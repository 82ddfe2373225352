"""Base views for per-workspace API endpoints: resolve the caller's access from the URL slug,
and answer a search's errors as API errors."""

from __future__ import annotations

from rest_framework.response import Response
from rest_framework.views import APIView

from cms.access import WorkspaceAccess, workspace_access_for_api_key, workspace_access_for_user
from cms.models import ApiKey
from search.contract.errors import SearchError
from search.interfaces.errors import api_error_from


class WorkspaceAPIView(APIView):
    """A view under /api/v1/workspaces/<slug>/.

    `get_access()` is the caller's access to the workspace (cms/access.py): what the search
    may show them. It answers 404 both for a missing workspace and for one the caller is not
    a member of (or, for an API key, for any workspace but the key's), so a response never
    reveals whether another tenant exists.
    """

    def get_access(self) -> WorkspaceAccess:
        if isinstance(self.request.auth, ApiKey):
            return workspace_access_for_api_key(api_key=self.request.auth, slug=self.kwargs["slug"])
        return workspace_access_for_user(user=self.request.user, slug=self.kwargs["slug"])


class SearchAPIView(WorkspaceAPIView):
    """A per-workspace view that runs searches: a SearchError it lets through is the API's
    answer for it (search.interfaces.errors.api_error_from), not a 500."""

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, SearchError):
            exc = api_error_from(exc)
        return super().handle_exception(exc)
