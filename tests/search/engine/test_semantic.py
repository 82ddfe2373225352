"""semantic_search: ranking by meaning over chunks, on the real database with the real local model."""

from __future__ import annotations

import numpy as np
import pytest
from django.db import connection

from ingestion.models import ChunkStatus
from search.contract.errors import SearchError
from search.engine.semantic import semantic_search
from search.engine.legs.vector_leg import vector_candidates_sql
from tests.factories import ContentTypeFactory, full_access
from tests.search.semantic_helpers import LOCAL_MODEL, REFUND_EN, chunk_make, chunks_make, embed, entry_for, plain_type

pytestmark = pytest.mark.django_db

REFUND_JA = "返品について：商品到着後30日以内であれば返品を受け付け、代金を全額返金いたします。"
DISTRACTORS_EN = [
    "The office is closed on public holidays and weekends.",
    "Shipping usually takes three to five business days.",
    "Reset your password from the account settings page.",
    "Our engineering team is hiring backend developers.",
]
DISTRACTORS_JA = [
    "会議室の予約は前日までにお願いします。",
    "新製品の発表会は来月東京で開催されます。",
    "パスワードはアカウント設定画面から変更できます。",
    "本日は晴天なり、富士山がよく見えます。",
]


@pytest.fixture
def article(workspace):
    return plain_type(workspace)


def _titles(result) -> list[str]:
    return [hit.text for hit in result.hits]


def test_japanese_query_finds_english_refund_chunk(local_embeddings, workspace, article):
    entry = entry_for(article, title="Help")
    chunks_make(entry, [REFUND_EN, *DISTRACTORS_EN, *DISTRACTORS_JA])

    result = semantic_search(access=full_access(workspace), query="返品", top_k=3)

    assert result.hits[0].text == REFUND_EN


def test_english_query_finds_japanese_refund_chunk(local_embeddings, workspace, article):
    entry = entry_for(article, title="ヘルプ")
    chunks_make(entry, [REFUND_JA, *DISTRACTORS_JA, *DISTRACTORS_EN])

    result = semantic_search(access=full_access(workspace), query="refund", top_k=3)

    assert result.hits[0].text == REFUND_JA


def test_scores_are_cosine_similarity_best_first(local_embeddings, workspace, article):
    entry = entry_for(article)
    chunks_make(entry, [REFUND_EN, *DISTRACTORS_EN])

    result = semantic_search(access=full_access(workspace), query="How do I get my money back?", top_k=5)

    query_vector = np.array(local_embeddings.embed_query("How do I get my money back?"))
    expected = [float(np.dot(query_vector, np.array(embed([hit.text])[0]))) for hit in result.hits]
    assert [hit.score for hit in result.hits] == pytest.approx(expected, abs=1e-5)
    assert [hit.score for hit in result.hits] == sorted((hit.score for hit in result.hits), reverse=True)


def test_min_score_drops_chunks_below_the_threshold(local_embeddings, workspace, article):
    entry = entry_for(article)
    chunks_make(entry, [REFUND_EN, *DISTRACTORS_EN])
    # The candidates too: rows under the relevance floor after the first are not results (issue 51).
    everything = semantic_search(access=full_access(workspace), query="refund policy", top_k=10, raw_chunks=True,
                                 include_candidates=True)
    threshold = (everything.hits[0].score + everything.hits[1].score) / 2

    result = semantic_search(access=full_access(workspace), query="refund policy", top_k=10, min_score=threshold,
                             raw_chunks=True)

    assert _titles(result) == [REFUND_EN]


def test_top_k_caps_the_number_of_results(local_embeddings, workspace, article):
    chunks_make(entry_for(article), [REFUND_EN, *DISTRACTORS_EN])

    result = semantic_search(access=full_access(workspace), query="refund", top_k=2, raw_chunks=True,
                             include_candidates=True)

    assert len(result.hits) == 2


