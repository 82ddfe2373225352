"""Base view for per-workspace API endpoints: resolves the workspace from the URL slug."""

from __future__ import annotations

from rest_framework.views import APIView

from cms.api_errors import ApiError
from cms.models import Workspace
from cms.selectors import workspace_get_for_user
from search.errors import SearchError


def api_error_from(error: SearchError) -> ApiError:
    """The API's answer to a search error: its status, code and message (and the bad path)."""
    return ApiError(error.code, error.message, status_code=error.status,
                    details={"path": error.path} if error.path else None)


class WorkspaceAPIView(APIView):
    """A view under /api/v1/workspaces/<slug>/.

    `get_workspace()` answers 404 both for a missing workspace and for one the caller is
    not a member of, so a response never reveals whether another tenant exists.
    """

    def get_workspace(self) -> Workspace:
        return workspace_get_for_user(user=self.request.user, slug=self.kwargs["slug"])
