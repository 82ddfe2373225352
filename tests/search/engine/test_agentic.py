"""agentic_search: compound questions searched part by part on the real database and pipeline,
every part in the top k, reranked against the whole question, and the fallback to hybrid."""

from __future__ import annotations

import pytest
from pytest_httpserver import HTTPServer

from cms.access import workspace_access_for_operator
from ingestion.embeddings import reset_rerank_backends
from ingestion.embeddings.fake import FakeRerankBackend
from ingestion.models import EmbeddingUsage
from ingestion.services.usage import usage_flush
from ingestion.services import chunks_embed_pending
from search.engine.agentic import MAX_QUERIES, agentic_search, merge_rankings
from search.engine.decompose import BaseDecomposer
from search.contract.errors import SearchError
from search.engine.legs.fusion import Candidate
from search.engine.hybrid import hybrid_search
from tests.factories import ContentTypeFactory, WorkspaceFactory, entry_make, full_access
from tests.ingestion.fake_voyage import API_KEY, FakeVoyage
from tests.module_rows import rows_for_the_module

pytestmark = pytest.mark.django_db

# One half (the password) says much more, in words many chunks share: the whole question's
# ranking is all password chunks, and the refund chunk drops out of the top k.
QUESTION = ("How do I reset my account password when the emailed password reset link has expired, "
            "and what is the refund window?")
PARTS = ["How do I reset my account password when the emailed password reset link has expired?",
         "What is the refund window?"]
TOP_K = 3
REFUND = "Refund window"


@pytest.fixture(scope="module")
def _docs_rows(django_db_setup, django_db_blocker):
    """acme's 27 entries (their chunks written, not embedded), made once for the module's tests (each
    test's transaction rolls back its own, tests/module_rows.py); `embedded` embeds them per test."""
    def build():
        doc_type = ContentTypeFactory(workspace=WorkspaceFactory(slug="acme"), api_id="doc",
                                      semantic_search_enabled=True)
        for i in range(6):
            entry_make(doc_type, title=f"Password reset {i}",
                       body=f"<p>Reset your account password: a password reset link is emailed to you. An expired "
                       f"reset link can be emailed again from the account page (step {i}).</p>")
        entry_make(doc_type, title=REFUND, body="<p>The refund window is 30 days from delivery.</p>")
        for i in range(20):
            entry_make(doc_type, title=f"Note {i}", body=f"<p>Ordinary words about orders, number {i}.</p>")
        return doc_type

    yield from rows_for_the_module(django_db_blocker, build)


@pytest.fixture
def workspace(_docs_rows):
    return _docs_rows.workspace


@pytest.fixture
def docs(_docs_rows):
    return _docs_rows


@pytest.fixture
def keyword_only(no_embeddings, docs):
    return docs


@pytest.fixture
def embedded(local_embeddings, docs, workspace):
    chunks_embed_pending(workspace=workspace)
    return docs


def titles(result) -> list[str]:
    return [hit.title for hit in result.hits]


# --- every part in the top k ---------------------------------------------------------------------

def test_the_dominated_part_drops_out_of_hybrids_top_k(keyword_only, workspace):
    # The premise of the tests below, checked on this data.
    assert REFUND not in titles(hybrid_search(access=full_access(workspace), query=QUESTION, top_k=TOP_K))


def test_every_part_contributes_to_the_top_k(keyword_only, workspace):
    # The merge of the parts' chunks (part_results counts chunks placed), as raw chunks show it.
    result = agentic_search(access=full_access(workspace), query=QUESTION, top_k=TOP_K, raw_chunks=True)

    meta = result.extra_meta
    assert (meta["path"], meta["parts"], meta["fallback_reason"]) == ("agentic", PARTS, None)
    assert meta["parts_source"] == "decomposer:rules"
    assert titles(result)[1] == REFUND  # the second part's turn
    assert [p["returned"] for p in meta["part_results"]] == [2, 1]
    assert len(result.hits) == TOP_K


def test_every_part_contributes_with_the_vector_leg_too(embedded, workspace):
    result = agentic_search(access=full_access(workspace), query=QUESTION, top_k=TOP_K)

    assert REFUND in titles(result)
    assert result.extra_meta["legs_used"] == ["keyword", "semantic"]
    assert all(p["legs_used"] == ["keyword", "semantic"] for p in result.extra_meta["part_results"])


def test_the_parts_query_vectors_are_one_provider_call(embedded, workspace):
    before = EmbeddingUsage.objects.filter(workspace=workspace).values_list("requests", "texts").first() or (0, 0)

    agentic_search(access=full_access(workspace), query=QUESTION)
    usage_flush()

    after = EmbeddingUsage.objects.filter(workspace=workspace).values_list("requests", "texts").first()
    assert (after[0] - before[0], after[1] - before[1]) == (1, 2)