def test_pending_and_failed_chunks_are_not_searched(local_embeddings, workspace, article):
    entry = entry_for(article)
    chunk_make(entry, REFUND_EN)
    chunk_make(entry, "Pending refund text not yet embedded.", status=ChunkStatus.PENDING)
    chunk_make(entry, "Failed refund text.", status=ChunkStatus.FAILED)

    result = semantic_search(access=full_access(workspace), query="refund", top_k=10)

    assert _titles(result) == [REFUND_EN]


def test_vectors_of_another_model_are_not_searched(local_embeddings, workspace, article):
    entry = entry_for(article)
    chunk_make(entry, REFUND_EN)
    # Same dimensions, other model: its vectors live in another space and must not mix in.
    chunk_make(entry, "Refunds are issued within a week.", model="some-other-model")

    result = semantic_search(access=full_access(workspace), query="refund", top_k=10)

    assert _titles(result) == [REFUND_EN]
    assert result.model == LOCAL_MODEL


def test_pending_count_is_reported_in_meta(local_embeddings, workspace, other_workspace, article):
    entry = entry_for(article)
    chunk_make(entry, REFUND_EN)
    chunk_make(entry, "first pending", status=ChunkStatus.PENDING)
    chunk_make(entry, "second pending", status=ChunkStatus.PENDING)
    chunk_make(entry_for(plain_type(other_workspace)), "other tenant pending", status=ChunkStatus.PENDING)

    meta = semantic_search(access=full_access(workspace), query="refund").as_dict()["meta"]

    assert meta["pending"] == 2
    assert meta["model"] == LOCAL_MODEL
    assert meta["dimensions"] == 512


def test_other_workspaces_chunks_are_never_returned(local_embeddings, workspace, other_workspace, article):
    chunk_make(entry_for(article), DISTRACTORS_EN[0])
    chunk_make(entry_for(plain_type(other_workspace)), REFUND_EN)

    # min_confidence 0: the distractor is no good match for the query, and shown all the same.
    result = semantic_search(access=full_access(workspace), query="refund policy", top_k=100, min_confidence=0)

    assert _titles(result) == [DISTRACTORS_EN[0]]


def test_no_provider_is_not_configured_error(no_embeddings, workspace):
    with pytest.raises(SearchError) as caught:
        semantic_search(access=full_access(workspace), query="refund")

    assert caught.value.code == "not_configured"
    assert caught.value.status == 503
    assert "EMBEDDING_PROVIDER" in caught.value.message


def test_content_type_narrows_to_that_type(local_embeddings, workspace, article):
    faq = ContentTypeFactory(workspace=workspace, api_id="faq")
    chunk_make(entry_for(article), REFUND_EN)
    chunk_make(entry_for(faq), "Refunds take five days to reach your card.")

    result = semantic_search(access=full_access(workspace), query="refund", content_type="faq")

    assert _titles(result) == ["Refunds take five days to reach your card."]


def test_unknown_content_type_is_an_error(local_embeddings, workspace, other_workspace):
    plain_type(other_workspace)  # exists, but in another workspace
    with pytest.raises(SearchError) as caught:
        semantic_search(access=full_access(workspace), query="refund", content_type="article")

    assert caught.value.code == "unknown_content_type"


def test_relevant_context_joins_titles_and_text_best_first(local_embeddings, workspace, article):
    chunk_make(entry_for(article, title="Returns"), REFUND_EN)
    chunk_make(entry_for(article, title="Jobs"), DISTRACTORS_EN[3])

    context = semantic_search(access=full_access(workspace), query="refund", top_k=2,
                              include_candidates=True).relevant_context

    assert context == f"[1] Returns\n{REFUND_EN}\n\n[2] Jobs\n{DISTRACTORS_EN[3]}"


