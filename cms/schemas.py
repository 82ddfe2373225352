"""Validation of content type field schemas and of entry data against them (pure functions)."""

from __future__ import annotations

import datetime
import math
import re
from typing import Any

from django.core.exceptions import ValidationError

from cms.models import FieldType

FIELD_ID_PATTERN = re.compile(r"^[a-z][a-z0-9_]{0,63}$")
# A tags field holds a list of short strings (search filters read it with $in/$all/$size).
MAX_TAGS = 50
MAX_TAG_CHARS = 64


def content_type_fields_validate(fields: Any) -> list[dict]:
    """Check a field schema; return it normalised. Errors name the offending field."""
    if not isinstance(fields, list):
        raise ValidationError({"fields": "The field schema must be a list of fields."})
    normalised: list[dict] = []
    seen: set[str] = set()
    for position, field in enumerate(fields):
        where = f"fields[{position}]"
        if not isinstance(field, dict):
            raise ValidationError({"fields": f"{where} must be an object with id, label and type."})
        field_id = field.get("id")
        if not isinstance(field_id, str) or not FIELD_ID_PATTERN.match(field_id):
            raise ValidationError(
                {"fields": f"{where}: id {field_id!r} must start with a lowercase letter and use a-z, 0-9 and _."}
            )
        if field_id in seen:
            raise ValidationError({"fields": f"{where}: id {field_id!r} is used twice."})
        seen.add(field_id)
        if field.get("type") not in FieldType.values:
            raise ValidationError(
                {"fields": f"Field {field_id!r}: type {field.get('type')!r} is not one of {', '.join(FieldType.values)}."}
            )
        unknown = set(field) - {"id", "label", "type", "required", "facet", "facet_ranges"}
        if unknown:
            raise ValidationError({"fields": f"Field {field_id!r}: unknown keys {', '.join(sorted(unknown))}."})
        spec = {
            "id": field_id,
            "label": str(field.get("label") or field_id),
            "type": field["type"],
            "required": bool(field.get("required", False)),
        }
        spec.update(_facet_validate(field_id, field))
        normalised.append(spec)
    return normalised


# Field types a search may count by (search/engine/facets.py): text (its first 100 characters),
# tags, booleans, numbers (into `facet_ranges`) and dates (by month).
FACETABLE_TYPES = frozenset({FieldType.TEXT, FieldType.TAGS, FieldType.BOOLEAN, FieldType.NUMBER, FieldType.DATE})
MAX_FACET_RANGES = 20


def _facet_validate(field_id: str, field: dict) -> dict:
    """The field's `facet: true` (and a number's `facet_ranges`, ascending edges), checked."""
    facet, ranges = field.get("facet", False), field.get("facet_ranges")
    if not isinstance(facet, bool):
        raise ValidationError({"fields": f"Field {field_id!r}: facet must be true or false."})
    if ranges is not None and field["type"] != FieldType.NUMBER:
        raise ValidationError({"fields": f"Field {field_id!r}: facet_ranges is for number fields."})
    if not facet:
        if ranges is not None:
            raise ValidationError({"fields": f"Field {field_id!r}: facet_ranges needs facet: true."})
        return {}
    if field["type"] not in FACETABLE_TYPES:
        raise ValidationError({"fields": f"Field {field_id!r}: a {field['type']} field cannot be a facet; facets are "
                                         f"{', '.join(sorted(FACETABLE_TYPES))} fields."})
    if field["type"] != FieldType.NUMBER:
        return {"facet": True}
    if (not isinstance(ranges, list) or not 1 <= len(ranges) <= MAX_FACET_RANGES
            or not all(isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) for x in ranges)
            or any(a >= b for a, b in zip(ranges, ranges[1:]))):
        raise ValidationError({"fields": f"Field {field_id!r}: a number facet needs facet_ranges, 1 to "
                                         f"{MAX_FACET_RANGES} ascending numbers (the edges of its ranges)."})
    return {"facet": True, "facet_ranges": ranges}


def _value_error(field: dict, value: Any) -> str | None:
    field_type = field["type"]
    if field_type in (FieldType.TEXT, FieldType.RICHTEXT):
        if not isinstance(value, str):
            return f"must be a string, not {type(value).__name__}"
        if "\x00" in value:
            return "must not contain a NUL character"
    elif field_type == FieldType.NUMBER:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return f"must be a number, not {type(value).__name__}"
    elif field_type == FieldType.BOOLEAN:
        if not isinstance(value, bool):
            return f"must be true or false, not {type(value).__name__}"
    elif field_type == FieldType.DATE:
        if not isinstance(value, str):
            return "must be a date string YYYY-MM-DD"
        try:
            datetime.date.fromisoformat(value)
        except ValueError:
            return f"must be a date YYYY-MM-DD, not {value!r}"
    elif field_type == FieldType.REFERENCE:
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            return "must be the id (a positive integer) of an entry"
    elif field_type == FieldType.TAGS:
        return _tags_error(value)
    return None


def _tags_error(value: Any) -> str | None:
    if not isinstance(value, list):
        return f"must be a list of tags (strings), not {type(value).__name__}"
    if len(value) > MAX_TAGS:
        return f"holds {len(value)} tags; the limit is {MAX_TAGS}"
    seen: set[str] = set()
    for position, tag in enumerate(value):
        if not isinstance(tag, str):
            return f"tag {position + 1} must be a string, not {type(tag).__name__}"
        if not tag:
            return f"tag {position + 1} is empty"
        if len(tag) > MAX_TAG_CHARS:
            return f"tag {tag[:20]!r}… is {len(tag)} characters; a tag has at most {MAX_TAG_CHARS}"
        if "\x00" in tag or "," in tag:
            return f"tag {tag[:20]!r} must not contain a comma or a NUL character"
        if tag in seen:
            return f"tag {tag!r} is given twice"
        seen.add(tag)
    return None


def _normalised(field: dict, value: Any) -> Any:
    """Tags lose surrounding whitespace (the form and API clients type "new, sale")."""
    if field["type"] == FieldType.TAGS and isinstance(value, list):
        return [tag.strip() if isinstance(tag, str) else tag for tag in value]
    return value


def entry_data_validate(fields: list[dict], data: Any, *, stored: dict | None = None) -> dict:
    """Check entry `data` against a content type's `fields`; return it without null values.

    Every problem is reported at once, keyed by field id, so a form or API client can show
    each one beside its field. A key the schema does not know (left by an older schema) is
    kept only when `stored` (the entry's saved data) holds it with the same value: it may
    stay, never be added or changed.
    """
    if not isinstance(data, dict):
        raise ValidationError({"data": "Entry data must be an object of field id to value."})
    by_id = {f["id"]: f for f in fields}
    errors: dict[str, str] = {}
    kept: dict[str, Any] = {}
    for key in data:
        if key in by_id:
            continue
        if stored is not None and key in stored and stored[key] == data[key]:
            kept[key] = data[key]
        else:
            errors[key] = f"Unknown field {key!r}; this content type has: {', '.join(by_id) or 'no fields'}."
    cleaned: dict[str, Any] = {}
    for field_id, field in by_id.items():
        value = _normalised(field, data.get(field_id))
        if value is None or value == "" or value == []:
            if field.get("required"):
                errors[field_id] = f"Field {field_id!r} is required."
            continue
        problem = _value_error(field, value)
        if problem:
            errors[field_id] = f"Field {field_id!r} ({field['type']}) {problem}."
        else:
            cleaned[field_id] = value
    if errors:
        raise ValidationError(errors)
    return {**cleaned, **kept}
