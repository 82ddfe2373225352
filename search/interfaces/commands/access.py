"""How a search command decides what it may show: the operator sees everything, `--user U` sees as U."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError, CommandParser

from cms.access import WorkspaceAccess, workspace_access_for_member, workspace_access_for_operator
from cms.models import Workspace

USER_OPTION_HELP = (
    "search as this user: their role decides what is visible (a viewer sees no drafts). "
    "Without it the operator sees everything."
)


def add_access_arguments(parser: CommandParser) -> None:
    parser.add_argument("workspace", help="workspace slug")
    parser.add_argument("--user", default=None, metavar="USERNAME", help=USER_OPTION_HELP)
    parser.add_argument("--published-only", action="store_true", help="hide drafts (as a viewer would see it)")


def access_from_options(*, workspace: str, user: str | None, published_only: bool = False) -> WorkspaceAccess:
    """The access a command's options describe; CommandError for an unknown workspace or user."""
    found = Workspace.objects.filter(slug=workspace).first()
    if found is None:
        raise CommandError(f"No workspace with slug {workspace!r}.")
    if user is None:
        return workspace_access_for_operator(workspace=found, include_drafts=not published_only)
    account = get_user_model().objects.filter(username=user).first()
    if account is None:
        raise CommandError(f"No user {user!r}.")
    access = workspace_access_for_member(user=account, workspace=found)
    if access is None:
        raise CommandError(f"User {user!r} may not see workspace {workspace!r} (inactive, or not a member).")
    if published_only and access.include_drafts:
        access = workspace_access_for_operator(workspace=found, include_drafts=False)
    return access
