"""Writes to the content domain. Each service validates, saves, and announces the change.

Announcements are signals sent inside the service's transaction (cms/signals.py), so a
listener's own writes (ingestion's pending chunks) commit or roll back with the content.
"""

from __future__ import annotations

import datetime
import unicodedata
from collections.abc import Iterable
from typing import IO, Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from cms import signals
from cms.api_keys import api_key_check, api_key_expiry_check, api_key_format, api_key_generate, api_key_hash
from cms.models import (
    TEXT_ASSET_MIME_TYPES,
    ApiKey,
    Asset,
    ContentType,
    Entry,
    EntryStatus,
    Membership,
    Role,
    SynonymKind,
    SynonymSet,
    Workspace,
    PROMOTION_PHRASE_MAX_CHARS,
    Promotion,
    PromotionMatch,
    promotion_phrase_normalise,
)
from cms.schemas import content_type_fields_validate, entry_data_validate


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


def _asset_text_decode(*, filename: str, mime_type: str, content: bytes) -> str | None:
    if mime_type not in TEXT_ASSET_MIME_TYPES:
        return None
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValidationError(
            {"file": f"{filename} is declared {mime_type} but is not valid UTF-8 (byte {exc.start}); "
             "re-save it as UTF-8 and upload again."}
        ) from exc
    if "\x00" in text:
        raise ValidationError({"file": f"{filename} contains NUL characters; it is not a text file."})
    return text


def _mime_type_guess(filename: str, declared: str | None) -> str:
    if declared:
        return declared.split(";")[0].strip().lower()
    lowered = filename.lower()
    if lowered.endswith((".md", ".markdown")):
        return "text/markdown"
    if lowered.endswith(".txt"):
        return "text/plain"
    import mimetypes

    return mimetypes.guess_type(filename)[0] or "application/octet-stream"


# How much of an upload is read at a time while its size is checked.
ASSET_READ_CHUNK_BYTES = 64 * 1024


def asset_content_read(*, filename: str, stream: IO[bytes]) -> bytes:
    """Read an upload in chunks, refusing it (ValidationError) once it passes ASSET_MAX_BYTES.

    At most ASSET_MAX_BYTES + 1 bytes are ever read, so an oversized file is never held in
    memory whole, whatever its real size.
    """
    limit = settings.ASSET_MAX_BYTES
    if hasattr(stream, "seek"):
        stream.seek(0)
    parts: list[bytes] = []
    total = 0
    while total <= limit:
        part = stream.read(min(ASSET_READ_CHUNK_BYTES, limit + 1 - total))
        if not part:
            return b"".join(parts)
        parts.append(part)
        total += len(part)
    raise ValidationError({"file": f"{filename} is over the limit of {limit:,} bytes (ASSET_MAX_BYTES)."})


def asset_content_check(*, filename: str, content: bytes, mime_type: str | None = None) -> tuple[str, str | None]:
    """Validate an upload without storing it; return (mime type, decoded text or None).

    Refuses (ValidationError) a file over ASSET_MAX_BYTES, a bad filename, or a text file
    that is not UTF-8.
    """
    limit = settings.ASSET_MAX_BYTES
    if len(content) > limit:
        raise ValidationError(
            {"file": f"{filename} is {len(content):,} bytes; the limit is {limit:,} bytes (ASSET_MAX_BYTES)."}
        )
    if not filename or "/" in filename or "\\" in filename or "\x00" in filename:
        raise ValidationError({"filename": "A filename is required and must not contain path separators."})
    mime = _mime_type_guess(filename, mime_type)
    return mime, _asset_text_decode(filename=filename, mime_type=mime, content=content)


@transaction.atomic
def asset_upload(
    *,
    workspace: Workspace,
    filename: str,
    content: bytes | IO[bytes],
    mime_type: str | None = None,
    uploaded_by: AbstractBaseUser | None = None,
) -> Asset:
    """Store an uploaded file; text and Markdown files are decoded and kept as text.

    `content` is the bytes or a file to read them from (read by asset_content_read, so an
    oversized file is refused before it is read whole). Nothing is stored if the upload is
    refused (see asset_content_check).
    """
    if not isinstance(content, bytes):
        content = asset_content_read(filename=filename, stream=content)
    mime, text = asset_content_check(filename=filename, content=content, mime_type=mime_type)
    asset = Asset(
        workspace=workspace, filename=filename, mime_type=mime, size=len(content), text=text, uploaded_by=uploaded_by
    )
    asset.file.save(filename, ContentFile(content), save=False)
    try:
        asset.save()
        signals.asset_saved.send(sender=Asset, asset=asset, created=True)
    except BaseException:
        # Nothing stored: the row rolls back, so the file must go too.
        asset.file.storage.delete(asset.file.name)
        raise
    return asset


