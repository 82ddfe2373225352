"""In Chromium, in English, Japanese and zh-HK (issue 52, items 1 and 3): rich text is Markdown in
the Markdown editor, for an entry seeded in HTML (converted by migration cms.0016) and one written
in Markdown, and neither's snippet shows markup; pins are made, reordered and unpinned on the search
page, an entry still waiting to be embedded included (hybrid has no result to pin it from).

Screenshots go to artifacts/screenshots/.
"""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps as django_apps

from cms.models import Entry, Promotion, Role
from ingestion.models import Chunk, ChunkStatus
from ingestion.services import chunks_embed_pending
from tests.factories import ContentTypeFactory, MembershipFactory, UserFactory, WorkspaceFactory, entry_make

pytestmark = pytest.mark.browser

LOCALES = {"en": "en-US", "ja": "ja-JP", "zh-HK": "zh-HK"}
FIELDS = [{"id": "title", "label": "Title", "type": "text", "required": True},
          {"id": "body", "label": "Body", "type": "richtext"}]
SEEDED_HTML = "<h2>Pickup</h2><p>Collect parcels at our <strong>Kobe</strong> pickup counter.</p>"
WRITTEN = "## Hours\n\nThe **Osaka** pickup counter opens at *nine*.\n\n- Weekdays\n- Saturdays"
MARKUP = ("<", ">", "**", "##", "*nine*")


@pytest.fixture
def desk(transactional_db, fake_backend):
    """A workspace whose FAQ is embedded, then one more entry left waiting to be embedded."""
    workspace = WorkspaceFactory(slug="desk", name="Acme 受付")
    faq = ContentTypeFactory(workspace=workspace, api_id="faq", name="FAQ", fields=FIELDS, semantic_search_enabled=True)
    entries = {
        "kobe": entry_make(faq, title="Kobe pickup", body=SEEDED_HTML),
        "lockers": entry_make(faq, title="Pickup lockers", body="Pickup lockers stand at every station."),
    }
    # The first seed's HTML, as migration cms.0016 finds it and converts it.
    importlib.import_module("cms.migrations.0016_richtext_markdown").richtext_values_to_markdown(django_apps, None)
    chunks_embed_pending()
    entries["waiting"] = entry_make(faq, title="Night counter", body="After hours, parcels wait at the side door.")
    return workspace, faq, entries


def editor_page(login_page, workspace, language):
    user = UserFactory(username="editor")
    MembershipFactory(user=user, workspace=workspace, role=Role.EDITOR)
    return login_page(user, locale=LOCALES[language])


def editor_text(page) -> str:
    return page.evaluate("() => document.querySelector('.field-data__body .CodeMirror').CodeMirror.getValue()")


def snippets(page) -> list[str]:
    return page.locator("#search-results .snippet").all_inner_texts()


@pytest.mark.parametrize("language", LOCALES)
def test_html_seeded_and_markdown_written_entries_edit_as_markdown_and_snip_as_text(login_page, screenshot, desk,
                                                                                   language):
    workspace, faq, entries = desk
    page = editor_page(login_page, workspace, language)
    page.goto(f"/admin/cms/entry/{entries['kobe'].pk}/change/")
    page.wait_for_selector(".field-data__body .CodeMirror")
    assert editor_text(page) == "## Pickup\n\nCollect parcels at our **Kobe** pickup counter."
    screenshot(page, f"richtext-html-seeded-in-markdown-editor-{language}")

    page.goto(f"/admin/cms/entry/add/?content_type={faq.pk}")
    page.fill("#id_data__title", "Osaka hours")
    page.wait_for_selector(".field-data__body .CodeMirror")
    page.evaluate("(text) => document.querySelector('.field-data__body .CodeMirror').CodeMirror.setValue(text)", WRITTEN)
    with page.expect_navigation():
        page.click("input[name=_continue]")
    written = Entry.objects.get(workspace=workspace, data__title="Osaka hours")
    assert written.data["body"].replace("\r\n", "\n") == WRITTEN  # a form posts a textarea's lines as CRLF
    assert editor_text(page).replace("\r\n", "\n") == WRITTEN
    screenshot(page, f"richtext-markdown-written-in-editor-{language}")

    for query in ("Kobe", "Osaka"):
        page.goto(f"/admin/search/desk/?q={query}&mode=fulltext")
        found = snippets(page)
        assert found and any(query in text for text in found), (query, found)
        assert not any(mark in text for text in found for mark in MARKUP), found
    screenshot(page, f"richtext-fulltext-snippet-{language}")
    chunks_embed_pending()
    assert all("**" not in text and "<" not in text for text in Chunk.objects.filter(entry=written)
               .values_list("text", flat=True))
    page.goto("/admin/search/desk/?q=Kobe+pickup+counter&mode=hybrid")
    found = snippets(page)
    # A chunk starts with its heading path, "Kobe pickup > Pickup": its " > " is the path's, not markup.
    chunk_markup = [mark for mark in MARKUP if mark != ">"]
    assert any("Kobe" in text for text in found) and not any(m in text for text in found for m in chunk_markup), found


