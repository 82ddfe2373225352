"""The admin's search page, per workspace: full-text, semantic, hybrid and agentic search with highlighted snippets.

Members only: any other workspace answers 404, as if it did not exist. What each member sees
is the read policy of cms/access.py, handed as `access=` to the same search functions the API
calls; the page maps only input names and shows their errors as messages, never a 500.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.urls import reverse
from django.utils.safestring import SafeString
from django.utils.translation import gettext, gettext_lazy as _

from cms.access import DRAFT_ROLES, WorkspaceAccess, workspace_access_for_user, workspace_accesses_for_user
from cms.models import ContentType, Entry
from cms.selectors import content_type_list, content_type_schemas, entries_by_id
from cms.admin.pages import admin_page
from ingestion.selectors import embedding_provider_status

from search.interfaces.admin.facets import (
    KEEP_FILTERS_PARAM,
    PREVIOUS_QUERY_PARAM,
    field_choices_dropped,
    sidebar_chips,
    sidebar_facet_names,
    sidebar_field_choices,
    sidebar_filter,
    sidebar_groups,
    sidebar_hidden_inputs,
)
from search.contract.results import ChunkHit, SearchResult
from search.engine.confidence import rows_answering
from search.contract.errors import SearchError, localized_text
from search.engine.fulltext import EntryHit, EntrySearchResult
from search.engine.hybrid import LEG_SEMANTIC
from search.interfaces.admin.options import option_labels, page_option_values, page_options
from search.interfaces.admin.pins import PinEntryForm, may_pin, query_pins
from search.engine.field_text import field_text, field_types
from search.kinds import SEARCH_ENTRIES, SEARCH_KINDS, SearchKind
from search.contract.options import option_from_text
from search.engine.snippets import highlight_html, match_spans, query_snippet_html, query_terms, snippet_html
from search.engine.legs.vector_leg import chunks_pending_count
from search.engine.filters.visibility import caller_visibility

# The page's modes: every search kind, by its mode name.
KINDS_BY_MODE = {kind.mode: kind for kind in SEARCH_KINDS.values()}
MODES = {kind.mode: kind.label for kind in SEARCH_KINDS.values()}
# The modes' names as the page shows them (kinds.py keeps the English one the API and MCP use).
MODE_LABELS = {"fulltext": _("Full-text"), "semantic": _("Semantic"), "hybrid": _("Hybrid"), "agentic": _("Agentic")}
MODE_FULLTEXT = SEARCH_ENTRIES.mode
DEFAULT_MODE = MODE_FULLTEXT
# Entries per full-text page, and chunks per semantic or hybrid answer.
PAGE_SIZE = 20
TOP_K = 10
# The index lists at most this many workspaces.
INDEX_MAX_WORKSPACES = 100


@dataclass(frozen=True)
class EntryRow:
    """One full-text hit as the page shows it."""

    entry_id: int
    title: SafeString
    content_type: str
    status: str
    updated_at: datetime
    field: str
    snippet: SafeString
    url: str
    promoted: bool = False


@dataclass(frozen=True)
class ChunkRow:
    """One semantic or hybrid hit as the page shows it; `legs` only for hybrid."""

    chunk_id: int
    entry_id: int | None
    title: SafeString
    source: str  # "entry" or "asset"
    content_type: str
    status: str
    field: str
    text: SafeString
    score: float
    legs: dict[str, dict[str, Any]] | None
    url: str | None
    promoted: bool = False
    # The entry's other matching passages, highlighted (one row per entry: search/engine/entry_results.py).
    passages: tuple[SafeString, ...] = ()
    confidence: float | None = None


def search_index(request: HttpRequest) -> HttpResponse:
    """The workspaces the user may search, with their role."""
    accesses = workspace_accesses_for_user(user=request.user)[:INDEX_MAX_WORKSPACES]
    return admin_page(request, "admin/search/index.html", gettext("Search"), accesses=accesses)


def search_page(request: HttpRequest, slug: str) -> HttpResponse:
    """One workspace's search: the form, then the results of the chosen mode, or its error as a message."""
    access = workspace_access_for_user(user=request.user, slug=slug)  # 404 unless a member
    workspace = access.workspace
    params = request.GET
    if (kept := field_choices_dropped(params)) is not None:  # a new query: the field facets start afresh
        return HttpResponseRedirect(reverse("admin_search", args=[slug]) + "?" + urlencode(kept))
    mode = _page_mode(request, params)
    query = params.get("q")
    content_type = params.get("content_type") or None
    status = params.get("status") or None
    content_types = list(content_type_list(workspace=workspace))
    schemas = content_type_schemas(workspace=workspace)

    entry_rows: list[EntryRow] | None = None
    chunk_rows: list[ChunkRow] | None = None
    less_likely: list[ChunkRow] = []
    result: EntrySearchResult | SearchResult | None = None
    not_configured: str | None = None
    kind = KINDS_BY_MODE[mode]
    try:
        if query is not None:
            options = _page_search_options(kind, params, schemas, query=query, content_type=content_type,
                                           status=status)
            result = kind.search(access, options, interface="admin")
        if isinstance(result, EntrySearchResult):
            entry_rows = _entry_rows(access, result, content_types)
        elif isinstance(result, SearchResult):
            chunk_rows = _chunk_rows(result, query, content_types)
            chunk_rows, less_likely = _rows_split(result, chunk_rows)
            not_configured = _semantic_leg_degraded(request, result)
    except SearchError as exc:
        if exc.code == "not_configured":
            not_configured = exc.message
        else:
            # In the editor's language (the API and MCP say exc.message, English); the code as the data-code.
            messages.error(request, localized_text(exc.message, labels=option_labels()), extra_tags=exc.code)
    if not_configured is None and mode != MODE_FULLTEXT and result is None:
        not_configured = _provider_not_configured()
    all_options = page_options(kind, params)
    chips, clear_url = sidebar_chips(params, schemas, {ct.api_id: ct.name for ct in content_types})
    pending = (result.pending if isinstance(result, SearchResult)
               else chunks_pending_count(workspace_id=workspace.pk, visible=caller_visibility(access)))

    pinner = may_pin(request, workspace)
    return admin_page(
        request,
        "admin/search/search.html",
        gettext("Search: %(name)s") % {"name": workspace.name},
        workspace=workspace,
        role=access.role,
        # Who may see search insights and the ingestion status (search/interfaces/admin/insights.py,
        # ingestion/admin/views.py).
        show_insights=access.role in DRAFT_ROLES,
        other_workspaces=[a.workspace for a in workspace_accesses_for_user(user=request.user)
                          if a.workspace.pk != workspace.pk][:20],
        modes={mode: MODE_LABELS.get(mode, label) for mode, label in MODES.items()},
        mode=mode,
        more_options=[option for option in all_options if not option.advanced],
        advanced_options=[option for option in all_options if option.advanced],
        more_options_open=any(option.filled for option in all_options),
        advanced_options_open=any(option.filled for option in all_options if option.advanced),
        query=query or "",
        searched=query is not None,
        content_type=content_type or "",
        status=status or "",
        content_types=content_types,
        statuses=access.entry_statuses,
        entry_rows=entry_rows,
        chunk_rows=chunk_rows,
        # Under the relevance floor (search/engine/confidence.py): "No good match", the rows folded below.
        no_good_match=isinstance(result, SearchResult) and result.extra_meta.get("answerable") is False,
        # Rows under the floor after the first, when it answered: folded as "less likely", never "best".
        less_likely=less_likely,
        confidence_figures=_confidence_figures(result),
        words_url=_words_url(request, result),
        result=result,
        not_configured=not_configured,
        pending=pending,
        pages=_pages(request, result, len(entry_rows)) if entry_rows is not None else {},
        suggestion_links=_suggestion_links(request, result),
        correction=_correction(request, result),
        facet_groups=sidebar_groups(params, getattr(result, "facets", None), schemas,
                                    {ct.api_id: ct.name for ct in content_types}),
        facet_inputs=sidebar_hidden_inputs(params),
        facet_chips=chips,
        facet_clear_url=clear_url,
        keep_filters=bool(params.get(KEEP_FILTERS_PARAM)),
        may_pin=pinner,
        # The query's pins, to reorder and unpin here, and "Pin an entry" for one not in the results.
        pins=query_pins(workspace, query) if pinner and query else [],
        pin_form=PinEntryForm() if pinner and query else None,
        back=urlencode([(key, value) for key, value in params.items() if key != PREVIOUS_QUERY_PARAM]),
    )


