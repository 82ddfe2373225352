"""Who may do what in the admin: a user's role per workspace, checked on the workspace written.

Viewers may look; editors and owners write content (content types, entries, assets); owners
also manage memberships and the workspace itself; superusers may do everything. Every admin
class and admin page asks these functions, never Django's per-model permissions. Which
entries a reader sees (drafts or published only) is cms/access.py's read policy.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import QuerySet
from django.http import HttpRequest

from cms.models import Membership, Role, Workspace

READ_ROLES = frozenset(Role.values)
WRITE_ROLES = frozenset({Role.OWNER, Role.EDITOR})
MANAGE_ROLES = frozenset({Role.OWNER})


def user_roles(request: HttpRequest) -> dict[int, str]:
    """The user's role per workspace id, read once per request."""
    if not hasattr(request, "_workspace_roles"):
        user = request.user
        request._workspace_roles = (
            dict(Membership.objects.filter(user=user).values_list("workspace_id", "role"))
            if user.is_authenticated and user.is_active
            else {}
        )
    return request._workspace_roles


def role_allows(request: HttpRequest, workspace_id: int | None, roles: frozenset[str]) -> bool:
    """Whether the user holds one of `roles` in the workspace (a superuser always does)."""
    user = request.user
    if not (user.is_authenticated and user.is_active):
        return False
    if user.is_superuser:
        return True
    return workspace_id is not None and user_roles(request).get(workspace_id) in roles


def role_allows_any(request: HttpRequest, roles: frozenset[str]) -> bool:
    """Whether the user holds one of `roles` in at least one workspace."""
    user = request.user
    if user.is_authenticated and user.is_active and user.is_superuser:
        return True
    return any(role in roles for role in user_roles(request).values())


def workspaces_with_role(request: HttpRequest, roles: frozenset[str]) -> QuerySet[Workspace]:
    """The workspaces where the user holds one of `roles` (all, for a superuser)."""
    user = request.user
    if not (user.is_authenticated and user.is_active):
        return Workspace.objects.none()
    if user.is_superuser:
        return Workspace.objects.all()
    return Workspace.objects.filter(pk__in=[ws for ws, role in user_roles(request).items() if role in roles])


def workspaces_refused(request: HttpRequest, workspace_ids: Iterable[int], roles: frozenset[str]) -> list[Workspace]:
    """Those of `workspace_ids` where the user lacks `roles`, to name them in a refusal."""
    refused = {ws for ws in workspace_ids if not role_allows(request, ws, roles)}
    return list(Workspace.objects.filter(pk__in=refused).order_by("slug")) if refused else []
