"""Search insights (search/insights/insights.py, search/insights/chart.py, search/interfaces/admin/insights.py and the
search_insights command) over a real log: lists against counts made by hand, one workspace only."""

from __future__ import annotations

import csv
import io
import json
import re
import uuid
from datetime import timedelta
from html import escape, unescape
from io import StringIO
from urllib.parse import parse_qs, urlsplit

import pytest
from django.core.management import call_command
from django.utils import timezone

from cms.models import Role
from search.insights.insights import (
    DayCount,
    popular_queries,
    query_stats_all,
    query_stats_csv,
    search_insights,
    zero_result_queries,
)
from search.insights.chart import daily_chart_svg
from search.models import SearchClick, SearchLog
from search.insights.search_log import search_id_make, search_log_flush
from tests.factories import ContentTypeFactory, MembershipFactory, UserFactory, entry_make

pytestmark = pytest.mark.django_db


def log(workspace, query, *, results=1, latency=5.0, age_days=0, clicks=0, interface="api", caller="c1",
        kind="hybrid"):
    row = SearchLog.objects.create(workspace=workspace, id=uuid.uuid4(), created_at=timezone.now() - timedelta(
        days=age_days), interface=interface, kind=kind, query=query, results=results, latency_ms=latency,
        caller=caller)
    for position in range(1, clicks + 1):
        SearchClick.objects.create(workspace=workspace, search_id=row.id, created_at=row.created_at, entry_id=1,
                                   position=position)
    return row


@pytest.fixture
def logged(workspace, other_workspace):
    for _ in range(5):
        log(workspace, "refund", clicks=1)
    for _ in range(3):
        log(workspace, "shipping", latency=80.0)  # answered, never opened
    log(workspace, "warranty", results=0, caller="c2")
    log(workspace, "warranty", results=0, caller="c2")
    log(workspace, "返品", results=0, latency=300.0, caller="c3")
    log(workspace, "refund", age_days=45)  # outside 30 days
    for _ in range(9):  # another tenant's: never counted
        log(other_workspace, "globex secret", results=0, latency=999.0)
    return workspace


def test_lists_and_totals_of_one_workspace(logged):
    insights = search_insights(workspace=logged, days=30)
    assert (insights.searches, insights.zero_results, insights.clicked, insights.callers,
            insights.distinct_queries) == (11, 3, 5, 3, 4)
    assert [(q.query, q.searches) for q in insights.top_queries] == [
        ("refund", 5), ("shipping", 3), ("warranty", 2), ("返品", 1)]
    assert [(q.query, q.zero_results) for q in insights.zero_result_queries][0] == ("warranty", 2)
    assert {q.query for q in insights.zero_result_queries} == {"warranty", "返品"}
    # Low means low: "refund", opened every time, is not on the list.
    assert [(q.query, q.click_through) for q in insights.low_click_through] == [("shipping", 0.0)]
    assert [q.query for q in insights.slowest][:2] == ["返品", "shipping"]
    assert "globex secret" not in json.dumps(insights.as_dict(), ensure_ascii=False)


def test_modes_are_counted_apart_in_the_lists_and_the_csv(workspace):
    for _ in range(4):
        log(workspace, "shipping", kind="fulltext")  # answered, never opened: low
    for clicks in (1, 1, 0, 0):
        log(workspace, "shipping", kind="hybrid", clicks=clicks)  # opened in 50%: not low
    for clicks in (1, 0, 0, 0, 0, 0):
        log(workspace, "refund", kind="semantic", clicks=clicks)  # 1 in 6, 17%: low
    log(workspace, "warranty", kind="agentic", clicks=0)  # too few searches to judge
    insights = search_insights(workspace=workspace, days=30)
    assert [(q.query, q.mode, q.searches) for q in insights.top_queries] == [
        ("refund", "semantic", 6), ("shipping", "fulltext", 4), ("shipping", "hybrid", 4), ("warranty", "agentic", 1)]
    assert [(q.query, q.mode, round(q.click_through, 2)) for q in insights.low_click_through] == [
        ("shipping", "fulltext", 0.0), ("refund", "semantic", 0.17)]
    assert insights.by_mode == {"agentic": 1, "fulltext": 4, "hybrid": 4, "semantic": 6}
    rows = list(csv.reader(io.StringIO(query_stats_csv(query_stats_all(workspace=workspace)))))
    assert rows[0][:3] == ["query", "mode", "searches"]
    assert sorted((row[0], row[1], row[2]) for row in rows[1:]) == [
        ("refund", "semantic", "6"), ("shipping", "fulltext", "4"), ("shipping", "hybrid", "4"),
        ("warranty", "agentic", "1")]


