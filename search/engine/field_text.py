"""An entry field's value as the text a reader sees: rich text without its markup, for snippets and highlights."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cms.models import FieldType
from ingestion.chunking import richtext_to_text


def field_types(fields: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """{field id: field type} from a content type's `fields` schema."""
    return {field["id"]: field.get("type", "") for field in fields}


def field_text(value: str, field_type: str) -> str:
    """`value` as text: a rich-text value is Markdown (which may hold HTML), rendered and
    stripped as the chunker does (ingestion.chunking.richtext_to_text, the same text chunks
    hold); other values are already text and kept as they are (a '<' or '*' in plain text is a
    character, not markup)."""
    if field_type == FieldType.RICHTEXT:
        return richtext_to_text(value)
    return value
