"""The entry admin: the content type chosen first, then its form (cms/admin/entries/form.py), then the panels.

Entries are listed with a content-type filter grouped by workspace; a viewer sees the form's
inputs disabled; a key the schema no longer knows is shown read-only, labelled with the key;
other apps' panels (cms/admin/entries/panels.py) show below the form and speak after each save.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext, gettext_lazy as _

from cms import services
from cms.admin.access import WRITE_ROLES, workspaces_with_role
from cms.admin.base import WorkspaceScopedAdmin, content_type_label
from cms.admin.entries.form import FIELD_PREFIX, KEPT_PREFIX, ContentTypeChoiceForm, entry_form_class, kept_keys
from cms.admin.entries.panels import ENTRY_PANELS
from cms.models import ContentType, Entry
from cms.text_numbers import int_from_text


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


@admin.register(Entry)
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
