"""The search engine's messages on admin pages speak the editor's language, from the one catalogue;
the API says the same refusal in English, byte for byte, with the same code."""

from __future__ import annotations

import html
import pickle
import re

import pytest
from django.utils import translation
from django.utils.text import capfirst

from search.contract.errors import ErrorText, SearchInputError, localized_text
from search.contract.options import SemanticSearchOptions
from tests.factories import ContentTypeFactory, MembershipFactory, UserFactory, api_key_make, bearer, entry_make

FIELDS = [{"id": "title", "label": "Title", "type": "text", "required": True}]


@pytest.fixture
def owner(workspace):
    user = UserFactory(username="owner")
    MembershipFactory(user=user, workspace=workspace, role="owner")
    ContentTypeFactory(workspace=workspace, api_id="faq", name="FAQ", fields=FIELDS, semantic_search_enabled=True)
    return user


def page_message(client, user, accept: str, **params) -> tuple[str, str]:
    """The search page's one error message: (its data-code, its text), as Django's admin shows
    messages: first letter capitalised (capfirst)."""
    client.force_login(user)
    response = client.get("/admin/search/acme/", params, HTTP_ACCEPT_LANGUAGE=accept)
    assert response.status_code == 200
    found = re.findall(r'<li class="error" data-code="([^"]*)">(.*?)</li>', response.content.decode(), re.S)
    assert len(found) == 1, found
    return found[0][0], html.unescape(found[0][1])


# The English sentence is the API's, as it was before the messages had templates (pinned here).
CASES = {
    "query_too_long": (
        {"q": "a" * 501},
        ("get", "/api/v1/workspaces/acme/search/entries", {"q": "a" * 501}),
        "The query is 501 characters; the limit is 500.",
        {"ja": "検索語が 501 文字あります。上限は 500 文字です。",
         "zh-HK": "查詢長度為 501 個字元；上限為 500 個字元。"},
    ),
    "top_k_out_of_range": (
        {"mode": "semantic", "q": "refund", "top_k": "0"},
        ("post", "/api/v1/workspaces/acme/search/semantic", {"query": "refund", "top_k": 0}),
        "top_k must be between 1 and 100, not 0.",
        # The page names the option as its "More options" labels it (search/interfaces/admin/options.py).
        {"ja": "表示件数 は 1 から 100 までの範囲で指定してください (0 は範囲外です)。",
         "zh-HK": "結果數量 必須介於 1 與 100 之間，而非 0。"},
    ),
}


@pytest.mark.parametrize("code", sorted(CASES))
@pytest.mark.parametrize("accept", ["ja", "zh-HK"])
def test_engine_error_on_the_search_page_is_in_the_editors_language(client, owner, code, accept):
    params, _, _, translated = CASES[code]
    assert page_message(client, owner, accept, **params) == (code, capfirst(translated[accept]))


# Where the page names an option otherwise than the API (its "More options" label), the page's
# English sentence says that name; the rest of the sentence is the API's.
ENGLISH_PAGE_NAMES = {"top_k_out_of_range": ("top_k", "How many results")}


@pytest.mark.parametrize("code", sorted(CASES))
def test_engine_error_on_an_english_search_page_is_the_apis_sentence(client, owner, code):
    params, _, english, _ = CASES[code]
    api_name, page_name = ENGLISH_PAGE_NAMES.get(code, ("", ""))
    expected = english.replace(api_name, page_name, 1) if api_name else english
    assert page_message(client, owner, "en", **params) == (code, capfirst(expected))


@pytest.mark.parametrize("code", sorted(CASES))
@pytest.mark.parametrize("accept", ["en", "ja", "zh-HK"])
def test_api_says_the_same_refusal_in_english_whatever_the_browser_asks(client, workspace, owner, code, accept):
    _, (method, url, data), english, _ = CASES[code]
    _, secret = api_key_make(workspace)
    if method == "get":
        response = client.get(url, data, HTTP_ACCEPT_LANGUAGE=accept, **bearer(secret))
    else:
        response = client.post(url, data, content_type="application/json", HTTP_ACCEPT_LANGUAGE=accept, **bearer(secret))
    assert (response.status_code, response.json()) == (400, {"code": code, "message": english})


def test_keyword_leg_only_warning_says_the_semantic_legs_reason_in_the_editors_language(client, owner, workspace):
    # No vector yet: hybrid answers from keywords, and meta.degraded's message (English in the
    # API) is said in Japanese inside the page's own "Keyword results only" sentence.
    entry_make(workspace.content_types.get(), title="Refund policy")
    client.force_login(owner)
    response = client.get("/admin/search/acme/", {"mode": "hybrid", "q": "refund"}, HTTP_ACCEPT_LANGUAGE="ja")
    found = re.findall(r'<li class="warning" data-code="([^"]*)">(.*?)</li>', response.content.decode(), re.S)
    assert [code for code, _ in found] == ["vectors_pending"]
    assert re.fullmatch(r"キーワードによる結果のみ: このワークスペースには [\w.-]+ のベクトルを持つチャンクがまだありません "
                        r"\(埋め込みは待機中です\)。", html.unescape(found[0][1])), found


def test_synonyms_page_says_the_services_refusal_in_the_editors_language(client, owner):
    from django.core.exceptions import ValidationError

    from cms import services

    with pytest.raises(ValidationError) as refused:  # what the API answers, as before
        services.synonym_set_create(workspace=owner.memberships.get().workspace, terms=["refund"])
    assert refused.value.messages == ["A multi-way set needs at least 2 different term(s)."]
    client.force_login(owner)
    response = client.post("/admin/search/acme/synonyms/", {"terms": "refund"}, HTTP_ACCEPT_LANGUAGE="ja", follow=True)
    found = re.findall(r'<li class="error" data-code="([^"]*)">(.*?)</li>', response.content.decode(), re.S)
    assert found == [("synonym_set_too_small", "双方向のセットには異なる語が 2 個以上必要です。")]


def test_error_text_is_the_english_sentence_and_keeps_its_template():
    error = SearchInputError("top_k_out_of_range", "%(name)s must be between %(low)s and %(high)s, not %(value)s.",
                             name="top_k", low=1, high=100, value=0)
    assert (error.message, str(error), error.message.template) == (
        "top_k must be between 1 and 100, not 0.", "top_k must be between 1 and 100, not 0.",
        "%(name)s must be between %(low)s and %(high)s, not %(value)s.")
    with translation.override("ja"):
        assert localized_text(error.message) == "top_k は 1 から 100 までの範囲で指定してください (0 は範囲外です)。"
    assert pickle.loads(pickle.dumps(error.message)) == error.message


def test_a_message_without_params_is_not_formatted():
    # A provider's own words may hold a percent sign: with no params they are said as they are.
    error = SearchInputError("provider_error", "quota at 100% of 5%s")
    assert error.message == "quota at 100% of 5%s"
    with translation.override("ja"):
        assert localized_text(error.message) == "quota at 100% of 5%s"


def test_a_nested_message_is_said_in_the_same_language():
    inner = ErrorText("The query must be text.")
    outer = ErrorText("%(name)s is not valid JSON: %(problem)s", {"name": "filter", "problem": inner})
    assert outer == "filter is not valid JSON: The query must be text."
    with translation.override("zh-hant"):
        assert outer.localized() == "filter 不是有效的 JSON：查詢必須是文字。"


def test_option_refusal_message_is_unchanged_english():
    with pytest.raises(SearchInputError) as refused:
        SemanticSearchOptions.validated({"query": "refund", "min_score": 2})
    assert refused.value.message == "min_score must be between -1 and 1, not 2."
