"""Script-variant folding in every search (cms/folding.py): 退货 finds 退貨 and the reverse,
りんご finds リンゴ, a Latin query is unchanged, drafts stay hidden; API, MCP, the admin page."""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest
from mcp import Client
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.utils import timezone

from cms import services
from cms.models import Entry, EntryStatus, Promotion
from cms.refold import entries_refold
from search.engine.fulltext import SearchPlan, search_entries
from search.interfaces.mcp.server import api_key_caller, build_mcp_server
from search.engine.forgiving.suggest import suggest_run
from tests.factories import MembershipFactory, UserFactory, api_key_make, bearer, entry_make, full_access
from tests.search.mcp_helpers import run
from tests.search.pipeline_helpers import embed_all, fake_embeddings, semantic_type  # noqa: F401 - fixture

pytestmark = pytest.mark.django_db

# Both directions of each pair: what an editor wrote, and what a reader types.
VARIANTS = [("退货", "退貨"), ("退貨", "退货"), ("りんご", "リンゴ"), ("リンゴ", "りんご")]


@pytest.fixture
def shop(fake_embeddings, workspace, other_workspace):
    kind = semantic_type(workspace, "faq", [])
    entries = {
        "traditional": entry_make(kind, title="退貨政策", body="<p>退貨須於三十天內申請。</p>"),
        "simplified": entry_make(kind, title="退货说明", body="<p>退货请在三十天内申请。</p>"),
        "hiragana": entry_make(kind, title="りんごの選び方", body="<p>りんごは冷やして保存します。</p>"),
        "katakana": entry_make(kind, title="リンゴ飴", body="<p>リンゴを砂糖で包みます。</p>"),
        "latin": entry_make(kind, title="Refund policy", body="<p>Refunds within 30 days.</p>"),
        "draft": entry_make(kind, status=EntryStatus.DRAFT, title="退貨草稿", body="<p>りんご 退貨 draft.</p>"),
    }
    foreign = entry_make(semantic_type(other_workspace, "faq", []), title="退貨 Globex",
                         body="<p>りんご at Globex.</p>")
    embed_all()
    return workspace, entries, foreign


def _wanted(entries, written: str) -> set[int]:
    """The published entries of the pair `written` belongs to."""
    pair = {"退货": ("traditional", "simplified"), "退貨": ("traditional", "simplified"),
            "りんご": ("hiragana", "katakana"), "リンゴ": ("hiragana", "katakana")}[written]
    return {entries[name].pk for name in pair}


def _keyword_found(answer: dict) -> set[int]:
    """The entries of a hybrid answer's sources that its keyword leg ranked."""
    return {source["metadata"]["entry_id"] for source in answer["sources"]
            if source["legs"]["keyword"]["rank"] is not None}


# --- full-text ---------------------------------------------------------------------------------


@pytest.mark.parametrize("typed, written", VARIANTS)
def test_full_text_api_finds_the_other_script(client, shop, typed, written):
    workspace, entries, foreign = shop
    _, secret = api_key_make(workspace)  # published only

    response = client.get("/api/v1/workspaces/acme/search/entries", {"q": typed}, **bearer(secret))

    assert response.status_code == 200
    found = {hit["id"] for hit in response.json()["results"]}
    assert found == _wanted(entries, typed)
    assert entries["draft"].pk not in found and foreign.pk not in found


@pytest.mark.parametrize("typed, written", VARIANTS)
def test_full_text_gram_index_plan_finds_the_other_script(workspace, shop, typed, written):
    _, entries, _ = shop
    kind = entries["latin"].content_type
    Entry.objects.bulk_create(Entry(workspace_id=workspace.pk, content_type=kind, data={"title": f"Filler {i}"},
                                    status=EntryStatus.PUBLISHED)
                              for i in range(400))
    Entry.objects.filter(pk__in=[e.pk for e in entries.values()]).update(
        created_at=timezone.now() - dt.timedelta(days=30))

    result = search_entries(access=full_access(workspace), query=typed, status="published")

    assert result.plan == SearchPlan.GRAM_INDEX
    assert {hit.entry_id for hit in result.hits} == _wanted(entries, typed)


def test_highlights_mark_the_characters_as_written(shop):
    workspace, entries, _ = shop

    hits = {hit.entry_id: hit for hit in search_entries(access=full_access(workspace), query="退货").hits}

    snippet = hits[entries["traditional"].pk].snippet
    assert [snippet.text[start:end] for start, end in snippet.highlights] == ["退貨"]


