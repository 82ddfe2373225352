"""In a real browser: the search page's facet sidebar (counts; a click filters, field facets too) and the promotions page, English and Japanese.

Full-text mode only needs no embedding: entries are saved through the services and searched
as they are. The promotions page is the promotions admin (roles as for entries).
"""

from __future__ import annotations

import pytest

from cms import services
from cms.models import EntryStatus, Promotion, Role
from tests.factories import ContentTypeFactory, MembershipFactory, UserFactory, WorkspaceFactory, entry_make

pytestmark = pytest.mark.browser

FIELDS = [
    {"id": "title", "label": "Title", "type": "text", "required": True},
    {"id": "body", "label": "Body", "type": "text"},
    {"id": "tags", "label": "Tags", "type": "tags", "facet": True},
    {"id": "price", "label": "Price", "type": "number", "facet": True, "facet_ranges": [1000, 5000]},
]


@pytest.fixture
def shop(transactional_db):
    workspace = WorkspaceFactory(slug="shop", name="Acme ショップ")
    faq = ContentTypeFactory(workspace=workspace, api_id="faq", name="FAQ", fields=FIELDS)
    news = ContentTypeFactory(workspace=workspace, api_id="news", name="お知らせ", fields=FIELDS)
    entries = {
        "refund": entry_make(faq, title="Refund policy", body="Refunds within 30 days.", tags=["refund"], price=500),
        "refund2": entry_make(faq, title="Refund to a gift card", body="A refund may go to a gift card.",
                              tags=["gift card"], price=3000),
        "notice": entry_make(news, title="Refund delays in May", body="Refunds take longer this month.",
                             tags=["refund", "delivery"], price=3000),
        "draft": entry_make(faq, status=EntryStatus.DRAFT, title="Refund rules draft", body="Unannounced refund.",
                            tags=["refund"], price=9000),
        "henpin": entry_make(faq, title="返品・返金について", body="30日以内であれば返品できます。", tags=["返品"], price=800),
        "henpin_news": entry_make(news, title="返品受付の休止", body="年末は返品の受付を休止します。",
                                  tags=["返品", "年末年始"], price=800),
        "tuihuo": entry_make(faq, title="退貨及退款須知", body="三十日內可以退貨。", tags=["退貨"], price=800),
        "tuihuo_news": entry_make(news, title="暫停退貨服務", body="年底暫停受理退貨。", tags=["退貨", "年底"], price=800),
        "returns": entry_make(faq, title="Returns desk", body="Bring the parcel to the desk."),
    }
    other = WorkspaceFactory(slug="globex", name="Globex")
    entry_make(ContentTypeFactory(workspace=other, api_id="faq", name="FAQ", fields=FIELDS),
               title="Globex refund secret", body="Refund in cash. 返品は現金で。")
    return workspace, entries


def member(username: str, workspace, role: str):
    user = UserFactory(username=username)
    MembershipFactory(user=user, workspace=workspace, role=role)
    return user


def facet_counts(page, facet: str) -> dict[str, str]:
    items = page.locator(f'#search-facets ul[data-facet="{facet}"] li')
    counts = {}
    for i in range(items.count()):
        item = items.nth(i)
        value = item.locator("a").get_attribute("data-value")
        count = item.locator(".facet-count")
        counts[value or "All"] = count.inner_text() if count.count() else ""
    return counts


def test_the_facet_sidebar_counts_and_filters_on_click_english(login_page, screenshot, shop):
    workspace, _ = shop
    page = login_page(member("editor", workspace, Role.EDITOR))
    page.goto("/admin/search/shop/?q=refund&mode=fulltext")

    assert facet_counts(page, "content_type") == {"All": "", "faq": "3", "news": "1"}
    assert facet_counts(page, "status") == {"All": "", "published": "3", "draft": "1"}
    screenshot(page, "admin-search-facets-english")

    with page.expect_navigation():
        page.click('#search-facets ul[data-facet="content_type"] a[data-value="news"]')
    assert page.locator("#search-results li.search-hit h3").all_inner_texts() == ["Refund delays in May"]
    # Disjunctive: the content type counts stay; the status counts follow the choice.
    assert facet_counts(page, "content_type") == {"All": "", "faq": "3", "news": "1"}
    assert facet_counts(page, "status") == {"All": "", "published": "1"}
    assert page.locator('#search-facets li.selected a[data-value="news"]').count() == 1
    screenshot(page, "admin-search-facets-english-news")


def test_the_facet_sidebar_in_japanese_and_for_a_viewer(login_page, screenshot, shop):
    workspace, _ = shop
    page = login_page(member("viewer", workspace, Role.VIEWER))
    page.goto("/admin/search/shop/?q=返品&mode=fulltext")

    assert facet_counts(page, "content_type") == {"All": "", "faq": "1", "news": "1"}
    assert facet_counts(page, "status") == {"All": "", "published": "2"}  # a viewer never counts a draft
    assert "お知らせ" in page.locator("#search-facets").inner_text()
    screenshot(page, "admin-search-facets-japanese")