def _page_mode(request: HttpRequest, params: QueryDict) -> str:
    """The mode the form asks for; an unknown one is full-text's, with a message."""
    mode = params.get("mode") or DEFAULT_MODE
    if mode not in MODES:
        messages.error(request, gettext("Unknown search mode %(mode)r; showing full-text search.") % {"mode": mode[:20]})
        mode = DEFAULT_MODE
    return mode


def _page_search_options(kind: SearchKind, params: QueryDict, schemas: dict[str, Any], *, query: str,
                         content_type: str | None, status: str | None) -> dict[str, Any]:
    """The kind's options from the page's form: its query, content type and status, the facet
    sidebar's choices as a filter, the "More options", and the page's size (and offset)."""
    chosen = sidebar_filter(sidebar_field_choices(params), schemas)
    options = {"query": query, "content_type": content_type, **page_option_values(kind, params),
               "facets": sidebar_facet_names(schemas)}
    if kind.chunks:
        spec = {**({"status": status} if status else {}), **chosen}
        # The page always shows the nearest results, folded under "No good match" below the floor.
        return {"top_k": TOP_K, **options, "filter": spec or None, "include_candidates": True}
    options.update(status=status, filter=chosen or None, limit=PAGE_SIZE,
                   offset=option_from_text(kind.options, "offset", params.get("offset") or "0"))
    return options