def test_a_latin_query_is_unchanged(client, shop):
    workspace, entries, _ = shop
    _, secret = api_key_make(workspace)

    response = client.get("/api/v1/workspaces/acme/search/entries", {"q": "REFUND"}, **bearer(secret))

    assert {hit["id"] for hit in response.json()["results"]} == {entries["latin"].pk}
    assert Entry.objects.get(pk=entries["latin"].pk).search_text == "<p>refunds within 30 days.</p>\x1frefund policy"


def test_stored_search_text_is_folded_one_character_to_one(shop):
    _, entries, _ = shop
    stored = Entry.objects.get(pk=entries["traditional"].pk)
    written = "\x1f".join(str(stored.data[key]) for key in sorted(stored.data))
    assert stored.search_text == "<p>退货须于三十天内申请。</p>\x1f退货政策"
    assert len(stored.search_text) == len(written)


def test_refold_rewrites_rows_stored_before_folding(shop):
    """A row written by the old functions (lowercased only) is found after entries_refold."""
    workspace, entries, _ = shop
    with transaction.atomic(), connection.cursor() as cursor:
        # What the functions before cms 0012 stored: the value lowercased, unfolded. A
        # generated column cannot be written, so the fold is swapped for lower() (same
        # function, so the callers bound to it follow) while the row is written, then put back.
        cursor.execute("SELECT pg_get_functiondef('cms_text_fold(text)'::regprocedure)")
        folding_definition = cursor.fetchone()[0]
        cursor.execute("CREATE OR REPLACE FUNCTION cms_text_fold(value text) RETURNS text LANGUAGE sql"
                       " IMMUTABLE STRICT PARALLEL SAFE RETURN lower(value)")
        cursor.execute("UPDATE cms_entry SET data = data WHERE id = %s", [entries["traditional"].pk])
        cursor.execute(folding_definition)
    assert "退貨" in Entry.objects.get(pk=entries["traditional"].pk).search_text

    assert entries_refold(batch_size=2) == Entry.objects.count()

    assert Entry.objects.get(pk=entries["traditional"].pk).search_text.endswith("退货政策")
    found = {hit.entry_id for hit in search_entries(access=full_access(workspace), query="退货").hits}
    assert entries["traditional"].pk in found


# --- hybrid (its keyword leg) ------------------------------------------------------------------


@pytest.mark.parametrize("typed, written", VARIANTS)
def test_hybrid_keyword_leg_finds_the_other_script(client, shop, typed, written):
    workspace, entries, foreign = shop
    _, secret = api_key_make(workspace)

    response = client.post("/api/v1/workspaces/acme/search/hybrid", {"query": typed, "top_k": 10},
                           content_type="application/json", **bearer(secret))

    assert response.status_code == 200
    keyword_found = _keyword_found(response.json())
    assert _wanted(entries, typed) <= keyword_found
    found = {source["metadata"]["entry_id"] for source in response.json()["sources"]}
    assert entries["draft"].pk not in found and foreign.pk not in found


def test_hybrid_keyword_leg_latin_query_is_unchanged(client, shop):
    workspace, entries, _ = shop
    _, secret = api_key_make(workspace)

    response = client.post("/api/v1/workspaces/acme/search/hybrid", {"query": "refunds", "top_k": 10},
                           content_type="application/json", **bearer(secret))

    keyword_found = _keyword_found(response.json())
    assert keyword_found == {entries["latin"].pk}


# --- MCP ----------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)  # the tools run in a worker thread, on its own connection
@pytest.mark.parametrize("typed, written", VARIANTS)
def test_mcp_tools_find_the_other_script(shop, typed, written):
    workspace, entries, foreign = shop
    _, secret = api_key_make(workspace)
    server = build_mcp_server(caller=api_key_caller(secret))

    async def go():
        async with Client(server) as client:
            return (await client.call_tool("search_entries", {"query": typed}),
                    await client.call_tool("hybrid_search", {"query": typed, "top_k": 10}))

    entries_answer, hybrid_answer = run(go())

    assert not entries_answer.is_error and not hybrid_answer.is_error
    found = {hit["id"] for hit in entries_answer.structured_content["results"]}
    assert found == _wanted(entries, typed)
    keyword_found = _keyword_found(hybrid_answer.structured_content)
    assert _wanted(entries, typed) <= keyword_found
    everything = json.dumps([entries_answer.structured_content, hybrid_answer.structured_content], ensure_ascii=False)
    assert "草稿" not in everything and "Globex" not in everything


# --- suggestions, synonyms, promotions -----------------------------------------------------------


@pytest.mark.parametrize("typed, title", [("退货", "退貨政策"), ("退貨", "退货说明"), ("りんご", "リンゴ飴"), ("リンゴ", "りんごの選び方")])
def test_suggestions_complete_the_other_script(shop, typed, title):
    workspace, _, _ = shop
    texts = [s.text for s in suggest_run(full_access(workspace), {"query": typed, "limit": 8}).suggestions]

    assert title in texts
    assert "退貨草稿" in texts or typed in ("りんご", "リンゴ")  # drafts: the operator sees them


