"""Resolve the --workspace / --content-type options shared by the ingestion commands."""

from __future__ import annotations

from django.core.management.base import CommandError

from cms.models import ContentType, Workspace


def workspace_from_option(slug: str | None) -> Workspace | None:
    if not slug:
        return None
    workspace = Workspace.objects.filter(slug=slug).first()
    if workspace is None:
        known = ", ".join(Workspace.objects.order_by("slug").values_list("slug", flat=True)[:20]) or "none"
        raise CommandError(f"No workspace with slug {slug!r}. Known workspaces: {known}.")
    return workspace


def content_types_from_option(api_id: str | None, workspace: Workspace | None) -> list[ContentType]:
    """Every content type in scope (pk order), or the one named by `api_id`."""
    types = ContentType.objects.order_by("pk")
    if workspace is not None:
        types = types.for_workspace(workspace)
    if not api_id:
        return list(types)
    matches = list(types.filter(api_id=api_id))
    if not matches:
        where = f"workspace {workspace.slug!r}" if workspace else "any workspace"
        raise CommandError(f"No content type {api_id!r} in {where}.")
    if len(matches) > 1:
        slugs = ", ".join(sorted(ct.workspace.slug for ct in matches))
        raise CommandError(
            f"Content type {api_id!r} exists in several workspaces ({slugs}); add --workspace to choose one."
        )
    return matches
