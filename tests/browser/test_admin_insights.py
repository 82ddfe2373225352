"""In a real browser: searches and clicks on the admin search page reach the workspace's search
insights page (its lists, its SVG chart, its CSV export), in English and in Japanese."""

from __future__ import annotations

import csv
import io
import time
import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from cms.models import Role
from search.models import SearchClick, SearchLog
from search.insights.search_log import search_log_flush
from tests.browser.test_admin_search import FIELDS, member, search, titles
from tests.factories import ContentTypeFactory, WorkspaceFactory, entry_make

pytestmark = pytest.mark.browser

LANGUAGES = {
    "english": {
        "entries": [("Refund policy", "Return any item within 30 days for a full refund."),
                    ("Shipping times", "Orders ship within two business days.")],
        "searches": ["refund", "refund", "shipping", "warranty", "gift card"],
        "clicked": "refund",
        "history": ["refund", "shipping", "return label", "warranty", "invoice copy"],
    },
    "japanese": {
        "entries": [("返品・返金について", "商品到着後30日以内であれば返品できます。"),
                    ("配送料金改定のお知らせ", "5,000円以上のご注文は送料無料です。")],
        "searches": ["返品", "返品", "送料", "保証", "ギフトカード"],
        "clicked": "返品",
        "history": ["返品", "送料", "領収書", "保証", "ポイント"],
    },
}


def history_seed(workspace, queries: list[str]) -> None:
    """Three weeks of earlier searches, so the chart has days to draw (written as the log writes them)."""
    now = timezone.now()
    rows = []
    for day in range(1, 22):
        for i, query in enumerate(queries[: 1 + (day * 7) % len(queries)]):
            found = 0 if i == len(queries) - 1 or (day + i) % 6 == 0 else 3
            rows.append(SearchLog(workspace=workspace, id=uuid.uuid4(), created_at=now - timedelta(days=day, hours=i),
                                  interface=("api", "mcp", "command")[i % 3], kind="hybrid", query=query, results=found,
                                  latency_ms=20.0 + 15 * i + day, caller=f"c{i}"))
    SearchLog.objects.bulk_create(rows)


def wait_for_clicks(count: int) -> None:
    """The beacon is sent as the link navigates: flush until the live server has recorded it."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        search_log_flush()
        if SearchClick.objects.count() >= count:
            return
        time.sleep(0.2)
    raise AssertionError("the click was not recorded")


@pytest.mark.parametrize("language", LANGUAGES)
def test_searches_and_clicks_show_on_the_insights_page(login_page, screenshot, transactional_db, language):
    spec = LANGUAGES[language]
    workspace = WorkspaceFactory(slug="helpdesk", name="Acme ヘルプデスク" if language == "japanese" else "Acme Help")
    faq = ContentTypeFactory(workspace=workspace, api_id="faq", name="FAQ", fields=FIELDS)
    for title, body in spec["entries"]:
        entry_make(faq, title=title, body=body)
    globex = WorkspaceFactory(slug="globex", name="Globex")
    SearchLog.objects.create(workspace=globex, created_at=timezone.now(), interface="api", kind="hybrid",
                             query="globex secret", results=0, latency_ms=1.0, caller="x")
    history_seed(workspace, spec["history"])
    page = login_page(member("editor", workspace, Role.EDITOR))

    page.goto("/admin/search/helpdesk/")
    for query in spec["searches"]:
        search(page, query, "fulltext")
    search(page, spec["clicked"], "fulltext")
    assert titles(page), "the search found nothing to click"
    with page.expect_navigation():
        page.locator("#search-results li.search-hit h3 a").first.click()
    wait_for_clicks(1)
    search_log_flush()
    assert SearchLog.objects.filter(workspace=workspace, interface="admin").count() == len(spec["searches"]) + 1

    page.goto("/admin/search/helpdesk/")
    with page.expect_navigation():
        page.click("#search-insights-link")
    assert page.locator("h1").inner_text().startswith("Search insights")
    top = page.locator("#insights-top tbody th").all_inner_texts()
    assert top[0] == spec["clicked"]
    zero = page.locator("#insights-zero tbody th").all_inner_texts()
    assert spec["searches"][-1] in zero and spec["searches"][-2] in zero
    assert page.locator("#insights-chart g.day").count() == 30
    today = page.locator("#insights-chart g.day").last
    assert int(today.get_attribute("data-searches")) == len(spec["searches"]) + 1
    assert int(page.locator('[data-total="clicked"]').inner_text()) == 1
    assert "globex" not in page.content()
    screenshot(page, f"admin-search-insights-{language}")

    with page.expect_navigation():
        page.click('a[data-days="7"]')
    assert page.locator("#insights-chart g.day").count() == 7
    screenshot(page, f"admin-search-insights-{language}-7-days")

    with page.expect_download() as download_info:
        page.click("#insights-csv")
    rows = list(csv.reader(io.StringIO(open(download_info.value.path(), encoding="utf-8").read())))
    assert rows[0][0] == "query" and spec["clicked"] in {row[0] for row in rows[1:]}


def test_a_viewer_gets_no_insights_link_and_a_403(login_page, transactional_db):
    workspace = WorkspaceFactory(slug="helpdesk", name="Acme Help")
    page = login_page(member("viewer", workspace, Role.VIEWER))
    page.goto("/admin/search/helpdesk/")
    assert page.locator("#search-insights-link").count() == 0
    assert page.goto("/admin/search/helpdesk/insights/").status == 403
