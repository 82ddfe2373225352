"""An entry's page in the admin: its chunks' states, the active model, and when a save becomes searchable semantically.

Registered as a panel of cms's entry admin (cms.admin_entries.entry_panel_register), which
knows nothing of ingestion. Reads only through ingestion.selectors, for the entry's workspace.
"""

from __future__ import annotations

import math
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.template.response import TemplateResponse

from cms.access import entry_visibility_q
from cms.admin_entries import EntryPanel, entry_panel_register
from cms.models import Entry
from cms.selectors import workspace_get_for_user
from ingestion import selectors


def entry_chunks_context(request: HttpRequest, entry: Entry) -> dict[str, Any]:
    workspace = entry.workspace
    eta = selectors.entry_embedding_eta(workspace=workspace, entry_id=entry.pk)
    return {
        "chunks": selectors.entry_chunk_list(workspace=workspace, entry_id=entry.pk),
        "semantic_enabled": entry.content_type.semantic_search_enabled,
        "models": selectors.embedding_models(workspace=workspace),
        "provider": selectors.embedding_provider_status(),
        "eta": eta,
        "eta_seconds": _seconds_shown(eta.seconds),
        "workspace": workspace,
        "entry": entry,
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
    said = "Indexed for full-text search now"
    if not entry.content_type.semantic_search_enabled:
        return f"{said}; semantic search is off for the content type {entry.content_type}."
    provider = selectors.embedding_provider_status()
    if not provider["configured"]:
        return f"{said}; semantic search has no embedding provider ({provider['code']}), so its chunks wait."
    eta = selectors.entry_embedding_eta(workspace=entry.workspace, entry_id=entry.pk)
    if eta.waiting == 0:
        return f"{said}; its chunks are unchanged and already searchable semantically."
    chunks = f"{eta.waiting} chunk{'s' if eta.waiting != 1 else ''}"
    queued = f"{eta.ahead} chunk{'s' if eta.ahead != 1 else ''} queued in this workspace"
    if eta.seconds is None:
        return (f"{said}; semantic search once a worker embeds its {chunks} ({queued}; nothing embedded "
                "here in the last 10 minutes to estimate the pace from).")
    return (f"{said}; semantic search in about {_seconds_shown(eta.seconds)} s "
            f"({queued}, embedded at {eta.per_second:g} per second lately).")


entry_panel_register(EntryPanel(
    template="admin/ingestion/_entry_chunks.html",
    context=entry_chunks_context,
    saved_message=entry_saved_message,
))
