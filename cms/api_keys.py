"""Workspace API keys: their format, the keyed hash that is all the database keeps, and checking one.

A key reads `cms_<prefix>_<secret>`: 12 hex characters that find the row (and name the key
in lists and logs), and 43 characters of `secrets.token_urlsafe(32)` (256 random bits).

Why a keyed HMAC-SHA256 rather than a slow hash (PBKDF2, argon2): slow hashes protect
secrets people choose, which can be guessed from a dictionary. A 256-bit random secret
cannot be guessed whatever the hash, so a slow one would only add tens of milliseconds to
every API request. Keying the HMAC with a server secret (`API_KEY_HASH_SECRET`, default
SECRET_KEY) means a stolen database alone cannot even test a guess. Hashes are compared in
constant time, and a key whose prefix is unknown costs the same HMAC as one whose secret
is wrong, so the answer does not tell whether a prefix exists.
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import hmac
import re
import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import connection
from django.utils import timezone

from cms.models import ApiKey, Workspace

KEY_SCHEME = "cms"
PREFIX_BYTES = 6  # 12 hex characters
SECRET_BYTES = 32
_KEY_PATTERN = re.compile(r"^cms_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$")
# The hash compared against when no row has the presented prefix (never matches).
_NO_SUCH_KEY_HASH = "0" * 64
# The longest a key may live: long-lived enough for any integration, and far from the
# datetime overflow that a lifetime of millions of days would hit.
API_KEY_MAX_LIFETIME_DAYS = 3650  # ten years


class ApiKeyRejected(Exception):
    """A presented key that grants nothing. `code` is for machines, `message` for people.

    `invalid_api_key` covers a malformed key, an unknown prefix and a wrong secret alike;
    `api_key_expired` and `api_key_revoked` are told only to a caller whose secret matched.
    """

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def api_key_generate() -> tuple[str, str]:
    """A fresh (prefix, secret) pair."""
    return secrets.token_hex(PREFIX_BYTES), secrets.token_urlsafe(SECRET_BYTES)


def api_key_format(*, prefix: str, secret: str) -> str:
    return f"{KEY_SCHEME}_{prefix}_{secret}"


def api_key_hash(*, prefix: str, secret: str) -> str:
    """HMAC-SHA256 of prefix and secret under API_KEY_HASH_SECRET, as 64 hex characters."""
    message = f"{prefix}.{secret}".encode()
    return hmac.new(settings.API_KEY_HASH_SECRET.encode(), message, hashlib.sha256).hexdigest()


def api_key_expiry_message() -> str:
    """The one sentence every interface (admin form, command, service) refuses an expiry with."""
    return f"An API key expires between 1 and {API_KEY_MAX_LIFETIME_DAYS} days (ten years) from now."


def api_key_expires_at(days: int | None, *, now: datetime.datetime | None = None) -> datetime.datetime | None:
    """When a key given `days` days to live expires (None: never).

    ValidationError({"expires_in_days": api_key_expiry_message()}) outside 1..API_KEY_MAX_LIFETIME_DAYS.
    """
    if days is None:
        return None
    if not 1 <= days <= API_KEY_MAX_LIFETIME_DAYS:
        raise ValidationError({"expires_in_days": api_key_expiry_message()})
    return (now or timezone.now()) + datetime.timedelta(days=days)


def api_key_expiry_check(expires_at: datetime.datetime | None, *, now: datetime.datetime | None = None) -> None:
    """ValidationError({"expires_at": ...}) unless `expires_at` is None or within the bound."""
    if expires_at is None:
        return
    now = now or timezone.now()
    if expires_at <= now:
        raise ValidationError({"expires_at": "The expiry must be in the future."})
    if expires_at > now + datetime.timedelta(days=API_KEY_MAX_LIFETIME_DAYS):
        raise ValidationError({"expires_at": api_key_expiry_message()})


def api_key_parse(raw_key: str) -> tuple[str, str] | None:
    """(prefix, secret) of a well-formed key, else None."""
    match = _KEY_PATTERN.match(raw_key)
    return (match.group(1), match.group(2)) if match else None


def api_key_check(raw_key: str) -> ApiKey:
    """The live key `raw_key` names, with its workspace loaded; ApiKeyRejected otherwise.

    One indexed read. Recording `last_used_at` is the caller's choice (api_key_touch).
    """
    parsed = api_key_parse(raw_key)
    invalid = ApiKeyRejected("invalid_api_key", "The API key is not valid.")
    if parsed is None:
        raise invalid
    prefix, secret = parsed
    api_key = _api_key_by_prefix(prefix)
    presented = api_key_hash(prefix=prefix, secret=secret)
    expected = api_key.secret_hash if api_key is not None else _NO_SUCH_KEY_HASH
    if not hmac.compare_digest(presented, expected) or api_key is None:
        raise invalid
    if api_key.revoked_at is not None:
        raise ApiKeyRejected("api_key_revoked", f"The API key cms_{prefix} was revoked; ask an owner for a new one.")
    if api_key.expires_at is not None and api_key.expires_at <= timezone.now():
        raise ApiKeyRejected("api_key_expired", f"The API key cms_{prefix} has expired; ask an owner for a new one.")
    return api_key


@functools.cache
def _lookup_sql() -> tuple[str, list[str], list[str]]:
    """The key-and-workspace SELECT, and the attribute names of its columns in order."""
    key_fields, workspace_fields = ApiKey._meta.concrete_fields, Workspace._meta.concrete_fields
    columns = [f"k.{connection.ops.quote_name(f.column)}" for f in key_fields]
    columns += [f"w.{connection.ops.quote_name(f.column)}" for f in workspace_fields]
    sql = (
        f"SELECT {', '.join(columns)} FROM {ApiKey._meta.db_table} k"
        f" JOIN {Workspace._meta.db_table} w ON w.id = k.workspace_id WHERE k.prefix = %s"
    )
    return sql, [f.attname for f in key_fields], [f.attname for f in workspace_fields]


def _api_key_by_prefix(prefix: str) -> ApiKey | None:
    """The key with this prefix and its workspace, in one statement.

    Every API request runs this, so it skips the ORM's query compilation (on its own more
    than the indexed read it compiles) and builds the rows as the ORM would (`from_db`).
    """
    sql, key_names, workspace_names = _lookup_sql()
    with connection.cursor() as cursor:
        cursor.execute(sql, [prefix])
        row = cursor.fetchone()
    if row is None:
        return None
    api_key = ApiKey.from_db(connection.alias, key_names, row[: len(key_names)])
    api_key.workspace = Workspace.from_db(connection.alias, workspace_names, row[len(key_names):])
    return api_key
