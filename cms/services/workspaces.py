"""Workspaces and their memberships (the last owner is kept)."""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction

from cms.models import Membership, Role, Workspace


@transaction.atomic
def workspace_create(*, slug: str, name: str, owner: AbstractBaseUser | None = None) -> Workspace:
    workspace = Workspace(slug=slug, name=name)
    workspace.full_clean()
    workspace.save()
    if owner is not None:
        Membership.objects.create(workspace=workspace, user=owner, role=Role.OWNER)
    return workspace


def membership_owner_kept_check(*, losing: Iterable[Membership]) -> None:
    """Refuse (ValidationError, code `last_owner`) if the memberships in `losing` all ceasing to
    be owners (demoted or deleted) would leave a workspace with no owner.

    A workspace always keeps an owner, so that someone other than a superuser can manage it.
    Roles are read from the database, not from the (possibly edited) instances. The writing
    services call this with the workspaces locked (membership_workspaces_lock); forms call it
    to show the refusal beside the role; the database has the last word (migration 0006).
    """
    pks = {membership.pk for membership in losing if membership.pk is not None}
    owned = Membership.objects.filter(pk__in=pks, role=Role.OWNER).select_related("user", "workspace")
    by_workspace: dict[int, list[Membership]] = {}
    for membership in owned:
        by_workspace.setdefault(membership.workspace_id, []).append(membership)
    if not by_workspace:
        return
    kept = set(
        Membership.objects.filter(workspace_id__in=by_workspace, role=Role.OWNER)
        .exclude(pk__in=pks)
        .values_list("workspace_id", flat=True)
    )
    refusals = []
    for workspace_id, memberships in sorted(by_workspace.items()):
        if workspace_id in kept:
            continue
        workspace = memberships[0].workspace
        who = " and ".join(sorted(str(m.user) for m in memberships))
        are = "is the last owner" if len(memberships) == 1 else "are the last owners"
        refusals.append(
            f"{who} {are} of {workspace.name}, and a workspace always keeps an owner: make another member owner first."
        )
    if refusals:
        raise ValidationError({"role": [ValidationError(message, code="last_owner") for message in refusals]})


def membership_workspaces_lock(workspace_ids: Iterable[int]) -> None:
    """Lock the workspaces' rows until the transaction ends, so concurrent membership writes
    (two owners demoting each other) are checked one after the other."""
    list(Workspace.objects.select_for_update().filter(pk__in=set(workspace_ids)).order_by("pk").values_list("pk"))


@transaction.atomic
def membership_set(*, workspace: Workspace, user: AbstractBaseUser, role: str = Role.EDITOR) -> Membership:
    """Give `user` `role` in `workspace`. Refuses to demote the workspace's last owner."""
    if role not in Role.values:
        raise ValidationError({"role": f"Role must be one of {', '.join(Role.values)}."})
    membership_workspaces_lock([workspace.pk])
    if role != Role.OWNER:
        membership_owner_kept_check(losing=Membership.objects.filter(workspace=workspace, user=user))
    membership, _ = Membership.objects.update_or_create(workspace=workspace, user=user, defaults={"role": role})
    return membership


@transaction.atomic
def membership_delete_many(*, memberships: Iterable[Membership]) -> None:
    """Delete the memberships, all or none: refused if it would leave a workspace with no owner."""
    memberships = list(memberships)
    membership_workspaces_lock(m.workspace_id for m in memberships)
    membership_owner_kept_check(losing=memberships)
    Membership.objects.filter(pk__in=[m.pk for m in memberships]).delete()


def membership_delete(*, membership: Membership) -> None:
    """Delete one membership; refused if it is its workspace's last owner."""
    membership_delete_many(memberships=[membership])