def test_completions_are_not_searches(logged):
    """A search box asks suggest for completions as each letter is typed: those rows are logged
    (kind "suggest", for suggest's metrics) but counted nowhere on the insights page, and a prefix
    that completes to nothing is not a query that found nothing."""
    before = search_insights(workspace=logged, days=30).as_dict()
    for typed, found in (("r", 3), ("re", 2), ("ref", 1), ("wxq", 0), ("wxq", 0)):
        log(logged, typed, results=found, kind="suggest", interface="api")
    after = search_insights(workspace=logged, days=30)
    assert after.as_dict() == before
    assert (after.searches, after.zero_results, after.per_day[-1].searches) == (11, 3, 11)
    assert "suggest" not in after.by_mode
    assert "wxq" not in {row[0] for row in csv.reader(io.StringIO(query_stats_csv(query_stats_all(workspace=logged))))}


def test_traditional_and_simplified_or_kana_variants_count_as_one_query(workspace):
    """The log folds as search does (cms/folding.py): 退貨 and 退货 are one query, shown as most
    often typed; りんご and リンゴ too. Each mode is still counted apart."""
    for query in ("退貨", "退貨", "退货"):
        log(workspace, query)
    for query in ("りんご", "リンゴ"):
        log(workspace, query, results=0)
    log(workspace, "退货", kind="fulltext")

    insights = search_insights(workspace=workspace, days=30)

    assert [(q.query, q.mode, q.searches) for q in insights.top_queries] == [
        ("退貨", "hybrid", 3), ("りんご", "hybrid", 2), ("退货", "fulltext", 1)]
    assert [(q.query, q.zero_results) for q in insights.zero_result_queries] == [("りんご", 2)]
    assert insights.distinct_queries == 2


def test_per_day_has_every_day_of_the_period_zeros_included(logged):
    insights = search_insights(workspace=logged, days=7)
    assert len(insights.per_day) == 7 and insights.per_day[-1].day == timezone.now().date()
    assert insights.per_day[-1].searches == 11 and insights.per_day[-1].zero_results == 3
    assert sum(d.searches for d in insights.per_day[:-1]) == 0
    assert sum(d.searches for d in search_insights(workspace=logged, days=90).per_day) == 12


def test_pickers_for_the_promotions_page(logged):
    assert [q.query for q in popular_queries(workspace=logged, days=30, limit=2)] == ["refund", "shipping"]
    assert [q.query for q in zero_result_queries(workspace=logged, days=30)] == ["warranty", "返品"]


def test_csv_has_a_row_per_query_and_neutralises_formulas(workspace):
    log(workspace, "refund")
    log(workspace, "=cmd|' /c calc'!a1", results=0)
    rows = list(csv.reader(io.StringIO(query_stats_csv(query_stats_all(workspace=workspace)))))
    assert rows[0][:4] == ["query", "mode", "searches", "zero_results"]
    assert sorted(row[0] for row in rows[1:]) == ["'=cmd|' /c calc'!a1", "refund"]


@pytest.mark.parametrize(("query", "cell"), [
    ("x;=1+1", "x;'=1+1"), ("a,@sum(1)", "a,'@sum(1)"), ("b; -2+3", "b; '-2+3"), ("+1", "'+1"),
    ("\tx", "'\tx"), ("'quoted", "''quoted"), ("fine; words, here", "fine; words, here"),
])
def test_csv_neutralises_a_formula_after_a_separator_too(workspace, query, cell):
    log(workspace, query)
    rows = list(csv.reader(io.StringIO(query_stats_csv(query_stats_all(workspace=workspace)))))
    assert rows[1][0] == cell


def test_chart_draws_a_bar_per_day_scaled_to_the_busiest():
    days = [DayCount(timezone.now().date() - timedelta(days=2 - i), n, z) for i, (n, z) in enumerate([(0, 0), (10, 4),
                                                                                                       (5, 0)])]
    svg = daily_chart_svg(days, label="<b>label</b>")
    assert svg.count('class="day"') == 3 and svg.count('class="bar"') == 3 and svg.count('class="bar-zero"') == 1
    assert "<b>" not in svg and "&lt;b&gt;" in svg
    assert 'data-searches="10"' in svg and "10 searches, 4 with no results" in svg


# --- the command ---------------------------------------------------------------------------------

def test_command_prints_the_lists_and_json(logged):
    out = StringIO()
    call_command("search_insights", "acme", "--days", "30", stdout=out)
    text = out.getvalue()
    assert "11 searches, 3 found nothing" in text and "warranty" in text and "globex" not in text

    out = StringIO()
    call_command("search_insights", "acme", "--days", "30", "--json", stdout=out)
    data = json.loads(out.getvalue())
    assert data["searches"] == 11 and data["top_queries"][0]["query"] == "refund" and data["logging"] is True
    assert len(data["per_day"]) == 30


