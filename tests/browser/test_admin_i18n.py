"""In a real browser, in English, Japanese and Hong Kong Chinese: every admin page of ours speaks the
browser's language, `<html lang>` says which, and content keeps its own `lang`.

Each page is opened with the browser's Accept-Language (Playwright's `locale`: en-US, ja-JP, zh-HK).
The words left in Latin letters on a page are listed, except inside content marked with another
language and the names that stay as they are in every language (ALWAYS_LATIN); the list must be
empty. Screenshots go to artifacts/screenshots/i18n-<page>-<language>.png.
"""

from __future__ import annotations

import json


import pytest

from cms.models import Role
from cms import services
from tests.factories import ContentTypeFactory, MembershipFactory, UserFactory, WorkspaceFactory, entry_make

pytestmark = pytest.mark.browser

# Content, in three languages; the schema's labels are content too (Japanese here).
FIELDS = [
    {"id": "title", "label": "見出し", "type": "text", "required": True},
    {"id": "body", "label": "本文", "type": "text"},
]
LANGUAGES = {"en": ("en-US", "en"), "ja": ("ja-JP", "ja"), "zh-HK": ("zh-HK", "zh-hant")}
# Names and codes no language translates: products, formats, units, codes the user types.
ALWAYS_LATIN = {
    "Django", "API", "CSV", "BM25", "HTML", "JSON", "UTC", "MIME", "Markdown", "ID", "ms", "FAQ", "faq", "acme", "Acme",
    "fake", "mock", "not_configured", "permission_denied", "Bearer", "Authorization", "key", "English",
    "token", "Token", "ETA", "embedding_switch", "promote", "search_fusion", "pin", "manage", "py", "adaptive",
    "title", "body",  # the schema's field ids (identifiers, as an API id)
    "shop",  # the workspace's slug
    "use", "multilingual",  # the fake embedding model's name, use-multilingual-v3
    "refund",  # the promotions list's phrase column (content in a Django changelist cell, not marked)
    "email", "number",  # insights: the tokens stored in place of addresses and numbers, [email] and [number]
}
# The visible text outside content marked with another language, as Latin words.
LATIN_WORDS_JS = """(pageLang) => {
  const words = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest("script, style, textarea, [hidden], .visually-hidden, option:not(:checked)")) continue;
    if (!parent.checkVisibility()) continue;
    const marked = parent.closest("[lang]");
    if (marked && marked.getAttribute("lang") !== pageLang) continue;
    for (const word of node.textContent.match(/[A-Za-z][A-Za-z_]+/g) || []) words.add(word);
  }
  for (const el of document.querySelectorAll("input[type=submit], input[placeholder]")) {
    if (!el.checkVisibility() || el.closest("[lang]")?.getAttribute("lang") !== pageLang) continue;
    const shown = el.type === "submit" ? el.value : el.placeholder;
    for (const word of (shown || "").match(/[A-Za-z][A-Za-z_]+/g) || []) words.add(word);
  }
  return [...words].sort();
}"""


@pytest.fixture
def shop(transactional_db):
    workspace = WorkspaceFactory(slug="shop", name="Acme")
    faq = ContentTypeFactory(workspace=workspace, api_id="faq", name="FAQ", fields=FIELDS, semantic_search_enabled=True)
    entries = [
        entry_make(faq, title="Refund policy", body="Refunds take 5 days after we receive the item."),
        entry_make(faq, title="返品について", body="返品 refund は30日以内に受け付けます。"),
        entry_make(faq, title="退貨政策", body="退貨 refund 須於七日內申請，逾期恕不受理。"),
    ]
    owner = UserFactory(username="owner")
    MembershipFactory(user=owner, workspace=workspace, role=Role.OWNER)
    services.promotion_create(workspace=workspace, phrase="refund", entry=entries[1], position=1)
    services.synonym_set_create(workspace=workspace, terms=["返品", "退貨", "返金"])
    return workspace, faq, entries, owner


def pages(faq, entries) -> dict[str, str]:
    return {
        "home": "/admin/",
        "search-index": "/admin/search/",
        "search": "/admin/search/shop/?q=refund",
        "insights": "/admin/search/shop/insights/",
        "synonyms": "/admin/search/shop/synonyms/",
        "promotions": "/admin/cms/promotion/",
        "ingestion-index": "/admin/ingestion/status/",
        "ingestion": "/admin/ingestion/status/shop/",
        "entry": f"/admin/cms/entry/{entries[2].pk}/change/",
        "content-type": f"/admin/cms/contenttype/{faq.pk}/change/",
    }


def latin_words(page, lang: str) -> list[str]:
    return [word for word in page.evaluate(LATIN_WORDS_JS, lang) if word not in ALWAYS_LATIN]


@pytest.mark.parametrize("language", ["ja", "zh-HK"])
def test_every_page_of_ours_speaks_the_browser_language(login_page, screenshot, shop, language):
    workspace, faq, entries, owner = shop
    locale, lang = LANGUAGES[language]
    page = login_page(owner, locale=locale)
    left = {}
    for name, url in pages(faq, entries).items():
        response = page.goto(url)
        assert response.status == 200, (name, response.status)
        assert page.get_attribute("html", "lang") == lang, name
        screenshot(page, f"i18n-{name}-{language}")
        words = latin_words(page, lang)
        if words:
            left[name] = words
    assert left == {}, json.dumps(left, ensure_ascii=False)


def test_english_browser_gets_english_pages(login_page, shop):
    workspace, faq, entries, owner = shop
    page = login_page(owner, locale="en-US")
    for name, url in pages(faq, entries).items():
        page.goto(url)
        assert page.get_attribute("html", "lang") == "en", name
    page.goto("/admin/search/")
    assert page.locator("#search-workspaces caption").text_content() == "Search in a workspace"


@pytest.mark.parametrize("language", ["en", "ja", "zh-HK"])
def test_results_carry_their_own_language(login_page, screenshot, shop, language):
    workspace, faq, entries, owner = shop
    locale, lang = LANGUAGES[language]
    page = login_page(owner, locale=locale)
    page.goto("/admin/search/shop/?q=refund")
    assert page.get_attribute("html", "lang") == lang
    hits = page.locator("#search-results li.search-hit")
    found = {}
    for i in range(hits.count()):
        hit = hits.nth(i)
        title = hit.locator("h3 a")
        found[title.inner_text()] = (title.evaluate("el => el.closest('[lang]').lang"),
                                     hit.locator(".snippet").evaluate("el => el.closest('[lang]').lang"),
                                     hit.locator(".hit-meta").evaluate("el => el.closest('[lang]').lang"))
    assert found == {"Refund policy": ("en", "en", lang), "返品について": ("ja", "ja", lang),
                     "退貨政策": ("zh-Hant", "zh-Hant", lang)}
    screenshot(page, f"i18n-search-results-{language}")


def test_the_header_chooser_switches_language(login_page, shop):
    workspace, faq, entries, owner = shop
    page = login_page(owner, locale="ja-JP")
    page.goto("/admin/search/")
    assert page.locator("#search-workspaces caption").inner_text() == "ワークスペース内を検索"
    page.select_option("#language-chooser-select", "zh-hant")
    with page.expect_navigation():
        page.click("#language-chooser button")
    assert page.get_attribute("html", "lang") == "zh-hant"
    assert page.locator("#search-workspaces caption").inner_text() == "在工作區中搜尋"
