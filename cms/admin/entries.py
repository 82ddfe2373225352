"""The entry admin: a form built from the content type's schema, the content-type step before it, and panels.

One form field per schema field, in the schema's order, labelled with its label; the values
are checked by cms.schemas.entry_data_validate (through the services), whose errors land
beside the field they name. Keys an older schema left in `data` are shown read-only and kept
on save. Other apps add panels below the form (ingestion: the entry's chunks) with
`entry_panel_register`, so cms imports neither of them.
"""

from __future__ import annotations

import datetime
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext, gettext_lazy as _

from cms import services
from cms.admin.content import WorkspaceScopedAdmin, content_type_label
from cms.admin.access import WRITE_ROLES, workspaces_with_role
from cms.models import ContentType, Entry, FieldType
from cms.admin.markdown_widget import MarkdownTextarea
from cms.schemas import entry_data_validate
from cms.text_numbers import int_from_text

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


# --- panels other apps add to the change page --------------------------------------------------

@dataclass(frozen=True)
class EntryPanel:
    """A block below an entry's form: `template` rendered with `context(request, entry)` as
    `panel`; `saved_message(request, entry)`, if given, is said after each save."""

    template: str
    context: Callable[[HttpRequest, Entry], dict[str, Any]]
    saved_message: Callable[[HttpRequest, Entry], str | None] | None = None


ENTRY_PANELS: list[EntryPanel] = []


def entry_panel_register(panel: EntryPanel) -> None:
    ENTRY_PANELS.append(panel)


# --- the sidebar filter -----------------------------------------------------------------------

class ContentTypeListFilter(admin.RelatedFieldListFilter):
    """Content types of the rows the user may see: only the filtered workspace's when the
    workspace filter is on, else grouped under each workspace's name."""

    template = "admin/cms/entry/content_type_filter.html"
    workspace_param = "workspace__id__exact"

    def field_choices(self, field, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[Any, str]]:
        used = model_admin.get_queryset(request).values(f"{self.field_path}__pk")
        types = ContentType.objects.filter(pk__in=used).select_related("workspace")
        workspace_id = request.GET.get(self.workspace_param, "")
        workspace_pk = int_from_text(workspace_id)
        self.workspace_filtered = workspace_pk is not None
        if self.workspace_filtered:
            types = types.filter(workspace_id=workspace_pk)
        self.groups = {}
        choices = []
        for ct in types.order_by("workspace__name", "name", "api_id"):
            self.groups[str(ct.pk)] = ct.workspace.name
            choices.append((ct.pk, str(ct) if self.workspace_filtered else content_type_label(ct)))
        return choices

    def choices(self, changelist):
        items = iter(super().choices(changelist))
        first = next(items)  # "All"
        yield {**first, "group": None, "short": first["display"]}
        previous = None
        for (pk, label), choice in zip(self.lookup_choices, items):
            group = None if self.workspace_filtered else self.groups.get(str(pk))
            yield {**choice, "group": group if group != previous else None,
                   "short": str(label).rsplit(" · ", 1)[0] if group else label}
            previous = group
        for rest in items:  # "None", when the relation may be empty
            yield {**rest, "group": None, "short": rest["display"]}


# --- the admin ------------------------------------------------------------------------------

def promotion_entry_search(request: HttpRequest) -> bool:
    """Whether this is the promotion form's entry search (the admin's autocomplete view for
    Promotion.entry, cms.admin.promotions.PromotionAdmin.autocomplete_fields)."""
    match = getattr(request, "resolver_match", None)
    return (match is not None and match.url_name == "autocomplete"
            and (request.GET.get("app_label"), request.GET.get("model_name"), request.GET.get("field_name"))
            == ("cms", "promotion", "entry"))


