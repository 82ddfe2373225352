"""In a real browser, English and Japanese: entries made and edited through the form built from their
content type, its errors on their fields, unknown keys kept, and the edit found on the search page
(full-text at once; semantic once a real Celery worker has embedded it, with the local model).

The admin's own words are English (no LocaleMiddleware); "Japanese" is a content type whose
labels, values and searches are Japanese, in a ja-JP browser (conftest.login_page).
"""

from __future__ import annotations

import re

import pytest

from cms.models import Entry, Role
from ingestion.models import Chunk
from tests.factories import ContentTypeFactory, MembershipFactory, UserFactory, WorkspaceFactory, entry_make
from tests.ingestion.worker_support import all_embedded, app_on_broker, broker, wait_until, workers  # noqa: F401
from tests.search.semantic_helpers import LOCAL_BACKEND, local_model  # noqa: F401 - fixture

pytestmark = pytest.mark.browser

# Not committed: the screenshots an editor looks at (artifacts/ keeps the others).

LANGUAGES = {
    "english": {
        "api_id": "product", "name": "Product",
        "labels": ["Title", "Description", "Price", "In stock", "Released", "Related entry"],
        "values": {"title": "Ceramic tea cup", "body": "<p>Hand-made in Arita. Dishwasher safe.</p>",
                   "price": "2400", "in_stock": "true", "released": "2026-11-01"},
        "stored": {"title": "Ceramic tea cup", "body": "<p>Hand-made in Arita. Dishwasher safe.</p>",
                   "price": 2400, "in_stock": True, "released": "2026-11-01"},
        "bad_number": "12,5",
        "edit": "<p>Refunds now take 45 days and are paid by bank transfer only.</p>",
        "edit_query": "bank transfer",
        "semantic_query": "How are refunds paid?",
    },
    "japanese": {
        "api_id": "shohin", "name": "商品",
        "labels": ["名前", "説明", "価格", "在庫あり", "発売日", "関連する記事"],
        "values": {"title": "有田焼 湯呑み", "body": "<p>有田の職人が手作りしました。食洗機に対応しています。</p>",
                   "price": "３８００", "in_stock": "false", "released": "2026-12-01"},
        "stored": {"title": "有田焼 湯呑み", "body": "<p>有田の職人が手作りしました。食洗機に対応しています。</p>",
                   "price": 3800, "in_stock": False, "released": "2026-12-01"},
        "bad_number": "千二百円",
        "edit": "<p>返金は銀行振込のみで、45日以内に行います。</p>",
        "edit_query": "銀行振込",
        "semantic_query": "返金の方法は？",
    },
}
FIELD_IDS = ["title", "body", "price", "in_stock", "released", "related"]
TYPES = ["text", "richtext", "number", "boolean", "date", "reference"]


def schema(language: str) -> list[dict]:
    labels = LANGUAGES[language]["labels"]
    return [{"id": i, "label": label, "type": t, "required": i in ("title", "price")}
            for i, label, t in zip(FIELD_IDS, labels, TYPES, strict=True)]


@pytest.fixture
def local_provider(settings, local_model):  # noqa: F811 - the fixture imported above
    settings.SEARCH_EMBEDDING_BACKENDS = {"default": LOCAL_BACKEND}
    return local_model


@pytest.fixture
def shop(transactional_db):
    workspace = WorkspaceFactory(slug="shop", name="Acme ショップ")
    types = {lang: ContentTypeFactory(workspace=workspace, api_id=spec["api_id"], name=spec["name"],
                                      fields=schema(lang), semantic_search_enabled=True)
             for lang, spec in LANGUAGES.items()}
    return workspace, types


def member(username: str, workspace, role: str):
    user = UserFactory(username=username)
    MembershipFactory(user=user, workspace=workspace, role=role)
    return user


def field_error(page, field_id: str) -> str:
    return page.locator(f".form-row.field-data__{field_id} .errorlist").inner_text()