def test_sources_carry_metadata_and_no_vector_by_default(local_embeddings, workspace, article):
    entry = entry_for(article, title="Returns")
    chunk = chunk_make(entry, REFUND_EN)

    source = semantic_search(access=full_access(workspace), query="refund").as_dict()["sources"][0]

    assert "vector" not in source
    assert source["id"] == chunk.id
    assert source["document"] == REFUND_EN
    assert source["metadata"] == {
        "workspace": "acme", "entry_id": entry.id, "content_type": "article", "title": "Returns",
        "field": "body", "ordinal": chunk.ordinal, "status": "published", "source_kind": "entry",
    }


def test_include_vectors_returns_the_stored_vector(local_embeddings, workspace, article):
    chunk_make(entry_for(article), REFUND_EN)

    source = semantic_search(access=full_access(workspace), query="refund", include_vectors=True).as_dict()["sources"][0]

    assert source["vector"] == pytest.approx(embed([REFUND_EN])[0], abs=1e-6)


def test_include_sources_false_omits_sources(local_embeddings, workspace, article):
    chunk_make(entry_for(article), REFUND_EN)

    body = semantic_search(access=full_access(workspace), query="refund", include_sources=False).as_dict()

    assert "sources" not in body
    assert REFUND_EN in body["relevant_context"]


def test_search_makes_a_fixed_number_of_queries(local_embeddings, workspace, article, django_assert_num_queries):
    chunks_make(entry_for(article), [REFUND_EN, *DISTRACTORS_EN])
    # The workspace's active model, set_config, the search, the pending count (+ the savepoint
    # pair the test transaction adds), and the promotions lookup (search/engine/promotions.py, with its
    # own savepoint pair inside the test transaction), and which entries hold every word of the
    # keyword query (search/engine/words_held.py, one statement in its savepoint pair). The query's
    # usage is counted, not written: the process's usage flush writes it later (ingestion/services/usage.py).
    with django_assert_num_queries(12):
        semantic_search(access=full_access(workspace), query="refund")


def _explain(workspace, article_filter_sql: str = "TRUE") -> str:
    from search.engine.filters.compile import CompiledFilter
    from search.engine.legs.vector_leg import vector_candidates_params

    vector_text = "[" + ",".join(repr(x) for x in embed(["refund"])[0]) + "]"
    sql = vector_candidates_sql(dimensions=512, where_sql=article_filter_sql, include_vectors=False, bounded=False)
    params = vector_candidates_params(vector_text=vector_text, workspace_id=workspace.pk, model_name=LOCAL_MODEL,
                                      where=CompiledFilter(article_filter_sql, []), limit=10, max_distance=None)
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true)")
        cursor.execute("EXPLAIN " + sql, params)
        return "\n".join(row[0] for row in cursor.fetchall())


def test_explain_shows_the_hnsw_index(local_embeddings, workspace, article):
    chunks_make(entry_for(article), [REFUND_EN, *DISTRACTORS_EN, *DISTRACTORS_JA])
    with connection.cursor() as cursor:
        # A handful of rows is cheaper to scan and sort, so the planner would rightly skip
        # the index; costing the alternatives out shows the query *can* be served by it,
        # i.e. that its ORDER BY and model predicate match the index expression exactly.
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("SET LOCAL enable_sort = off")

    plan = _explain(workspace)

    assert "Index Scan using chunk_vector_hnsw_use_multilingual_v3" in plan


def test_filtered_query_still_returns_top_k(local_embeddings, workspace, article, monkeypatch):
    monkeypatch.setattr("search.engine.legs.vector_leg.EXACT_MAX_ROWS", 0)  # the HNSW walk, however few rows match
    entry = entry_for(article)
    topics = ["billing", "shipping", "returns", "privacy", "accounts", "security", "pricing", "support"]
    texts = [f"Article {i} about {topics[i % len(topics)]} and item number {i}." for i in range(240)]
    embed(texts)
    for i, text in enumerate(texts):
        # One chunk in twelve carries the tag: 20 matches, scattered over the graph.
        chunk_make(entry, text, fields={"version": 1 if i % 12 == 0 else 2})
    with connection.cursor() as cursor:
        # Force the HNSW path (see test_explain_shows_the_hnsw_index): the point is that the
        # index scan keeps going past ef_search candidates until top_k rows pass the filter.
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("SET LOCAL enable_sort = off")

    result = semantic_search(access=full_access(workspace), query="refund", top_k=15, ef_search=10,
                             filter={"version": 1}, raw_chunks=True,  # the vector leg's chunks, one entry
                             min_confidence=0)  # no article is about refunds: shown all the same

    assert len(result.hits) == 15
    assert all(hit.metadata["fields"]["version"] == 1 for hit in result.hits)
    assert not any(hit.exact for hit in result.hits)  # the index scan itself delivered them


