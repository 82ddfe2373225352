"""Suggestions tolerate one typo, as the keyword leg does: "refnud" suggests "refund" (through the
API the admin's search box calls), only from words the caller may see, and only when the text as
typed completes to nothing."""

from __future__ import annotations

import pytest

from cms.models import EntryStatus
from search.engine.forgiving.suggest import suggest_run
from tests.factories import api_key_make, bearer, entry_make, full_access

pytestmark = pytest.mark.django_db

URL = "/api/v1/workspaces/{slug}/search/suggest"


@pytest.fixture
def docs(doc_type):
    entry_make(doc_type, title="Refund policy", body="<p>Refunds within 30 days. Refunding is quick.</p>")
    entry_make(doc_type, title="Shipping", body="<p>We ship worldwide.</p>")
    entry_make(doc_type, title="Quokkacorp memo", body="<p>Quokkacorp buys the zebra.</p>", status=EntryStatus.DRAFT)
    return doc_type


def suggestions(client, workspace, q: str, *, include_drafts: bool = False) -> list[dict]:
    _, secret = api_key_make(workspace, include_drafts=include_drafts, name=f"k{include_drafts}{q}")
    response = client.get(URL.format(slug=workspace.slug), {"q": q, "limit": 10}, **bearer(secret))
    assert response.status_code == 200, response.content
    return response.json()["suggestions"]


def test_refnud_suggests_refund_marked_corrected(client, docs, workspace):
    found = suggestions(client, workspace, "refnud")

    texts = [s["text"] for s in found]
    assert "Refund policy" in texts and "refund" in texts
    assert all(s["corrected"] is True for s in found)


def test_the_head_of_the_query_is_kept(client, docs, workspace):
    texts = [s["text"] for s in suggestions(client, workspace, "how to refnud")]
    assert "how to refund" in texts


def test_a_prefix_that_completes_is_not_corrected(client, docs, workspace):
    found = suggestions(client, workspace, "refun")
    assert found and not any(s.get("corrected") for s in found)


def test_short_words_and_two_typos_are_not_corrected(client, docs, workspace):
    assert suggestions(client, workspace, "rfnud") == []  # two edits from "refund"
    assert suggestions(client, workspace, "shpi") == []  # under the one-edit length (5)


def test_a_published_only_caller_is_never_offered_a_draft_word_by_correction(client, docs, workspace):
    assert suggestions(client, workspace, "quokkacrop") == []
    with_drafts = [s["text"] for s in suggestions(client, workspace, "quokkacrop", include_drafts=True)]
    assert "Quokkacorp memo" in with_drafts


def test_python_callers_get_the_same(docs, workspace):
    result = suggest_run(full_access(workspace), {"query": "Refnud"}).as_dict()
    assert "refund" in [s["text"].lower() for s in result["suggestions"]]
