"""Who may see what in a workspace: the one read policy that every interface applies.

A search never takes a bare workspace: it takes a `WorkspaceAccess`, which only the
functions here make. So the API, MCP tools, the admin and the management commands cannot
disagree about drafts; each one only says who is asking.

The policy (docs/access.md, "Who sees what"):

- an `owner` or an `editor` sees drafts and published content; a `viewer` sees published
  content only; a superuser counts as an owner of every workspace;
- an API key sees published content only, unless it was created to include drafts;
- an operator at the shell (management commands) sees everything, unless the command is
  told to act as a user;
- assets have no status: whoever may search a workspace sees its assets;
- a `status` filter narrows what the caller may see, never widens it.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q
from django.http import Http404

from cms.models import ApiKey, EntryStatus, Membership, Role, Workspace
from cms.selectors import workspace_list_for_user

# Roles that may see drafts (and write content).
DRAFT_ROLES = frozenset({Role.OWNER, Role.EDITOR})
# The role name of a caller that is not a member: a workspace API key, or an operator.
API_KEY_ROLE = "api_key"
OPERATOR_ROLE = "operator"


class WorkspaceNotFound(Http404):
    """No such workspace for this caller: raised alike for a missing one and another tenant's."""

    def __init__(self) -> None:
        super().__init__("No such workspace.")


@dataclass(frozen=True)
class WorkspaceAccess:
    """One caller's read access to one workspace: the tenancy every search is scoped by."""

    workspace: Workspace
    role: str
    include_drafts: bool
    # Who is asking, for logs and errors: "user:alice", "key:cms_ab12", "operator".
    actor: str = ""

    @property
    def entry_statuses(self) -> tuple[str, ...]:
        """The entry statuses this caller may see."""
        return tuple(EntryStatus.values) if self.include_drafts else (EntryStatus.PUBLISHED,)

    def may_see_status(self, status: str) -> bool:
        return status in self.entry_statuses


def _user_role(user: AbstractBaseUser, workspace: Workspace) -> str | None:
    if user.is_superuser:
        return Role.OWNER
    return Membership.objects.filter(user=user, workspace=workspace).values_list("role", flat=True).first()


def workspace_access_for_user(*, user: AbstractBaseUser, slug: str) -> WorkspaceAccess:
    """The user's access to the workspace with this slug.

    Raises WorkspaceNotFound (a 404) both when it does not exist and when the user is not a
    member, so the answer never reveals whether another tenant's workspace exists.
    """
    workspace = workspace_list_for_user(user=user).filter(slug=slug).first()
    if workspace is None:
        raise WorkspaceNotFound()
    access = workspace_access_for_member(user=user, workspace=workspace)
    if access is None:  # the membership went away between the two reads
        raise WorkspaceNotFound()
    return access


def workspace_access_for_member(*, user: AbstractBaseUser, workspace: Workspace) -> WorkspaceAccess | None:
    """The user's access to `workspace`, or None if they may not see it at all."""
    if not user.is_authenticated or not user.is_active:
        return None
    role = _user_role(user, workspace)
    if role is None:
        return None
    return WorkspaceAccess(
        workspace=workspace, role=role, include_drafts=role in DRAFT_ROLES, actor=f"user:{user.get_username()}"
    )


def workspace_accesses_for_user(*, user: AbstractBaseUser) -> list[WorkspaceAccess]:
    """The user's access to every workspace they may see, in slug order."""
    if not user.is_authenticated or not user.is_active:
        return []
    workspaces = list(workspace_list_for_user(user=user).order_by("slug"))
    if user.is_superuser:
        roles = {ws.pk: Role.OWNER for ws in workspaces}
    else:
        roles = dict(Membership.objects.filter(user=user).values_list("workspace_id", "role"))
    actor = f"user:{user.get_username()}"
    return [
        WorkspaceAccess(workspace=ws, role=roles[ws.pk], include_drafts=roles[ws.pk] in DRAFT_ROLES, actor=actor)
        for ws in workspaces
        if ws.pk in roles
    ]


def workspace_access_for_api_key(*, api_key: ApiKey, slug: str | None = None) -> WorkspaceAccess:
    """The key's access to its own workspace: published content, drafts too if it was made so.

    With `slug`, the workspace the caller named: any other than the key's raises
    WorkspaceNotFound, the same answer as a workspace that does not exist. The key must
    already be checked (cms.services.api_key_authenticate).
    """
    if slug is not None and api_key.workspace.slug != slug:
        raise WorkspaceNotFound()
    return WorkspaceAccess(
        workspace=api_key.workspace, role=API_KEY_ROLE, include_drafts=api_key.include_drafts,
        actor=f"key:cms_{api_key.prefix}",
    )


def workspace_access_for_operator(*, workspace: Workspace, include_drafts: bool = True) -> WorkspaceAccess:
    """An operator's access (management commands, benchmarks): everything, or published only."""
    return WorkspaceAccess(workspace=workspace, role=OPERATOR_ROLE, include_drafts=include_drafts, actor="operator")


def entry_visibility_q(*, user: AbstractBaseUser, path: str = "") -> Q:
    """A filter for every entry the user may see, across their workspaces (the admin's
    changelists): all of a workspace where they see drafts, the published ones elsewhere.
    `path`: the ORM path from the filtered model to the entry ("entry__"), empty on Entry."""
    accesses = workspace_accesses_for_user(user=user)
    with_drafts = [a.workspace.pk for a in accesses if a.include_drafts]
    published_only = [a.workspace.pk for a in accesses if not a.include_drafts]
    return (Q(**{f"{path}workspace_id__in": with_drafts})
            | Q(**{f"{path}workspace_id__in": published_only, f"{path}status": EntryStatus.PUBLISHED}))
