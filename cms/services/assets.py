"""Assets: upload (size capped, MIME type sniffed, text decoded) and delete."""

from __future__ import annotations

from typing import IO

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import transaction

from cms import signals
from cms.models import TEXT_ASSET_MIME_TYPES, Asset, Workspace


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
