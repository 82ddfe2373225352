"""The admin's search page (/admin/search/<slug>/): every mode, filters, errors as messages, roles, escaping."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from cms import services
from cms.models import EntryStatus, Role
from ingestion.services import chunks_embed_pending
from tests.factories import ContentTypeFactory, MembershipFactory, UserFactory, entry_make
from tests.search.pipeline_helpers import fake_embeddings  # noqa: F401 - fixture
from tests.search.semantic_helpers import no_embeddings  # noqa: F401 - fixture

SCRIPT = "<script>alert('x')</script>"
IMG = "<img src=x onerror=alert(1)>"
FIELDS = [
    {"id": "title", "label": "Title", "type": "text", "required": True},
    {"id": "summary", "label": "Summary", "type": "text"},
    {"id": "body", "label": "Body", "type": "richtext"},
]


@pytest.fixture
def faq(workspace):
    return ContentTypeFactory(workspace=workspace, api_id="faq", name="FAQ", fields=FIELDS,
                              semantic_search_enabled=True)


@pytest.fixture
def news(workspace):
    return ContentTypeFactory(workspace=workspace, api_id="news", name="News", fields=FIELDS,
                              semantic_search_enabled=True)


@pytest.fixture
def content(faq, news, other_workspace):
    """Acme: a published and a draft refund FAQ, a Japanese FAQ, a news item; Globex: its own refund entry."""
    entries = {
        "published": entry_make(faq, title="Refund policy", summary="Refunds take 5 days after we receive the item."),
        "draft": entry_make(faq, status=EntryStatus.DRAFT, title="Refund draft", summary="Secret refund changes."),
        "japanese": entry_make(faq, title="返品について", summary="返品は30日以内に受け付けます。"),
        "news": entry_make(news, title="Refund news", summary="We changed how refunds work."),
    }
    theirs = ContentTypeFactory(workspace=other_workspace, api_id="faq", name="FAQ", fields=FIELDS,
                                semantic_search_enabled=True)
    entries["globex"] = entry_make(theirs, title="Globex refund secret", summary="Globex refunds in cash.")
    return entries


def member(username: str, workspace, role: str):
    user = UserFactory(username=username)
    MembershipFactory(user=user, workspace=workspace, role=role)
    return user


def page(client, user, slug="acme", **params) -> str:
    client.force_login(user)
    response = client.get(f"/admin/search/{slug}/", params)
    assert response.status_code == 200
    return response.content.decode()


def hits(html: str) -> list[str]:
    """The titles of the result list, in order, without their highlights."""
    found = re.findall(r'<li class="search-hit".*?<h3>(?:<a href="[^"]*">)?(.*?)(?:</a>)?</h3>', html, re.S)
    return [re.sub(r"</?mark>", "", title) for title in found]


def messages(html: str) -> list[str]:
    return re.findall(r'<li class="(?:error|warning|info)"(?: data-code="[^"]*")?>(.*?)</li>', html, re.S)


# --- index and links ---------------------------------------------------------------------------


def test_index_lists_only_the_users_workspaces(client, editor, workspace, other_workspace):
    client.force_login(editor)
    html = client.get("/admin/search/").content.decode()
    assert 'href="/admin/search/acme/"' in html and "globex" not in html


def test_admin_home_and_status_page_link_to_search(client, editor, workspace):
    client.force_login(editor)
    assert 'href="/admin/search/"' in client.get("/admin/").content.decode()
    assert 'href="/admin/search/acme/"' in client.get("/admin/ingestion/status/acme/").content.decode()


def test_page_without_a_query_shows_the_form_only(client, editor, content):
    html = page(client, editor)
    assert 'id="admin-search-form"' in html and 'id="search-results"' not in html and not messages(html)


# --- full-text -----------------------------------------------------------------------------------


def test_fulltext_hit_shows_title_type_workspace_status_date_snippet_and_link(client, editor, content):
    entry = content["published"]
    html = page(client, editor, q="RECEIVE")
    assert hits(html) == ["Refund policy"]
    assert f'href="{reverse("admin:cms_entry_change", args=[entry.pk])}"' in html
    assert "FAQ<span class=\"sep\">·</span>Workspace acme" in html
    assert '<span class="status published">published</span>' in html
    assert f"updated {entry.updated_at:%Y-%m-%d}" in html
    assert "Refunds take 5 days after we <mark>receive</mark> the item." in html


def test_fulltext_japanese(client, editor, content):
    html = page(client, editor, q="返品", mode="fulltext")
    assert hits(html) == ["返品について"]
    # The title is highlighted where it is shown; the snippet is of the next field that matches.
    assert '<mark>返品</mark>について</a></h3>' in html
    assert '<p class="snippet"><mark>返品</mark>は30日以内に受け付けます。</p>' in html and "in “summary”" in html


def test_fulltext_match_in_the_title_alone_shows_no_repeated_snippet(client, editor, content):
    html = page(client, editor, q="policy")
    assert hits(html) == ["Refund policy"]
    assert "Refund <mark>policy</mark></a></h3>" in html and '<p class="snippet">' not in html


def test_fulltext_content_type_and_status_filters_narrow(client, editor, content):
    assert hits(page(client, editor, q="refund")) == ["Refund news", "Refund draft", "Refund policy"]
    assert hits(page(client, editor, q="refund", content_type="news")) == ["Refund news"]
    assert hits(page(client, editor, q="refund", status="draft")) == ["Refund draft"]


def test_fulltext_pages(client, editor, faq):
    for i in range(23):
        entry_make(faq, title=f"Item {i:02d}", summary="paged text")
    first = page(client, editor, q="paged")
    assert len(hits(first)) == 20 and 'id="search-next"' in first and 'id="search-previous"' not in first
    second = page(client, editor, q="paged", offset="20")
    assert hits(second) == ["Item 02", "Item 01", "Item 00"] and 'id="search-previous"' in second


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"q": "a" * 501}, 'data-code="query_too_long"'),
        ({"q": "   "}, 'data-code="query_empty"'),
        ({"q": "refund", "content_type": "nope"}, 'data-code="unknown_content_type"'),
        ({"q": "refund", "status": "archived"}, 'data-code="unknown_status"'),
        ({"q": "refund", "offset": "-1"}, 'data-code="offset_out_of_range"'),
        ({"q": "refund", "mode": "psychic"}, "Unknown search mode"),
        ({"q": "x" * 2001, "mode": "semantic"}, 'data-code="query_too_long"'),
        ({"q": "refund", "mode": "hybrid", "content_type": "nope"}, 'data-code="unknown_content_type"'),
    ],
)
def test_bad_input_is_a_message_not_an_error_page(client, editor, content, fake_embeddings, params, expected):
    html = page(client, editor, **params)
    assert messages(html)
    # The code is the message's data-code; the message itself is a sentence.
    assert expected in html if expected.startswith("data-code") else any(expected in m for m in messages(html))
    assert not any(re.search(r"\([a-z]+_[a-z_]+\)", message) for message in messages(html))


def test_viewer_asking_for_drafts_gets_a_message(client, workspace, content):
    html = page(client, member("viewer", workspace, Role.VIEWER), q="refund", status="draft")
    assert 'data-code="status_not_visible"' in html
    assert "Refund draft" not in html


# --- semantic and hybrid -------------------------------------------------------------------------


@pytest.fixture
def embedded(content, fake_embeddings):
    chunks_embed_pending()
    return content


@pytest.mark.parametrize("mode", ["semantic", "hybrid", "agentic"])
def test_chunk_modes_show_text_scores_and_links(client, editor, embedded, mode):
    html = page(client, editor, q="refund", mode=mode)
    titles = hits(html)
    assert "Refund policy" in titles and "Globex refund secret" not in titles
    assert f'href="{reverse("admin:cms_entry_change", args=[embedded["published"].pk])}"' in html
    assert "<mark>Refund</mark>s take 5 days" in html or "<mark>refund</mark>" in html.lower()
    scores = re.findall(r'data-score="(-?[0-9.]+)"', html)
    assert len(scores) == len(titles) and all(-1 <= float(s) <= 1.0001 for s in scores)
    if mode in ("hybrid", "agentic"):
        assert re.search(r"keyword [0-9.]+ \(#1\)", html) and "semantic " in html
    assert 'data-banner="not-configured"' not in html and 'data-banner="pending"' not in html


@pytest.mark.parametrize("mode", ["semantic", "hybrid", "agentic"])
def test_chunk_modes_filter_by_content_type_and_status(client, editor, embedded, mode):
    news_only = hits(page(client, editor, q="refund", mode=mode, content_type="news"))
    assert news_only == ["Refund news"]
    drafts = hits(page(client, editor, q="refund", mode=mode, status="draft"))
    assert set(drafts) == {"Refund draft"}


def test_agentic_mode_searches_a_compound_question_in_parts(client, editor, embedded):
    html = page(client, editor, q="How long do refunds take, and what is the Japanese return policy?", mode="agentic")

    assert 'data-path="agentic"' in html and "Searched in 2 parts" in html
    titles = hits(html)
    assert "Refund policy" in titles and "返品について" in titles and "Globex refund secret" not in titles


def test_agentic_mode_answers_a_single_question_as_one(client, editor, embedded):
    html = page(client, editor, q="refund", mode="agentic")

    assert 'data-path="standard"' in html and "Searched as one question" in html
    assert "Refund policy" in hits(html)


def test_asset_chunk_links_to_the_asset(client, editor, workspace, fake_embeddings):
    asset = services.asset_upload(workspace=workspace, filename="faq.md", content=b"# FAQ\n\nRefunds take 5 days.")
    chunks_embed_pending()
    html = page(client, editor, q="refunds", mode="hybrid")
    assert f'href="{reverse("admin:cms_asset_change", args=[asset.pk])}"' in html
    assert 'data-source="asset"' in html


def test_pending_banner_counts_the_workspaces_pending_chunks(client, editor, content, fake_embeddings):
    from ingestion.models import Chunk

    pending = Chunk.objects.filter(workspace=content["published"].workspace).pending().count()
    assert pending > 0
    for mode in ("fulltext", "semantic", "hybrid"):
        html = page(client, editor, q="refund", mode=mode)
        assert f'<span data-pending="{pending}">{pending}</span> chunks of this workspace are waiting' in html


def test_not_configured_is_a_banner_in_semantic_mode(client, editor, content, no_embeddings):
    html = page(client, editor, q="refund", mode="semantic")
    # The sentence for editors; the code stays machine-readable in data-code.
    assert 'data-banner="not-configured" data-code="not_configured"' in html and "(not_configured)" not in html
    assert 'id="search-results"' not in html and not messages(html)


def test_not_configured_hybrid_answers_from_keywords_with_the_banner(client, editor, content, no_embeddings):
    html = page(client, editor, q="refund", mode="hybrid")
    assert 'data-banner="not-configured"' in html and "Hybrid results come from keywords alone" in html
    assert "Refund policy" in hits(html)


def test_not_configured_banner_before_any_query(client, editor, workspace, no_embeddings):
    assert 'data-banner="not-configured"' in page(client, editor, mode="semantic")
    assert 'data-banner="not-configured"' not in page(client, editor, mode="fulltext")


# --- membership ----------------------------------------------------------------------------------


def test_another_workspace_is_404(client, editor, content):
    client.force_login(editor)
    response = client.get("/admin/search/globex/", {"q": "refund"})
    assert response.status_code == 404
    assert "Globex refund secret" not in response.content.decode()
    assert client.get("/admin/search/no-such-workspace/").status_code == 404


def test_anonymous_is_sent_to_the_login(client, workspace):
    response = client.get("/admin/search/acme/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


@pytest.mark.parametrize("mode", ["fulltext", "semantic", "hybrid"])
def test_viewer_sees_no_draft(client, workspace, embedded, mode):
    viewer = member("viewer", workspace, Role.VIEWER)
    html = page(client, viewer, q="refund", mode=mode)
    titles = hits(html)
    assert "Refund policy" in titles
    assert "Refund draft" not in html and "Secret refund" not in html
    assert '<option value="draft"' not in html


# --- escaping ------------------------------------------------------------------------------------


@pytest.fixture
def hostile(faq, fake_embeddings):
    entry = entry_make(faq, title=f"Hostile {SCRIPT}", summary=f"alert me {IMG} alert")
    chunks_embed_pending()
    return entry


@pytest.mark.parametrize("mode", ["fulltext", "semantic", "hybrid"])
def test_markup_in_entries_is_escaped_on_the_search_page(client, editor, hostile, mode):
    html = page(client, editor, q="onerror", mode=mode)
    assert "<h3><a href=\"/admin/cms/entry/%d/change/\">Hostile &lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;</a></h3>" % hostile.pk in html
    assert "<script>alert" not in html and "<img src=x" not in html
    assert "&lt;img src=x <mark>onerror</mark>=alert(1)&gt;" in html
    if mode == "fulltext":  # the title's own snippet, a match inside the script tag
        html = page(client, editor, q="alert('x')", mode=mode)
        assert "Hostile &lt;script&gt;<mark>alert(&#x27;x&#x27;)</mark>&lt;/script&gt;" in html
        assert "<script>alert" not in html


def test_markup_in_entries_is_escaped_in_the_changelist(client, editor, hostile):
    client.force_login(editor)
    html = client.get("/admin/cms/entry/", {"q": "onerror"}).content.decode()
    assert "<script>alert" not in html and "<img src=x" not in html
    assert "&lt;img src=x <mark>onerror</mark>=alert(1)&gt;" in html


# --- cost ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["fulltext", "hybrid"])
def test_page_queries_do_not_grow_with_the_results(client, editor, faq, fake_embeddings, mode):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def queries_for(count: int) -> int:
        for i in range(count):
            entry_make(faq, title=f"Counted {i}", summary="counted text")
        chunks_embed_pending()
        client.force_login(editor)
        with CaptureQueriesContext(connection) as captured:
            html = client.get("/admin/search/acme/", {"q": "counted", "mode": mode}).content.decode()
        assert len(hits(html)) >= count
        return len(captured)

    few = queries_for(2)
    assert queries_for(8) == few
