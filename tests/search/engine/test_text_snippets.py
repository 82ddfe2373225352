"""Snippets are text: a rich-text field's markup is stripped before the snippet and its highlights
are made, in every interface (API, MCP, the command, the admin), and the offsets point into the text."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from mcp import Client

from search.engine.fulltext import search_entries
from search.interfaces.mcp.server import api_key_caller, build_mcp_server
from tests.factories import api_key_make, bearer, entry_make, full_access
from tests.search.mcp_helpers import run

BODY = "<h2>Returns</h2><p>You can return any item within <b>30 days</b> of delivery.</p><p>Ask&nbsp;us.</p>"
QUERY = "30 days"


def assert_text_snippet(snippet: dict) -> None:
    assert "<" not in snippet["text"] and ">" not in snippet["text"]
    assert snippet["field"] == "body"
    assert [snippet["text"][start:end] for start, end in snippet["highlights"]] == [QUERY]


@pytest.mark.django_db
def test_search_entries_snippet_has_no_markup_and_its_offsets_point_into_the_text(article_type):
    entry_make(article_type, title="Returns", body=BODY)

    (hit,) = search_entries(access=full_access(article_type.workspace), query=QUERY).as_dict()["results"]

    assert_text_snippet(hit["snippet"])
    assert "within 30 days of delivery" in hit["snippet"]["text"]


@pytest.mark.django_db
def test_a_query_found_only_in_the_markup_gives_the_text_without_highlights(article_type):
    entry_make(article_type, title="Returns", body=BODY)

    (hit,) = search_entries(access=full_access(article_type.workspace), query="</h2><p>").as_dict()["results"]

    assert hit["snippet"]["highlights"] == [] and "<" not in hit["snippet"]["text"]


@pytest.mark.django_db
def test_a_plain_text_field_keeps_its_angle_brackets(workspace):
    from tests.factories import ContentTypeFactory
    kind = ContentTypeFactory(workspace=workspace, api_id="note",
                              fields=[{"id": "title", "label": "Title", "type": "text"}])
    entry_make(kind, title="if a < b then 30 days")

    (hit,) = search_entries(access=full_access(workspace), query=QUERY).as_dict()["results"]

    assert hit["snippet"]["text"] == "if a < b then 30 days"


@pytest.mark.django_db
def test_api_snippet_is_text(client, workspace, article_type):
    entry_make(article_type, title="Returns", body=BODY)
    _, secret = api_key_make(workspace)

    body = client.get(f"/api/v1/workspaces/{workspace.slug}/search/entries?q=30+days", **bearer(secret)).json()

    assert_text_snippet(body["results"][0]["snippet"])


@pytest.mark.django_db
def test_command_snippet_is_text(workspace, article_type):
    entry_make(article_type, title="Returns", body=BODY)
    out = StringIO()

    call_command("search_entries", workspace.slug, QUERY, "--json", stdout=out)

    assert_text_snippet(json.loads(out.getvalue())["results"][0]["snippet"])


@pytest.mark.django_db
def test_admin_snippet_is_text(client, editor, article_type):
    entry_make(article_type, title="Returns", body=BODY)
    client.force_login(editor)

    for url in (f"/admin/search/{article_type.workspace.slug}/", "/admin/cms/entry/"):
        html = client.get(url, {"q": QUERY}).content.decode()
        assert "<mark>30 days</mark> of delivery" in html, url
        assert "&lt;p&gt;" not in html and "&lt;h2&gt;" not in html, url


@pytest.mark.django_db(transaction=True)
def test_mcp_snippet_is_text(workspace, article_type):
    entry_make(article_type, title="Returns", body=BODY)
    _, secret = api_key_make(workspace)

    async def go():
        async with Client(build_mcp_server(caller=api_key_caller(secret))) as client:
            return await client.call_tool("search_entries", {"query": QUERY})

    answer = run(go())

    assert_text_snippet(answer.structured_content["results"][0]["snippet"])


@pytest.mark.django_db
def test_a_markdown_body_snippet_has_no_marks(client, editor, article_type):
    entry_make(article_type, title="Pickup", body="## Where\n\nCollect it at our **Kobe** pickup counter, *30 days* a month.")

    (hit,) = search_entries(access=full_access(article_type.workspace), query="Kobe").as_dict()["results"]

    assert hit["snippet"]["text"] == "Where\n\nCollect it at our Kobe pickup counter, 30 days a month."
    assert [hit["snippet"]["text"][start:end] for start, end in hit["snippet"]["highlights"]] == ["Kobe"]
    client.force_login(editor)
    html = client.get(f"/admin/search/{article_type.workspace.slug}/", {"q": "Kobe"}).content.decode()
    assert "our <mark>Kobe</mark> pickup" in html and "**" not in html
