"""Admin search box for entries: the changelist search runs full-text search (its SearchKind) in each visible workspace,
and a column shows each hit's snippet with the match highlighted (search.engine.snippets)."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import admin, messages
from django.contrib.admin.views.main import SEARCH_VAR
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext, gettext_lazy as _

from cms.access import workspace_accesses_for_user
from cms.content_language import content_language
from cms.admin.entries import ContentTypeListFilter, EntryAdmin
from cms.models import ContentType, Entry
from search.contract.errors import SearchError, localized_text
from search.engine.fulltext import Snippet
from search.contract.options import MAX_LIMIT
from search.engine.snippets import highlight_html
from search.interfaces.admin.options import option_labels
from search.kinds import SEARCH_ENTRIES

# The admin searches each workspace it shows; beyond this many, it asks for a workspace filter.
ADMIN_SEARCH_MAX_WORKSPACES = 20
# Where get_search_results leaves the hits' snippets (entry id -> Snippet) for the column.
_SNIPPETS_ATTR = "_entry_search_snippets"


class EntrySearchAdmin(EntryAdmin):
    """EntryAdmin whose search box is the full-text search (newest MAX_LIMIT hits per workspace)."""

    search_fields = ["search_text"]  # shows the search box; get_search_results does the search

    class Media:
        css = {"all": ["search/admin_search.css"]}  # the match column's snippet (_snippet_column)

    search_help_text = _("Finds entries whose values contain the text (case-insensitive, literal).")
    # RelatedOnly: the choices come from the (workspace-scoped) rows, never other tenants' names.
    list_filter = [
        ("workspace", admin.RelatedOnlyFieldListFilter),
        "status",
        ("content_type", ContentTypeListFilter),  # labelled with the workspace
    ]

    @admin.display(description=_("title"))
    def display_title(self, entry: Entry) -> SafeString:
        # Content keeps its own language on a page in another (docs/i18n.md).
        title = super().display_title(entry)
        return format_html('<span lang="{}">{}</span>', content_language(title), title) if entry.title else title

    def get_list_display(self, request: HttpRequest):
        display = super().get_list_display(request)
        if not request.GET.get(SEARCH_VAR):
            return display
        # Right after the title, where it is seen without scrolling the table sideways.
        display = list(display)
        position = display.index("display_title") + 1 if "display_title" in display else len(display)
        return [*display[:position], _snippet_column(request), *display[position:]]

    def get_search_results(self, request: HttpRequest, queryset: QuerySet, search_term: str):
        if not search_term:
            return queryset, False
        accesses = workspace_accesses_for_user(user=request.user)
        if workspace_id := request.GET.get("workspace__id__exact"):
            accesses = [a for a in accesses if str(a.workspace.pk) == workspace_id]
        if len(accesses) > ADMIN_SEARCH_MAX_WORKSPACES:
            messages.warning(request, gettext("Choose a workspace in the filter to search: you can see too many to search all."))
            return queryset.none(), False
        content_type = None
        if content_type_id := request.GET.get("content_type__id__exact"):
            content_type = ContentType.objects.filter(pk=content_type_id).first()
        status = request.GET.get("status__exact") or None
        ids: list[int] = []
        snippets: dict[int, Snippet | None] = {}
        setattr(request, _SNIPPETS_ATTR, snippets)
        for access in accesses:
            if content_type is not None and content_type.workspace_id != access.workspace.pk:
                continue
            if status is not None and not access.may_see_status(status):
                continue
            try:
                result = SEARCH_ENTRIES.search(access, {
                    "query": search_term, "content_type": content_type.api_id if content_type else None,
                    "status": status, "limit": MAX_LIMIT,
                }, interface="admin")
            except SearchError as exc:
                messages.error(request, localized_text(exc.message, labels=option_labels()))
                return queryset.none(), False
            ids.extend(hit.entry_id for hit in result.hits)
            snippets.update((hit.entry_id, hit.snippet) for hit in result.hits)
            if result.has_more:
                messages.info(request, gettext("Showing the newest %(limit)s matches in %(name)s.") % {
                    "limit": MAX_LIMIT, "name": access.workspace.name})
        return queryset.filter(pk__in=ids), False


def _snippet_column(request: HttpRequest) -> Callable[[Entry], SafeString]:
    """A list_display column for this request: the entry's search snippet, match highlighted."""

    @admin.display(description=_("match"))
    def match(entry: Entry) -> SafeString:
        snippet = getattr(request, _SNIPPETS_ATTR, {}).get(entry.pk)
        if snippet is None:
            return SafeString("")
        # Its width is in search/admin_search.css (EntrySearchAdmin.Media): the Content-Security-Policy
        # allows no inline style.
        return format_html('<span class="search-snippet" data-field="{}" lang="{}">{}</span>', snippet.field,
                           content_language(snippet.text), highlight_html(snippet.text, snippet.highlights))

    return match


admin.site.unregister(Entry)
admin.site.register(Entry, EntrySearchAdmin)