def test_a_chunk_both_parts_find_is_listed_once(keyword_only, workspace):
    result = agentic_search(access=full_access(workspace), query="x", queries=["refund window", "refund 30 days"],
                            top_k=10)

    ids = [hit.id for hit in result.hits]
    assert len(ids) == len(set(ids))
    assert titles(result).count(REFUND) == 1


def test_sources_keep_the_legs_of_the_part_that_placed_them(keyword_only, workspace):
    result = agentic_search(access=full_access(workspace), query=QUESTION, top_k=TOP_K)

    refund = next(hit for hit in result.hits if hit.title == REFUND)
    assert refund.legs["keyword"]["rank"] == 1
    assert refund.score == refund.legs["fused"]["score"]


# --- the caller's parts --------------------------------------------------------------------------

def test_queries_given_by_the_caller_are_the_parts(keyword_only, workspace):
    result = agentic_search(access=full_access(workspace), query="password and refunds",
                            queries=["  reset password link expired ", "refund window"], top_k=TOP_K)

    meta = result.extra_meta
    assert (meta["path"], meta["parts_source"]) == ("agentic", "request")
    assert meta["parts"] == ["reset password link expired", "refund window"]
    assert titles(result)[1] == REFUND


def test_one_caller_part_different_from_the_question_is_searched_as_given(keyword_only, workspace):
    result = agentic_search(access=full_access(workspace), query="what about returns?", queries=["refund window"])

    assert result.extra_meta["path"] == "agentic"
    assert titles(result)[0] == REFUND


@pytest.mark.parametrize(
    ("queries", "code"),
    [
        ("refund", "queries_invalid"),
        ({"a": 1}, "queries_invalid"),
        ([], "queries_empty"),
        (["refund", "  "], "queries_empty"),
        (["refund", 3], "queries_invalid"),
        (["x"] * (MAX_QUERIES + 1), "queries_too_many"),
        (["a" * 2001], "queries_too_long"),
        (["ref\x00und"], "queries_invalid_character"),
    ],
)
def test_bad_queries_are_coded_400s(keyword_only, workspace, queries, code):
    with pytest.raises(SearchError) as caught:
        agentic_search(access=full_access(workspace), query=QUESTION, queries=queries)

    assert (caught.value.code, caught.value.status) == (code, 400)


@pytest.mark.parametrize(
    ("options", "code"),
    [({"query": "  "}, "query_empty"), ({"query": QUESTION, "fusion": "max"}, "fusion_invalid"),
     ({"query": QUESTION, "top_k": 0}, "top_k_out_of_range"),
     ({"query": QUESTION, "filter": {"$where": 1}}, "unknown_operator")],
)
def test_the_whole_requests_errors_are_hybrids(keyword_only, workspace, options, code):
    with pytest.raises(SearchError) as hybrid_error:
        hybrid_search(access=full_access(workspace), **options)
    with pytest.raises(SearchError) as agentic_error:
        agentic_search(access=full_access(workspace), **options)

    assert (agentic_error.value.code, agentic_error.value.status) == (hybrid_error.value.code,
                                                                      hybrid_error.value.status) == (code, 400)


# --- a question that does not split ------------------------------------------------------------

@pytest.mark.parametrize("question", ["What is the refund window?", "返品の期限", "password reset link"])
def test_a_single_question_ranks_exactly_like_hybrid(embedded, workspace, question):
    hybrid = hybrid_search(access=full_access(workspace), query=question, top_k=10)

    result = agentic_search(access=full_access(workspace), query=question, top_k=10)

    assert [(h.id, h.score, h.legs) for h in result.hits] == [(h.id, h.score, h.legs) for h in hybrid.hits]
    meta = result.extra_meta
    assert (meta["path"], meta["parts"], meta["fallback_reason"]) == ("standard", [question], None)
    assert {k: v for k, v in meta.items() if k not in ("search", "path", "parts", "parts_source", "fallback_reason")
            } == {k: v for k, v in hybrid.extra_meta.items() if k != "search"}


def test_the_caller_giving_the_question_itself_is_hybrid(keyword_only, workspace):
    hybrid = hybrid_search(access=full_access(workspace), query=QUESTION, top_k=TOP_K)

    result = agentic_search(access=full_access(workspace), query=QUESTION, queries=[QUESTION], top_k=TOP_K)

    assert [h.id for h in result.hits] == [h.id for h in hybrid.hits]
    assert (result.extra_meta["path"], result.extra_meta["parts_source"]) == ("standard", "request")


# --- fallback -------------------------------------------------------------------------------------

class BrokenDecomposer(BaseDecomposer):
    name = "broken"

    def decompose(self, question: str) -> list[str]:
        raise RuntimeError("the model is down")