def test_suggestions_keep_drafts_from_a_published_only_key(client, shop):
    workspace, _, _ = shop
    _, secret = api_key_make(workspace)

    response = client.get("/api/v1/workspaces/acme/search/suggest", {"q": "退货"}, **bearer(secret))

    texts = [s["text"] for s in response.json()["suggestions"]]
    assert "退貨政策" in texts and "退貨草稿" not in texts and "退貨 Globex" not in texts


@pytest.mark.parametrize("synonym, typed", [("退貨", "退货"), ("退货", "退貨")])
def test_a_synonym_written_in_one_script_expands_a_query_in_the_other(client, shop, synonym, typed):
    workspace, entries, _ = shop
    kind = entries["latin"].content_type
    refund = entry_make(kind, title="返金手続き", body="<p>返金は銀行振込です。</p>")
    embed_all()
    services.synonym_set_create(workspace=workspace, terms=[synonym, "返金"])
    _, secret = api_key_make(workspace)

    def keyword_found(query: str) -> set[int]:
        response = client.post("/api/v1/workspaces/acme/search/hybrid", {"query": query, "top_k": 10},
                               content_type="application/json", **bearer(secret))
        assert response.status_code == 200
        return _keyword_found(response.json())

    # The synonym's term matched in the other script: the query is expanded to 返金.
    assert refund.pk in keyword_found(typed)
    # And the expansion, written in one script, finds entries written in both.
    assert {entries["traditional"].pk, entries["simplified"].pk} <= keyword_found("返金")
    assert entries["draft"].pk not in keyword_found("返金")


@pytest.mark.parametrize("phrase, typed", [("退貨", "退货"), ("退货", "退貨"), ("りんご", "リンゴ")])
@pytest.mark.parametrize("kind", ["search_entries", "hybrid_search"])
def test_a_promotion_pinned_in_one_script_answers_the_other(client, shop, phrase, typed, kind):
    workspace, entries, _ = shop
    services.promotion_create(workspace=workspace, phrase=phrase, entry=entries["latin"])
    _, secret = api_key_make(workspace)
    path = {"search_entries": "entries", "hybrid_search": "hybrid"}[kind]

    if kind == "search_entries":
        response = client.get(f"/api/v1/workspaces/acme/search/{path}", {"q": typed}, **bearer(secret))
    else:
        response = client.post(f"/api/v1/workspaces/acme/search/{path}", {"query": typed, "top_k": 5},
                               content_type="application/json", **bearer(secret))

    body = response.json()
    first = body["results"][0] if kind == "search_entries" else body["sources"][0]
    first_id = first["id"] if kind == "search_entries" else first["metadata"]["entry_id"]
    assert (first_id, first.get("promoted")) == (entries["latin"].pk, True)


def test_a_promotion_pinned_to_a_draft_stays_hidden_in_the_other_script(client, shop):
    workspace, entries, _ = shop
    services.promotion_create(workspace=workspace, phrase="退貨", entry=entries["draft"])
    _, secret = api_key_make(workspace)

    response = client.get("/api/v1/workspaces/acme/search/entries", {"q": "退货"}, **bearer(secret))

    assert entries["draft"].pk not in {hit["id"] for hit in response.json()["results"]}


def test_a_promotion_keeps_its_phrase_as_typed_and_matches_by_its_folded_key(shop):
    workspace, entries, _ = shop

    services.promotion_create(workspace=workspace, phrase=" 退貨\u3000 政策 ", entry=entries["latin"])

    assert list(Promotion.objects.values_list("phrase", "phrase_key")) == [("退貨 政策", "退货 政策")]


def test_pinning_the_same_entry_to_the_phrase_in_the_other_script_is_refused(shop):
    workspace, entries, _ = shop
    services.promotion_create(workspace=workspace, phrase="退貨", entry=entries["latin"])

    with pytest.raises(ValidationError) as refused:
        services.promotion_create(workspace=workspace, phrase="退货", entry=entries["latin"])

    assert list(refused.value.message_dict) == ["entry"]
    assert Promotion.objects.count() == 1


def test_refold_rekeys_promotions_keeps_their_phrases_and_merges_twins(shop):
    workspace, entries, _ = shop
    services.promotion_create(workspace=workspace, phrase="退貨", entry=entries["latin"])
    # A pin keyed by an older rule (its key stale), and its twin under today's rule: one stays.
    Promotion.objects.create(workspace=workspace, phrase="退货", phrase_key="stale", entry=entries["latin"], position=5)
    Promotion.objects.create(workspace=workspace, phrase="りんご", phrase_key="りんご", entry=entries["latin"])

    entries_refold()

    assert sorted(Promotion.objects.values_list("phrase", "phrase_key", "position")) == [
        ("りんご", "リンゴ", 0), ("退貨", "退货", 0)]


