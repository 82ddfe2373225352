"""An admin refusal names an option as the page labels it, in the editor's language, not by its
API name ("Query が空です" was the bug); the API keeps the API name, in English."""

from __future__ import annotations

import pytest

from search.contract.errors import ErrorText, localized_text
from search.interfaces.admin.options import option_labels
from tests.factories import ContentTypeFactory

pytestmark = pytest.mark.django_db

EMPTY = "%(label)s is empty: say what to search for."


@pytest.fixture
def faq(workspace):
    return ContentTypeFactory(workspace=workspace, api_id="faq", name="FAQ", semantic_search_enabled=True)


@pytest.mark.parametrize(("language", "expected"), [
    ("ja", "検索語 が空です。検索する内容を入力してください。"),
    ("zh-hant", "查詢"),
])
def test_empty_query_on_the_search_page_names_the_query_in_the_editors_language(client, editor, faq, workspace,
                                                                                 language, expected):
    client.force_login(editor)
    response = client.get(f"/admin/search/{workspace.slug}/", {"q": "   ", "mode": "semantic"},
                          HTTP_ACCEPT_LANGUAGE=language)
    said = [str(m) for m in response.context["messages"]]
    assert any(expected in m for m in said), said
    assert not any("Query" in m or "query" in m for m in said), said


def test_the_message_itself_keeps_the_api_name_in_english():
    message = ErrorText(EMPTY, {"label": "query"})
    assert str(message) == "query is empty: say what to search for."
    from django.utils import translation

    with translation.override("ja"):
        assert localized_text(message, labels=option_labels()).startswith("検索語 が空です")
        assert localized_text(message).startswith("query が空です")


def test_a_path_that_is_no_option_name_is_kept():
    from django.utils import translation

    message = ErrorText(EMPTY, {"label": "queries[2]"})
    with translation.override("en"):
        assert localized_text(message, labels=option_labels()) == "queries[2] is empty: say what to search for."
