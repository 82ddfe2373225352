"""Promotions match the normalised query by "is" or "contains", chosen per promotion: "refunds"
triggers a "contains refund" promotion in every interface (API, MCP, the command, the admin);
an "is" promotion (the default, and every promotion made before the choice) still needs the whole query."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from mcp import Client

from cms import services
from cms.models import Promotion, PromotionMatch
from search.kinds import SEARCH_KINDS
from search.interfaces.mcp.server import api_key_caller, build_mcp_server
from tests.factories import api_key_make, bearer, entry_make, full_access
from tests.search.mcp_helpers import run


@pytest.fixture
def desk(article_type):
    pinned = entry_make(article_type, title="Returns desk", body="<p>Bring the parcel.</p>")
    entry_make(article_type, title="Refunds explained", body="<p>Refunds within 30 days.</p>")
    return article_type.workspace, pinned


def first(results: list[dict]) -> tuple[int, bool]:
    return results[0]["id"], results[0].get("promoted", False)


@pytest.mark.django_db
def test_contains_triggers_on_a_longer_query_and_is_does_not(desk):
    workspace, pinned = desk
    services.promotion_create(workspace=workspace, phrase="Refund", entry=pinned, match=PromotionMatch.CONTAINS)
    search = SEARCH_KINDS["search_entries"]

    for query in ("refunds", "REFUND policy", "refund"):
        results = search.search(full_access(workspace), {"query": query}, interface="api").as_dict()["results"]
        assert first(results) == (pinned.pk, True), query
    plain = search.search(full_access(workspace), {"query": "refun"}, interface="api").as_dict()["results"]
    assert all("promoted" not in r for r in plain)

    Promotion.objects.update(match=PromotionMatch.IS)
    results = search.search(full_access(workspace), {"query": "refunds"}, interface="api").as_dict()["results"]
    assert all("promoted" not in r for r in results)


@pytest.mark.django_db
def test_an_existing_promotion_matches_by_is(desk):
    workspace, pinned = desk
    assert services.promotion_create(workspace=workspace, phrase="refund", entry=pinned).match == PromotionMatch.IS


@pytest.mark.django_db
def test_an_unknown_match_is_refused(desk):
    workspace, pinned = desk
    with pytest.raises(ValidationError) as caught:
        services.promotion_create(workspace=workspace, phrase="refund", entry=pinned, match="starts")
    assert "match" in caught.value.message_dict


@pytest.mark.django_db
def test_api_contains_promotion(client, desk):
    workspace, pinned = desk
    services.promotion_create(workspace=workspace, phrase="refund", entry=pinned, match=PromotionMatch.CONTAINS)
    _, secret = api_key_make(workspace)

    body = client.get(f"/api/v1/workspaces/{workspace.slug}/search/entries?q=refunds", **bearer(secret)).json()

    assert first(body["results"]) == (pinned.pk, True)


@pytest.mark.django_db
def test_command_contains_promotion(desk):
    workspace, pinned = desk
    services.promotion_create(workspace=workspace, phrase="refund", entry=pinned, match=PromotionMatch.CONTAINS)
    out = StringIO()

    call_command("search_entries", workspace.slug, "Refunds", "--json", stdout=out)

    assert first(json.loads(out.getvalue())["results"]) == (pinned.pk, True)


@pytest.mark.django_db
def test_admin_form_makes_a_contains_promotion_and_the_search_page_shows_it(client, superuser, desk):
    workspace, pinned = desk
    client.force_login(superuser)

    response = client.post("/admin/cms/promotion/add/", {
        "workspace": workspace.pk, "phrase": "Refund", "match": "contains", "entry": pinned.pk, "position": 0})

    assert response.status_code == 302, response.content.decode()[:2000]
    assert Promotion.objects.get().match == PromotionMatch.CONTAINS
    assert "Query contains the phrase" in client.get("/admin/cms/promotion/").content.decode()
    html = client.get(f"/admin/search/{workspace.slug}/", {"q": "refunds"}).content.decode()
    assert html.index("Returns desk") < html.index('class="promoted"') < html.index(" explained")


@pytest.mark.django_db(transaction=True)
def test_mcp_contains_promotion(desk):
    workspace, pinned = desk
    services.promotion_create(workspace=workspace, phrase="refund", entry=pinned, match=PromotionMatch.CONTAINS)
    _, secret = api_key_make(workspace)

    async def go():
        async with Client(build_mcp_server(caller=api_key_caller(secret))) as client:
            return await client.call_tool("search_entries", {"query": "refunds"})

    assert first(run(go()).structured_content["results"]) == (pinned.pk, True)
