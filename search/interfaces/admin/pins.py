"""Pins made and managed on the admin search page: "Pin for this query" on a result, "Pin an entry"
for one the results lack (an entry still waiting to be embedded is in no hybrid answer), and the
query's pins listed above the results, each with Move up, Move down and Unpin.

A POST (with CSRF) from the result's small form: this workspace, the query text as shown, the
entry of the result, matched as the whole query ("is"). Who may pin is who may add a
promotion in the workspace (cms/admin/access.py, the promotions admin's write roles); an
entry of another workspace is refused with a 400 and a code, telling nothing of it. The
service (cms.services.promotion_create) checks again: a query with no phrase in it, longer
than a phrase may be, or holding a NUL, is a 400 `phrase_invalid`; a second pin of the same entry is a message on
the page (the service's refusal, said in the editor's language by its code).
"""

from __future__ import annotations

from dataclasses import dataclass

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse, QueryDict
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy as _
from django.views.decorators.http import require_POST

from cms import services
from cms.access import workspace_access_for_user
from cms.admin.access import WRITE_ROLES, role_allows
from cms.admin.promotions import EntryAutocomplete, promotion_refusal_text
from cms.models import Entry, Promotion, PromotionMatch, Workspace, promotion_phrase_normalise
from cms.selectors import entries_by_id, promotions_for_phrase
from cms.text_numbers import int_from_text
from search.interfaces.admin.facets import PREVIOUS_QUERY_PARAM

# Who may pin: the promotions admin's write roles (cms.admin.promotions.PromotionAdmin.write_roles).
PIN_ROLES = WRITE_ROLES


def may_pin(request: HttpRequest, workspace: Workspace) -> bool:
    """Whether the user may add promotions in `workspace` (the page shows the control only then)."""
    return role_allows(request, workspace.pk, PIN_ROLES)


@dataclass(frozen=True)
class PinRow:
    """One pin of the query as the search page lists it."""

    promotion_id: int
    entry_id: int
    title: str
    url: str
    match: str
    first: bool
    last: bool


def query_pins(workspace: Workspace, query: str) -> list[PinRow]:
    """The pins of `query`'s phrase in the order searches show them (cms.selectors.promotions_for_phrase)."""
    key = promotion_phrase_normalise(query or "")
    pins = promotions_for_phrase(workspace=workspace, phrase_key=key) if key else []
    return [PinRow(promotion_id=pin.pk, entry_id=pin.entry_id, title=pin.entry.title or str(pin.entry_id),
                   url=reverse("admin:cms_entry_change", args=[pin.entry_id]), match=pin.get_match_display(),
                   first=index == 0, last=index == len(pins) - 1)
            for index, pin in enumerate(pins)]


class PinEntryForm(forms.Form):
    """"Pin an entry": the promotions admin's entry search (select2 autocomplete), for an entry
    the results do not show. Only its widget and media are used: search_pin checks what is posted."""

    entry = forms.ModelChoiceField(queryset=Entry.objects.none(), label=_("Entry to pin"), widget=EntryAutocomplete(
        Promotion._meta.get_field("entry"), admin.site, attrs={"id": "search-pin-entry"}))


def _refusal(code: str, message: str) -> HttpResponse:
    return JsonResponse({"code": code, "message": message}, status=400)


def _search_url(slug: str, back: str) -> str:
    """The search page the form was on: only its query string is taken from the form."""
    params = QueryDict(back[:4000], mutable=True)
    params.pop(PREVIOUS_QUERY_PARAM, None)
    params.pop("offset", None)
    query = params.urlencode()
    return reverse("admin_search", args=[slug]) + (f"?{query}" if query else "")


@require_POST
def search_pin(request: HttpRequest, slug: str) -> HttpResponse:
    """Pin the posted entry to the posted query in this workspace, then back to the same search."""
    access = workspace_access_for_user(user=request.user, slug=slug)  # 404 unless a member
    workspace = access.workspace
    if not may_pin(request, workspace):
        raise PermissionDenied
    entry_id = int_from_text(request.POST.get("entry"), low=1)
    back = _search_url(slug, request.POST.get("back", ""))
    # "Pin an entry" (a person picking from a search box): its slips come back to the page as
    # messages; a result's own button never posts them, so there they stay coded 400s.
    picked = request.POST.get("picker") == "1"
    if entry_id is None:
        if picked:
            messages.error(request, gettext("Choose the entry to pin."), extra_tags="entry_required")
            return HttpResponseRedirect(back)
        return _refusal("entry_required", gettext("Choose the result to pin."))
    entry = entries_by_id(workspace=workspace, ids=[entry_id]).get(entry_id)
    if entry is None:
        if picked:
            messages.error(request, gettext("No such entry in this workspace."), extra_tags="entry_not_in_workspace")
            return HttpResponseRedirect(back)
        return _refusal("entry_not_in_workspace", gettext("No such entry in this workspace."))
    phrase = request.POST.get("q", "")
    try:
        promotion = services.promotion_create(workspace=workspace, phrase=phrase, entry=entry,
                                              match=PromotionMatch.IS)
    except ValidationError as exc:
        refusal = next(error for errors in exc.error_dict.values() for error in errors)
        if refusal.code == "promotion_already_pinned":
            messages.warning(request, promotion_refusal_text(refusal), extra_tags="already_pinned")
            return HttpResponseRedirect(back)
        if refusal.code == "promotion_phrase_empty":
            return _refusal("phrase_invalid", gettext("Search for the query first, then pin a result to it."))
        code = ("phrase_invalid" if refusal.code in ("promotion_phrase_too_long", "promotion_phrase_invalid_character")
                else refusal.code)
        return _refusal(code, promotion_refusal_text(refusal))
    messages.success(request, gettext("Pinned “%(title)s” to the query “%(phrase)s”: it comes first for this query.")
                     % {"title": entry.title or entry.pk, "phrase": promotion.phrase})
    return HttpResponseRedirect(back)



PIN_MOVES = {"up": -1, "down": 1}


@require_POST
def search_pin_change(request: HttpRequest, slug: str) -> HttpResponse:
    """Move a pin of this workspace up or down among its phrase's pins, or unpin it; then back to
    the same search. A pin of another workspace is a 400, as a missing one."""
    access = workspace_access_for_user(user=request.user, slug=slug)  # 404 unless a member
    workspace = access.workspace
    if not may_pin(request, workspace):
        raise PermissionDenied
    promotion_id = int_from_text(request.POST.get("promotion"), low=1)
    promotion = (Promotion.objects.for_workspace(workspace).select_related("entry", "entry__content_type")
                 .filter(pk=promotion_id).first() if promotion_id is not None else None)
    if promotion is None:
        return _refusal("promotion_not_in_workspace", gettext("No such pin in this workspace."))
    action = request.POST.get("action", "")
    back = _search_url(slug, request.POST.get("back", ""))
    title = promotion.entry.title or promotion.entry_id
    if action == "unpin":
        services.promotion_delete(promotion=promotion)
        messages.success(request, gettext("Unpinned “%(title)s” from the query “%(phrase)s”.")
                         % {"title": title, "phrase": promotion.phrase})
    elif action in PIN_MOVES:
        services.promotion_move(promotion=promotion, by=PIN_MOVES[action])
    else:
        return _refusal("action_invalid", gettext("Choose Move up, Move down or Unpin."))
    return HttpResponseRedirect(back)
