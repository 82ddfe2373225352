"""One set of query rules in full-text: synonyms apply (an entry containing any term of the set
matches, each through the gram index), the results say what else was searched, and a query that
finds nothing is searched corrected, said so; in every interface (API, MCP, the command, the admin)."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from mcp import Client

from cms import services
from cms.models import SynonymKind
from search.engine.fulltext import SearchPlan, search_entries, search_entries_explain
from search.engine.fulltext_rules import synonym_variants
from search.interfaces.mcp.server import api_key_caller, build_mcp_server
from search.engine.forgiving.synonyms import synonym_rules
from tests.factories import api_key_make, bearer, entry_make, full_access
from tests.search.mcp_helpers import run
from tests.search.pipeline_helpers import embed_all, fake_embeddings  # noqa: F401


@pytest.fixture
def money(doc_type):
    article_type = doc_type
    workspace = article_type.workspace
    entries = {
        "refund": entry_make(article_type, title="Refund policy", body="<p>Refunds within 30 days.</p>"),
        "shipping": entry_make(article_type, title="Shipping", body="<p>We ship worldwide.</p>"),
    }
    services.synonym_set_create(workspace=workspace, terms=["reimbursement", "refund"])
    workspace.refresh_from_db()
    return workspace, entries


def ids(results: list[dict]) -> list[int]:
    return [r["id"] for r in results]


@pytest.mark.django_db
def test_a_synonym_finds_the_entry_that_holds_the_other_term_and_says_so(money):
    workspace, entries = money

    body = search_entries(access=full_access(workspace), query="Reimbursement policy").as_dict()

    assert ids(body["results"]) == [entries["refund"].pk]
    assert body["meta"]["also_searched"] == ["refund policy"]
    snippet = body["results"][0]["snippet"]
    assert [snippet["text"][a:b].lower() for a, b in snippet["highlights"]] == ["refund policy"]


@pytest.mark.django_db
def test_without_a_set_the_query_stays_literal(money):
    workspace, _ = money
    body = search_entries(access=full_access(workspace), query="worldwide").as_dict()
    assert "also_searched" not in body["meta"] and len(body["results"]) == 1


@pytest.mark.django_db
def test_variants_start_at_a_word_and_keep_the_rest_of_the_query(money):
    workspace, _ = money
    rules = synonym_rules(workspace_id=workspace.pk, version=workspace.synonyms_version)
    assert synonym_variants(query="Refunds now", rules=rules) == ("reimbursements now",)
    assert synonym_variants(query="prerefund", rules=rules) == ()


@pytest.mark.django_db
def test_one_way_synonyms_go_one_way(article_type):
    workspace = article_type.workspace
    phone = entry_make(article_type, title="Smartphone cases")
    services.synonym_set_create(workspace=workspace, kind=SynonymKind.ONE_WAY, source="phone", terms=["smartphone"])
    workspace.refresh_from_db()
    access = full_access(workspace)
    assert ids(search_entries(access=access, query="phone cases").as_dict()["results"]) == [phone.pk]
    assert search_entries(access=access, query="smartphone").also_searched == ()


@pytest.mark.django_db
def test_the_recent_scan_tests_the_query_and_its_variants_as_one_array_of_patterns(money):
    workspace, _ = money
    plan, text = search_entries_explain(access=full_access(workspace), query="reimbursement")
    # A tiny workspace is read whole by the recent scan; the substring test is an array of patterns.
    assert plan == SearchPlan.RECENT_SCAN and "ANY" in text


@pytest.mark.django_db
def test_api_synonyms_and_correction(client, money):
    workspace, entries = money
    _, secret = api_key_make(workspace)
    url = f"/api/v1/workspaces/{workspace.slug}/search/entries"

    synonym = client.get(url, {"q": "reimbursement"}, **bearer(secret)).json()
    typo = client.get(url, {"q": "wordlwide"}, **bearer(secret)).json()

    assert ids(synonym["results"]) == [entries["refund"].pk] and synonym["meta"]["also_searched"] == ["refund"]
    assert ids(typo["results"]) == [entries["shipping"].pk] and typo["meta"]["corrected_query"] == "worldwide"


@pytest.mark.django_db
def test_command_synonyms(money):
    workspace, entries = money
    out, table = StringIO(), StringIO()

    call_command("search_entries", workspace.slug, "reimbursement", "--json", stdout=out)
    call_command("search_entries", workspace.slug, "reimbursement", stdout=table)

    body = json.loads(out.getvalue())
    assert ids(body["results"]) == [entries["refund"].pk] and body["meta"]["also_searched"] == ["refund"]
    assert "Also searched for: 'refund'." in table.getvalue()


@pytest.mark.django_db
def test_admin_says_what_else_was_searched_and_the_correction(client, editor, money):
    workspace, _ = money
    client.force_login(editor)

    synonym = client.get(f"/admin/search/{workspace.slug}/", {"q": "reimbursement"}).content.decode()
    typo = client.get(f"/admin/search/{workspace.slug}/", {"q": "wordlwide"}).content.decode()

    assert 'id="search-also-searched">Also searched for: <span lang="en">refund</span></p>' in synonym
    assert "Refund policy" in synonym
    assert 'id="search-correction">Showing results for <strong lang="en">worldwide</strong>' in typo


@pytest.mark.django_db(transaction=True)
def test_mcp_synonyms(money):
    workspace, entries = money
    _, secret = api_key_make(workspace)

    async def go():
        async with Client(build_mcp_server(caller=api_key_caller(secret))) as client:
            return await client.call_tool("search_entries", {"query": "reimbursement"})

    body = run(go()).structured_content
    assert ids(body["results"]) == [entries["refund"].pk] and body["meta"]["also_searched"] == ["refund"]


@pytest.mark.django_db
def test_semantic_says_it_skips_synonyms_and_typos_in_the_api_and_the_admin(client, editor, fake_embeddings, money):
    workspace, _ = money
    embed_all()
    _, secret = api_key_make(workspace)

    semantic = client.post(f"/api/v1/workspaces/{workspace.slug}/search/semantic", {"query": "reimbursement"},
                           content_type="application/json", **bearer(secret)).json()
    hybrid = client.post(f"/api/v1/workspaces/{workspace.slug}/search/hybrid", {"query": "reimbursement"},
                         content_type="application/json", **bearer(secret)).json()
    client.force_login(editor)
    page = client.get(f"/admin/search/{workspace.slug}/", {"q": "reimbursement", "mode": "semantic"}).content.decode()

    assert semantic["meta"]["rules_skipped"] == ["synonyms", "typo_tolerance"]
    assert "rules_skipped" not in hybrid["meta"]
    assert 'id="search-rules-skipped"' in page
