""""Pin for this query" on the admin search page: a result becomes the query's promotion in one click.

A POST (with CSRF) from the result's small form: this workspace, the query text as shown, the
entry of the result, matched as the whole query ("is"). Who may pin is who may add a
promotion in the workspace (cms/admin/access.py, the promotions admin's write roles); an
entry of another workspace is refused with a 400 and a code, telling nothing of it. The
service (cms.services.promotion_create) checks again: a query with no phrase in it, longer
than a phrase may be, or holding a NUL, is a 400 `phrase_invalid`; a second pin of the same entry is a message on
the page (the service's refusal, said in the editor's language by its code).
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse, QueryDict
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from cms import services
from cms.access import workspace_access_for_user
from cms.admin.access import WRITE_ROLES, role_allows
from cms.admin.promotions import promotion_refusal_text
from cms.models import PromotionMatch, Workspace
from cms.selectors import entries_by_id
from cms.text_numbers import int_from_text
from search.interfaces.admin.facets import PREVIOUS_QUERY_PARAM

# Who may pin: the promotions admin's write roles (cms.admin.promotions.PromotionAdmin.write_roles).
PIN_ROLES = WRITE_ROLES


def may_pin(request: HttpRequest, workspace: Workspace) -> bool:
    """Whether the user may add promotions in `workspace` (the page shows the control only then)."""
    return role_allows(request, workspace.pk, PIN_ROLES)


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
    if entry_id is None:
        return _refusal("entry_required", gettext("Choose the result to pin."))
    entry = entries_by_id(workspace=workspace, ids=[entry_id]).get(entry_id)
    if entry is None:
        return _refusal("entry_not_in_workspace", gettext("No such entry in this workspace."))
    phrase = request.POST.get("q", "")
    back = _search_url(slug, request.POST.get("back", ""))
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