def rich_fill(page, field_id: str, text: str) -> None:
    """Type into a rich text field's Markdown editor (EasyMDE's CodeMirror; the textarea it
    keeps in step is hidden)."""
    page.evaluate("([id, text]) => document.querySelector(`.field-data__${id} .CodeMirror`).CodeMirror.setValue(text)",
                  [field_id, text])


def save(page, button: str = "_save") -> None:
    with page.expect_navigation():
        page.click(f"input[name={button}]")


@pytest.mark.parametrize("language", LANGUAGES)
def test_create_an_entry_of_every_field_type(login_page, shot, shop, language):
    workspace, types = shop
    spec, content_type = LANGUAGES[language], types[language]
    related = entry_make(content_type, title="Related", price=1)
    page = login_page(member("editor", workspace, Role.EDITOR))
    page.goto("/admin/cms/entry/add/")
    assert page.locator("#id_content_type optgroup").get_attribute("label") == "Acme ショップ"
    page.select_option("#id_content_type", label=str(content_type))
    shot(page, f"entry-add-choose-type-{language}")
    with page.expect_navigation():
        page.click("#entry-content-type-continue")

    rows = page.locator("fieldset:nth-of-type(2) .form-row label")
    assert [label.rstrip(":：") for label in rows.all_inner_texts()] == spec["labels"]
    values = spec["values"]
    page.fill("#id_data__title", values["title"])
    rich_fill(page, "body", values["body"])
    page.fill("#id_data__price", values["price"])
    page.select_option("#id_data__in_stock", values["in_stock"])
    page.fill("#id_data__released", values["released"])
    page.fill("#id_data__related", str(related.pk))
    page.select_option("#id_status", "published")
    shot(page, f"entry-add-form-{language}")
    save(page)

    entry = Entry.objects.exclude(pk=related.pk).get()
    assert entry.data == {**spec["stored"], "related": related.pk}
    assert "Indexed for full-text search now" in page.locator(".messagelist").inner_text()


@pytest.mark.parametrize("language", LANGUAGES)
def test_bad_number_and_missing_required_field_are_shown_on_their_fields(login_page, shot, shop, language):
    workspace, types = shop
    page = login_page(member("editor", workspace, Role.EDITOR))
    page.goto(f"/admin/cms/entry/add/?content_type={types[language].pk}")
    page.fill("#id_data__price", LANGUAGES[language]["bad_number"])
    rich_fill(page, "body", "<p>kept while the errors are fixed</p>")
    save(page)

    assert "must be a number" in field_error(page, "price")
    assert field_error(page, "title") == "This field is required."
    assert page.locator(".form-row.field-data__body .errorlist").count() == 0
    assert page.input_value("#id_data__price") == LANGUAGES[language]["bad_number"]  # the typo, to fix
    assert page.input_value("#id_data__body") == "<p>kept while the errors are fixed</p>"
    shot(page, f"entry-add-errors-{language}")
    assert not Entry.objects.exists()