def pin_rows(page) -> list[str]:
    return page.locator("#search-pin-list > li > a").all_inner_texts()


@pytest.mark.parametrize("language", LOCALES)
def test_pin_an_entry_waiting_to_be_embedded_reorder_and_unpin_from_the_search_page(login_page, screenshot, desk,
                                                                                 language):
    workspace, _, entries = desk
    assert Chunk.objects.filter(entry=entries["waiting"], status=ChunkStatus.PENDING).exists()
    page = editor_page(login_page, workspace, language)
    page.goto("/admin/search/desk/?q=pickup&mode=hybrid")
    titles = page.locator("#search-results li.search-hit h3").all_inner_texts()
    # Not embedded and no word of the query: no hybrid result, so no "Pin for this query" to click.
    assert "Night counter" not in titles and "Kobe pickup" in titles
    assert page.locator("#search-pins").get_attribute("open") is None  # nothing pinned yet: folded

    # A result: "Pin for this query".
    with page.expect_navigation():
        page.click(f"#search-results button.pin-button[data-entry-id='{entries['kobe'].pk}']")
    assert pin_rows(page) == ["Kobe pickup"]

    # The entry waiting to be embedded, found by its title in "Pin an entry".
    page.click("#search-pin-any .select2-selection")
    page.fill(".select2-search__field", "Night")
    page.click(".select2-results__option:has-text('Night counter')")
    with page.expect_navigation():
        page.click("#search-pin-any-submit")
    assert pin_rows(page) == ["Kobe pickup", "Night counter"]
    promoted = page.locator("#search-results li.search-hit h3").all_inner_texts()
    assert promoted[:2] == ["Kobe pickup", "Night counter"]

    # Reorder: the waiting entry up, first in the pins and in the results.
    with page.expect_navigation():
        page.click(f"#search-pin-list li[data-entry-id='{entries['waiting'].pk}'] button[data-action=up]")
    assert pin_rows(page) == ["Night counter", "Kobe pickup"]
    assert page.locator("#search-results li.search-hit h3").all_inner_texts()[:2] == ["Night counter", "Kobe pickup"]
    assert [p.entry_id for p in Promotion.objects.filter(workspace=workspace).order_by("position")] == [
        entries["waiting"].pk, entries["kobe"].pk]
    page.locator("#search-pins").scroll_into_view_if_needed()
    screenshot(page, f"search-pins-reordered-{language}")

    # Unpin from the promoted result itself.
    with page.expect_navigation():
        page.click(f"#search-results button.unpin-button[data-entry-id='{entries['kobe'].pk}']")
    assert pin_rows(page) == ["Night counter"]
    assert list(Promotion.objects.filter(workspace=workspace).values_list("entry_id", flat=True)) == [
        entries["waiting"].pk]
    screenshot(page, f"search-pins-unpinned-{language}")

    # Content → Promotions names the pin by its phrase and its entry's title.
    page.goto("/admin/cms/promotion/")
    row = page.locator("#result_list tbody tr").first.inner_text()
    assert "pickup" in row and "Night counter" in row
    screenshot(page, f"promotions-list-{language}")
