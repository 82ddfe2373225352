"""The admin's search insights page per workspace, its CSV export, and the search page's click reports.

Who may see insights: the workspace's owners and editors (and superusers). They are the
members who see drafts: the log's result counts include drafts, so a viewer, who may not know
a draft exists, gets a 403; a non-member gets the 404 of a workspace that does not exist.
Clicks on the search page are reported by any member (search/static/search/search_clicks.js),
through the same service as the API's events endpoint.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import reverse
from django.views.decorators.http import require_POST
from django.utils.translation import gettext

from cms.access import DRAFT_ROLES, WorkspaceAccess, workspace_access_for_user, workspace_accesses_for_user
from cms.text_numbers import int_from_text
from cms.admin.pages import admin_page
from search.contract.errors import SearchError
from search.insights.insights import (
    DEFAULT_DAYS,
    LOW_CLICK_THROUGH_BELOW,
    LOW_CLICK_THROUGH_MIN_SEARCHES,
    MAX_DAYS,
    query_stats_all,
    query_stats_csv,
    search_insights,
)
from search.insights.chart import daily_chart_svg
from search.insights.search_log import search_event_record

PERIODS = (7, 30, 90)


def insights_access(request: HttpRequest, slug: str) -> WorkspaceAccess:
    """The user's access, if they may see this workspace's insights (404 non-member, 403 viewer)."""
    access = workspace_access_for_user(user=request.user, slug=slug)
    if access.role not in DRAFT_ROLES:
        raise PermissionDenied(gettext("Search insights are for the workspace's owners and editors."))
    return access


def _days(request: HttpRequest) -> int:
    text = request.GET.get("days") or ""
    if not text:
        return DEFAULT_DAYS
    days = int_from_text(text, low=1, high=MAX_DAYS)
    if days is not None:
        return days
    messages.error(request, gettext("days must be a whole number from 1 to %(max)s; showing %(default)s.") % {
        "max": MAX_DAYS, "default": DEFAULT_DAYS})
    return DEFAULT_DAYS


def query_action_urls(workspace) -> dict[str, str]:
    """The zero-result queries' actions, each a URL the query (url-encoded) completes: promote
    an entry (the promotions admin's add form, phrase filled in) and add a synonym (the
    workspace's synonyms page, the query as its first term)."""
    return {
        "promote": f"{reverse('admin:cms_promotion_add')}?workspace={workspace.pk}&phrase=",
        "synonym": f"{reverse('admin_synonyms', args=[workspace.slug])}?terms=",
    }


def insights_page(request: HttpRequest, slug: str) -> HttpResponse:
    access = insights_access(request, slug)
    days = _days(request)
    insights = search_insights(workspace=access.workspace, days=days)
    return admin_page(
        request, "admin/search/insights.html", gettext("Search insights: %(name)s") % {"name": access.workspace.name},
        workspace=access.workspace,
        insights=insights,
        days=days,
        periods=PERIODS,
        chart=daily_chart_svg(insights.per_day, label=gettext("Searches per day, last %(days)s days") % {"days": days}),
        action_urls=query_action_urls(access.workspace),
        retention_days=settings.SEARCH_LOG_RETENTION_DAYS,
        low_below=round(LOW_CLICK_THROUGH_BELOW * 100),
        low_min=LOW_CLICK_THROUGH_MIN_SEARCHES,
        other_workspaces=[a.workspace for a in workspace_accesses_for_user(user=request.user)
                          if a.workspace.pk != access.workspace.pk and a.role in DRAFT_ROLES][:20],
    )


def insights_csv(request: HttpRequest, slug: str) -> HttpResponse:
    access = insights_access(request, slug)
    days = _days(request)
    response = HttpResponse(query_stats_csv(query_stats_all(workspace=access.workspace, days=days)),
                            content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="search-insights-{slug}-{days}d.csv"'
    return response


def _positive_int(value: str | None) -> int | None:
    return int_from_text(value, low=1)


@require_POST
def search_click(request: HttpRequest, slug: str) -> JsonResponse:
    """A click on the search page: form fields search_id, entry_id or chunk_id, position."""
    access = workspace_access_for_user(user=request.user, slug=slug)
    data = request.POST
    entry_id, chunk_id = _positive_int(data.get("entry_id")), _positive_int(data.get("chunk_id"))
    position = _positive_int(data.get("position"))
    if (entry_id is None) == (chunk_id is None) or position is None or not 1 <= position <= 1000:
        return JsonResponse({"code": "invalid_request", "message": "Give entry_id or chunk_id, and position."},
                            status=400)
    try:
        event = search_event_record(access=access, search_id=data.get("search_id", ""), entry_id=entry_id,
                                    chunk_id=chunk_id, position=position)
    except SearchError as exc:
        return JsonResponse({"code": exc.code, "message": exc.message}, status=exc.status)
    return JsonResponse({"search_id": event.search_id, "recorded": event.recorded}, status=202)
