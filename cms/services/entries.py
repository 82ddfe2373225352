"""Entries: create, update, delete (status and data validated)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction

from cms import signals
from cms.models import ContentType, Entry, EntryStatus
from cms.schemas import entry_data_validate


def _status_validate(status: str) -> str:
    if status not in EntryStatus.values:
        raise ValidationError({"status": f"Status must be one of {', '.join(EntryStatus.values)}."})
    return status


@transaction.atomic
def entry_create(
    *,
    content_type: ContentType,
    data: dict[str, Any],
    status: str = EntryStatus.DRAFT,
    created_by: AbstractBaseUser | None = None,
) -> Entry:
    entry = Entry(
        workspace_id=content_type.workspace_id,
        content_type=content_type,
        data=entry_data_validate(content_type.fields, data),
        status=_status_validate(status),
        created_by=created_by,
    )
    entry.save()
    signals.entry_saved.send(sender=Entry, entry=entry, created=True)
    return entry


@transaction.atomic
def entry_update(*, entry: Entry, data: dict[str, Any] | None = None, status: str | None = None) -> Entry:
    """Replace an entry's data and/or status. Saving identical content is a harmless no-op
    for ingestion: unchanged chunks keep their vectors. Keys an older schema left in the
    data may be sent back unchanged, and are kept (see entry_data_validate)."""
    if data is not None:
        entry.data = entry_data_validate(entry.content_type.fields, data, stored=entry.data)
    if status is not None:
        entry.status = _status_validate(status)
    entry.save()
    signals.entry_saved.send(sender=Entry, entry=entry, created=False)
    return entry


@transaction.atomic
def entry_delete(*, entry: Entry) -> None:
    signals.entry_deleted.send(sender=Entry, entry=entry)
    entry.delete()
