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

from cms.admin.content import ContentTypeAdmin
from cms.models import ContentType
from ingestion.admin import actions as admin_actions


class ContentTypeIngestionAdmin(ContentTypeAdmin):
    """ContentTypeAdmin with the ingestion actions and a link to each workspace's status."""

    actions = ["semantic_search_on", "semantic_search_off", "reindex", "retry_failed"]
    list_display = [*ContentTypeAdmin.list_display, "ingestion_status"]

    @admin.display(description="ingestion")
    def ingestion_status(self, content_type: ContentType) -> str:
        url = reverse("ingestion_status", args=[content_type.workspace.slug])
        return format_html('<a href="{}">status</a>', url)

    @admin.action(description="Turn semantic search on for the selected content types", permissions=["change"])
    def semantic_search_on(self, request: HttpRequest, queryset: QuerySet) -> None:
        with transaction.atomic():
            changed = admin_actions.semantic_search_set(content_types=list(queryset), enabled=True)
        self.message_user(request, f"Semantic search turned on for {changed} content type(s); embedding is queued.")

    @admin.action(description="Turn semantic search off for the selected content types", permissions=["change"])
    def semantic_search_off(self, request: HttpRequest, queryset: QuerySet) -> None:
        with transaction.atomic():
            changed = admin_actions.semantic_search_set(content_types=list(queryset), enabled=False)
        self.message_user(request, f"Semantic search turned off for {changed} content type(s); their chunks are removed.")

    @admin.action(description="Reindex the selected content types (queued)", permissions=["change"])
    def reindex(self, request: HttpRequest, queryset: QuerySet) -> None:
        with transaction.atomic():
            requeued = admin_actions.content_types_reindex(content_types=list(queryset))
        self.message_user(
            request, f"Reindex queued for {queryset.count()} content type(s); {requeued} chunk(s) requeued."
        )

    @admin.action(description="Retry the failed chunks of the selected content types", permissions=["change"])
    def retry_failed(self, request: HttpRequest, queryset: QuerySet) -> None:
        requeued = 0
        types = queryset.select_related("workspace").order_by("workspace_id", "pk")
        with transaction.atomic():
            for _, group in groupby(types, key=lambda ct: ct.workspace_id):
                group = list(group)
                requeued += admin_actions.chunks_retry_failed(workspace=group[0].workspace, content_types=group)
        level = messages.SUCCESS if requeued else messages.INFO
        self.message_user(request, f"{requeued} failed chunk(s) requeued; embedding is queued.", level)


admin.site.unregister(ContentType)
admin.site.register(ContentType, ContentTypeIngestionAdmin)

# The entry page's chunk panel and its after-save message.
from ingestion.admin import entries as admin_entries  # noqa: E402, F401 - registers the panel
