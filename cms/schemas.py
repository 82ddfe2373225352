"""Validation of content type field schemas and of entry data against them (pure functions)."""

from __future__ import annotations

import datetime
import math
import re
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from cms.models import FieldType

FIELD_ID_PATTERN = re.compile(r"^[a-z][a-z0-9_]{0,63}$")
# A tags field holds a list of short strings (search filters read it with $in/$all/$size).
MAX_TAGS = 50
# An entry id is a PostgreSQL bigint (DEFAULT_AUTO_FIELD): a reference past it names no entry.
MAX_REFERENCE = 2**63 - 1
MAX_TAG_CHARS = 64
# The search page's facet sidebar shows at most five facets (search.contract.option_fields.MAX_FACETS), and
# two of them are always content type and status: a content type may mark three fields facet.
SIDEBAR_FACETS = 5
BUILTIN_FACETS_SHOWN = 2  # content type, status
MAX_FACET_FIELDS = SIDEBAR_FACETS - BUILTIN_FACETS_SHOWN


def _type_names() -> str:
    return ", ".join(f"{value} ({label})" for value, label in FieldType.choices)


def content_type_fields_validate(fields: Any) -> list[dict]:
    """Check a field schema; return it normalised. Errors name the offending field."""
    if not isinstance(fields, list):
        raise ValidationError({"fields": _("The fields must be a list, written [ … ], with one { … } per field.")})
    normalised: list[dict] = []
    seen: set[str] = set()
    for position, field in enumerate(fields):
        number = position + 1
        if not isinstance(field, dict):
            raise ValidationError({"fields": _("Field %(n)s is not a field: write it as { \"id\": …, \"label\": …, "
                                               "\"type\": … }.") % {"n": number}})
        field_id = field.get("id")
        if not isinstance(field_id, str) or not field_id:
            raise ValidationError({"fields": _("Field %(n)s has no id. Give it one, such as “title” or "
                                               "“release_date”.") % {"n": number}})
        if not FIELD_ID_PATTERN.match(field_id):
            raise ValidationError({"fields": _("Field %(n)s: the id “%(id)s” must begin with a lowercase letter "
                                               "and hold only lowercase letters, digits and _ (such as "
                                               "“release_date”), at most 64.") % {"n": number, "id": field_id}})
        if field_id in seen:
            raise ValidationError({"fields": _("Two fields have the id “%(id)s”: each field needs its own.")
                                   % {"id": field_id}})
        seen.add(field_id)
        if field.get("type") not in FieldType.values:
            raise ValidationError({"fields": _("Field “%(id)s”: “%(type)s” is not a field type. Choose one of: "
                                               "%(types)s.") % {"id": field_id, "type": field.get("type", ""),
                                                                "types": _type_names()}})
        unknown = set(field) - {"id", "label", "type", "required", "facet", "facet_ranges"}
        if unknown:
            raise ValidationError({"fields": _("Field “%(id)s”: %(keys)s is not a setting of a field (a field has "
                                               "id, label, type, required, facet and facet_ranges).")
                                   % {"id": field_id, "keys": ", ".join(f"“{k}”" for k in sorted(unknown))}})
        spec = {
            "id": field_id,
            "label": str(field.get("label") or field_id),
            "type": field["type"],
            "required": bool(field.get("required", False)),
        }
        spec.update(_facet_validate(field_id, field))
        normalised.append(spec)
    facets = [spec["id"] for spec in normalised if spec.get("facet")]
    if len(facets) > MAX_FACET_FIELDS:
        raise ValidationError({"fields": _(
            "%(count)s fields are marked facet (%(ids)s); at most %(max)s may be. The search page shows %(shown)s "
            "facets, and content type and status always take two of them.") % {
            "count": len(facets), "ids": ", ".join(facets), "max": MAX_FACET_FIELDS, "shown": SIDEBAR_FACETS}})
    return normalised


# Field types a search may count by (search/engine/facets.py): text (its first 100 characters),
# tags, booleans, numbers (into `facet_ranges`) and dates (by month).
FACETABLE_TYPES = frozenset({FieldType.TEXT, FieldType.TAGS, FieldType.BOOLEAN, FieldType.NUMBER, FieldType.DATE})
MAX_FACET_RANGES = 20


