"""In Chromium, in English, Japanese and Hong Kong Chinese: the search engine's refusal on the admin
search page is in the page's language, with its code, and fits a 390 px phone.

Screenshots: artifacts/screenshots/engine-message-<language>[-390].png.
"""

from __future__ import annotations

import pytest

from cms.models import Role
from tests.factories import ContentTypeFactory, MembershipFactory, UserFactory, WorkspaceFactory

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
# Per browser locale: <html lang>, and the refusal of top_k=0 (the API's English: "top_k must be
# between 1 and 100, not 0."), naming the option as the page's "More options" labels it.
MESSAGES = {
    "en-US": ("en", "How many results must be between 1 and 100, not 0."),
    "ja-JP": ("ja", "表示件数 は 1 から 100 までの範囲で指定してください (0 は範囲外です)。"),
    "zh-HK": ("zh-hant", "結果數量 必須介於 1 與 100 之間，而非 0。"),
}


@pytest.fixture
def editor(transactional_db):
    workspace = WorkspaceFactory(slug="shop", name="Shop")
    ContentTypeFactory(workspace=workspace, api_id="faq", name="FAQ", semantic_search_enabled=True,
                       fields=[{"id": "title", "label": "Title", "type": "text", "required": True}])
    user = UserFactory(username="editor")
    MembershipFactory(user=user, workspace=workspace, role=Role.EDITOR)
    return user


@pytest.mark.parametrize("locale", sorted(MESSAGES))
def test_engine_refusal_is_in_the_pages_language_and_fits_a_phone(login_page, screenshot, editor, locale):
    lang, expected = MESSAGES[locale]
    page = login_page(editor, locale=locale)
    page.goto("/admin/search/shop/?mode=semantic&q=refund&top_k=0")
    message = page.locator('.messagelist li.error[data-code="top_k_out_of_range"]')
    assert page.get_attribute("html", "lang") == lang
    assert message.inner_text().strip() == expected
    screenshot(page, f"engine-message-{locale}")

    page.set_viewport_size(PHONE)
    page.reload()
    fits = page.evaluate("""() => {
        const li = document.querySelector('.messagelist li.error');
        const box = li.getBoundingClientRect();
        return [document.documentElement.scrollWidth <= window.innerWidth, li.scrollWidth <= li.clientWidth,
                box.left >= 0 && box.right <= window.innerWidth];
    }""")
    assert fits == [True, True, True]
    screenshot(page, f"engine-message-{locale}-390")
