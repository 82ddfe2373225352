"""Did-you-mean for full-text search (search/engine/fulltext.py, search/engine/forgiving/typos.py): the search stays
literal; when it finds nothing, `meta.suggestions` offers corrected queries, each checked to
find something the caller may see. API, command and admin page."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from cms.models import EntryStatus
from search.engine.fulltext import search_entries
from tests.factories import ContentTypeFactory, api_key_make, bearer, entry_make, full_access

pytestmark = pytest.mark.django_db

URL = "/api/v1/workspaces/acme/search/entries"


@pytest.fixture
def docs(doc_type):
    entry_make(doc_type, title="Refund policy", body="<p>Refunds within 30 days.</p>")
    entry_make(doc_type, title="Warehouse hours", body="<p>The warehouse opens at nine.</p>")
    return doc_type


def test_full_text_searches_the_correction_when_the_query_finds_nothing_and_says_so(docs, workspace):
    result = search_entries(access=full_access(workspace), query="refnud")

    assert result.suggestions == ("refund",) and result.corrected_query == "refund"
    assert [h.entry_id for h in result.hits] == [h.entry_id for h in search_entries(
        access=full_access(workspace), query="refund").hits] != []
    assert result.as_dict()["meta"]["corrected_query"] == "refund" and result.as_dict()["query"] == "refnud"


def test_with_typo_tolerance_off_full_text_stays_literal_and_suggests_the_correction(docs, workspace):
    result = search_entries(access=full_access(workspace), query="refnud", typo_tolerance=False)

    assert result.hits == () and result.corrected_query is None
    assert result.suggestions == ("refund",)


def test_suggestion_keeps_the_rest_of_the_query(docs, workspace):
    result = search_entries(access=full_access(workspace), query="The warehuose")

    assert result.suggestions[0] == "The warehouse"


def test_no_suggestion_when_something_was_found(docs, workspace):
    assert search_entries(access=full_access(workspace), query="refund").suggestions == ()


def test_only_queries_that_find_something_are_offered(docs, workspace, doc_type):
    # "zorblat" is in the dictionary (a chunk has it) but full-text with this filter finds nothing:
    # the suggestion would find nothing for this caller, so it is not offered.
    other_type = ContentTypeFactory(workspace=workspace, api_id="other", semantic_search_enabled=True)
    entry_make(other_type, title="Zorblat manual", body="<p>zorblat</p>")

    offered = search_entries(access=full_access(workspace), query="zorblit")
    narrowed = search_entries(access=full_access(workspace), query="zorblit", content_type="doc")

    assert offered.suggestions == ("zorblat",)
    assert narrowed.suggestions == ()
    for suggestion in offered.suggestions:
        assert search_entries(access=full_access(workspace), query=suggestion).hits


def test_a_viewer_is_never_offered_a_word_only_drafts_contain(doc_type, workspace):
    entry_make(doc_type, title="Secret launch", body="<p>Project nightingale.</p>", status=EntryStatus.DRAFT)
    _, secret = api_key_make(workspace)  # published only

    from django.test import Client
    body = Client().get(URL, {"q": "nightingal"}, **bearer(secret)).json()

    assert body["results"] == [] and body["meta"]["suggestions"] == []


def test_api_answers_meta_suggestions(client, docs, workspace):
    _, secret = api_key_make(workspace, include_drafts=True)

    body = client.get(URL, {"q": "refnud"}, **bearer(secret)).json()
    literal = client.get(URL, {"q": "refnud", "typo_tolerance": "false"}, **bearer(secret)).json()

    assert body["results"] and body["meta"]["suggestions"] == ["refund"] and body["meta"]["corrected_query"] == "refund"
    assert literal["results"] == [] and literal["meta"]["suggestions"] == ["refund"]


def test_kana_variant_is_found_without_a_suggestion(doc_type, workspace):
    # Hiragana and katakana are one text to full-text (cms.folding): nothing to suggest.
    entry = entry_make(doc_type, title="プログラムの設定", body="<p>設定</p>")

    result = search_entries(access=full_access(workspace), query="ぷろぐらむ")

    assert ([hit.entry_id for hit in result.hits], result.suggestions) == ([entry.pk], ())


def test_command_prints_did_you_mean(docs, workspace):
    out = io.StringIO()
    call_command("search_entries", "acme", "refnud", stdout=out)
    call_command("search_entries", "acme", "refnud", "--no-typo-tolerance", stdout=out)

    assert "No entries contain 'refnud'; showing results for 'refund'." in out.getvalue()
    assert "Did you mean: 'refund'?" in out.getvalue()


def test_admin_page_links_the_suggestion(client, superuser, docs):
    client.force_login(superuser)

    page = client.get("/admin/search/acme/", {"q": "refnud", "mode": "fulltext"}).content.decode()

    assert 'id="search-did-you-mean"' in page and ">refund</a>" in page and "q=refund" in page
