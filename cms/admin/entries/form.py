"""The entry form: one form field per field of the content type's schema, and the content-type step before it.

Fields come in the schema's order, labelled with their labels; the values are checked by
cms.schemas.entry_data_validate (through the services), whose errors land beside the field
they name. Keys an older schema left in `data` are kept on save (EntryAdmin shows them read-only).
"""

from __future__ import annotations

import datetime
import math
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from cms.admin.markdown_widget import MarkdownTextarea
from cms.models import ContentType, Entry, FieldType
from cms.schemas import entry_data_validate

# Form field names: "data__<field id>" for a schema field ("content_type", "status" stay the
# model's); read-only "kept__<key>" for a key the schema does not know.
FIELD_PREFIX = "data__"
KEPT_PREFIX = "kept__"


def content_type_choices_grouped(content_types: QuerySet) -> list[tuple[str, list[tuple[int, str]]]]:
    """Content types as <optgroup>s, one per workspace (by workspace name, then type name)."""
    groups: dict[str, list[tuple[int, str]]] = {}
    for ct in content_types.select_related("workspace").order_by("workspace__name", "name", "api_id"):
        groups.setdefault(ct.workspace.name, []).append((ct.pk, str(ct)))
    return list(groups.items())


class SchemaNumberField(forms.CharField):
    """A number typed as text: an int or float out. Text that is no number goes on unchanged,
    so the schema's own error ("must be a number") lands on the field.

    A text input, not <input type=number>: that one submits "" for what it cannot parse
    (a comma decimal, a typo), which would erase an optional value without a word.
    Full-width digits (１２０) are numbers: Python's int() and float() read them.
    """

    def __init__(self, *, integer: bool = False, **kwargs):
        self.integer = integer
        attrs = {"inputmode": "numeric" if integer else "decimal", "class": "vIntegerField" if integer else ""}
        super().__init__(widget=forms.TextInput(attrs=attrs), **kwargs)

    def to_python(self, value: Any) -> Any:
        text = super().to_python(value)
        if text in self.empty_values:
            return None
        try:
            return int(text)
        except ValueError:
            pass
        if self.integer:
            return text
        try:
            number = float(text)
        except ValueError:
            return text
        return number if math.isfinite(number) else text

    def prepare_value(self, value: Any) -> Any:
        return "" if value is None else value


class SchemaTagsField(forms.CharField):
    """Tags typed as one line, separated by commas ("new, sale"): a list of strings out
    (None when empty). The schema checks each tag, so its error lands on the field."""

    def __init__(self, **kwargs):
        kwargs.setdefault("help_text", _("Separate tags with commas."))
        super().__init__(widget=forms.TextInput(attrs={"class": "vTextField"}), **kwargs)

    def to_python(self, value: Any) -> Any:
        text = super().to_python(value)
        if text in self.empty_values:
            return None
        tags = [tag.strip() for tag in text.split(",")]
        return [tag for tag in tags if tag] or None

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list):
            return ", ".join(str(tag) for tag in value)
        return "" if value is None else value


def schema_form_field(field: dict) -> forms.Field:
    """The form field for one schema field (cms.models.FieldType)."""
    common = {"label": field["label"], "required": bool(field.get("required"))}
    kind = field["type"]
    if kind == FieldType.TEXT:
        return forms.CharField(strip=False, widget=forms.TextInput(attrs={"class": "vTextField"}), **common)
    if kind == FieldType.RICHTEXT:
        return forms.CharField(strip=False, help_text=_("Markdown: **bold**, *italic*, # heading, - list; the "
                                                        "Preview button shows how it reads."),
                               widget=MarkdownTextarea(), **common)
    if kind == FieldType.NUMBER:
        return SchemaNumberField(**common)
    if kind == FieldType.REFERENCE:
        return SchemaNumberField(integer=True, help_text=_("The id of an entry."), **common)
    if kind == FieldType.BOOLEAN:
        if common["required"]:  # a required yes/no is answered by the box, ticked or not
            return forms.BooleanField(label=field["label"], required=False)
        return forms.NullBooleanField(label=field["label"], required=False)
    if kind == FieldType.TAGS:
        return SchemaTagsField(**common)
    if kind == FieldType.DATE:
        return forms.DateField(widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"), **common)
    raise ValueError(f"no form field for schema type {kind!r}")


def data_value(value: Any) -> Any:
    """A form field's cleaned value as entry data stores it (JSON)."""
    if isinstance(value, datetime.date):
        return value.isoformat()
    return value


def kept_keys(content_type: ContentType, data: dict) -> list[str]:
    """The keys of `data` the content type's schema does not know, in stored order."""
    known = set(content_type.field_ids())
    return [key for key in data if key not in known]


class EntrySchemaForm(forms.ModelForm):
    """An entry's status and one field per schema field; `entry_data` holds the validated data
    after cleaning. Subclassed per content type by `entry_form_class`."""

    content_type_schema: ContentType | None = None

    class Meta:
        model = Entry
        fields = ["content_type", "status"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        ct = self.content_type_schema
        if ct is None:
            return
        stored = self.instance.data if self.instance.pk else {}
        for field in ct.fields:
            name = FIELD_PREFIX + field["id"]
            if name in self.fields and field["id"] in stored:
                self.initial.setdefault(name, stored[field["id"]])

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        ct = self.content_type_schema
        if ct is None:
            return cleaned
        stored = dict(self.instance.data) if self.instance.pk else {}
        data = {}
        for field in ct.fields:
            name = FIELD_PREFIX + field["id"]
            if name in self.fields and name in cleaned:
                data[field["id"]] = data_value(cleaned[name])
        data.update((key, stored[key]) for key in kept_keys(ct, stored))
        try:
            self.entry_data = entry_data_validate(ct.fields, data, stored=stored)
        except ValidationError as exc:
            for key, errors in exc.message_dict.items():
                name = FIELD_PREFIX + key
                if name in self.fields:
                    if name not in self.errors:
                        self.add_error(name, errors)
                else:
                    self.add_error(None, errors)
        return cleaned


def entry_form_class(content_type: ContentType | None) -> type[EntrySchemaForm]:
    """The form for entries of `content_type` (None: the content type alone, to choose it)."""
    if content_type is None:
        return EntrySchemaForm
    attrs: dict[str, Any] = {"content_type_schema": content_type, "__module__": __name__}
    for field in content_type.fields:
        attrs[FIELD_PREFIX + field["id"]] = schema_form_field(field)
    return type(f"EntryForm_{content_type.api_id}", (EntrySchemaForm,), attrs)


class ContentTypeChoiceForm(forms.Form):
    """The first step of adding an entry: which content type (of a workspace the user writes)."""

    content_type = forms.ModelChoiceField(queryset=ContentType.objects.none(), label=_("Content type"),
                                          help_text=_("The entry's fields come from its content type."))

    def __init__(self, *args, content_types: QuerySet, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["content_type"]
        field.queryset = content_types
        field.choices = [("", "---------"), *content_type_choices_grouped(content_types)]