def test_short_index_scan_falls_back_to_exact_ranking(local_embeddings, workspace, article, monkeypatch):
    entry = entry_for(article)
    texts = [f"Policy note {i}: refunds, returns and exchanges, case {i}." for i in range(120)]
    embed(texts)
    for i, text in enumerate(texts):
        chunk_make(entry, text, fields={"version": 1 if i % 10 == 0 else 2})
    # ef_search 10 without the iterative scan: the walk yields 10 candidates, about one of
    # them rare, so the index path alone comes back short (as a walk cut off by
    # hnsw.max_scan_tuples or by dead elements would).
    monkeypatch.setattr("search.engine.legs.vector_leg.EXACT_MAX_ROWS", 0)  # the HNSW walk, however few rows match
    monkeypatch.setattr("search.engine.legs.vector_leg.search_settings",
                        lambda ef_search: {"hnsw.ef_search": str(ef_search)})
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("SET LOCAL enable_sort = off")

    result = semantic_search(access=full_access(workspace), query="refund", top_k=10, ef_search=10, filter={"version": 1},
                             raw_chunks=True)

    assert all(hit.exact for hit in result.hits)
    rare = [texts[i] for i in range(0, 120, 10)]
    query_vector = np.array(local_embeddings.embed_query("refund"))
    scores = sorted((float(np.dot(query_vector, np.array(embed([t])[0]))) for t in rare), reverse=True)
    # Exactly the ten best of the twelve rare chunks (compared by score: some nearly tie).
    assert [hit.score for hit in result.hits] == pytest.approx(scores[:10], abs=1e-5)
    assert all(hit.exact for hit in result.hits)
    assert result.as_dict()["meta"]["exact_fallback"] is True


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"query": ""}, "query_empty"),
        ({"query": "   \n"}, "query_empty"),
        ({"query": "x" * 2001}, "query_too_long"),
        ({"query": "refund\x00"}, "query_invalid_character"),
        ({"query": 42}, "query_invalid"),
        ({"query": "refund", "top_k": 0}, "top_k_out_of_range"),
        ({"query": "refund", "top_k": 101}, "top_k_out_of_range"),
        ({"query": "refund", "top_k": True}, "top_k_invalid"),
        ({"query": "refund", "min_score": 1.5}, "min_score_out_of_range"),
        ({"query": "refund", "ef_search": 5}, "ef_search_out_of_range"),
        ({"query": "refund", "ef_search": 5000}, "ef_search_out_of_range"),
        ({"query": "refund", "filter": ["status"]}, "invalid_filter"),
        ({"query": "refund", "filter": {"status": {"$regex": "^pub"}}}, "unknown_operator"),
        ({"query": "refund", "filter": {"author name": "x"}}, "unknown_filter_key"),
        ({"query": "refund", "filter": {"version": {"$gt": "two"}}}, "filter_type_mismatch"),
    ],
)
def test_bad_input_is_a_coded_error(local_embeddings, workspace, article, kwargs, code):
    with pytest.raises(SearchError) as caught:
        semantic_search(access=full_access(workspace), **kwargs)

    assert caught.value.code == code
    assert caught.value.status == 400


def test_query_of_exactly_2000_characters_is_accepted(local_embeddings, workspace, article):
    chunk_make(entry_for(article), REFUND_EN)

    result = semantic_search(access=full_access(workspace), query="refund " * 285 + "refun")

    assert len(result.hits) == 1