class EmptyDecomposer(BaseDecomposer):
    name = "empty"

    def decompose(self, question: str) -> list[str]:
        return []


@pytest.mark.parametrize("decomposer", ["BrokenDecomposer", "EmptyDecomposer"])
def test_a_failing_decomposer_falls_back_to_the_whole_question(keyword_only, workspace, settings, decomposer):
    settings.SEARCH_DECOMPOSER = f"tests.search.test_agentic.{decomposer}"
    hybrid = hybrid_search(access=full_access(workspace), query=QUESTION, top_k=TOP_K)

    result = agentic_search(access=full_access(workspace), query=QUESTION, top_k=TOP_K)

    assert [h.id for h in result.hits] == [h.id for h in hybrid.hits]
    meta = result.extra_meta
    assert (meta["path"], meta["parts"]) == ("standard", [QUESTION])
    assert (meta["fallback_reason"]["stage"], meta["fallback_reason"]["code"]) == ("decompose", "decomposition_failed")


def test_a_failing_part_falls_back_to_the_whole_question(keyword_only, workspace):
    # The second part has no searchable word, and with no embedding provider no leg can search it.
    hybrid = hybrid_search(access=full_access(workspace), query=QUESTION, top_k=TOP_K)

    result = agentic_search(access=full_access(workspace), query=QUESTION, queries=["refund window", "and the?"],
                            top_k=TOP_K)

    assert [h.id for h in result.hits] == [h.id for h in hybrid.hits]
    reason = result.extra_meta["fallback_reason"]
    assert (result.extra_meta["path"], reason["stage"], reason["code"]) == ("standard", "part", "no_searchable_terms")
    assert reason["parts"] == ["refund window", "and the?"] and "part 2" in reason["message"]


def test_a_failure_the_whole_question_shares_is_hybrids_error(keyword_only, workspace):
    with pytest.raises(SearchError) as hybrid_error:
        hybrid_search(access=full_access(workspace), query="and the? or the?")
    with pytest.raises(SearchError) as agentic_error:
        agentic_search(access=full_access(workspace), query="and the? or the?", queries=["and the?", "or the?"])

    assert agentic_error.value.code == hybrid_error.value.code == "no_searchable_terms"


def test_without_a_vector_leg_every_part_degrades_like_hybrid_instead_of_failing(keyword_only, workspace):
    result = agentic_search(access=full_access(workspace), query=QUESTION, top_k=TOP_K)

    meta = result.extra_meta
    assert (meta["path"], meta["legs_used"]) == ("agentic", ["keyword"])
    assert meta["degraded"]["semantic"]["code"] == "not_configured"
    assert REFUND in titles(result)


# --- rerank ---------------------------------------------------------------------------------------

@pytest.fixture
def rerank_settings(settings):
    def use(config: dict | None) -> None:
        settings.SEARCH_RERANK_BACKENDS = {"default": config}
        reset_rerank_backends()

    yield use
    reset_rerank_backends()


@pytest.fixture
def voyage_rerank(rerank_settings):
    server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
    server.start()
    fake = FakeVoyage()
    server.expect_request("/v1/rerank", method="POST").respond_with_handler(fake)
    rerank_settings({
        "BACKEND": "ingestion.embeddings.voyage_rerank.VoyageRerankBackend",
        "OPTIONS": {"api_key": API_KEY, "base_url": f"http://127.0.0.1:{server.port}/v1", "timeout": 5.0,
                    "max_retries": 2, "retry_base_delay": 0.01},
    })
    yield fake
    server.clear()
    server.stop()


def test_rerank_orders_the_merged_parts_against_the_whole_question(keyword_only, workspace, voyage_rerank):
    result = agentic_search(access=full_access(workspace), query=QUESTION, top_k=TOP_K, rerank=True)

    meta = result.extra_meta
    assert (meta["path"], meta["rerank"]["model"]) == ("agentic", "rerank-2.5")
    assert voyage_rerank.bodies[0]["query"] == QUESTION
    assert len(voyage_rerank.bodies) == 1
    assert REFUND in titles(result)  # the reranker orders each part's chunks; it cannot drop a part


def test_a_failing_reranker_falls_back_to_hybrid_without_the_rerank(keyword_only, workspace, voyage_rerank):
    voyage_rerank.script = [("status", 500)] * 3  # the first try and both retries
    hybrid = hybrid_search(access=full_access(workspace), query=QUESTION, top_k=TOP_K)

    result = agentic_search(access=full_access(workspace), query=QUESTION, top_k=TOP_K, rerank=True)

    meta = result.extra_meta
    assert (meta["path"], meta["fallback_reason"]["stage"]) == ("standard", "rerank")
    assert meta["fallback_reason"]["code"] == "provider_unavailable"
    assert "rerank" not in meta
    assert [h.id for h in result.hits] == [h.id for h in hybrid.hits]
    assert len(voyage_rerank.bodies) == 3  # the fallback did not ask the failing reranker again


