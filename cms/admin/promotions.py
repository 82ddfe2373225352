"""The promotions admin (editors' picks): pin an entry to a query phrase, with roles as for entries.

Owners and editors add, change and delete the promotions of their workspaces; viewers see
them read-only (cms.admin.base.WorkspaceScopedAdmin decides, as for entries). The phrase is
shown as the editor typed it; searches match its normalised key
(cms.models.promotion_phrase_normalise), which the services store beside it. The entry must be
of the same workspace, and pinned to a phrase once: the form asks the services' one check
(cms.services.promotion_phrase_checked, which promotion_create and promotion_update run again)
and says its refusals in the editor's language by their codes. The entry is chosen by
searching (`autocomplete_fields`: the entries admin's search, limited to workspaces the user
may write), not from a list of every entry.

"Choose from popular queries": the phrase input offers the workspace's popular queries as a
<datalist> from `POPULAR_QUERIES`, a hook the search insights register a function with
(`popular_queries_register`); with none registered the input is a plain text box.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django import forms
from django.contrib import admin
from django.contrib.admin.widgets import AutocompleteSelect
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext, gettext_lazy as _

from cms import services
from cms.admin.access import workspaces_with_role
from cms.admin.base import WorkspaceScopedAdmin
from cms.model_labels import status_word
from cms.models import Entry, Promotion, Workspace
from cms.text_numbers import int_from_text

# (workspaces the user may write) -> popular query phrases, most frequent first.
POPULAR_QUERIES: list[Callable[[Iterable[Workspace]], list[str]]] = []
MAX_POPULAR_QUERIES = 50


def popular_queries_register(source: Callable[[Iterable[Workspace]], list[str]]) -> None:
    """Offer `source`'s phrases in the promotion form's phrase input (search insights call this)."""
    POPULAR_QUERIES.append(source)


class PhraseInput(forms.TextInput):
    """A text input with a <datalist> of popular queries (when a source is registered)."""

    def __init__(self, *args, suggestions: list[str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.suggestions = suggestions or []

    def render(self, name, value, attrs=None, renderer=None):
        if not self.suggestions:
            return super().render(name, value, attrs, renderer)
        attrs = {**(attrs or {}), "list": f"{name}-popular"}
        options = format_html_join("", '<option value="{}">', ((s,) for s in self.suggestions))
        return format_html('{}<datalist id="{}-popular">{}</datalist>',
                           super().render(name, value, attrs, renderer), name, options)


class EntryAutocomplete(AutocompleteSelect):
    """The entry's search box, showing again only an entry id written in ASCII digits.

    Django's widget looks up the posted value to show it as chosen; '²' reached int() there (a
    500) and '٣' showed entry 3, which the caller never wrote."""

    def optgroups(self, name, value, attr=None):
        return super().optgroups(name, [v for v in value if int_from_text(str(v)) is not None], attr)


def promotion_refusal_text(error: ValidationError) -> str:
    """One refusal of cms.services.promotion_phrase_checked (an error of its ValidationError's
    `error_dict`) in the active language, by its code (services.PROMOTION_REFUSALS)."""
    return gettext(services.PROMOTION_REFUSALS[error.code]) % (error.params or {})


def promotion_entry_label(entry: Entry) -> str:
    """An entry as the promotion form offers it, in its select and its search results alike:
    "workspace · content type · title (#id, status)" (the same title in two workspaces is two choices),
    the status in the interface's language."""
    return f"{entry.workspace.name} · {entry.content_type.name} · {entry} (#{entry.pk}, {status_word(entry.status)})"