class EntryAdmin(WorkspaceScopedAdmin):
    """Entries through their content type's form; see the module docstring."""

    # Viewers see published entries only (cms/access.py), in lists and change pages alike.
    entry_lookup = ""
    list_display = ["id", "display_title", "content_type", "workspace", "status", "created_at"]
    list_filter = [("workspace", admin.RelatedOnlyFieldListFilter), "status", ("content_type", ContentTypeListFilter)]
    list_select_related = ["content_type", "workspace"]
    readonly_fields = ["workspace", "created_at", "updated_at", "created_by"]
    change_form_template = "admin/cms/entry/change_form.html"

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        rows = super().get_queryset(request)
        if promotion_entry_search(request):
            # The promotion form's entry search offers the entries one may pin: of workspaces one writes.
            # Each result is labelled with its workspace and content type (PromotionAdmin.autocomplete_label).
            rows = (rows.filter(workspace__in=workspaces_with_role(request, WRITE_ROLES))
                    .select_related("workspace", "content_type").order_by("-pk"))  # newest first
        return rows

    def workspace_id_of(self, obj: Entry) -> int | None:
        # An entry lives in its content type's workspace; on add, that is the type chosen.
        return obj.content_type.workspace_id if obj.content_type_id else obj.workspace_id

    @admin.display(description=_("title"))
    def display_title(self, entry: Entry) -> str:
        return entry.title[:80] or gettext("Entry %(id)s") % {"id": entry.pk}

    # --- which content type's form --------------------------------------------------------

    def writable_content_types(self, request: HttpRequest) -> QuerySet:
        writable = workspaces_with_role(request, self.write_roles)
        return ContentType.objects.filter(workspace__in=writable).select_related("workspace")

    def content_type_requested(self, request: HttpRequest) -> ContentType | None:
        """On add: the content type the POST (else the query string) names, if the user may write it."""
        raw = request.POST.get("content_type") if request.method == "POST" else request.GET.get("content_type")
        pk = int_from_text(raw)
        if pk is None:
            return None
        return self.writable_content_types(request).filter(pk=pk).first()

    def get_form(self, request: HttpRequest, obj: Entry | None = None, change: bool = False, **kwargs):
        content_type = obj.content_type if obj is not None else self.content_type_requested(request)
        kwargs["form"] = entry_form_class(content_type)
        return super().get_form(request, obj, change, **kwargs)

    def formfield_for_foreignkey(self, db_field, request: HttpRequest, **kwargs):
        field = super().formfield_for_foreignkey(db_field, request, **kwargs)
        if db_field.name == "content_type" and self.content_type_requested(request) is not None:
            field.widget = forms.HiddenInput()  # chosen in the first step; shown as the fieldset's title
        return field

    def get_fieldsets(self, request: HttpRequest, obj: Entry | None = None):
        content_type = obj.content_type if obj is not None else self.content_type_requested(request)
        if content_type is None:  # a POST naming no type the user may write: ask again
            return [(None, {"fields": ["content_type"]})]
        schema_fields = [FIELD_PREFIX + f["id"] for f in content_type.fields]
        if obj is None:
            restart = reverse("admin:cms_entry_add")
            return [
                (None, {"fields": ["content_type", "status"]}),
                (content_type_label(content_type), {
                    "fields": schema_fields,
                    "description": format_html(gettext('Fields of this content type. <a href="{}">Choose another '
                                                       'content type</a>.'), restart),
                }),
            ]
        fieldsets = [
            (None, {"fields": ["content_type", "workspace", "status"]}),
            (content_type_label(content_type), {"fields": schema_fields}),
        ]
        kept = kept_keys(content_type, obj.data)
        if kept:
            fieldsets.append((_("Not in the schema"), {
                "fields": [KEPT_PREFIX + key for key in kept],
                "description": _("Values of fields this content type no longer has. They are kept as they "
                                 "are when you save; change the content type's schema to edit them."),
            }))
        fieldsets.append((_("History"), {"fields": ["created_at", "updated_at", "created_by"],
                                      "classes": ["collapse"]}))
        return fieldsets

    def get_readonly_fields(self, request: HttpRequest, obj: Entry | None = None):
        # The content type is chosen once: its schema validated the data, and its workspace is
        # the entry's. A new entry has no workspace or dates to show yet.
        if obj is None:
            return []
        kept = [KEPT_PREFIX + key for key in kept_keys(obj.content_type, obj.data)]
        return [*self.readonly_fields, "content_type", *kept]

    def __getattr__(self, name: str):
        # The admin shows a read-only field by calling the admin's attribute of that name:
        # answer for "kept__<key>", a key the schema does not know, labelled with the key.
        if name.startswith(KEPT_PREFIX):
            return kept_value_display(name[len(KEPT_PREFIX):])
        raise AttributeError(name)

    def render_change_form(self, request: HttpRequest, context, add=False, change=False, form_url="", obj=None):
        adminform = context.get("adminform")
        if obj is not None and adminform is not None and not self.has_change_permission(request, obj):
            # A viewer: the admin would make every field read-only by name, and schema fields
            # have no attribute to read. Show the form's own inputs, disabled, instead.
            for name, field in adminform.form.fields.items():
                if name.startswith(FIELD_PREFIX):
                    field.disabled = True
            readonly = [name for name in adminform.readonly_fields if not name.startswith(FIELD_PREFIX)]
            context["adminform"] = helpers.AdminForm(adminform.form, list(adminform.fieldsets), {}, readonly,
                                                     model_admin=self)
        return super().render_change_form(request, context, add, change, form_url, obj)

    # --- the first step: choose the content type -----------------------------------------

    def add_view(self, request: HttpRequest, form_url: str = "", extra_context=None) -> HttpResponse:
        if request.method != "POST" and self.content_type_requested(request) is None:
            return self.content_type_choose_view(request)
        return super().add_view(request, form_url, extra_context)

    def content_type_choose_view(self, request: HttpRequest) -> HttpResponse:
        if not self.has_add_permission(request):
            raise PermissionDenied
        choices = self.writable_content_types(request)
        form = ContentTypeChoiceForm(request.GET if "content_type" in request.GET else None, content_types=choices)
        if form.is_bound:
            form.is_valid()  # a type the user may not write: "Select a valid choice" beside the field
        context = {
            **self.admin_site.each_context(request),
            "title": gettext("Add entry: choose its content type"),
            "opts": self.model._meta,
            "adminform": helpers.AdminForm(form, [(None, {"fields": ["content_type"]})], {}),
            "errors": helpers.AdminErrorList(form, []),
            "has_choices": choices.exists(),
        }
        return TemplateResponse(request, "admin/cms/entry/choose_content_type.html", context)

    # --- the change page's panels --------------------------------------------------------

    def change_view(self, request: HttpRequest, object_id: str, form_url: str = "", extra_context=None):
        entry = self.get_object(request, object_id)
        if entry is None:
            # Another workspace's entry (or none): 404, as the search and status pages answer,
            # rather than the admin's redirect; the same for both, so nothing is given away.
            raise Http404(gettext("No entry with this id in your workspaces."))
        extra_context = dict(extra_context or {})
        extra_context["entry_panels"] = [
            {"template": panel.template, "context": panel.context(request, entry)} for panel in ENTRY_PANELS
        ]
        extra_context["entry_search_text"] = entry.title
        return super().change_view(request, object_id, form_url, extra_context)

    # --- writes ----------------------------------------------------------------------------

    def service_save(self, request: HttpRequest, obj: Entry, form, change: bool) -> None:
        data = getattr(form, "entry_data", None)
        if change:
            saved = services.entry_update(entry=obj, data=data, status=obj.status)
        else:
            saved = services.entry_create(
                content_type=obj.content_type, data=data or {}, status=obj.status, created_by=request.user
            )
            obj.pk, obj.workspace_id = saved.pk, saved.workspace_id
        obj.data = saved.data  # the admin's "… was added/changed" message names the entry by its (new) title
        for panel in ENTRY_PANELS:
            message = panel.saved_message(request, saved) if panel.saved_message else None
            if message:
                self.message_user(request, message, messages.INFO)

    def service_delete(self, request: HttpRequest, obj: Entry) -> None:
        services.entry_delete(entry=obj)


def kept_value_display(key: str) -> Callable[[Entry], str]:
    """The read-only display of `data[key]` (a key unknown to the schema), labelled with the key."""

    def display(entry: Entry) -> str:
        value = entry.data.get(key)
        return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)

    display.short_description = key
    return display
