"""Short queries, the way people search (issue 51), on the demo workspace embedded by E5: a word
that stands in the content is an answer (search/engine/words_held.py), a typo is corrected to
a word of the content and finds its entry first, a synonym reaches hybrid's first page, the
list ends where relevance ends, and insights never call existing content missing."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from cms.access import workspace_access_for_operator
from cms.models import Entry
from search.contract.results import ChunkHit
from search.engine.confidence import list_line, rows_answering
from search.engine.words_held import (WordClauses, query_reads_as_question, query_word_count, ranked_by_words,
                                      tiered_max_words)
from search.insights.insights import search_insights
from search.insights.search_log import search_log_flush
from search.kinds import SEARCH_KINDS
from tests.factories import MembershipFactory, UserFactory
from tests.search.demo_workspace import demo_seeded
from tests.search.live_app import database_flush

CHUNK_KINDS = ("hybrid_search", "agentic_search")


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        try:
            with demo_seeded() as workspace:
                yield workspace
        finally:
            database_flush()


@pytest.fixture
def editor(demo, db):
    user = UserFactory()
    MembershipFactory(user=user, workspace=demo, role="editor")
    return user


def api_post(user, mode: str, body: dict) -> dict:
    client = APIClient()
    client.force_login(user)
    response = client.post(f"/api/v1/workspaces/demo/search/{mode}", data=json.dumps(body),
                           content_type="application/json")
    assert response.status_code == 200, response.content
    return response.json()


def titles(body: dict) -> list[str]:
    return [source["metadata"]["title"] for source in body["sources"]]


@pytest.mark.parametrize("query", ["shipping", "warehouse", "Osaka", "delivery", "配送", "削除", "Kobe", "locker",
                                   "土曜日", "星期六"])
@pytest.mark.parametrize("mode", ["hybrid", "agentic"])
def test_a_word_of_the_content_is_answered_in_the_api(demo, editor, mode, query):
    body = api_post(editor, mode, {"query": query})

    assert body["meta"]["answerable"] is True, body["meta"]
    assert body["sources"] and body["sources"][0]["holds_words"] is True


@pytest.mark.parametrize("mode", ["hybrid", "agentic"])
@pytest.mark.parametrize("typed", ["shiping", "warehuose"])
def test_a_typo_finds_shipping_times_first_in_the_api(demo, editor, mode, typed):
    body = api_post(editor, mode, {"query": typed})

    assert body["meta"]["answerable"] is True
    assert titles(body)[0] == "Shipping times"
    assert body["meta"]["corrected_query"] in ("shipping", "warehouse")


def test_a_typo_is_shown_as_the_word_of_the_content(demo, editor):
    body = api_post(editor, "hybrid", {"query": "shiping"})

    assert body["meta"]["corrected_query"] == "shipping"
    assert body["meta"]["corrections"][0]["matched"] == "shipping"


def test_a_synonym_puts_shipping_times_on_hybrids_first_page(demo, editor):
    body = api_post(editor, "hybrid", {"query": "walkship"})

    assert "Shipping times" in titles(body)[:10]
    assert titles(body)[0] == "Shipping times"


def test_rows_under_the_floor_after_the_first_are_candidates_not_results(demo, editor):
    answered = api_post(editor, "hybrid", {"query": "refund"})
    candidates = api_post(editor, "hybrid", {"query": "refund", "include_candidates": True})
    line = list_line(answered["sources"][0]["confidence"], answered["meta"]["min_confidence"], answered["meta"]["model"])

    assert answered["sources"][0]["metadata"]["title"] == "Refund policy"
    assert all(s.get("holds_words") or s["confidence"] >= line for s in answered["sources"][1:])
    assert len(candidates["sources"]) > len(answered["sources"])
    assert any(not s.get("holds_words") and s["confidence"] < line for s in candidates["sources"][1:])


@pytest.mark.parametrize(("confidences", "answers"), [
    ((0.9, 0.5, 0.04, 0.01), [True, True, False, False]),    # a sure first: the floor is the line
    ((0.05, 0.03, 0.015, 0.01), [True, True, False, False]),  # a first near the floor: a share of it
    ((0.02, 0.012, 0.006, None), [True, True, False, True]),  # a first answered by its words; no confidence: kept
])
def test_a_page_ends_at_the_floor_or_near_its_first_row(confidences, answers):
    hits = [ChunkHit(id=i, score=1.0, text="", title="", field="body", ordinal=0, source_kind="entry", entry_id=i,
                     asset_id=None, metadata={}, confidence=c)
            for i, c in enumerate(confidences)]

    assert rows_answering(hits, min_confidence=0.0444, model="multilingual-e5-small") == answers


def test_uses_list_ends_near_the_floor_whatever_its_first_row():
    hits = [ChunkHit(id=i, score=1.0, text="", title="", field="body", ordinal=0, source_kind="entry", entry_id=i,
                     asset_id=None, metadata={}, confidence=c) for i, c in enumerate((0.9, 0.01, 0.004))]

    assert list_line(0.9, 0.0444, "use-multilingual-v3") == pytest.approx(0.00444)
    assert rows_answering(hits, min_confidence=0.0444, model="use-multilingual-v3") == [True, True, False]


@pytest.mark.parametrize("kind", ["hybrid_search", "agentic_search", "semantic_search"])
def test_a_query_whose_words_all_stand_in_an_entry_is_never_refused(demo, db, kind):
    """By construction: for every word of the demo's English titles, and every pair of words of
    one title, the search answers."""
    access = workspace_access_for_operator(workspace=demo, include_drafts=False)
    queries = ["shipping times", "refund policy", "password reset", "kettle", "tea cup", "Osaka warehouse"]
    refused = [q for q in queries if SEARCH_KINDS[kind].run(access, {"query": q}).extra_meta["answerable"] is False
               and kind != "semantic_search"]
    semantic_silent = [q for q in queries if kind == "semantic_search" and (
        (result := SEARCH_KINDS[kind].run(access, {"query": q})).extra_meta["answerable"] is False
        and not result.extra_meta.get("words", {}).get("entries"))]

    assert refused == [] and semantic_silent == []


def test_semantic_says_how_many_entries_hold_words_it_finds_nothing_near(demo, editor):
    body = api_post(editor, "semantic", {"query": "Osaka warehouse", "min_score": 0.99})

    assert body["meta"]["answerable"] is False and body["sources"] == []
    assert body["meta"]["words"] == {"near_in_meaning": False, "entries": 1, "at_least": False,
                                     "follow_up": {"search": "hybrid", "query": "Osaka warehouse"}}
    followed = api_post(editor, "hybrid", {"query": "Osaka warehouse"})
    assert titles(followed)[0] == "Shipping times"


def test_insights_do_not_list_shipping_searched_six_times_as_no_results(demo, editor):
    for _ in range(6):
        api_post(editor, "hybrid", {"query": "shipping"})
    search_log_flush()

    insights = search_insights(workspace=demo, days=1)

    assert "shipping" not in [q.query for q in insights.zero_result_queries]
    assert "shipping" in [q.query for q in insights.top_queries]


@pytest.mark.parametrize(("query", "question"), [
    ("shipping", False), ("Osaka warehouse", False), ("refund policy", False), ("配送", False),
    ("How many days do I have to return an item?", True), ("what is the refund policy", True),
    ("返品はできますか", True), ("星期六有冇送貨？", True), ("ハリファックス大爆発 直後", False),
])
def test_a_query_reads_as_keywords_or_a_question(query, question):
    assert query_reads_as_question(query) is question


def test_full_text_corrects_shiping_to_a_word_of_the_content(demo, editor):
    client = APIClient()
    client.force_login(editor)
    body = client.get("/api/v1/workspaces/demo/search/entries", {"q": "shiping"}).json()

    assert body["meta"]["corrected_query"] == "shipping"
    shipping_times = Entry.objects.get(workspace=demo, data__title="Shipping times").pk
    assert body["results"] and body["results"][0]["id"] == shipping_times


def test_a_suggested_completion_is_a_word_that_finds_what_it_promised(demo, editor):
    client = APIClient()
    client.force_login(editor)
    suggestions = client.get("/api/v1/workspaces/demo/search/suggest", {"q": "deliv"}).json()["suggestions"]
    words = [s["text"] for s in suggestions if s["kind"] == "term"]

    assert words == ["delivery"]
    found = client.get("/api/v1/workspaces/demo/search/entries", {"q": words[0]}).json()["results"]
    assert found


def test_where_every_row_holds_the_words_the_keyword_leg_gets_a_vote_equal_to_the_fusions():
    clauses = WordClauses(clauses=((frozenset({"ship"}),),))
    # (key, keyword rank): the fusion's order is a, b, c, d; c holds no word.
    ranked = [("a", 4), ("b", 1), ("c", None), ("d", 2)]
    held = {("entry", 1): 1, ("entry", 2): 1, ("entry", 4): 1}
    keys = {"a": ("entry", 1), "b": ("entry", 2), "c": ("entry", 3), "d": ("entry", 4)}

    plain = ranked_by_words(ranked, held, clauses, lambda item: keys[item[0]])
    voted = ranked_by_words(ranked, held, clauses, lambda item: keys[item[0]], keyword_rank_of=lambda item: item[1])

    assert [item[0] for item in plain] == ["a", "b", "d", "c"]
    # places: a 0 + 2, b 1 + 0, d 2 + 1: b first, then a and d tied at 2 and 3 apart; c's tier after.
    assert [item[0] for item in voted] == ["b", "a", "d", "c"]


def test_past_two_words_the_tiers_only_put_the_entries_holding_none_of_the_words_last():
    """One or two words: every word, then some, then none. Three or four words typed as keywords:
    only the entries holding none of them go last, and the fusion orders the rest."""
    clauses = WordClauses(clauses=((frozenset({"coronavirus"}),), (frozenset({"anim"}),), (frozenset({"symptom"}),)))
    # The fusion's order: a holds one word, b all three, c none, d two.
    ranked = ["a", "b", "c", "d"]
    held = {("entry", 1): 1, ("entry", 2): 3, ("entry", 4): 2}
    keys = {"a": ("entry", 1), "b": ("entry", 2), "c": ("entry", 3), "d": ("entry", 4)}

    assert ranked_by_words(ranked, held, clauses, keys.get, words=2) == ["b", "a", "d", "c"]
    assert ranked_by_words(ranked, held, clauses, keys.get, words=3) == ["a", "b", "d", "c"]
    # The line is each model's (its fusion orders the rest): USE keeps the tiers to four words.
    assert ranked_by_words(ranked, held, clauses, keys.get, words=3,
                           max_words=tiered_max_words("use-multilingual-v3")) == ["b", "a", "d", "c"]
    assert (tiered_max_words("multilingual-e5-small"), tiered_max_words("some-provider-model"), tiered_max_words(None)) == (
        2, 2, 2)


@pytest.mark.parametrize(("query", "per_five_characters", "runs"), [
    ("shipping", 1, 1), ("symptoms of coronavirus", 2, 2), ("coronavirus in animals symptoms", 3, 3),
    ("ホワイトハウス", 2, 1), ("退貨 政策", 2, 2), ("ハリファックス大爆発 直後", 3, 2),
])
def test_words_are_counted_without_stopwords_and_a_cjk_run_typed_whole_is_one_word(query, per_five_characters, runs):
    assert query_word_count(query, cjk_chars_per_word=5) == per_five_characters
    assert query_word_count(query, cjk_chars_per_word=None) == runs
