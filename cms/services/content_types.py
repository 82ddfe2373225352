"""Content types: create and update (field schemas validated)."""

from __future__ import annotations

from django.db import transaction

from cms import signals
from cms.models import ContentType, Workspace
from cms.schemas import content_type_fields_validate


@transaction.atomic
def content_type_create(
    *,
    workspace: Workspace,
    api_id: str,
    name: str,
    fields: list[dict],
    semantic_search_enabled: bool = False,
) -> ContentType:
    content_type = ContentType(
        workspace=workspace,
        api_id=api_id,
        name=name,
        fields=content_type_fields_validate(fields),
        semantic_search_enabled=semantic_search_enabled,
    )
    content_type.full_clean()
    content_type.save()
    return content_type


@transaction.atomic
def content_type_update(
    *,
    content_type: ContentType,
    name: str | None = None,
    fields: list[dict] | None = None,
    semantic_search_enabled: bool | None = None,
) -> ContentType:
    """Update a content type. Toggling semantic search announces it (ingestion follows)."""
    content_type = ContentType.objects.select_for_update().get(pk=content_type.pk)
    was_enabled = content_type.semantic_search_enabled
    if name is not None:
        content_type.name = name
    if fields is not None:
        content_type.fields = content_type_fields_validate(fields)
    if semantic_search_enabled is not None:
        content_type.semantic_search_enabled = semantic_search_enabled
    content_type.full_clean()
    content_type.save()
    if content_type.semantic_search_enabled != was_enabled:
        signals.semantic_search_toggled.send(
            sender=ContentType, content_type=content_type, enabled=content_type.semantic_search_enabled
        )
    return content_type
