"""Workspace API keys: create, revoke, touch, authenticate."""

from __future__ import annotations

import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from cms.api_keys import api_key_check, api_key_expiry_check, api_key_format, api_key_generate, api_key_hash
from cms.models import ApiKey, Workspace


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
