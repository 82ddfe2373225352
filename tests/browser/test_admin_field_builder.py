"""In a real browser, English and Japanese (issue 36, items 1, 4, 6 and 7): the content type's field
builder, the rich text Markdown editor, the status that refreshes itself, insights by mode, the
pages at 390 px, and axe-core's check of the entry, content type and insights pages.

The admin's own words are English (no LocaleMiddleware); "Japanese" is a content type whose
labels and values are Japanese, in a ja-JP browser (conftest.login_page). Screenshots an editor
looks at go to screenshots/.
"""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path

import pytest
from django.utils import timezone

from cms.models import ContentType, Entry, Role
from ingestion.models import Chunk, ChunkStatus
from search.models import SearchClick, SearchLog
from tests.browser.conftest import TIMEOUT_MS
from tests.browser.test_csp import Watch
from tests.factories import ContentTypeFactory, MembershipFactory, UserFactory, WorkspaceFactory, entry_make

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parents[2] / "tools" / "axe-core" / "node_modules" / "axe-core" / "axe.min.js"
PHONE = {"width": 390, "height": 844}

LANGUAGES = {
    "english": {
        "name": "Product", "api_id": "product",
        "fields": [("title", "Title", "text"), ("body", "Description", "richtext"), ("price", "Price", "number"),
                   ("in_stock", "In stock", "boolean"), ("released", "Released", "date"),
                   ("related", "Related entry", "reference"), ("tags", "Tags", "tags")],
        "markdown": "Hand-made in **Arita**.\n\n- dishwasher safe",
        "strong": "Arita",
    },
    "japanese": {
        "name": "商品", "api_id": "shohin",
        "fields": [("title", "名前", "text"), ("body", "説明", "richtext"), ("price", "価格", "number"),
                   ("in_stock", "在庫あり", "boolean"), ("released", "発売日", "date"),
                   ("related", "関連する記事", "reference"), ("tags", "タグ", "tags")],
        "markdown": "**有田**の職人が手作りしました。\n\n- 食洗機に対応",
        "strong": "有田",
    },
}
# Facets asked for in the builder: three are allowed (content type and status take two of five).
FACETS = ["in_stock", "released", "tags"]


@pytest.fixture
def shop(transactional_db):
    return WorkspaceFactory(slug="shop", name="Acme ショップ")


def member(username: str, workspace, role: str = Role.EDITOR):
    user = UserFactory(username=username)
    MembershipFactory(user=user, workspace=workspace, role=role)
    return user


def last_field(page):
    return page.locator("#field-builder-list > li.field-builder-field").last