def test_a_field_facet_click_filters_and_facets_combine_english(login_page, screenshot, shop):
    workspace, _ = shop
    page = login_page(member("editor", workspace, Role.EDITOR))
    page.goto("/admin/search/shop/?q=refund&mode=fulltext&offset=0")

    assert facet_counts(page, "tags") == {"All": "", "refund": "3", "delivery": "1", "gift card": "1"}
    assert facet_counts(page, "price") == {"All": "", "1000-5000": "2", "<1000": "1", ">=5000": "1"}
    assert page.locator('#search-facets ul[data-facet="tags"]').evaluate(
        "ul => ul.previousElementSibling.textContent") == "By Tags"

    with page.expect_navigation():
        page.click('#search-facets ul[data-facet="tags"] a[data-value="refund"]')
    assert sorted(page.locator("#search-results li.search-hit h3").all_inner_texts()) == [
        "Refund delays in May", "Refund policy", "Refund rules draft"]
    assert "offset" not in page.url and "facet.tags=refund" in page.url
    # Disjunctive: the tags keep their counts; the price ranges follow the chosen tag.
    assert facet_counts(page, "tags") == {"All": "", "refund": "3", "delivery": "1", "gift card": "1"}
    assert facet_counts(page, "price") == {"All": "", "1000-5000": "1", "<1000": "1", ">=5000": "1"}

    with page.expect_navigation():
        page.click('#search-facets ul[data-facet="price"] a[data-value="1000-5000"]')
    assert page.locator("#search-results li.search-hit h3").all_inner_texts() == ["Refund delays in May"]
    assert page.locator('#search-facets ul[data-facet="tags"] li.selected a').get_attribute("data-value") == "refund"
    assert page.locator('#search-facets ul[data-facet="price"] li.selected a').get_attribute("data-value") == (
        "1000-5000")
    screenshot(page, "admin-search-field-facets-english")

    # The URL is the whole state: opened afresh, the same page; a new query keeps the facets when told to.
    shared = page.url
    page.goto(shared)
    assert page.locator("#search-results li.search-hit h3").all_inner_texts() == ["Refund delays in May"]
    page.fill("#search-q", "delays")
    page.check("#search-keep-filters")
    with page.expect_navigation():
        page.click("#search-submit")
    assert "facet.price=1000-5000" in page.url and "facet.tags=refund" in page.url

    with page.expect_navigation():
        page.click('#search-facets ul[data-facet="price"] a[data-value=""]')
    assert "facet.price" not in page.url and "facet.tags=refund" in page.url
    assert page.locator('#search-facets ul[data-facet="price"] li.selected a').inner_text() == "All"


def test_a_field_facet_in_japanese_for_a_viewer(login_page, screenshot, shop):
    workspace, _ = shop
    page = login_page(member("viewer", workspace, Role.VIEWER))
    page.goto("/admin/search/shop/?q=返品&mode=fulltext")

    assert facet_counts(page, "tags") == {"All": "", "返品": "2", "年末年始": "1"}
    with page.expect_navigation():
        page.click('#search-facets ul[data-facet="tags"] a[data-value="年末年始"]')

    assert page.locator("#search-results li.search-hit h3").all_inner_texts() == ["返品受付の休止"]
    assert page.locator('#search-facets ul[data-facet="tags"] li.selected').inner_text().startswith("年末年始")
    assert facet_counts(page, "content_type") == {"All": "", "news": "1"}
    screenshot(page, "admin-search-field-facets-japanese")


def test_an_editor_pins_an_entry_and_it_comes_first_marked_promoted(login_page, screenshot, shop):
    workspace, entries = shop
    page = login_page(member("editor", workspace, Role.EDITOR))
    page.goto("/admin/cms/promotion/add/")
    page.select_option("#id_workspace", str(workspace.pk))
    page.fill("#id_phrase", "  ＲＥＦＵＮＤ  ")
    page.click(".field-entry .select2-selection")  # the entry is found by searching (autocomplete_fields)
    page.fill(".select2-search__field", "Returns desk")
    page.locator(".select2-results__option", has_text="Returns desk").click()
    with page.expect_navigation():
        page.click('input[name="_save"]')
    promotion = Promotion.objects.get()
    assert (promotion.phrase, promotion.phrase_key) == ("ＲＥＦＵＮＤ", "refund")  # shown as typed, matched folded
    services.promotion_create(workspace=workspace, phrase="返品", entry=entries["henpin_news"])
    page.goto("/admin/cms/promotion/")
    assert page.locator("#result_list tbody tr").count() == 2
    screenshot(page, "admin-promotions-list")

    page.goto("/admin/search/shop/?q=Refund&mode=fulltext")
    first = page.locator("#search-results li.search-hit").first
    assert first.locator("h3").inner_text() == "Returns desk"
    assert first.locator(".promoted").count() == 1
    screenshot(page, "admin-search-promoted-english")
    page.goto("/admin/search/shop/?q=返品&mode=fulltext")
    assert page.locator("#search-results li.search-hit h3").first.inner_text() == "返品受付の休止"
    screenshot(page, "admin-search-promoted-japanese")


def test_a_viewer_sees_promotions_read_only(login_page, screenshot, shop):
    workspace, entries = shop
    services.promotion_create(workspace=workspace, phrase="返品", entry=entries["henpin"])
    page = login_page(member("viewer", workspace, Role.VIEWER))
    page.goto("/admin/cms/promotion/")
    assert page.locator("#result_list tbody tr").count() == 1
    assert page.locator("a.addlink").count() == 0
    screenshot(page, "admin-promotions-viewer-japanese")