@transaction.atomic
def asset_delete(*, asset: Asset) -> None:
    signals.asset_deleted.send(sender=Asset, asset=asset)
    storage, name = asset.file.storage, asset.file.name
    asset.delete()
    transaction.on_commit(lambda: storage.delete(name))


# --- API keys ---------------------------------------------------------------------------
# How stale `last_used_at` may get: a key used all day costs one UPDATE a minute, not one a request.
API_KEY_TOUCH_INTERVAL = datetime.timedelta(minutes=1)


@transaction.atomic
def api_key_create(
    *,
    workspace: Workspace,
    name: str,
    include_drafts: bool = False,
    expires_at: datetime.datetime | None = None,
    created_by: AbstractBaseUser | None = None,
) -> tuple[ApiKey, str]:
    """Create a key for `workspace`; return it and its full secret, which nothing stores.

    The caller shows the secret once. Published content only unless `include_drafts`.
    `expires_at`, if given, is in the future and at most API_KEY_MAX_LIFETIME_DAYS away.
    """
    name = (name or "").strip()
    if not name:
        raise ValidationError({"name": "Give the key a name that says who or what uses it."})
    api_key_expiry_check(expires_at)
    prefix, secret = api_key_generate()
    while ApiKey.objects.filter(prefix=prefix).exists():  # 48 random bits: practically never
        prefix, secret = api_key_generate()
    api_key = ApiKey(
        workspace=workspace,
        name=name,
        prefix=prefix,
        secret_hash=api_key_hash(prefix=prefix, secret=secret),
        include_drafts=include_drafts,
        expires_at=expires_at,
        created_by=created_by,
    )
    api_key.full_clean()
    api_key.save()
    return api_key, api_key_format(prefix=prefix, secret=secret)


@transaction.atomic
def api_key_revoke(*, api_key: ApiKey) -> ApiKey:
    """Revoke a key from now on; revoking it again keeps the first time."""
    ApiKey.objects.filter(pk=api_key.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())
    api_key.refresh_from_db(fields=["revoked_at"])
    return api_key


def api_key_touch(*, api_key: ApiKey, now: datetime.datetime | None = None) -> bool:
    """Record that the key was used, unless that was recorded less than a minute ago.

    No write at all when the loaded row is recent enough; otherwise one conditional UPDATE,
    so workers racing on the same key write once between them. True if it wrote.
    """
    now = now or timezone.now()
    if api_key.last_used_at is not None and now - api_key.last_used_at < API_KEY_TOUCH_INTERVAL:
        return False
    updated = ApiKey.objects.filter(
        Q(last_used_at__isnull=True) | Q(last_used_at__lt=now - API_KEY_TOUCH_INTERVAL), pk=api_key.pk
    ).update(last_used_at=now)
    api_key.last_used_at = now
    return bool(updated)


def api_key_authenticate(*, raw_key: str) -> ApiKey:
    """The live key `raw_key` names (cms.api_keys.api_key_check), its use recorded.

    Raises ApiKeyRejected with `invalid_api_key`, `api_key_expired` or `api_key_revoked`.
    """
    api_key = api_key_check(raw_key)
    api_key_touch(api_key=api_key)
    return api_key


# --- synonym sets ------------------------------------------------------------------------------

SYNONYM_SET_MAX_TERMS = 50
SYNONYM_TERM_MAX_CHARS = 100


def _synonym_terms_clean(terms: Any) -> list[str]:
    if not isinstance(terms, list) or not all(isinstance(t, str) for t in terms):
        raise ValidationError("Synonyms must be a list of words or phrases.", code="synonym_terms_invalid")
    by_key: dict[str, str] = {}
    for term in (" ".join(t.split()) for t in terms if t.strip()):
        by_key.setdefault(unicodedata.normalize("NFKC", term).casefold(), term)  # Refund and refund are one
    cleaned = list(by_key.values())
    for term in cleaned:
        if len(term) > SYNONYM_TERM_MAX_CHARS or any(unicodedata.category(ch) == "Cc" for ch in term):
            raise ValidationError(f"A synonym is at most {SYNONYM_TERM_MAX_CHARS} characters, without control "
                                  "characters.", code="synonym_term_invalid")
    return cleaned


