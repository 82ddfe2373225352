"""Ingestion in the admin: content-type actions (semantic search on/off, reindex, retry failed).

The actions extend cms's ContentTypeAdmin, so WorkspaceScopedAdmin refuses, whole, an action
on any selected type in a workspace where the user is not an editor or owner.
"""

from __future__ import annotations

from itertools import groupby

from django.contrib import admin, messages
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext, gettext_lazy as _

from cms.admin.content import ContentTypeAdmin
from cms.models import ContentType
from ingestion.admin import actions as admin_actions


class ContentTypeIngestionAdmin(ContentTypeAdmin):
    """ContentTypeAdmin with the ingestion actions and a link to each workspace's status."""

    actions = ["semantic_search_on", "semantic_search_off", "reindex", "retry_failed"]
    list_display = [*ContentTypeAdmin.list_display, "ingestion_status"]

    @admin.display(description=_("ingestion"))
    def ingestion_status(self, content_type: ContentType) -> str:
        url = reverse("ingestion_status", args=[content_type.workspace.slug])
        return format_html('<a href="{}">{}</a>', url, gettext("status"))

    @admin.action(description=_("Turn semantic search on for the selected content types"), permissions=["change"])
    def semantic_search_on(self, request: HttpRequest, queryset: QuerySet) -> None:
        with transaction.atomic():
            changed = admin_actions.semantic_search_set(content_types=list(queryset), enabled=True)
        self.message_user(request, gettext("Semantic search turned on for %(count)s content type(s); embedding is queued.") % {
            "count": changed})

    @admin.action(description=_("Turn semantic search off for the selected content types"), permissions=["change"])
    def semantic_search_off(self, request: HttpRequest, queryset: QuerySet) -> None:
        with transaction.atomic():
            changed = admin_actions.semantic_search_set(content_types=list(queryset), enabled=False)
        self.message_user(request, gettext("Semantic search turned off for %(count)s content type(s); their chunks are removed.") % {
            "count": changed})

    @admin.action(description=_("Reindex the selected content types (queued)"), permissions=["change"])
    def reindex(self, request: HttpRequest, queryset: QuerySet) -> None:
        with transaction.atomic():
            requeued = admin_actions.content_types_reindex(content_types=list(queryset))
        self.message_user(
            request, gettext("Reindex queued for %(types)s content type(s); %(requeued)s chunk(s) requeued.") % {
                "types": queryset.count(), "requeued": requeued}
        )

    @admin.action(description=_("Retry the failed chunks of the selected content types"), permissions=["change"])
    def retry_failed(self, request: HttpRequest, queryset: QuerySet) -> None:
        requeued = 0
        types = queryset.select_related("workspace").order_by("workspace_id", "pk")
        with transaction.atomic():
            for _, group in groupby(types, key=lambda ct: ct.workspace_id):
                group = list(group)
                requeued += admin_actions.chunks_retry_failed(workspace=group[0].workspace, content_types=group)
        level = messages.SUCCESS if requeued else messages.INFO
        self.message_user(request, gettext("%(requeued)s failed chunk(s) requeued; embedding is queued.") % {"requeued": requeued}, level)


admin.site.unregister(ContentType)
admin.site.register(ContentType, ContentTypeIngestionAdmin)

# The entry page's chunk panel and its after-save message.
from ingestion.admin import entries as admin_entries  # noqa: E402, F401 - registers the panel
