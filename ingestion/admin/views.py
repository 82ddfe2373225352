"""The ingestion status pages in the admin: per workspace, counts, backlog, usage and actions.

Only a workspace's editors and owners see its status and run its actions (which queue work
through ingestion.admin.actions); a viewer gets a 403, a non-member a 404 as if it did not
exist. The counts, the vectors per model and the usage cover drafts (usage is recorded per
day, not per entry, so it cannot be narrowed to published content): the page is for those
who may see drafts, as search insights are (docs/access.md).
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy as _

from cms.access import DRAFT_ROLES, workspace_access_for_user, workspace_accesses_for_user
from cms.admin.access import WRITE_ROLES, role_allows, user_roles
from cms.models import ContentType, Workspace
from cms.admin.pages import admin_page
from ingestion.admin import actions as admin_actions
from ingestion.admin.workers import workers_banner
from ingestion import selectors

# The index lists at most this many workspaces (each costs a few count queries).
STATUS_INDEX_MAX_WORKSPACES = 50
USAGE_DAYS = 30

ACTIONS = {
    "semantic_on": _("Turn semantic search on"),
    "semantic_off": _("Turn semantic search off"),
    "reindex": _("Reindex (queued)"),
    "retry_failed": _("Retry failed chunks"),
    "retry_all_failed": _("Retry every failed chunk in the workspace, assets included"),
}


class StatusActionForm(forms.Form):
    """An action on some of the workspace's content types; other workspaces' types are invalid choices."""

    action = forms.ChoiceField(choices=list(ACTIONS.items()))
    content_types = forms.ModelMultipleChoiceField(queryset=ContentType.objects.none(), required=False)

    def __init__(self, *args: Any, workspace: Workspace, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.workspace = workspace
        self.fields["content_types"].queryset = ContentType.objects.for_workspace(workspace)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if cleaned.get("action") not in (None, "retry_all_failed") and not cleaned.get("content_types"):
            raise forms.ValidationError(_("Select at least one content type for this action."))
        return cleaned

    @transaction.atomic
    def run(self) -> str:
        """Run the chosen action; return what was done, in a sentence. Tasks queue on commit."""
        action, types = self.cleaned_data["action"], list(self.cleaned_data["content_types"])
        if action in ("semantic_on", "semantic_off"):
            changed = admin_actions.semantic_search_set(content_types=types, enabled=action == "semantic_on")
            if action == "semantic_on":
                return gettext("Semantic search turned on for %(count)s content type(s).") % {"count": changed}
            return gettext("Semantic search turned off for %(count)s content type(s).") % {"count": changed}
        if action == "reindex":
            requeued = admin_actions.content_types_reindex(content_types=types)
            return gettext("Reindex queued for %(types)s content type(s); %(requeued)s chunk(s) requeued for embedding.") % {
                "types": len(types), "requeued": requeued}
        scope = None if action == "retry_all_failed" else types
        requeued = admin_actions.chunks_retry_failed(workspace=self.workspace, content_types=scope)
        return gettext("%(requeued)s failed chunk(s) requeued; embedding is queued.") % {"requeued": requeued}


def _summary(workspace: Workspace) -> dict[str, Any]:
    """The workspace's line of the status report, with the oldest pending chunk's time."""
    rows = selectors.ingestion_status(workspace=workspace)
    summary = rows["workspaces"][0] if rows["workspaces"] else {
        "pending": 0, "embedded": 0, "failed": 0, "leased": 0, "models": [], "oldest_pending_seconds": None,
        "last_error": "", "last_error_at": None, "switch": None,
    }
    summary["active_model"] = selectors.embedding_models(workspace=workspace).active
    age = summary["oldest_pending_seconds"]
    summary["oldest_pending_at"] = timezone.now() - datetime.timedelta(seconds=age) if age is not None else None
    summary["last_error_at"] = (
        datetime.datetime.fromisoformat(summary["last_error_at"]) if summary["last_error_at"] else None
    )
    return {"summary": summary, "provider": rows["provider"]}


def status_workspace(request: HttpRequest, slug: str) -> Workspace:
    """The workspace, if the user may see its status: 404 for a non-member, 403 for a viewer."""
    access = workspace_access_for_user(user=request.user, slug=slug)
    if access.role not in DRAFT_ROLES:
        raise PermissionDenied(gettext("The ingestion status is for the workspace's owners and editors."))
    return access.workspace


def status_workspaces(request: HttpRequest) -> list[Workspace]:
    """The workspaces whose status the user may see (those where they see drafts), in slug order."""
    return [a.workspace for a in workspace_accesses_for_user(user=request.user) if a.role in DRAFT_ROLES]


def status_index(request: HttpRequest) -> HttpResponse:
    """Every workspace the user edits or owns, with its counts."""
    workspaces = status_workspaces(request)[:STATUS_INDEX_MAX_WORKSPACES]
    lines = [{"workspace": ws, **_summary(ws)} for ws in workspaces]
    provider = lines[0]["provider"] if lines else selectors.embedding_provider_status()
    return admin_page(request, "admin/ingestion/status_index.html", gettext("Ingestion status"), lines=lines,
                      provider=provider)


def status_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """One workspace: banners, counts per model and content type, usage by day, and actions."""
    workspace = status_workspace(request, slug)
    can_act = role_allows(request, workspace.pk, WRITE_ROLES)
    form = StatusActionForm(workspace=workspace)
    if request.method == "POST":
        if not can_act:
            raise PermissionDenied(gettext("Only the workspace's editors and owners may run ingestion actions."))
        form = StatusActionForm(request.POST, workspace=workspace)
        if form.is_valid():
            messages.success(request, form.run())
            return redirect("ingestion_status", slug=workspace.slug)
    if request.GET.get("fragment") == "live":  # the page's self-refreshing part (live_status.js)
        return status_live_fragment(request, workspace)
    content_types, assets = selectors.content_type_ingestion_list(workspace=workspace)
    usage = selectors.embedding_usage_by_day(workspace=workspace, days=USAGE_DAYS)
    totals = {
        "requests": sum(u.requests for u in usage),
        "texts": sum(u.texts for u in usage),
        "tokens": sum(u.tokens for u in usage),
        "cost_usd": sum((u.cost_usd for u in usage), Decimal(0)),
    }
    role = "superuser" if request.user.is_superuser else user_roles(request).get(workspace.pk, "")
    return admin_page(
        request,
        "admin/ingestion/status.html",
        gettext("Ingestion status: %(name)s") % {"name": workspace.name},
        workspace=workspace,
        other_workspaces=[ws for ws in status_workspaces(request) if ws.pk != workspace.pk][:20],
        role=role,
        can_act=can_act,
        form=form,
        actions=ACTIONS,
        content_types=content_types,
        assets=assets,
        usage=usage,
        usage_days=USAGE_DAYS,
        usage_totals=totals,
        **_live_summary(workspace),
    )


def _live_summary(workspace: Workspace) -> dict[str, Any]:
    """_summary, and `live_pending`: the chunks still to embed, while which the page refreshes."""
    summary = _summary(workspace)
    return {**summary, "live_pending": summary["summary"]["pending"], "workers": workers_banner(workspace=workspace)}


def status_live_fragment(request: HttpRequest, workspace: Workspace) -> HttpResponse:
    """The banners, counts, model switch and vectors per model of a workspace the user belongs
    to (status_detail has looked it up), as an HTML fragment; never cached."""
    response = TemplateResponse(request, "admin/ingestion/_status_live.html",
                                {"workspace": workspace, **_live_summary(workspace)})
    response["Cache-Control"] = "no-store"
    return response
