"""The pages issue 52 touched, in English, Japanese and zh-HK, at 390 px: no sideways scroll, and
axe-core finds nothing serious or critical, there and at 1280 px. The search page with its pins
open, the synonyms page asking before a delete, Content → Promotions and its form, the content
type's field builder, and an entry in the Markdown editor. Screenshots: artifacts/screenshots/."""

from __future__ import annotations

import pytest

from cms import services
from cms.models import Role
from tests.browser.test_admin_pins_richtext import LOCALES, desk  # noqa: F401 - fixture
from tests.browser.test_admin_search_editors import AXE, PHONE, phone_page, serious, widths
from tests.factories import MembershipFactory, UserFactory

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("language", LOCALES)
def test_the_touched_pages_fit_390_px_and_pass_axe(browser, live_server, screenshot, desk, language):
    if not AXE.exists():
        pytest.skip("axe-core is not installed: `make axe-core` (npm) first.")
    workspace, faq, entries = desk
    MembershipFactory(user=UserFactory(username="owner"), workspace=workspace, role=Role.OWNER)
    services.promotion_create(workspace=workspace, phrase="pickup", entry=entries["kobe"])
    services.promotion_create(workspace=workspace, phrase="pickup", entry=entries["waiting"], position=1)
    walk = services.synonym_set_create(workspace=workspace, kind="one_way", source="walkparcel", terms=["locker"])
    promotion = services.promotion_create(workspace=workspace, phrase="lockers", entry=entries["lockers"])
    pages = {
        "search-pins": "/admin/search/desk/?q=pickup&mode=hybrid",
        "synonyms": "/admin/search/desk/synonyms/",
        "promotions": "/admin/cms/promotion/",
        "promotion-change": f"/admin/cms/promotion/{promotion.pk}/change/",
        "contenttype": f"/admin/cms/contenttype/{faq.pk}/change/",
        "entry": f"/admin/cms/entry/{entries['kobe'].pk}/change/",
    }
    page = phone_page(browser, live_server, "owner", LOCALES[language])
    axe = AXE.read_text()
    found = {}
    for size, viewport in (("390", PHONE), ("wide", {"width": 1280, "height": 900})):
        page.set_viewport_size(viewport)
        for name, path in pages.items():
            page.goto(path)
            if name == "synonyms":  # the delete question, as the first click on Delete shows it
                with page.expect_navigation():
                    page.click(f"tr[data-set='{walk.id}'] button")
                assert page.locator("#synonym-delete-confirm").is_visible()
            page.wait_for_load_state("load")
            if size == "390":
                assert widths(page)[0] <= widths(page)[1], (name, widths(page))
            screenshot(page, f"editors-{size}-{name}-{language}")
            found[f"{name}-{size}"] = serious(page, axe)
    assert found == {name: [] for name in found}
    page.context.close()