def _semantic_leg_degraded(request: HttpRequest, result: SearchResult) -> str | None:
    """A hybrid search whose semantic leg did not answer: its not_configured message (the page's
    notice), or a warning that the results are the keyword leg's only."""
    degraded = result.extra_meta.get("degraded", {}).get(LEG_SEMANTIC)
    if degraded and degraded["code"] == "not_configured":
        return degraded["message"]
    if degraded:
        messages.warning(request, gettext("Keyword results only: %(message)s") % {"message": localized_text(degraded["message"])},
                         extra_tags=degraded["code"])
    return None


def _provider_not_configured() -> str | None:
    """The embedding provider's not_configured message, when it has none configured."""
    provider = embedding_provider_status()
    if not provider["configured"] and provider["code"] == "not_configured":
        return provider["message"]
    return None


def _entry_rows(access: WorkspaceAccess, result: EntrySearchResult, content_types: list[ContentType]) -> list[EntryRow]:
    names = {ct.api_id: ct.name for ct in content_types}
    entries = entries_by_id(workspace=access.workspace, ids=[hit.entry_id for hit in result.hits])
    rows = []
    for hit in result.hits:
        entry = entries.get(hit.entry_id)
        if entry is None:  # deleted since the search ran
            continue
        title = entry.title or f"Entry {hit.entry_id}"
        field, snippet = _entry_snippet(hit, entry, result.query)
        rows.append(EntryRow(
            entry_id=hit.entry_id,
            title=highlight_html(title, match_spans(title, [result.query])),
            content_type=names.get(hit.content_type, hit.content_type),
            status=hit.status,
            updated_at=hit.updated_at,
            field=field,
            snippet=snippet,
            url=reverse("admin:cms_entry_change", args=[hit.entry_id]),
            promoted=hit.promoted,
        ))
    return rows


def _entry_snippet(hit: EntryHit, entry: Entry, query: str) -> tuple[str, SafeString]:
    """The search's snippet, unless it is of the title, which the row already shows highlighted:
    then the next matched field's value around the match, or nothing when only the title matched."""
    title_field = entry.content_type.title_field_id
    if hit.snippet is not None and hit.snippet.field != title_field:
        return hit.snippet.field, highlight_html(hit.snippet.text, hit.snippet.highlights)
    for field in hit.matched_fields:
        value = entry.data.get(field)
        if field != title_field and isinstance(value, (str, int, float)) and not isinstance(value, bool):
            return field, snippet_html(field_text(str(value), field_types(entry.content_type.fields).get(field, "")),
                                       [query])
    return "", SafeString("")


def _chunk_rows(result: SearchResult, query: str, content_types: list[ContentType]) -> list[ChunkRow]:
    names = {ct.api_id: ct.name for ct in content_types}
    return [_chunk_row(hit, query, names) for hit in result.hits]