def test_rerank_with_no_reranker_is_hybrids_503(keyword_only, workspace, rerank_settings):
    rerank_settings(None)

    with pytest.raises(SearchError) as caught:
        agentic_search(access=full_access(workspace), query=QUESTION, rerank=True)

    assert (caught.value.code, caught.value.status) == ("not_configured", 503)


def test_rerank_of_a_single_question_is_hybrids(keyword_only, workspace, rerank_settings):
    rerank_settings({"BACKEND": "ingestion.embeddings.fake.FakeRerankBackend"})
    FakeRerankBackend.calls.clear()
    hybrid = hybrid_search(access=full_access(workspace), query="refund window", rerank=True)

    result = agentic_search(access=full_access(workspace), query="refund window", rerank=True)

    assert [(h.id, h.score) for h in result.hits] == [(h.id, h.score) for h in hybrid.hits]


def test_min_score_applies_to_each_parts_final_scores(keyword_only, workspace):
    result = agentic_search(access=full_access(workspace), query=QUESTION, top_k=10, min_score=0.5)

    assert result.hits and all(hit.score >= 0.5 for hit in result.hits)
    assert REFUND in titles(result)


# --- tenancy and drafts, on every part -----------------------------------------------------------

@pytest.fixture
def other_tenant(no_embeddings):
    globex = WorkspaceFactory(slug="globex")
    theirs = ContentTypeFactory(workspace=globex, api_id="doc", semantic_search_enabled=True)
    entry_make(theirs, title="Zanzibar refunds", body="<p>Zanzibar refund window: a day.</p>")
    entry_make(theirs, title="Zanzibar passwords", body="<p>Zanzibar password reset link expired.</p>")
    return globex


@pytest.mark.parametrize("queries", [None, PARTS, ["refund window", "and the?"]])
def test_no_part_reaches_another_workspace(keyword_only, other_tenant, workspace, queries):
    result = agentic_search(access=full_access(workspace), query=QUESTION, queries=queries, top_k=100)

    assert result.hits
    assert {hit.title for hit in result.hits}.isdisjoint({"Zanzibar refunds", "Zanzibar passwords"})
    assert all("zanzibar" not in hit.text.lower() for hit in result.hits)


@pytest.fixture
def drafts(keyword_only):
    entry_make(keyword_only, title="Draft refund", body="<p>Draft: the refund window becomes 60 days.</p>",
               status="draft")
    entry_make(keyword_only, title="Draft password", body="<p>Draft: password reset link expired flow.</p>",
               status="draft")


@pytest.mark.parametrize("queries", [None, PARTS, ["refund window", "and the?"]])
def test_no_part_shows_drafts_to_a_caller_without_drafts(drafts, workspace, queries):
    published_only = workspace_access_for_operator(workspace=workspace, include_drafts=False)

    result = agentic_search(access=published_only, query=QUESTION, queries=queries, top_k=100)

    assert result.hits and all(hit.metadata["status"] == "published" for hit in result.hits)


def test_each_part_shows_drafts_to_a_caller_with_drafts(drafts, workspace):
    result = agentic_search(access=full_access(workspace), query=QUESTION, top_k=100)

    assert {"Draft refund", "Draft password"} <= set(titles(result))


# --- the merge, as a pure function ----------------------------------------------------------------

def ranking(ids: list[int], top: float) -> list[tuple[Candidate, float]]:
    return [(Candidate(chunk_id=cid), top - i * 0.01) for i, cid in enumerate(ids)]


def test_round_robin_gives_each_part_its_turn_and_skips_taken_chunks():
    merged = merge_rankings([ranking([1, 2, 3, 4], 0.9), ranking([2, 5, 6], 0.1)], limit=5, method="round_robin")

    assert [(part, c.chunk_id) for part, c, _ in merged] == [(0, 1), (1, 2), (0, 3), (1, 5), (0, 4)]


def test_normalised_merge_puts_every_parts_best_first():
    merged = merge_rankings([ranking([1, 2, 3], 0.9), ranking([4, 5], 0.1)], limit=3, method="normalised")

    assert {c.chunk_id for _, c, _ in merged[:2]} == {1, 4}


def test_one_ranking_merges_to_itself():
    merged = merge_rankings([ranking([3, 1, 2], 0.5)], limit=2)

    assert [c.chunk_id for _, c, _ in merged] == [3, 1]


def test_normalised_merge_keeps_a_shared_chunk_once_at_its_best_share():
    merged = merge_rankings([ranking([1, 2], 0.9), ranking([2, 3], 0.2)], limit=3, method="normalised")

    assert [(part, c.chunk_id) for part, c, _ in merged] == [(0, 1), (1, 2), (1, 3)]
