"""In a real browser, English and Japanese (issue 36): the search page's filters one can see (chips,
"Clear all", a new query starting afresh unless "Keep filters"), "Pin for this query", the page and
the synonyms page at 390 px, and axe-core on the search page with facets chosen and on the
promotion add page (its entry chosen by searching).

The shop and its entries are test_admin_facets_promotions.py's. Screenshots go to screenshots/.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import translation
from playwright.sync_api import expect

from cms import services
from cms.model_labels import status_word
from cms.models import Promotion, Role, promotion_phrase_normalise
from tests.browser.conftest import TIMEOUT_MS
from tests.browser.test_admin_facets_promotions import member, shop  # noqa: F401 - fixture

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parents[2] / "tools" / "axe-core" / "node_modules" / "axe-core" / "axe.min.js"
PHONE = {"width": 390, "height": 844}
LOCALES = {"english": "en-US", "japanese": "ja-JP", "chinese": "zh-HK"}
DJANGO_LANGUAGES = {"english": "en", "japanese": "ja", "chinese": "zh-hant"}
# Per language: the query, a tag of its results, and a second query (its results, a result to pin).
QUERIES = {
    "english": {"q": "refund", "tag": "refund", "new_q": "delays", "pin": "Refund to a gift card"},
    "japanese": {"q": "返品", "tag": "返品", "new_q": "休止", "pin": "返品・返金について"},
    "chinese": {"q": "退貨", "tag": "退貨", "new_q": "暫停", "pin": "退貨及退款須知"},
}


def chips(page) -> list[str]:
    return page.locator("#search-chips li.facet-chip").evaluate_all("items => items.map(li => li.dataset.param)")


def hits(page) -> list[str]:
    return page.locator("#search-results li.search-hit h3").all_inner_texts()


def choose(page, facet: str, value: str) -> None:
    with page.expect_navigation():
        page.click(f'#search-facets ul[data-facet="{facet}"] a[data-value="{value}"]')


def search(page, text: str) -> None:
    page.fill("#search-q", text)
    with page.expect_navigation():
        page.click("#search-submit")


@pytest.mark.parametrize("language", list(LOCALES))
def test_a_chip_is_removed_and_clear_all_clears_them(login_page, shot, shop, language):
    workspace, _ = shop
    words = QUERIES[language]
    page = login_page(member("editor", workspace, Role.EDITOR), locale=LOCALES[language])
    page.goto(f"/admin/search/shop/?q={words['q']}&mode=fulltext")
    assert chips(page) == []

    choose(page, "tags", words["tag"])
    choose(page, "content_type", "faq")
    assert sorted(chips(page)) == ["content_type", "facet.tags"]
    link = page.locator(f'#search-facets ul[data-facet="tags"] a[data-value="{words["tag"]}"]')
    assert link.get_attribute("aria-current") == "true"
    assert re.fullmatch(rf"{words['tag']}(, \d+ results?|、\d+ 件|，\d+ 個結果)", link.get_attribute("aria-label"))
    assert page.locator('#search-facets ul[data-facet="tags"] a[data-value=""]').get_attribute("aria-current") == "false"
    # Results first in the tab order: the first result's link comes before the first facet link.
    assert page.evaluate("""() => {
        const hit = document.querySelector('#search-results li.search-hit a');
        const facet = document.querySelector('#search-facets a');
        return !!(hit.compareDocumentPosition(facet) & Node.DOCUMENT_POSITION_FOLLOWING); }""")
    shot(page, f"admin-search-chips-{language}")

    with page.expect_navigation():
        page.click('#search-chips li[data-param="facet.tags"] a.chip-remove')
    assert chips(page) == ["content_type"] and "facet.tags" not in page.url and f"q=" in page.url

    choose(page, "tags", words["tag"])
    assert len(chips(page)) == 2
    with page.expect_navigation():
        page.click("#search-clear-filters")
    assert chips(page) == [] and "facet.tags" not in page.url and "content_type=faq" not in page.url
    assert page.input_value("#search-q") == words["q"]
    shot(page, f"admin-search-chips-cleared-{language}")


@pytest.mark.parametrize("language", list(LOCALES))
def test_a_new_query_clears_the_filters_unless_kept(login_page, shot, shop, language):
    workspace, _ = shop
    words = QUERIES[language]
    page = login_page(member("editor", workspace, Role.EDITOR), locale=LOCALES[language])
    page.goto(f"/admin/search/shop/?q={words['q']}&mode=fulltext")
    choose(page, "tags", words["tag"])
    assert chips(page) == ["facet.tags"]
    assert not page.is_checked("#search-keep-filters")

    search(page, words["new_q"])
    assert chips(page) == [] and "facet.tags" not in page.url
    assert len(hits(page)) == 1

    search(page, words["q"])
    choose(page, "tags", words["tag"])
    page.check("#search-keep-filters")
    search(page, words["new_q"])
    assert chips(page) == ["facet.tags"] and "facet.tags=" in page.url
    assert page.is_checked("#search-keep-filters")
    shot(page, f"admin-search-filters-kept-{language}")


@pytest.mark.parametrize("language", list(LOCALES))
def test_pin_from_the_search_page_and_it_comes_first_next_time(login_page, shot, shop, language):
    workspace, entries = shop
    words = QUERIES[language]
    page = login_page(member("editor", workspace, Role.EDITOR), locale=LOCALES[language])
    page.goto(f"/admin/search/shop/?q={words['q']}&mode=fulltext")
    assert hits(page)[0] != words["pin"]
    shot(page, f"admin-search-pin-before-{language}")

    row = page.locator("#search-results li.search-hit", has=page.locator("h3", has_text=words["pin"]))
    with page.expect_navigation():
        row.locator("button.pin-button").click()

    promotion = Promotion.objects.get()
    # Kept as typed (退貨 stays 退貨), matched by its folded key (cms.models.promotion_phrase_normalise).
    assert (promotion.workspace_id, promotion.phrase, promotion.phrase_key, promotion.match,
            promotion.entry.title) == (workspace.pk, words["q"], promotion_phrase_normalise(words["q"]), "is",
                                       words["pin"])
    message = page.locator(".messagelist li.success").inner_text()
    assert f"「{words['q']}」" in message or f"“{words['q']}”" in message, message  # the query as typed
    assert page.locator(".messagelist li.success").count() == 1
    assert f"q={words['q']}" in page.url or "q=%" in page.url
    first = page.locator("#search-results li.search-hit").first
    assert first.locator("h3").inner_text() == words["pin"] and first.locator(".promoted").count() == 1
    assert first.locator("button.pin-button").count() == 0
    shot(page, f"admin-search-pinned-{language}")

    page.goto(f"/admin/search/shop/?q={words['q']}&mode=fulltext")  # the next search
    assert hits(page)[0] == words["pin"]


def test_a_viewer_sees_no_pin_button(login_page, shop):
    workspace, _ = shop
    page = login_page(member("viewer", workspace, Role.VIEWER), locale="ja-JP")
    page.goto("/admin/search/shop/?q=返品&mode=fulltext")
    assert len(hits(page)) == 2 and page.locator("button.pin-button").count() == 0


def phone_page(browser, live_server, username: str, locale: str):
    context = browser.new_context(viewport=PHONE, locale=locale, base_url=live_server.url, bypass_csp=True)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.goto("/admin/login/?next=/admin/")
    page.fill("#id_username", username)
    page.fill("#id_password", "pw")
    with page.expect_navigation():
        page.click("input[type=submit]")
    return page


def widths(page) -> list[int]:
    return page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")


def serious(page, axe: str) -> list:
    page.evaluate(axe)
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in result["violations"]
            if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("language", list(LOCALES))
def test_the_search_and_synonyms_pages_fit_390_px_with_every_mode_reachable(browser, live_server, shot, shop,
                                                                          language):
    workspace, _ = shop
    member("owner", workspace, Role.OWNER)
    words = QUERIES[language]
    services.synonym_set_create(workspace=workspace, terms=["返品", "返金", "refund", "money back", "reimbursement"])
    page = phone_page(browser, live_server, "owner", LOCALES[language])
    page.goto(f"/admin/search/shop/?q={words['q']}&mode=fulltext")
    choose(page, "tags", words["tag"])
    page.click("#search-more-options summary")
    page.wait_for_load_state("networkidle")
    assert widths(page)[0] <= widths(page)[1], widths(page)
    shot(page, f"phone-390-search-{language}")
    for mode in ["semantic", "hybrid", "agentic", "fulltext"]:
        radio = page.locator(f"#search-mode-{mode}")
        box = radio.bounding_box()
        assert box is not None and 0 <= box["x"] and box["x"] + box["width"] <= PHONE["width"], (mode, box)
        radio.check()
        with page.expect_navigation():
            page.click("#search-submit")
        assert page.locator(f"#content-main[data-mode={mode}]").count() == 1
        page.click("#search-more-options summary")
        if page.locator("#search-advanced-options").count():
            page.click("#search-advanced-options summary")
        assert widths(page)[0] <= widths(page)[1], (mode, widths(page))
        shot(page, f"phone-390-search-{mode}-{language}")

    page.goto("/admin/search/shop/synonyms/")
    page.wait_for_load_state("networkidle")
    assert widths(page)[0] <= widths(page)[1], ("synonyms", widths(page))
    shot(page, f"phone-390-synonyms-{language}")
    page.context.close()


@pytest.mark.parametrize("language", list(LOCALES))
def test_axe_finds_nothing_serious_on_the_search_page_with_facets_and_the_promotion_add_page(browser, live_server, shot,
                                                                                           shop, language):
    if not AXE.exists():
        pytest.skip("axe-core is not installed: `make axe-core` (npm) first.")
    workspace, entries = shop
    member("owner", workspace, Role.OWNER)
    words = QUERIES[language]
    axe = AXE.read_text()
    page = phone_page(browser, live_server, "owner", LOCALES[language])
    page.set_viewport_size({"width": 1280, "height": 900})
    found = {}
    page.goto(f"/admin/search/shop/?q={words['q']}&mode=fulltext")
    choose(page, "tags", words["tag"])
    choose(page, "content_type", "faq")
    page.click("#search-more-options summary")
    assert len(chips(page)) == 2
    found["search"] = serious(page, axe)
    shot(page, f"axe-search-facets-{language}")

    page.goto("/admin/cms/promotion/add/")
    page.wait_for_selector(".field-entry .select2-selection[data-labelled]")
    found["promotion-add"] = serious(page, axe)
    shot(page, f"axe-promotion-add-{language}")

    page.set_viewport_size(PHONE)
    page.goto(f"/admin/search/shop/?q={words['q']}&mode=fulltext&facet.tags={words['tag']}")
    found["search-phone"] = serious(page, axe)
    assert found == {name: [] for name in found}
    page.context.close()


@pytest.mark.parametrize("language", list(LOCALES))
def test_the_promotion_form_finds_its_entry_by_searching(login_page, shot, shop, language):
    workspace, entries = shop
    page = login_page(member("editor", workspace, Role.EDITOR), locale=LOCALES[language])
    page.goto("/admin/cms/promotion/add/")
    assert page.locator("#id_entry option").count() <= 1  # no list of every entry
    page.select_option("#id_workspace", str(workspace.pk))
    page.fill("#id_phrase", "desk")
    page.click(".field-entry .select2-selection")
    page.fill(".select2-search__field", "Returns")
    results = page.locator(".select2-results__option:not(.loading-results)")
    # The search's hits only, labelled as the form's select labels them; Globex's entries are never offered.
    with translation.override(DJANGO_LANGUAGES[language]):
        label = f"Acme ショップ · FAQ · Returns desk (#{entries['returns'].pk}, {status_word('published')})"
    expect(results).to_have_text([label])
    shot(page, f"admin-promotion-entry-search-{language}")
    results.first.click()
    with page.expect_navigation():
        page.click('input[name="_save"]')
    promotion = Promotion.objects.get()
    assert (promotion.phrase, promotion.entry_id) == ("desk", entries["returns"].pk)
