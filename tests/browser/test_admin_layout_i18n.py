"""In Chromium, in English, Japanese and Hong Kong Chinese: the ingestion status page fits a 390 px
phone, the entry list's table fits 1280 px, and Django's delete message is Traditional Chinese.

Screenshots: artifacts/screenshots/layout-<page>-<language>[-390].png.
"""

from __future__ import annotations

import pytest

from cms import services
from cms.models import Promotion, Role
from tests.factories import ContentTypeFactory, MembershipFactory, UserFactory, WorkspaceFactory, entry_make

pytestmark = pytest.mark.browser

LOCALES = {"en": "en-US", "ja": "ja-JP", "zh-HK": "zh-HK"}
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
FITS_JS = """() => [document.documentElement.scrollWidth, window.innerWidth]"""


@pytest.fixture
def shop(transactional_db):
    workspace = WorkspaceFactory(slug="shop", name="Acme ショップ")
    faq = ContentTypeFactory(workspace=workspace, api_id="faq", name="よくある質問", semantic_search_enabled=True,
                             fields=[{"id": "title", "label": "見出し", "type": "text", "required": True},
                                     {"id": "body", "label": "本文", "type": "text"}])
    entries = [entry_make(faq, title=title, body=body) for title, body in (
        ("返品・返金について", "商品到着後 30 日以内であれば、未使用の商品に限り返品を受け付けます。"),
        ("配送料金のご案内", "5,000 円以上のご注文は送料無料です。"),
        ("Refund policy for orders shipped from our Osaka warehouse", "Refunds reach the card within five days."),
    )]
    owner = UserFactory(username="owner")
    MembershipFactory(user=owner, workspace=workspace, role=Role.OWNER)
    return workspace, faq, entries, owner


@pytest.mark.parametrize("language", LOCALES)
def test_ingestion_status_page_fits_a_phone(login_page, screenshot, shop, fake_backend, language):
    workspace, faq, entries, owner = shop
    page = login_page(owner, locale=LOCALES[language])
    page.set_viewport_size(PHONE)
    page.goto(f"/admin/ingestion/status/{workspace.slug}/")
    screenshot(page, f"layout-ingestion-status-{language}-390")
    assert page.evaluate(FITS_JS) == [390, 390]
    page.goto("/admin/ingestion/status/")
    screenshot(page, f"layout-ingestion-index-{language}-390")
    assert page.evaluate(FITS_JS) == [390, 390]


@pytest.mark.parametrize("language", LOCALES)
def test_entry_list_table_fits_1280_px(login_page, screenshot, shop, language):
    workspace, faq, entries, owner = shop
    page = login_page(owner, locale=LOCALES[language])
    for name, url in (("", "/admin/cms/entry/"), ("-search", "/admin/cms/entry/?q=%E8%BF%94%E5%93%81")):
        page.goto(url)
        screenshot(page, f"layout-entry-list{name}-{language}")
        box = page.evaluate("""() => {
            const table = document.querySelector('#result_list');
            const results = table.closest('.results') || table.parentElement;
            return [table.getBoundingClientRect().right <= window.innerWidth, results.scrollWidth <= results.clientWidth,
                    document.documentElement.scrollWidth <= window.innerWidth,
                    [...table.querySelectorAll('thead th')].map(th => Math.round(th.getBoundingClientRect().width)),
                    results.scrollWidth, results.clientWidth];
        }""")
        assert box[:3] == [True, True, True], (url, box)
    help_text = page.locator("#changelist-search .help, #searchbar + .help, .help").first.inner_text()
    if language != "en":
        assert "Finds entries" not in help_text, help_text


def test_zh_delete_message_is_traditional(login_page, screenshot, shop):
    workspace, faq, entries, owner = shop
    services.promotion_create(workspace=workspace, phrase="返品", entry=entries[0], position=1)
    page = login_page(owner, locale="zh-HK")
    page.goto("/admin/cms/promotion/")
    page.check("input[name=_selected_action]")
    page.select_option("select[name=action]", "delete_selected")
    with page.expect_navigation():
        page.click("button[name=index]")
    with page.expect_navigation():
        page.click("input[type=submit]")
    message = page.locator(".messagelist .success").inner_text()
    screenshot(page, "layout-promotion-deleted-zh-HK")
    assert "删" not in message and "刪除" in message and message.endswith("。"), message
    assert not Promotion.objects.exists()
