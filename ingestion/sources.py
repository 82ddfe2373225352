"""What chunks each source (an entry or an asset) should have: texts, titles and metadata.

Pure reads: nothing here writes. `ingestion.services.sync` applies these plans to the chunk
table, `ingestion.services.estimate` prices them, and the keyword index reads the same texts.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection

from cms.models import TEXT_ASSET_MIME_TYPES, TEXT_FIELD_TYPES, Asset, ContentType, Entry, FieldType
from ingestion.chunking import chunk_text, context_line, is_short_value
from ingestion.models import SourceKind

# Field types whose values are copied into chunk metadata (`metadata.fields`) for filtering:
# every type, so a filter on any field means what it says.
METADATA_FIELD_TYPES = frozenset(FieldType)
# Text and rich text values are copied cut to this many characters: every chunk of an entry
# carries them, and a rich text body can be long. A filter compares text for equality only
# up to FILTER_TEXT_MAX_CHARS - 1 characters (search.contract.filter_language refuses longer values), so a
# cut value never equals a filter value it did not start as; a range on an ISO date (at
# most 40 characters) orders the cut prefix exactly as the whole value; $exists is exact.
FILTER_TEXT_MAX_CHARS = 256
ASSET_FIELD = "body"
TITLE_MAX_LENGTH = 500


@dataclass(frozen=True)
class DesiredChunk:
    field: str
    ordinal: int
    text: str
    content_hash: str
    heading: str


@dataclass(frozen=True)
class ContentTypeInfo:
    """A content type as read under lock: the flag and the schema that chunks depend on."""

    id: int
    workspace_id: int
    api_id: str
    fields: list[dict]
    semantic_search_enabled: bool

    @property
    def title_field_id(self) -> str | None:
        for spec in self.fields:
            if spec["type"] == FieldType.TEXT:
                return spec["id"]
        return None


def content_type_info_lock_share(content_type_id: int) -> ContentTypeInfo | None:
    """Read a content type's flag and schema under a FOR SHARE lock.

    content_type_update locks the row FOR UPDATE, so an entry save and a toggle of its type
    are serialised: a save never writes chunks for a type that was just switched off, and a
    toggle's sync sees every entry saved before it.
    """
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT id, workspace_id, api_id, fields, semantic_search_enabled "
            f"FROM {ContentType._meta.db_table} WHERE id = %s FOR SHARE",
            [content_type_id],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    fields = row[3]
    if isinstance(fields, str):  # Django's psycopg setup leaves jsonb undecoded in raw queries
        fields = json.loads(fields)
    return ContentTypeInfo(id=row[0], workspace_id=row[1], api_id=row[2], fields=fields, semantic_search_enabled=row[4])


def _drafts(text: str, *, fmt: str, field_id: str, title: str = "", context: str = "") -> Iterator[DesiredChunk]:
    for draft in chunk_text(
        text, fmt=fmt, size=settings.CHUNK_SIZE_CHARS, overlap=settings.CHUNK_OVERLAP_CHARS, title=title
    ):
        if not draft.text.strip():
            continue
        # The entry's short fields (`context`, e.g. "Category: Shipping") end every chunk:
        # embedded and indexed with it, kept out of the chunk budget.
        text_ = f"{draft.text}\n{context}" if context else draft.text
        yield DesiredChunk(
            field=field_id,
            ordinal=draft.ordinal,
            text=text_,
            content_hash=hashlib.sha256(text_.encode("utf-8")).hexdigest() if context else draft.content_hash,
            heading=draft.heading,
        )


def entry_chunks_desired(entry: Entry, info: ContentTypeInfo) -> list[DesiredChunk]:
    """The chunks of an entry's text fields, each headed by the entry's title.

    The title field is not chunked on its own when another text field has content: every
    chunk of those fields already starts with it, and a title-only chunk gives an agent
    nothing to quote. Measured with bench/eval.py (nDCG@10, local model), titled body
    chunks without / with a title chunk of their own: SciFact 0.466 / 0.390, StackFAQ
    0.700 / 0.795, JSQuAD 0.717 / 0.703; untitled body chunks plus a title chunk (the first
    design): 0.380, 0.793, 0.697. The means are equal; StackFAQ, whose titles are the
    questions, is the hybrid search's to win back with keyword matches on titles.
    """
    title_field = info.title_field_id
    texts = [
        (spec, value)
        for spec in info.fields
        if spec["type"] in TEXT_FIELD_TYPES
        and isinstance(value := entry.data.get(spec["id"]), str)
        and value.strip()
    ]
    title = entry.data.get(title_field, "") if title_field else ""
    # Short plain text fields (ingestion.chunking.is_short_value) are context on the other
    # chunks, when there is another field to chunk (the title counts); alone, they are chunks.
    short = [(spec, value) for spec, value in texts
             if spec["id"] != title_field and spec["type"] == FieldType.TEXT and is_short_value(value)]
    if short and len(short) < len(texts):
        texts = [(spec, value) for spec, value in texts if (spec, value) not in short]
    else:
        short = []
    context = "\n".join(context_line(spec.get("label") or spec["id"], value) for spec, value in short)
    if any(spec["id"] != title_field for spec, _ in texts):
        texts = [(spec, value) for spec, value in texts if spec["id"] != title_field]
    else:
        title = ""  # the title is the only text: it is the chunk
    desired: list[DesiredChunk] = []
    for spec, value in texts:
        # Rich text is Markdown: the chunker renders it, strips the markup and keeps headings
        # with their section (an older value's HTML is stripped the same way).
        fmt = "richtext" if spec["type"] == FieldType.RICHTEXT else "plain"
        desired.extend(_drafts(value, fmt=fmt, field_id=spec["id"], title=title, context=context))
    return desired


def entry_chunk_title(entry: Entry, info: ContentTypeInfo) -> str:
    field_id = info.title_field_id
    value = entry.data.get(field_id) if field_id else None
    return str(value)[:TITLE_MAX_LENGTH] if value else ""


def entry_chunk_metadata(entry: Entry, info: ContentTypeInfo) -> dict[str, Any]:
    """What filters read: the entry's content type, status, and its field values (text cut
    to FILTER_TEXT_MAX_CHARS)."""
    scalar_fields = {
        spec["id"]: _filter_value(entry.data[spec["id"]], spec["type"])
        for spec in info.fields
        if spec["type"] in METADATA_FIELD_TYPES and spec["id"] in entry.data
    }
    return {
        "content_type": info.api_id,
        "status": entry.status,
        "source_kind": SourceKind.ENTRY.value,
        "fields": scalar_fields,
    }


def _filter_value(value: Any, field_type: str) -> Any:
    if field_type in TEXT_FIELD_TYPES and isinstance(value, str):
        return value[:FILTER_TEXT_MAX_CHARS]
    return value


def asset_is_ingested(asset: Asset) -> bool:
    return asset.mime_type in TEXT_ASSET_MIME_TYPES and bool(asset.text and asset.text.strip())


def asset_chunks_desired(asset: Asset) -> list[DesiredChunk]:
    fmt = "markdown" if asset.mime_type == "text/markdown" else "plain"
    return list(_drafts(asset.text or "", fmt=fmt, field_id=ASSET_FIELD))


def asset_chunk_metadata(asset: Asset) -> dict[str, Any]:
    return {"source_kind": SourceKind.ASSET.value, "mime_type": asset.mime_type, "filename": asset.filename}


def chunk_metadata_with_heading(base: dict[str, Any], heading: str) -> dict[str, Any]:
    return {**base, "heading": heading} if heading else base


@dataclass
class SourcePlan:
    """The chunks one source (entry or asset) should have, with its title and metadata."""

    kind: str
    source_id: int
    workspace_id: int
    title: str
    metadata: dict[str, Any]
    desired: list[DesiredChunk]


def entry_plan(entry: Entry, info: ContentTypeInfo) -> SourcePlan:
    """The chunks, title and metadata an entry of an opted-in type should have."""
    return SourcePlan(
        kind=SourceKind.ENTRY,
        source_id=entry.pk,
        workspace_id=entry.workspace_id,
        title=entry_chunk_title(entry, info),
        metadata=entry_chunk_metadata(entry, info),
        desired=entry_chunks_desired(entry, info),
    )


def asset_plan(asset: Asset) -> SourcePlan:
    """The chunks, title and metadata of an ingested (text or Markdown) asset."""
    return SourcePlan(
        kind=SourceKind.ASSET,
        source_id=asset.pk,
        workspace_id=asset.workspace_id,
        title=asset.filename[:TITLE_MAX_LENGTH],
        metadata=asset_chunk_metadata(asset),
        desired=asset_chunks_desired(asset),
    )


def content_type_info(content_type: ContentType) -> ContentTypeInfo:
    """A content type's flag and schema as read (no lock): for estimates, which write nothing."""
    return ContentTypeInfo(
        id=content_type.pk,
        workspace_id=content_type.workspace_id,
        api_id=content_type.api_id,
        fields=content_type.fields,
        semantic_search_enabled=content_type.semantic_search_enabled,
    )

