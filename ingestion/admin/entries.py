"""An entry's page in the admin: its chunks' states, the active model, and when a save becomes searchable semantically.

Registered as a panel of cms's entry admin (cms.admin.entries.entry_panel_register), which
knows nothing of ingestion. Reads only through ingestion.selectors, for the entry's workspace.
"""

from __future__ import annotations

import math
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.translation import gettext, ngettext

from cms.access import DRAFT_ROLES, entry_visibility_q
from cms.admin.access import role_allows
from cms.admin.entries import EntryPanel, entry_panel_register
from cms.models import Entry
from cms.selectors import workspace_get_for_user
from ingestion import selectors
from ingestion.admin.workers import workers_banner


def entry_chunks_context(request: HttpRequest, entry: Entry) -> dict[str, Any]:
    workspace = entry.workspace
    sees_drafts = role_allows(request, workspace.pk, DRAFT_ROLES)
    # A viewer's queue and pace count published content only (docs/access.md).
    eta = selectors.entry_embedding_eta(workspace=workspace, entry_id=entry.pk, published_only=not sees_drafts)
    return {
        "chunks": selectors.entry_chunk_list(workspace=workspace, entry_id=entry.pk),
        "semantic_enabled": entry.content_type.semantic_search_enabled,
        "models": selectors.embedding_models(workspace=workspace),
        "provider": selectors.embedding_provider_status(),
        "eta": eta,
        "eta_seconds": _seconds_shown(eta.seconds),
        # Only asked while the entry waits: no estimate is shown then anyway.
        "workers": workers_banner(workspace=workspace) if eta.waiting else None,
        "workspace": workspace,
        "entry": entry,
        "show_status": sees_drafts,  # the ingestion status page is theirs only (ingestion/admin/views.py)
    }


def entry_chunks_fragment(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    """The chunk panel alone, for the entry page to refresh itself (ingestion/static/ingestion/
    live_status.js): only an entry of a workspace the user belongs to and may see (a viewer
    never a draft); any other is the same 404."""
    workspace = workspace_get_for_user(user=request.user, slug=slug)
    entry = (Entry.objects.filter(workspace=workspace, pk=entry_id)
             .filter(entry_visibility_q(user=request.user, path="")).select_related("content_type", "workspace")
             .first())
    if entry is None:
        raise Http404("No entry with this id in your workspaces.")
    response = TemplateResponse(request, "admin/ingestion/_entry_chunks.html",
                                {"panel": entry_chunks_context(request, entry), "fragment": True})
    response["Cache-Control"] = "no-store"
    return response


def _seconds_shown(seconds: float | None) -> int | None:
    # A worker needs at least a moment: never "about 0 s".
    return None if seconds is None else max(1, math.ceil(seconds))


def entry_saved_message(request: HttpRequest, entry: Entry) -> str:
    """What a save means for search: full-text at once; semantic when, from the queue's pace."""
    if not entry.content_type.semantic_search_enabled:
        return gettext("Indexed for full-text search now; semantic search is off for the content type %(type)s.") % {
            "type": entry.content_type}
    provider = selectors.embedding_provider_status()
    if not provider["configured"]:
        return gettext("Indexed for full-text search now; semantic search has no embedding provider (%(code)s), "
                       "so its chunks wait.") % {"code": provider["code"]}
    eta = selectors.entry_embedding_eta(workspace=entry.workspace, entry_id=entry.pk)
    if eta.waiting == 0:
        return gettext("Indexed for full-text search now; its chunks are unchanged and already searchable semantically.")
    workers = workers_banner(workspace=entry.workspace)
    if workers.no_worker:
        return gettext("Indexed for full-text search now; semantic search waits for a worker: %(waiting)s") % {
            "waiting": ngettext("no worker is running; %(count)s chunk waits in this workspace.",
                                "no worker is running; %(count)s chunks wait in this workspace.",
                                workers.waiting) % {"count": workers.waiting}}
    chunks = ngettext("%(count)s chunk", "%(count)s chunks", eta.waiting) % {"count": eta.waiting}
    queued = ngettext("%(count)s chunk queued in this workspace", "%(count)s chunks queued in this workspace",
                      eta.ahead) % {"count": eta.ahead}
    if eta.seconds is None:
        return gettext("Indexed for full-text search now; semantic search once a worker embeds its %(chunks)s "
                       "(%(queued)s; nothing embedded here in the last 10 minutes to estimate the pace from).") % {
            "chunks": chunks, "queued": queued}
    return gettext("Indexed for full-text search now; semantic search in about %(seconds)s s "
                   "(%(queued)s, embedded at %(pace)s per second lately).") % {
        "seconds": _seconds_shown(eta.seconds), "queued": queued, "pace": f"{eta.per_second:g}"}


entry_panel_register(EntryPanel(
    template="admin/ingestion/_entry_chunks.html",
    context=entry_chunks_context,
    saved_message=entry_saved_message,
))