@pytest.mark.worker
@pytest.mark.parametrize("broker", ["redis"], indirect=True)
@pytest.mark.parametrize("language", LANGUAGES)
def test_edit_save_and_find_the_change_on_the_search_page(
    login_page, shot, shop, local_provider, workers, language  # noqa: F811 - fixtures imported above
):
    workspace, types = shop
    spec = LANGUAGES[language]
    workers.start(provider="local")
    entry = entry_make(types[language], **spec["stored"])
    for n in range(3):  # earlier work in the workspace: the pace the estimate goes by
        entry_make(types[language], title=f"Earlier {n}", price=n + 1, body=f"<p>Earlier entry {n}.</p>")
    total = Chunk.objects.count()
    wait_until(all_embedded(total), workers, "the first embedding")

    page = login_page(member("editor", workspace, Role.EDITOR))
    page.goto(f"/admin/cms/entry/{entry.pk}/change/")
    assert set(page.locator("#entry-chunks tr[data-state]").evaluate_all("rows => rows.map(r => r.dataset.state)")) \
        == {"embedded"}
    assert page.locator("#entry-active-model").inner_text() == "use-multilingual-v3"
    shot(page, f"entry-change-embedded-{language}")

    rich_fill(page, "body", spec["edit"])
    save(page, "_continue")
    message = page.locator(".messagelist").inner_text()
    assert re.search(r"Indexed for full-text search now; semantic search in about \d+ s", message), message
    shot(page, f"entry-change-after-save-{language}")

    # Full-text: at once, through the entry's own link and then for the new words.
    with page.expect_navigation():
        page.click("#entry-search-fulltext")
    assert entry.data["title"] in page.locator("#search-results li.search-hit h3").all_inner_texts()
    page.goto(f"/admin/search/{workspace.slug}/?q={spec['edit_query']}")
    assert page.locator("#search-results li.search-hit h3").all_inner_texts() == [entry.data["title"]]
    assert spec["edit_query"] in page.locator("#search-results li.search-hit mark").all_inner_texts()

    # Semantic: once the worker has embedded the new chunk (polled, not slept).
    wait_until(lambda: not Chunk.objects.filter(entry=entry).exclude(status="embedded").exists(),
               workers, "the edit's chunk to be embedded")
    page.goto(f"/admin/search/{workspace.slug}/?q={spec['semantic_query']}&mode=semantic")
    hits = page.locator("#search-results li.search-hit")
    # text_content: the first row, whether it is an answer or folded under "No good match".
    assert hits.first.locator("h3").text_content().strip() == entry.data["title"], hits.all_text_contents()
    assert spec["edit_query"] in hits.first.text_content()
    shot(page, f"entry-found-semantic-{language}")
    page.goto(f"/admin/cms/entry/{entry.pk}/change/")
    shot(page, f"entry-chunk-panel-{language}")


@pytest.mark.parametrize("language", LANGUAGES)
def test_keys_unknown_to_the_schema_survive_a_save(login_page, shot, shop, language):
    workspace, types = shop
    entry = entry_make(types[language], **LANGUAGES[language]["stored"])
    legacy = {"legacy_sku": "TEA-CUP-001", "colour": ["白", "藍"]}
    Entry.objects.filter(pk=entry.pk).update(data={**entry.data, **legacy})
    page = login_page(member("editor", workspace, Role.EDITOR))
    page.goto(f"/admin/cms/entry/{entry.pk}/change/")
    kept = page.locator("fieldset", has_text="Not in the schema")
    assert "TEA-CUP-001" in kept.inner_text() and '["白", "藍"]' in kept.inner_text()
    assert kept.locator("input, textarea").count() == 0
    shot(page, f"entry-change-unknown-keys-{language}")
    page.fill("#id_data__title", "Renamed")
    save(page)
    entry.refresh_from_db()
    assert entry.data["title"] == "Renamed"
    assert {k: entry.data[k] for k in legacy} == legacy


def test_viewer_sees_the_form_read_only_and_another_workspaces_editor_gets_404(login_page, shot, shop):
    workspace, types = shop
    entry = entry_make(types["japanese"], **LANGUAGES["japanese"]["stored"])
    page = login_page(member("viewer", workspace, Role.VIEWER))
    page.goto(f"/admin/cms/entry/{entry.pk}/change/")
    assert page.locator("#id_data__title").is_disabled()
    assert page.input_value("#id_data__title") == "有田焼 湯呑み"
    assert page.locator("input[name=_save]").count() == 0
    shot(page, "entry-change-viewer")

    outsider = member("outsider", WorkspaceFactory(slug="globex", name="Globex"), Role.EDITOR)
    page = login_page(outsider)
    response = page.goto(f"/admin/cms/entry/{entry.pk}/change/")
    assert response.status == 404
    assert "有田焼" not in page.content()