def _chunk_row(hit: ChunkHit, query: str, names: dict[str, str]) -> ChunkRow:
    api_id = hit.metadata.get("content_type") or ""
    if hit.entry_id is not None:
        url = reverse("admin:cms_entry_change", args=[hit.entry_id])
    elif hit.asset_id is not None:
        url = reverse("admin:cms_asset_change", args=[hit.asset_id])
    else:
        url = None
    title = hit.title or ("Entry" if hit.entry_id is not None else "Asset")
    return ChunkRow(
        chunk_id=hit.id,
        entry_id=hit.entry_id,
        title=highlight_html(title, match_spans(title, query_terms(query))),
        source=hit.source_kind,
        content_type=names.get(api_id, api_id),
        status=hit.metadata.get("status") or "",
        field=hit.field,
        text=query_snippet_html(hit.text, query),
        score=hit.score,
        legs=hit.legs,
        url=url,
        promoted=hit.promoted,
        passages=tuple(query_snippet_html(passage.text, query) for passage in hit.passages or ()),
        confidence=hit.confidence,
    )


def _rows_split(result: SearchResult, rows: list[ChunkRow]) -> tuple[list[ChunkRow], list[ChunkRow]]:
    """An answered page's rows: the answers (rows_answering: the first, then each answer in its
    own right), and the rows under the list's line after them, "less likely" (the page asks for
    the candidates; the API without them returns the answers alone). A page with no good match
    keeps every row as its nearest."""
    if result.extra_meta.get("answerable") is not True or "min_confidence" not in result.extra_meta:
        return rows, []
    answers = rows_answering(result.hits, result.extra_meta["min_confidence"], result.model)
    return ([row for row, answer in zip(rows, answers) if answer],
            [row for row, answer in zip(rows, answers) if not answer])


def _confidence_figures(result: Any) -> tuple[str, str] | None:
    """The best confidence and the floor as the page prints them, with as many decimals (2 to 4)
    as it takes for a best under the floor not to read as equal to it (0.0372 and 0.04: 0.037, 0.040)."""
    meta = getattr(result, "extra_meta", None) or {}
    best, floor = meta.get("best_confidence"), meta.get("min_confidence")
    if best is None or floor is None:
        return None
    for places in (2, 3, 4):
        shown = (f"{best:.{places}f}", f"{floor:.{places}f}")
        if shown[0] != shown[1] or best >= floor:
            return shown
    return shown


def _words_url(request: HttpRequest, result: Any) -> str | None:
    """Where the entries holding the query's words are listed, when a search by meaning found
    nothing near (meta.words, search/engine/words_held.py): this page in that search's mode."""
    words = (getattr(result, "extra_meta", None) or {}).get("words")
    if not words:
        return None
    follow = words["follow_up"]
    return reverse("admin_search", args=[request.resolver_match.kwargs["slug"]]) + "?" + urlencode(
        {"q": follow["query"], "mode": follow["search"]})


def _with(request: HttpRequest, **changes: str) -> str:
    """This page's URL with some parameters changed (the offset dropped)."""
    base = {key: value for key, value in request.GET.items() if key not in ("offset", PREVIOUS_QUERY_PARAM)}
    return "?" + urlencode({**base, **changes})


def _suggestion_links(request: HttpRequest, result: Any) -> list[tuple[str, str]]:
    """Full-text's did-you-mean: each checked suggestion and the link that searches it."""
    if not isinstance(result, EntrySearchResult):
        return []
    return [(suggestion, _with(request, q=suggestion)) for suggestion in result.suggestions]


def _correction(request: HttpRequest, result: Any) -> dict[str, str] | None:
    """"Showing results for <corrected> — search instead for <typed>" when words were corrected."""
    if isinstance(result, EntrySearchResult) and result.corrected_query is not None:
        return {"corrected": result.corrected_query, "typed": request.GET.get("q", ""),
                "instead_url": _with(request, typo_tolerance="false")}
    if not isinstance(result, SearchResult) or not result.extra_meta.get("corrections"):
        return None
    corrected = result.extra_meta.get("corrected_query") or ", ".join(
        c["matched"] for c in result.extra_meta["corrections"])
    return {"corrected": corrected, "typed": request.GET.get("q", ""),
            "instead_url": _with(request, typo_tolerance="false")}


def _pages(request: HttpRequest, result: EntrySearchResult, shown: int) -> dict[str, Any]:
    """The rows shown (1-based) and links to the previous and next full-text pages, keeping
    the other parameters."""
    pages: dict[str, Any] = {"first": result.offset + 1, "last": result.offset + shown}
    base = {key: value for key, value in request.GET.items() if key not in ("offset", PREVIOUS_QUERY_PARAM)}
    if result.offset > 0:
        pages["previous"] = "?" + urlencode({**base, "offset": max(result.offset - result.limit, 0)})
    if result.has_more:
        pages["next"] = "?" + urlencode({**base, "offset": result.offset + result.limit})
    return pages
