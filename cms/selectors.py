"""Reads of the content domain. Every selector takes the workspace (or the user) explicitly."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import connection
from django.db.models import QuerySet
from django.http import Http404

from cms.models import ApiKey, ContentType, Entry, Promotion, Workspace


def workspace_list_for_user(*, user: AbstractBaseUser) -> QuerySet[Workspace]:
    """Workspaces the user may see: all for a superuser, else those they are a member of."""
    if not user.is_authenticated or not user.is_active:
        return Workspace.objects.none()
    if user.is_superuser:
        return Workspace.objects.all()
    return Workspace.objects.filter(memberships__user=user)


def workspace_get_for_user(*, user: AbstractBaseUser, slug: str) -> Workspace:
    """The workspace with this slug, if the user may see it.

    Raises Http404 both when it does not exist and when the user is not a member, so the
    answer never reveals whether another tenant's workspace exists.
    """
    workspace = workspace_list_for_user(user=user).filter(slug=slug).first()
    if workspace is None:
        raise Http404("No such workspace.")
    return workspace


def content_type_schemas(*, workspace: Workspace) -> dict[str, list[dict]]:
    """Every content type of the workspace: api id -> its fields (one query)."""
    return dict(ContentType.objects.for_workspace(workspace).values_list("api_id", "fields"))


def api_key_list(*, workspace: Workspace | None = None) -> QuerySet[ApiKey]:
    """Keys, newest first per workspace; all of them for an operator (workspace None)."""
    keys = ApiKey.objects.select_related("workspace", "created_by")
    return keys.for_workspace(workspace) if workspace is not None else keys


def api_key_get(*, prefix: str) -> ApiKey | None:
    """The key with this public prefix (with or without its `cms_` scheme), if any."""
    prefix = prefix.removeprefix("cms_").split("_", 1)[0]
    return ApiKey.objects.select_related("workspace").filter(prefix=prefix).first()


def content_type_field_usage(*, workspace: Workspace, content_type: ContentType) -> dict[str, int]:
    """How many of the content type's entries hold a value under each key of their data (one
    query): the field builder warns about renaming only the ids that entries hold."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT key, count(*) FROM cms_entry, jsonb_object_keys(data) AS key"
                       " WHERE workspace_id = %s AND content_type_id = %s GROUP BY key",
                       [workspace.pk, content_type.pk])
        return dict(cursor.fetchall())


def content_type_has_entries(*, workspace: Workspace, content_type: ContentType) -> bool:
    return Entry.objects.for_workspace(workspace).filter(content_type=content_type).exists()


def content_type_list(*, workspace: Workspace) -> QuerySet[ContentType]:
    """The workspace's content types by api id."""
    return ContentType.objects.for_workspace(workspace).order_by("api_id")


def entries_by_id(*, workspace: Workspace, ids: list[int]) -> dict[int, Entry]:
    """The workspace's entries among `ids`, by id, with their content types (one query).
    Ids of another workspace's entries are left out."""
    return {entry.pk: entry for entry in Entry.objects.for_workspace(workspace).filter(pk__in=ids)
            .select_related("content_type")}


def promotions_for_phrase(*, workspace: Workspace, phrase_key: str) -> list[Promotion]:
    """The workspace's pins of one phrase (its key, promotion_phrase_normalise), in the order
    searches show them, with their entries and the entries' content types (one query)."""
    return list(Promotion.objects.for_workspace(workspace).filter(phrase_key=phrase_key)
                .select_related("entry", "entry__content_type").order_by("position", "id"))


def promotion_pinned(*, workspace: Workspace, phrase_key: str, entry: Entry,
                     excluding: Promotion | None = None) -> bool:
    """Whether a promotion of the workspace other than `excluding` pins `entry` to `phrase_key`
    (a phrase's matching key, promotion_phrase_normalise: 退貨 and 退货 are one)."""
    pins = Promotion.objects.for_workspace(workspace).filter(phrase_key=phrase_key, entry=entry)
    if excluding is not None and excluding.pk is not None:
        pins = pins.exclude(pk=excluding.pk)
    return pins.exists()
