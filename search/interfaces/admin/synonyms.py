"""The admin's synonym page, per workspace: list the sets; owners and editors add and delete them.

Members only (another workspace is a 404, as on the search page); the writes are
cms.services.synonym_set_*, whose refusals (a set of one term, over 50...) show as messages
in the editor's language, their code in the message's extra tags (the page's data-code), as on
the search page.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext

from cms import services
from cms.access import DRAFT_ROLES, workspace_access_for_user
from cms.models import SynonymKind, SynonymSet
from cms.admin.pages import admin_page


def synonyms_page(request: HttpRequest, slug: str) -> HttpResponse:
    """GET: the workspace's synonym sets and, for owners and editors, the form to add one.
    POST (owners and editors): `action` add (kind, source, terms: comma-separated) or delete (id):
    a delete without `confirmed=yes` shows the page asking to confirm, and deletes nothing."""
    access = workspace_access_for_user(user=request.user, slug=slug)  # 404 unless a member
    workspace = access.workspace
    may_edit = access.role in DRAFT_ROLES or request.user.is_superuser
    if request.method == "POST":
        here = reverse("admin_synonyms", args=[workspace.slug])
        if not may_edit:
            messages.error(request, gettext("Only the workspace's owners and editors edit synonyms."),
                           extra_tags="permission_denied")
            return HttpResponseRedirect(here)
        if request.POST.get("action") == "delete":
            found = SynonymSet.objects.for_workspace(workspace).filter(id=_uuid(request.POST.get("id"))).first()
            if found is not None and request.POST.get("confirmed") != "yes":
                # One click asks first: the page again, the set named, with Delete and Cancel.
                return _page(request, workspace, may_edit=may_edit, confirm_delete=found)
            if found is not None:
                services.synonym_set_delete(synonym_set=found)
                messages.success(request, gettext("Deleted the synonym set %(set)s.") % {"set": found})
            return HttpResponseRedirect(here)
        # Japanese and Chinese keyboards type their own commas: 、 and the full-width ，.
        terms = request.POST.get("terms", "").replace("、", ",").replace("，", ",").split(",")
        try:
            created = services.synonym_set_create(workspace=workspace, terms=terms,
                                                  kind=request.POST.get("kind") or SynonymKind.MULTI_WAY,
                                                  source=request.POST.get("source", ""))
        except ValidationError as exc:
            messages.error(request, _refusal_text(exc), extra_tags=exc.code or "")
        else:
            messages.success(request, gettext("Added the synonym set %(set)s. Searches use it now; no reindex needed.") % {
                "set": created})
        return HttpResponseRedirect(here)
    # The insights page's "Add synonym" opens this page with the query that found nothing.
    return _page(request, workspace, may_edit=may_edit, terms_initial=request.GET.get("terms", "")[:200])


def _page(request: HttpRequest, workspace, *, may_edit: bool, terms_initial: str = "",
          confirm_delete: SynonymSet | None = None) -> HttpResponse:
    return admin_page(
        request, "admin/search/synonyms.html", gettext("Synonyms: %(name)s") % {"name": workspace.name},
        workspace=workspace, sets=list(SynonymSet.objects.for_workspace(workspace)), may_edit=may_edit,
        kinds=SynonymKind.choices, terms_initial=terms_initial, confirm_delete=confirm_delete,
    )


def _uuid(value: str | None) -> str | None:
    import uuid
    try:
        return str(uuid.UUID(str(value)))
    except ValueError:
        return None


def _refusal_text(exc: ValidationError) -> str:
    """The service's refusal in the editor's language: each message is an English template
    (gettext_noop) with its params, which the API says in English (`exc.messages`)."""
    return " ".join(gettext(str(error.message)) % error.params if error.params else gettext(str(error.message))
                    for error in exc.error_list)