def test_command_turns_logging_off_and_on(workspace, article_type):
    call_command("search_insights", "acme", "--logging", "off", stdout=StringIO(), stderr=StringIO())
    workspace.refresh_from_db()
    assert workspace.search_log_enabled is False
    call_command("search_insights", "acme", "--logging", "on", stdout=StringIO(), stderr=StringIO())
    workspace.refresh_from_db()
    assert workspace.search_log_enabled is True


@pytest.mark.parametrize("args", [["nope"], ["acme", "--days", "0"], ["acme", "--days", "400"]])
def test_command_refuses_bad_arguments(workspace, args):
    from django.core.management import CommandError

    with pytest.raises(CommandError):
        call_command("search_insights", *args, stdout=StringIO())


# --- the admin page -------------------------------------------------------------------------------

def member(workspace, name, role):
    user = UserFactory(username=name)
    MembershipFactory(user=user, workspace=workspace, role=role)
    return user


def test_editor_sees_the_page_with_chart_lists_and_no_other_tenant(client, logged):
    client.force_login(member(logged, "ed", Role.EDITOR))
    response = client.get("/admin/search/acme/insights/?days=30")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="insights-chart"' in html and html.count('class="day"') == 30
    for table in ("insights-top", "insights-zero", "insights-low-ctr", "insights-slowest"):
        assert f'id="{table}"' in html
    assert "warranty" in html and "globex secret" not in html


def test_a_zero_result_query_opens_the_promotion_and_synonym_forms_filled_in(client, logged):
    client.force_login(member(logged, "ed", Role.EDITOR))
    html = client.get("/admin/search/acme/insights/?days=30").content.decode()
    zero = html[html.index('id="insights-zero"'):]
    links = dict(re.findall(r'<a class="button" href="([^"]+)" data-action="(promote|synonym)"', zero)[:2])
    by_action = {action: unescape(href) for href, action in links.items()}
    assert set(by_action) == {"promote", "synonym"}
    query = parse_qs(urlsplit(by_action["synonym"]).query)["terms"][0]
    assert query and parse_qs(urlsplit(by_action["promote"]).query)["phrase"] == [query]
    promotion_form = client.get(by_action["promote"]).content.decode()
    assert f'value="{escape(query)}"' in promotion_form  # the phrase input, filled in
    assert f'<option value="{escape(query)}">' in promotion_form  # and offered by its picker
    synonyms_form = client.get(by_action["synonym"]).content.decode()
    # The terms box now points at its help text (aria-describedby, from the synonym-sets merge).
    assert (f'id="synonym-terms" size="80" aria-describedby="synonym-terms-help" '
            f'placeholder="refund, money back, reimbursement" value="{escape(query)}"') in synonyms_form


def test_csv_export(client, logged):
    client.force_login(member(logged, "ed", Role.EDITOR))
    response = client.get("/admin/search/acme/insights.csv?days=30")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert {row[0] for row in rows[1:]} == {"refund", "shipping", "warranty", "返品"}


def test_viewer_is_refused_and_a_non_member_finds_no_workspace(client, logged, other_workspace):
    client.force_login(member(logged, "viewer", Role.VIEWER))
    assert client.get("/admin/search/acme/insights/").status_code == 403
    assert client.get("/admin/search/acme/insights.csv").status_code == 403
    assert client.get("/admin/search/globex/insights/").status_code == 404
    assert client.get("/admin/search/globex/insights.csv").status_code == 404


def test_a_bad_period_falls_back_to_30_days_with_a_message(client, logged):
    client.force_login(member(logged, "ed", Role.EDITOR))
    response = client.get("/admin/search/acme/insights/?days=abc")
    assert response.status_code == 200 and response.context["days"] == 30
    assert "ays must be a whole number" in response.content.decode()


def test_admin_search_page_carries_the_search_id_and_records_clicks(client, workspace, article_type):
    entry = entry_make(article_type, title="Refund policy")
    client.force_login(member(workspace, "viewer", Role.VIEWER))
    html = client.get("/admin/search/acme/", {"q": "refund"}).content.decode()
    assert 'data-search-id="' in html and 'data-position="1"' in html and "search_clicks.js" in html
    search_log_flush()
    row = SearchLog.objects.get()
    search_id = search_id_make(workspace.pk, row.id)
    assert f'data-search-id="{search_id}"' in html
    response = client.post("/admin/search/acme/clicks", {"search_id": search_id, "entry_id": entry.pk, "position": 1})
    assert response.status_code == 202, response.content
    assert client.post("/admin/search/acme/clicks", {"search_id": "x" * 48, "entry_id": entry.pk,
                                                     "position": 1}).status_code == 400
    search_log_flush()
    assert SearchClick.objects.get().search_id == row.id


def test_another_workspaces_click_endpoint_is_404(client, workspace, other_workspace):
    client.force_login(member(workspace, "ed", Role.EDITOR))
    assert client.post("/admin/search/globex/clicks", {"search_id": "0" * 48, "entry_id": 1,
                                                       "position": 1}).status_code == 404