def box_fields(page) -> list[dict]:
    return json.loads(page.input_value("#id_fields"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_field_builder_makes_every_field_type_and_says_why_a_facet_is_refused(login_page, shot, shop, language):
    spec = LANGUAGES[language]
    page = login_page(member("editor", shop))
    watch = Watch(page)
    watch.goto("/admin/cms/contenttype/add/")
    assert page.locator("#field-builder").is_visible()
    assert box_fields(page) == []
    page.select_option("#id_workspace", label=shop.name)
    page.fill("#id_api_id", spec["api_id"])
    page.fill("#id_name", spec["name"])
    page.check("#id_semantic_search_enabled")
    offered = page.locator("#field-builder-add")
    for field_id, label, kind in spec["fields"]:
        offered.click()
        row = last_field(page)
        row.locator("[data-part=label]").fill(label)
        row.locator("[data-part=id]").fill(field_id)
        row.locator("[data-part=type]").select_option(kind)
        row = last_field(page)
        if field_id in ("title", "price"):
            row.locator("[data-part=required]").check()
        if field_id in FACETS:
            row.locator("[data-part=facet]").check()
    # Every kind the schema knows was offered in the picker.
    assert page.locator("#field-builder-list li:first-child [data-part=type] option").evaluate_all(
        "options => options.map(o => o.value)") == [kind for _, _, kind in spec["fields"]]

    # The fourth facet is refused, with what counts toward the limit; rich text, for its kind.
    price = page.locator('#field-builder-list li[data-field="price"]')
    assert price.locator("[data-part=facet]").is_disabled()
    refused = price.locator("[data-refused=facet]").inner_text()
    assert "3 fields already are" in refused and "content type and status always take 2" in refused
    body = page.locator('#field-builder-list li[data-field="body"]')
    assert "cannot be a facet" in body.locator("[data-refused=facet]").inner_text()
    assert "Embedded for semantic search" in body.locator(".fb-search").inner_text()
    price.scroll_into_view_if_needed()
    shot(page, f"contenttype-builder-facet-refused-{language}")

    # Reorder: tags up above the reference; the JSON box follows.
    page.locator('#field-builder-list li[data-field="tags"] [data-action=up]').click()
    expected = [{"id": i, "label": label, "type": kind, "required": i in ("title", "price"),
                 **({"facet": True} if i in FACETS else {})} for i, label, kind in spec["fields"]]
    expected[5], expected[6] = expected[6], expected[5]
    assert box_fields(page) == expected
    shot(page, f"contenttype-builder-every-type-{language}")
    with page.expect_navigation():
        page.click("input[name=_continue]")

    saved = ContentType.objects.get(api_id=spec["api_id"])
    assert saved.fields == expected
    assert page.input_value("#id_fields").startswith('[\n  {\n    "id": "title"')  # indented after saving
    assert page.locator('#field-builder-list li[data-field="title"] [data-part=label]').input_value() == \
        spec["fields"][0][1]

    # No entry holds a value yet: renaming a saved id moves nothing, so nothing warns
    # (tests/browser/test_admin_field_ids.py warns once an entry holds the field).
    page.locator('#field-builder-list li[data-field="tags"] [data-part=id]').fill("labels")
    assert page.locator("#field-builder-list .fb-rename:visible").count() == 0
    assert watch.violations() == []


def test_the_server_refuses_a_fourth_facet_in_plain_words_without_javascript(browser, live_server, shop, shot):
    """The JSON box alone, JavaScript off: the same validation, said plainly, and a syntax slip by line."""
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False, viewport={"width": 1280,
                                                                                                 "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    member("editor", shop)
    page.goto("/admin/login/?next=/admin/cms/contenttype/add/")
    page.fill("#id_username", "editor")
    page.fill("#id_password", "pw")
    with page.expect_navigation():
        page.click("input[type=submit]")
    assert page.locator("#field-builder").count() == 0
    page.select_option("#id_workspace", label=shop.name)
    page.fill("#id_api_id", "shelf")
    page.fill("#id_name", "Shelf")
    page.fill("#id_fields", '[{"id": "a", "type": "text"},]')
    with page.expect_navigation():
        page.click("input[name=_save]")
    assert "The JSON has a mistake at line 1, column 30" in page.locator(".field-fields .errorlist").inner_text()
    four = [{"id": f"f{i}", "type": "tags", "facet": True} for i in range(4)]
    page.fill("#id_fields", json.dumps(four))
    with page.expect_navigation():
        page.click("input[name=_save]")
    error = page.locator(".errorlist").first.inner_text()
    assert "at most 3 may be" in error and "content type and status always take two" in error
    shot(page, "contenttype-json-no-javascript-refused-facet-english")
    assert not ContentType.objects.filter(api_id="shelf").exists()
    context.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_rich_text_is_markdown_with_a_preview_and_the_saved_message_names_the_title(login_page, shot, shop,
                                                                                   language):
    spec = LANGUAGES[language]
    fields = [{"id": i, "label": label, "type": kind} for i, label, kind in spec["fields"][:2]]
    content_type = ContentTypeFactory(workspace=shop, api_id=spec["api_id"], name=spec["name"], fields=fields)
    page = login_page(member("editor", shop))
    watch = Watch(page)
    watch.goto(f"/admin/cms/entry/add/?content_type={content_type.pk}")
    page.fill("#id_data__title", f"{spec['name']} 1")
    editor = page.locator(".field-data__body .EasyMDEContainer .CodeMirror")
    editor.click()
    page.keyboard.insert_text(spec["markdown"])
    page.locator(".field-data__body .editor-toolbar button.mde-preview").click()
    preview = page.locator(".field-data__body .editor-preview")
    assert preview.locator("strong").inner_text() == spec["strong"]
    shot(page, f"entry-markdown-preview-{language}")
    with page.expect_navigation():
        page.click("input[name=_continue]")
    entry = Entry.objects.get()
    assert entry.data["body"].replace("\r\n", "\n") == spec["markdown"]  # a form posts CRLF line ends
    assert f"“{spec['name']} 1”" in page.locator(".messagelist").inner_text()
    assert f"Entry {entry.pk}" not in page.locator(".messagelist").inner_text()
    assert watch.violations() == []


@pytest.fixture
def pending_faq(shop, fake_backend):
    faq = ContentTypeFactory(workspace=shop, api_id="faq", name="よくある質問", semantic_search_enabled=True)
    entries = [entry_make(faq, title=title, body=f"{title}の詳細。") for title in ("返品について", "配送料金")]
    assert Chunk.objects.pending().count() >= 2
    return entries


def test_the_status_page_and_the_chunk_panel_refresh_themselves_while_work_is_pending(login_page, shot, shop,
                                                                                     pending_faq):
    """The database changes as a worker's would (the suite's in-memory broker runs no worker):
    each page follows without a reload, then stops asking."""
    page = login_page(member("editor", shop))
    watch = Watch(page)
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    watch.goto(f"/admin/ingestion/status/{shop.slug}/")
    page.evaluate("window.__sameDocument = true")
    pending = Chunk.objects.pending().count()
    assert page.locator('#ingestion-counts [data-count="pending"] .figure').inner_text() == str(pending)
    assert "failed" not in page.locator('#ingestion-counts [data-count="failed"]').get_attribute("class")
    assert page.locator("#ingestion-usage").inner_text().count("$") == 0  # the fake model costs nothing
    shot(page, "ingestion-status-live-pending-japanese")
    Chunk.objects.update(status=ChunkStatus.EMBEDDED)
    page.wait_for_function("() => document.querySelector('#ingestion-live').dataset.pending === '0'")
    assert page.evaluate("window.__sameDocument") is True
    assert page.locator('#ingestion-counts [data-count="pending"] .figure').inner_text() == "0"
    assert page.locator('#ingestion-banners [data-banner="up-to-date"]').count() == 1 or \
        page.locator('#ingestion-counts [data-count="embedded"] .figure').inner_text() != "0"
    shot(page, "ingestion-status-live-done-japanese")
    fragments = [url for url in requests if "fragment=live" in url]
    page.wait_for_timeout(6000)
    assert fragments and [url for url in requests if "fragment=live" in url] == fragments  # stopped asking
    assert page.locator("#ingestion-live-box").get_attribute("data-live-state") == "done"

    # The entry's chunk panel: pending, then embedded, without a reload.
    Chunk.objects.update(status=ChunkStatus.PENDING)
    entry = pending_faq[0]
    watch.goto(f"/admin/cms/entry/{entry.pk}/change/")
    page.evaluate("window.__sameDocument = true")
    assert set(page.locator("#entry-chunks tr[data-state]").evaluate_all(
        "rows => rows.map(r => r.dataset.state)")) == {"pending"}
    shot(page, "entry-chunk-panel-live-pending-japanese")
    Chunk.objects.filter(entry=entry).update(status=ChunkStatus.EMBEDDED)
    page.wait_for_function("() => document.querySelector('#entry-chunks').dataset.pending === '0'")
    assert page.evaluate("window.__sameDocument") is True
    assert set(page.locator("#entry-chunks tr[data-state]").evaluate_all(
        "rows => rows.map(r => r.dataset.state)")) == {"embedded"}
    shot(page, "entry-chunk-panel-live-embedded-japanese")
    assert watch.violations() == []


def test_the_chunk_fragment_shows_only_what_the_user_may_see(client, shop, pending_faq):
    viewer, outsider = member("viewer", shop, Role.VIEWER), UserFactory(username="outsider", is_staff=True)
    draft = entry_make(pending_faq[0].content_type, status="draft", title="未公開の下書き", body="秘密")
    url = f"/admin/ingestion/status/{shop.slug}/entries/{{}}/chunks/"
    client.force_login(viewer)
    assert client.get(url.format(pending_faq[0].pk)).status_code == 200
    hidden = client.get(url.format(draft.pk))
    assert hidden.status_code == 404 and "秘密" not in hidden.content.decode()
    client.force_login(outsider)
    assert client.get(url.format(pending_faq[0].pk)).status_code == 404


@pytest.fixture
def insights_shop(shop):
    now = timezone.now()
    for kind, clicks in (("fulltext", [0, 0, 0, 0]), ("hybrid", [1, 1, 0, 0]), ("semantic", [1, 0, 0, 0, 0, 0])):
        for n, clicked in enumerate(clicks):
            row = SearchLog.objects.create(workspace=shop, id=uuid.uuid4(), created_at=now, interface="admin",
                                           kind=kind, query="配送" if kind != "semantic" else "返品", results=3,
                                           latency_ms=5.0 + n, caller="c1")
            if clicked:
                SearchClick.objects.create(workspace=shop, search_id=row.id, created_at=now, entry_id=1, position=1)
    return shop


def test_insights_show_the_mode_and_a_low_click_through_list_that_means_low(login_page, shot, insights_shop):
    page = login_page(member("owner", insights_shop, Role.OWNER))
    watch = Watch(page)
    watch.goto(f"/admin/search/{insights_shop.slug}/insights/")
    low = page.locator("#insights-low-ctr tbody tr").all_inner_texts()
    assert [re.sub(r"\s+", " ", row).strip() for row in low] == ["配送 Full-text 4 0%", "返品 Semantic 6 17%"]
    assert "under 20%" in page.locator("#insights-low-ctr-rule").inner_text().lower()  # captions are upper case
    top = page.locator("#insights-top tbody [data-mode]").all_inner_texts()
    assert sorted(top) == ["Full-text", "Hybrid", "Semantic"]
    shot(page, "insights-by-mode-japanese")
    assert watch.violations() == []


def phone_page(browser, live_server, username: str):
    context = browser.new_context(viewport=PHONE, locale="ja-JP", base_url=live_server.url, bypass_csp=True)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.goto("/admin/login/?next=/admin/")
    page.fill("#id_username", username)
    page.fill("#id_password", "pw")
    with page.expect_navigation():
        page.click("input[type=submit]")
    return page


@pytest.fixture
def three_pages(shop, pending_faq, insights_shop):
    member("owner", shop, Role.OWNER)
    return {
        "entry": f"/admin/cms/entry/{pending_faq[0].pk}/change/",
        "contenttype": f"/admin/cms/contenttype/{pending_faq[0].content_type.pk}/change/",
        "insights": f"/admin/search/{shop.slug}/insights/",
    }


def test_the_entry_content_type_and_insights_pages_fit_a_phone_and_pass_axe(browser, live_server, shot,
                                                                           three_pages):
    if not AXE.exists():
        pytest.skip("axe-core is not installed: `make axe-core` (npm) first.")
    page = phone_page(browser, live_server, "owner")
    axe = AXE.read_text()
    found = {}
    for name, path in three_pages.items():
        page.goto(path)
        page.wait_for_load_state("networkidle")
        widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        shot(page, f"phone-390-{name}-japanese")
        assert widths[0] <= widths[1], (name, widths)
        page.evaluate(axe)
        result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
        found[name] = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in result["violations"]
                       if v["impact"] in ("serious", "critical")]
    page.set_viewport_size({"width": 1280, "height": 900})
    for name, path in three_pages.items():
        page.goto(path)
        page.wait_for_load_state("networkidle")
        page.evaluate(axe)
        result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
        found[f"{name}-wide"] = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
                                 for v in result["violations"] if v["impact"] in ("serious", "critical")]
    assert found == {name: [] for name in found}
    page.context.close()


def test_the_focus_ring_is_visible_and_the_home_links_do_not_wrap(login_page, shot, shop):
    page = login_page(UserFactory(username="root", is_superuser=True))
    link = page.locator("#search-ingestion-module th a").first
    heights = page.locator("#search-ingestion-module th a").evaluate_all(
        "links => links.map(a => [a.getBoundingClientRect().height, parseFloat(getComputedStyle(a).lineHeight)])")
    assert all(height <= line * 1.5 for height, line in heights), heights
    module, main = page.evaluate("() => [document.getElementById('search-ingestion-module').getBoundingClientRect()"
                                 ".right, document.getElementById('content-main').getBoundingClientRect().right]")
    assert module <= main + 1, (module, main)  # the descriptions wrap inside the column, not under the sidebar
    page.keyboard.press("Tab")
    link.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    style = page.evaluate("() => { const s = getComputedStyle(document.activeElement); "
                          "return [s.outlineStyle, parseFloat(s.outlineWidth)]; }")
    assert style[0] == "solid" and style[1] >= 2, style
    shot(page, "admin-home-focus-ring-japanese")