class PromotionForm(forms.ModelForm):
    class Meta:
        model = Promotion
        fields = ["workspace", "phrase", "match", "entry", "position"]
        help_texts = {
            "phrase": _("The query this entry answers. Matched ignoring case, full-width/half-width and extra spaces."),
            "match": _("Is: the whole query is the phrase. Contains: the phrase is anywhere in the query"
                       " (\"refund\" then also answers \"refunds\" and \"refund policy\")."),
            "entry": _("Type words of its title or text to find it (entries of the workspaces where you may add "
                       "promotions)."),
            "position": _("Order among the entries pinned to the same phrase (lowest first)."),
        }

    def clean_entry(self):
        entry = self.cleaned_data["entry"]
        if entry is not None and int_from_text(self.data.get(self.add_prefix("entry"))) is None:  # '٣' read as 3
            raise ValidationError(gettext("Choose the entry by searching for it."), code="invalid_choice")
        return entry

    def clean(self):
        cleaned = super().clean()
        workspace, entry, phrase, match = (cleaned.get(name) for name in ("workspace", "entry", "phrase", "match"))
        if None in (workspace, entry, phrase, match):  # that field's own error is shown; the rest waits for it
            return cleaned
        try:
            services.promotion_phrase_checked(workspace=workspace, phrase=phrase, entry=entry, match=match,
                                              promotion=self.instance)
        except ValidationError as exc:
            for field, errors in exc.error_dict.items():
                self.add_error(field, [ValidationError(promotion_refusal_text(error), code=error.code)
                                       for error in errors])
        return cleaned


@admin.register(Promotion)
class PromotionAdmin(WorkspaceScopedAdmin):
    form = PromotionForm
    entry_lookup = "entry__"  # a viewer sees no promotion of a draft (nor its title)
    list_display = ["phrase", "entry", "match", "position", "workspace", "created_at"]  # the entry by its title
    list_filter = [("workspace", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["workspace", "entry", "entry__content_type"]
    search_fields = ["phrase", "phrase_key"]  # 退货 finds the pin typed 退貨
    autocomplete_fields = ["entry"]

    class Media:
        js = ["cms/autocomplete_labels.js"]  # names the entry search for screen readers
        css = {"all": ["cms/promotion_form.css"]}  # the entry search as wide as its labels
    ordering = ["workspace", "phrase", "position"]

    def formfield_for_foreignkey(self, db_field, request: HttpRequest, **kwargs):
        if db_field.name == "entry":
            kwargs["widget"] = EntryAutocomplete(db_field, self.admin_site, using=kwargs.get("using"))
            writable = workspaces_with_role(request, self.write_roles)
            kwargs["queryset"] = (Entry.objects.filter(workspace__in=writable)
                                  .select_related("content_type", "workspace").order_by("workspace__name", "-id"))
            field = super().formfield_for_foreignkey(db_field, request, **kwargs)
            field.label_from_instance = promotion_entry_label
            return field
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def autocomplete_label(self, field_name: str, obj: object) -> str:
        """The entry search's results read as the select's choices (config/admin_site.py asks)."""
        return promotion_entry_label(obj) if field_name == "entry" and isinstance(obj, Entry) else str(obj)

    def formfield_for_dbfield(self, db_field, request: HttpRequest, **kwargs):
        if db_field.name == "phrase":
            writable = list(workspaces_with_role(request, self.write_roles))
            suggestions = [phrase for source in POPULAR_QUERIES for phrase in source(writable)]
            kwargs["widget"] = PhraseInput(attrs={"class": "vTextField"},
                                           suggestions=list(dict.fromkeys(suggestions))[:MAX_POPULAR_QUERIES])
        return super().formfield_for_dbfield(db_field, request, **kwargs)

    def service_save(self, request: HttpRequest, obj: Promotion, form, change: bool) -> None:
        fields = {"workspace": obj.workspace, "phrase": obj.phrase, "entry": obj.entry, "position": obj.position,
                  "match": obj.match}
        try:
            if change:
                services.promotion_update(promotion=obj, **fields)
            else:
                created = services.promotion_create(**fields)
                obj.pk, obj.phrase, obj.phrase_key = created.pk, created.phrase, created.phrase_key
        except ValidationError as exc:  # the form checked the same; a race with another editor lands here
            raise ValidationError(exc.message_dict) from exc

    def service_delete(self, request: HttpRequest, obj: Promotion) -> None:
        services.promotion_delete(promotion=obj)