# --- the promotions admin -------------------------------------------------------------------------


@pytest.fixture
def promotion_admin_page(client, shop):
    """A promotion added through the admin's form as an editor typed it, 退貨; the editor logged in."""
    workspace, entries, _ = shop
    editor = UserFactory(username="editor")
    MembershipFactory(user=editor, workspace=workspace, role="editor")
    client.force_login(editor)
    response = client.post("/admin/cms/promotion/add/", {
        "workspace": workspace.pk, "phrase": "退貨", "match": "is", "entry": entries["latin"].pk, "position": 0})
    assert response.status_code == 302, response.content.decode()[:2000]
    return Promotion.objects.get()


def _phrase_shown(html: str) -> str:
    return re.search(r'<input type="text" name="phrase" value="([^"]*)"', html).group(1)


def test_the_promotions_list_and_change_page_show_the_phrase_as_typed(client, promotion_admin_page):
    listed = client.get("/admin/cms/promotion/").content.decode()
    changed = client.get(f"/admin/cms/promotion/{promotion_admin_page.pk}/change/").content.decode()

    assert re.search(r'<th class="field-phrase"><a href="[^"]*">退貨</a></th>', listed), listed
    assert _phrase_shown(changed) == "退貨"
    assert "退货" not in listed and "退货" not in changed


@pytest.mark.parametrize("typed", ["退货", "退貨"])
def test_a_promotion_added_in_the_admin_answers_both_scripts(client, shop, promotion_admin_page, typed):
    workspace, entries, _ = shop
    _, secret = api_key_make(workspace)

    response = client.get("/api/v1/workspaces/acme/search/entries", {"q": typed}, **bearer(secret))

    first = response.json()["results"][0]
    assert (first["id"], first.get("promoted")) == (entries["latin"].pk, True)


def test_changing_a_promotion_in_the_admin_keeps_the_new_phrase_and_rekeys_it(client, shop, promotion_admin_page):
    workspace, entries, _ = shop

    response = client.post(f"/admin/cms/promotion/{promotion_admin_page.pk}/change/", {
        "workspace": workspace.pk, "phrase": "りんご", "match": "is", "entry": entries["latin"].pk, "position": 0})

    assert response.status_code == 302, response.content.decode()[:2000]
    assert list(Promotion.objects.values_list("phrase", "phrase_key")) == [("りんご", "リンゴ")]


def test_the_admin_refuses_a_phrase_whose_key_is_too_long_beside_the_phrase(client, shop, promotion_admin_page):
    workspace, entries, _ = shop

    response = client.post("/admin/cms/promotion/add/", {  # 60 characters, 240 once NFKC makes ㌀ アパート
        "workspace": workspace.pk, "phrase": "㌀" * 60, "match": "is", "entry": entries["latin"].pk, "position": 1})

    assert response.status_code == 200
    assert "at most 200 characters" in response.content.decode()
    assert Promotion.objects.count() == 1


def test_the_admin_refuses_a_second_pin_of_the_entry_in_the_other_script(client, shop, promotion_admin_page):
    workspace, entries, _ = shop

    response = client.post("/admin/cms/promotion/add/", {
        "workspace": workspace.pk, "phrase": "退货", "match": "is", "entry": entries["latin"].pk, "position": 1})

    assert response.status_code == 200
    assert "“Refund policy” is already pinned to “退货”." in response.content.decode()
    assert Promotion.objects.count() == 1


# --- the admin search page ------------------------------------------------------------------------


@pytest.mark.parametrize("typed, written", VARIANTS)
def test_admin_full_text_page_finds_and_marks_the_other_script(client, shop, typed, written):
    workspace, entries, _ = shop
    user = UserFactory(username="viewer")
    MembershipFactory(user=user, workspace=workspace, role="viewer")
    client.force_login(user)

    html = client.get("/admin/search/acme/", {"q": typed, "mode": "fulltext"}).content.decode()

    marked = set(re.findall(r"<mark>(.*?)</mark>", html))
    assert written in marked
    assert "草稿" not in html and "Globex" not in html


def test_the_refold_command_refolds_entries_and_keyword_postings(shop):
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("refold", "--batch-size", "3", stdout=out)

    assert re.fullmatch(r"Refolded \d+ entries and \d+ chunks' keyword postings\.\n", out.getvalue())
    assert f"Refolded {Entry.objects.count()} entries" in out.getvalue()
