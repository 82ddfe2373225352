"""In Chromium, in English, Japanese and zh-HK (issue 52, item 2): the field builder's ids follow the
labels as slugs (`question`, `answer`), unique within the type, while no entry exists; a rename
warns only when entries hold the field."""

from __future__ import annotations

import json

import pytest

from cms.models import ContentType, Role
from tests.browser.test_csp import Watch
from tests.factories import MembershipFactory, UserFactory, WorkspaceFactory, entry_make

pytestmark = pytest.mark.browser

LOCALES = {"en": "en-US", "ja": "ja-JP", "zh-HK": "zh-HK"}


@pytest.fixture
def shop(transactional_db):
    return WorkspaceFactory(slug="shop", name="Acme ショップ")


def rows(page):
    return page.locator("#field-builder-list > li.field-builder-field")


def box_ids(page) -> list[str]:
    return [field["id"] for field in json.loads(page.input_value("#id_fields"))]


def add_field(page, label: str) -> None:
    page.click("#field-builder-add")
    rows(page).last.locator("[data-part=label]").fill(label)


@pytest.mark.parametrize("language", LOCALES)
def test_ids_follow_labels_until_entries_exist_and_a_rename_warns_only_when_entries_hold_the_field(
        login_page, screenshot, shop, language):
    editor = UserFactory(username="editor")
    MembershipFactory(user=editor, workspace=shop, role=Role.EDITOR)
    page = login_page(editor, locale=LOCALES[language])
    watch = Watch(page)
    watch.goto("/admin/cms/contenttype/add/")
    page.select_option("#id_workspace", label=shop.name)
    page.fill("#id_api_id", "faq")
    page.fill("#id_name", "FAQ")
    for label in ("Question", "Answer", "Question", "質問", "Café menu!"):
        add_field(page, label)
    assert box_ids(page) == ["question", "answer", "question_2", "field", "cafe_menu"]
    assert rows(page).nth(1).locator("[data-part=id]").input_value() == "answer"
    # Typed by hand, an id stays as typed: the label no longer moves it.
    rows(page).nth(4).locator("[data-part=id]").fill("menu")
    rows(page).nth(4).locator("[data-part=label]").fill("Menu of the day")
    assert box_ids(page)[4] == "menu"
    screenshot(page, f"field-ids-follow-labels-{language}")
    with page.expect_navigation():
        page.click("input[name=_continue]")
    faq = ContentType.objects.get(workspace=shop, api_id="faq")
    assert [field["id"] for field in faq.fields] == ["question", "answer", "question_2", "field", "menu"]

    # Saved, no entry yet: ids still follow their labels, and nothing warns.
    rows(page).nth(0).locator("[data-part=label]").fill("Customer question")
    assert box_ids(page)[0] == "customer_question"
    assert page.locator("#field-builder-list .fb-rename:visible").count() == 0
    with page.expect_navigation():
        page.click("input[name=_continue]")

    # An entry holds `answer`: its id no longer follows the label, and renaming it warns.
    entry_make(ContentType.objects.get(pk=faq.pk), customer_question="Where?", answer="Kobe")
    page.reload()
    answer = page.locator('#field-builder-list li[data-field="answer"]')
    answer.locator("[data-part=label]").fill("Reply")
    assert answer.locator("[data-part=id]").input_value() == "answer"
    answer.locator("[data-part=id]").fill("reply")
    note = page.locator("#field-builder-list .fb-rename:visible")
    assert note.count() == 1 and "answer" in note.inner_text()
    # `question_2` is held by no entry: renaming it says nothing.
    page.locator('#field-builder-list li[data-field="question_2"] [data-part=id]').fill("second_question")
    assert page.locator("#field-builder-list .fb-rename:visible").count() == 1
    note.scroll_into_view_if_needed()
    screenshot(page, f"field-ids-rename-warns-{language}")
    assert watch.violations() == []
