"""An entry field's value as the text a reader sees: rich text without its markup, for snippets and highlights."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cms.models import FieldType
from ingestion.chunking import html_to_text


def field_types(fields: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """{field id: field type} from a content type's `fields` schema."""
    return {field["id"]: field.get("type", "") for field in fields}


def field_text(value: str, field_type: str) -> str:
    """`value` as text: a rich-text value is HTML, parsed by the chunker's html.parser-based
    stripper (ingestion.chunking.html_to_text, the same text chunks hold); other values are
    already text and kept as they are (a '<' in plain text is a character, not a tag)."""
    if field_type == FieldType.RICHTEXT and ("<" in value or "&" in value):
        return html_to_text(value)
    return value