def _facet_validate(field_id: str, field: dict) -> dict:
    """The field's `facet: true` (and a number's `facet_ranges`, ascending edges), checked."""
    facet, ranges = field.get("facet", False), field.get("facet_ranges")
    if not isinstance(facet, bool):
        raise ValidationError({"fields": _("Field “%(id)s”: facet must be true or false.") % {"id": field_id}})
    if ranges is not None and field["type"] != FieldType.NUMBER:
        raise ValidationError({"fields": _("Field “%(id)s”: only a number field has ranges (facet_ranges).")
                               % {"id": field_id}})
    if not facet:
        if ranges is not None:
            raise ValidationError({"fields": _("Field “%(id)s”: ranges (facet_ranges) are for a facet; mark the "
                                               "field facet or remove them.") % {"id": field_id}})
        return {}
    if field["type"] not in FACETABLE_TYPES:
        raise ValidationError({"fields": _("Field “%(id)s”: a %(type)s field cannot be a facet; facets are text, "
                                           "tags, boolean, number and date fields.")
                               % {"id": field_id, "type": FieldType(field["type"]).label.lower()}})
    if field["type"] != FieldType.NUMBER:
        return {"facet": True}
    if (not isinstance(ranges, list) or not 1 <= len(ranges) <= MAX_FACET_RANGES
            or not all(_finite_number(x) for x in ranges)
            or any(a >= b for a, b in zip(ranges, ranges[1:]))):
        raise ValidationError({"fields": _("Field “%(id)s”: a number facet needs its ranges: 1 to %(max)s numbers "
                                           "in ascending order, the edges between ranges (such as 10, 50, 100).")
                               % {"id": field_id, "max": MAX_FACET_RANGES}})
    return {"facet": True, "facet_ranges": ranges}


def _finite_number(value: Any) -> bool:
    """A JSON number a float can hold: an integer of hundreds of digits cannot (math.isfinite
    raises OverflowError on it)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def _value_error(field: dict, value: Any) -> str | None:
    field_type = field["type"]
    if field_type in (FieldType.TEXT, FieldType.RICHTEXT):
        if not isinstance(value, str):
            return _("must be text")
        if "\x00" in value:
            return _("must not contain a NUL character")
    elif field_type == FieldType.NUMBER:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return _("must be a number, such as 12 or 12.5 (with a dot for decimals)")
    elif field_type == FieldType.BOOLEAN:
        if not isinstance(value, bool):
            return _("must be true or false (yes or no)")
    elif field_type == FieldType.DATE:
        if not isinstance(value, str):
            return _("must be a date written year-month-day, such as 2026-12-03")
        try:
            datetime.date.fromisoformat(value)
        except ValueError:
            return _("must be a date written year-month-day, such as 2026-12-03, not “%(value)s”") % {"value": value}
    elif field_type == FieldType.REFERENCE:
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            return _("must be the id (a whole number above 0) of an entry")
        if value > MAX_REFERENCE:
            return _("is out of range: an entry id is at most %(max)s") % {"max": MAX_REFERENCE}
    elif field_type == FieldType.TAGS:
        return _tags_error(value)
    return None


def _tags_error(value: Any) -> str | None:
    if not isinstance(value, list):
        return _("must be a list of tags, such as new, sale")
    if len(value) > MAX_TAGS:
        return f"holds {len(value)} tags; the limit is {MAX_TAGS}"
    seen: set[str] = set()
    for position, tag in enumerate(value):
        if not isinstance(tag, str):
            return _("tag %(n)s must be text") % {"n": position + 1}
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
                errors[field_id] = _("%(label)s is required.") % {"label": field.get("label") or field_id}
            continue
        problem = _value_error(field, value)
        if problem:
            errors[field_id] = _("%(label)s (%(id)s) %(problem)s.") % {
                "label": field.get("label") or field_id, "id": field_id, "problem": problem}
        else:
            cleaned[field_id] = value
    if errors:
        raise ValidationError(errors)
    return {**cleaned, **kept}
