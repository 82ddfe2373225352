"""The content type form's schema field: pretty-printed JSON, plain-language syntax errors, and
what the field builder (cms/static/cms/field_builder.js) needs to know, declared once here.

The builder is an enhancement of the JSON box: it reads and writes the same box, and the
server's validation (cms.schemas.content_type_fields_validate) stays the only validation.
With JavaScript off the box works alone.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext, gettext_lazy as _

from cms.json_input import MAX_JSON_DEPTH, JSONRefused, json_loads_checked
from cms.models import ContentType, FieldType
from cms.selectors import content_type_field_usage, content_type_has_entries
from cms.schemas import BUILTIN_FACETS_SHOWN, FACETABLE_TYPES, MAX_FACET_FIELDS, SIDEBAR_FACETS

# Kinds whose values full-text search matches (strings and numbers: cms_entry_search_values)
# and those semantic search embeds (cms.models.TEXT_FIELD_TYPES).
FULLTEXT_TYPES = frozenset({FieldType.TEXT, FieldType.RICHTEXT, FieldType.NUMBER, FieldType.DATE, FieldType.REFERENCE})
SEMANTIC_TYPES = frozenset({FieldType.TEXT, FieldType.RICHTEXT})

TYPE_HELP = {
    FieldType.TEXT: _("One line of text: a title, a name, a code."),
    FieldType.RICHTEXT: _("Longer text written in Markdown, with a preview."),
    FieldType.NUMBER: _("A number, such as a price or a version."),
    FieldType.BOOLEAN: _("Yes or no."),
    FieldType.DATE: _("A day, year-month-day."),
    FieldType.REFERENCE: _("Another entry, by its id."),
    FieldType.TAGS: _("A list of short labels, separated by commas."),
}


# cms.json_input's refusals, in the editor's language; the code is the API's.
JSON_REFUSALS = {
    "json_too_deep": _("The JSON nests deeper than %(limit)s levels."),
    "json_invalid_character": _("The JSON holds a character that cannot be stored: a NUL (\\u0000) or a lone "
                                "UTF-16 surrogate (such as \\ud800)."),
}


class SchemaJSONField(forms.JSONField):
    """The field schema as JSON: shown indented, and a syntax slip said with its line and column.

    The box is read by the one JSON check every interface uses (cms.json_input): too deep, a
    lone surrogate or a NUL (JSONB stores none) are form errors with the API's codes."""

    def to_python(self, value: Any) -> Any:
        if isinstance(value, str) and value.strip():
            try:
                json_loads_checked(value, refuse_nul=True)
            except JSONRefused as exc:
                raise ValidationError(JSON_REFUSALS[exc.code], code=exc.code,
                                      params={"limit": MAX_JSON_DEPTH}) from exc
            except json.JSONDecodeError as exc:
                raise ValidationError(
                    gettext("The JSON has a mistake at line %(line)s, column %(column)s: %(what)s. Check for a "
                            "missing comma or quote, or a comma after the last item.")
                    % {"line": exc.lineno, "column": exc.colno, "what": exc.msg}, code="invalid") from exc
        return super().to_python(value)

    def bound_data(self, data: Any, initial: Any) -> Any:
        # The box shown again after an error: refused JSON is shown as typed, as malformed JSON
        # is (Django's bound_data parses it again, unchecked: RecursionError, a lone surrogate).
        if self.disabled:
            return initial
        if data is None:
            return None
        try:
            return json_loads_checked(data, refuse_nul=True)
        except (JSONRefused, json.JSONDecodeError):
            return forms.fields.InvalidJSONInput(data)

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, forms.fields.InvalidJSONInput):
            return value
        return json.dumps(value, ensure_ascii=False, indent=2, cls=self.encoder)


def field_builder_config(content_type: ContentType | None = None) -> dict[str, Any]:
    """The kinds, what each may be, the facet limit and the builder's words, for json_script;
    for a saved type, also how many entries hold each field id (a rename warns only for those)
    and whether it has entries at all (until then, saved ids still follow their labels)."""
    usage = ({} if content_type is None or content_type.pk is None
             else content_type_field_usage(workspace=content_type.workspace, content_type=content_type))
    has_entries = content_type is not None and content_type.pk is not None and content_type_has_entries(
        workspace=content_type.workspace, content_type=content_type)
    return {
        "fields_in_use": usage,
        "has_entries": has_entries,
        "types": [{"value": value, "label": str(label), "help": str(TYPE_HELP[value]),
                   "facet": value in FACETABLE_TYPES, "fulltext": value in FULLTEXT_TYPES,
                   "semantic": value in SEMANTIC_TYPES} for value, label in FieldType.choices],
        "max_facets": MAX_FACET_FIELDS,
        "words": {
            "title": gettext("Fields"),
            "intro": gettext("Build the fields here; the JSON below follows every change and can be copied or "
                             "pasted (import and export)."),
            "add": gettext("Add a field"),
            "label": gettext("Label"),
            "id": gettext("Id"),
            "type": gettext("Type"),
            "required": gettext("Required"),
            "facet": gettext("Facet (filter on the search page)"),
            "ranges": gettext("Range edges, ascending, separated by commas (such as 10, 50, 100)"),
            "up": gettext("Move up"),
            "down": gettext("Move down"),
            "remove": gettext("Remove"),
            "searchable_yes": gettext("Found by full-text search."),
            "searchable_no": gettext("Not matched by full-text search (only text, numbers and dates are)."),
            "semantic_yes": gettext("Embedded for semantic search."),
            "semantic_off": gettext("Not embedded: semantic search is off for this content type."),
            "semantic_no": gettext("Not embedded for semantic search (only text and rich text are)."),
            "facet_type_refused": gettext("This kind of field cannot be a facet: facets are text, tags, yes/no, "
                                          "number and date fields."),
            "facet_limit_refused": gettext(
                "Cannot be a facet: %(max)s fields already are. The search page shows %(shown)s facets, and content "
                "type and status always take %(builtin)s of them.") % {
                "max": MAX_FACET_FIELDS, "shown": SIDEBAR_FACETS, "builtin": BUILTIN_FACETS_SHOWN},
            "rename": gettext("Renaming the id does not move saved values: existing entries keep theirs under "
                              "“%(old)s”, shown read-only under “Not in the schema” and kept on save, until the id "
                              "is changed back. To change what editors see, change the label instead."),
            "json_invalid": gettext("The JSON box holds a mistake; the builder shows the last valid fields. Fix "
                                    "the JSON or change a field here to overwrite it."),
            "json_label": gettext("JSON (import and export)"),
            "empty": gettext("No fields yet: add one."),
        },
    }