def synonym_set_check(*, kind: str, terms: Any, source: str = "") -> tuple[str, list[str], str]:
    """(kind, terms, source) cleaned, or ValidationError with a code: `synonym_set_too_small`
    (a multi-way set needs 2 terms, a one-way set a source and 1 term), `synonym_set_too_large`
    (over SYNONYM_SET_MAX_TERMS), `synonym_kind_invalid`, `synonym_term_invalid`."""
    if kind not in SynonymKind.values:
        raise ValidationError(f"kind must be one of {', '.join(SynonymKind.values)}.", code="synonym_kind_invalid")
    cleaned = _synonym_terms_clean(terms)
    source = " ".join(source.split()) if isinstance(source, str) else None
    if source is None or any(unicodedata.category(ch) == "Cc" for ch in source):
        raise ValidationError("A one-way set's source is a word or phrase, without control characters.",
                              code="synonym_term_invalid")
    if kind == SynonymKind.ONE_WAY:
        if not source or len(source) > SYNONYM_TERM_MAX_CHARS:
            raise ValidationError("A one-way set needs its source word (what finds the others).",
                                  code="synonym_set_too_small")
        cleaned = [t for t in cleaned if t.lower() != source.lower()]
    else:
        source = ""
    needed = 1 if kind == SynonymKind.ONE_WAY else 2
    if len(cleaned) < needed:
        raise ValidationError(f"A {kind.replace('_', '-')} set needs at least {needed} different term(s).",
                              code="synonym_set_too_small")
    if len(cleaned) > SYNONYM_SET_MAX_TERMS:
        raise ValidationError(f"A set holds at most {SYNONYM_SET_MAX_TERMS} terms, not {len(cleaned)}.",
                              code="synonym_set_too_large")
    return kind, cleaned, source


def _synonyms_changed(workspace: Workspace) -> None:
    Workspace.objects.filter(pk=workspace.pk).update(synonyms_version=F("synonyms_version") + 1)
    workspace.refresh_from_db(fields=["synonyms_version"])


@transaction.atomic
def synonym_set_create(*, workspace: Workspace, terms: Any, kind: str = SynonymKind.MULTI_WAY,
                       source: str = "") -> SynonymSet:
    """A synonym set of the workspace, checked (synonym_set_check); searches use it at once."""
    kind, cleaned, source = synonym_set_check(kind=kind, terms=terms, source=source)
    synonym_set = SynonymSet.objects.create(workspace=workspace, kind=kind, terms=cleaned, source=source)
    _synonyms_changed(workspace)
    return synonym_set


@transaction.atomic
def synonym_set_update(*, synonym_set: SynonymSet, terms: Any, kind: str | None = None,
                       source: str | None = None) -> SynonymSet:
    kind, cleaned, source = synonym_set_check(kind=kind or synonym_set.kind, terms=terms,
                                              source=synonym_set.source if source is None else source)
    synonym_set.kind, synonym_set.terms, synonym_set.source = kind, cleaned, source
    synonym_set.save()
    _synonyms_changed(synonym_set.workspace)
    return synonym_set


@transaction.atomic
def synonym_set_delete(*, synonym_set: SynonymSet) -> None:
    workspace = synonym_set.workspace
    synonym_set.delete()
    _synonyms_changed(workspace)


# --- promotions (editors' picks) --------------------------------------------------------------

@transaction.atomic
def promotion_create(*, workspace: Workspace, phrase: str, entry: Entry, position: int = 0,
                     match: str = PromotionMatch.IS) -> Promotion:
    """Pin `entry` to searches for `phrase` (normalised), matched as the whole query or
    anywhere in it (`match`, PromotionMatch). The entry must be of `workspace`; pinning the
    same entry to the same phrase twice is refused."""
    normalised = promotion_phrase_normalise(phrase if isinstance(phrase, str) else "")
    errors = {}
    if not normalised:
        errors["phrase"] = "Give the query phrase the entry should answer."
    elif len(normalised) > PROMOTION_PHRASE_MAX_CHARS:
        errors["phrase"] = f"A phrase has at most {PROMOTION_PHRASE_MAX_CHARS} characters."
    if match not in PromotionMatch.values:
        errors["match"] = f"Choose how the phrase matches: {' or '.join(PromotionMatch.values)}."
    if entry.workspace_id != workspace.pk:
        errors["entry"] = "The entry must belong to the same workspace."
    elif normalised and Promotion.objects.filter(workspace=workspace, phrase=normalised, entry=entry).exists():
        errors["entry"] = f"This entry is already pinned to {normalised!r}."
    if errors:
        raise ValidationError(errors)
    return Promotion.objects.create(workspace=workspace, phrase=normalised, entry=entry, position=position,
                                    match=match)


def promotion_delete(*, promotion: Promotion) -> None:
    promotion.delete()
