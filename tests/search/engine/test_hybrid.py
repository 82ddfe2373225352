"""hybrid_search: BM25 and vectors fused per chunk, on the real database, the real pipeline and the local model."""

from __future__ import annotations

import re

import pytest
from django.db import connection

from cms import services as cms_services
from cms.access import workspace_access_for_member
from cms.models import EntryStatus, Role
from ingestion.keywords import keyword_tokens
from ingestion.services import chunks_embed_pending, keyword_stats_compact
from search.engine.legs import keyword
from search.contract.errors import SearchError
from search.engine.legs.fusion import RRF_K
from search.engine.hybrid import chunk_filter, hybrid_search
from search.engine.legs.keyword import keyword_candidates_params, keyword_candidates_sql, keyword_query_prepare
from tests.factories import ContentTypeFactory, MembershipFactory, UserFactory, WorkspaceFactory, entry_make, full_access

pytestmark = pytest.mark.django_db

DOCS = {
    "Refund policy": "Refunds: return any unused item within 30 days of delivery for a full refund.",
    "Shipping times": "Parcels ship within two business days; international delivery takes up to two weeks.",
    "Password reset": "Reset your password from the account settings page, then sign in again.",
    "返品について": "返品は商品到着後30日以内に受け付けます。未使用品に限り、代金を全額返金いたします。",
    "配送について": "通常配送は二営業日以内に発送します。海外配送は最大二週間かかります。",
    "Careers": "Our engineering team is hiring backend developers who enjoy databases.",
}


@pytest.fixture
def docs(workspace):
    """One searchable content type with the DOCS, keyword-indexed at save and embedded by the local model."""
    doc_type = ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)
    entries = {title: entry_make(doc_type, title=title, body=f"<p>{body}</p>", version=i)
               for i, (title, body) in enumerate(DOCS.items())}
    return doc_type, entries


@pytest.fixture
def embedded(local_embeddings, docs, workspace):
    chunks_embed_pending(workspace=workspace)
    return docs


def titles(result) -> list[str]:
    return [hit.title for hit in result.hits]


def explain(prepared, *, where=None) -> str:
    sql = keyword_candidates_sql(where_sql=None if where is None else where.sql, rescore=prepared.truncated > 0)
    params = keyword_candidates_params(terms=prepared.terms, limits=prepared.limits,
                                       workspace_id=prepared.workspace_id, average=prepared.average_length,
                                       where=where, depth=100, rescore=prepared.truncated > 0, limit=10)
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN " + sql, params)
        return "\n".join(row[0] for row in cursor.fetchall())


# --- the keyword leg ---------------------------------------------------------------------------

@pytest.fixture
def many_docs(docs, workspace):
    """Enough postings that the planner has a real choice, then ANALYZE."""
    doc_type, _ = docs
    for i in range(60):
        entry_make(doc_type, title=f"Filler {i}", body=f"<p>Ordinary words about orders number {i}. 注文について。</p>")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE ingestion_keywordposting")


@pytest.mark.parametrize("query", ["返品", "refund"])
def test_term_lookup_is_index_backed(many_docs, workspace, query):
    prepared = keyword_query_prepare(workspace_id=workspace.pk, query=query)

    plan = explain(prepared)

    assert "keyword_posting_term_impact" in plan
    assert not re.search(r"Seq Scan on ingestion_keywordposting", plan)


def test_keyword_leg_ranks_by_bm25_without_any_provider(no_embeddings, docs, workspace):
    result = hybrid_search(access=full_access(workspace), query="refund for unused items")

    assert titles(result)[0] == "Refund policy"
    assert result.extra_meta["legs_used"] == ["keyword"]


def test_two_character_japanese_query_finds_its_chunk(no_embeddings, docs, workspace):
    result = hybrid_search(access=full_access(workspace), query="返品")

    assert titles(result) == ["返品について"]


def test_a_year_written_against_its_kanji_outranks_its_digits_and_kanji_apart(no_embeddings, docs, workspace):
    doc_type, _ = docs
    entry_make(doc_type, title="沿革", body="<p>当社は1992年に大阪で設立されました。</p>")
    entry_make(doc_type, title="1992", body="<p>1992 年 1992 年</p>")

    result = hybrid_search(access=full_access(workspace), query="1992年")

    assert titles(result)[:2] == ["沿革", "1992"]


def test_one_character_query_finds_chunks_containing_it(no_embeddings, docs, workspace):
    result = hybrid_search(access=full_access(workspace), query="返")

    assert titles(result) == ["返品について"]


def test_keyword_scores_are_bm25(no_embeddings, docs, workspace):
    import math

    keyword_stats_compact(workspace_id=workspace.pk)
    result = hybrid_search(access=full_access(workspace), query="password", semantic_weight=0)

    # Recomputed here from the definition: idf x tf (k1 + 1) / (tf + k1 (1 - b + b len / avglen)).
    with connection.cursor() as cursor:
        cursor.execute("SELECT text FROM ingestion_chunk WHERE workspace_id = %s", [workspace.pk])
        texts = [row[0] for row in cursor.fetchall()]
    lengths = [len(keyword_tokens(t)) for t in texts]
    average = sum(lengths) / len(lengths)
    df = sum(1 for t in texts if "password" in keyword_tokens(t))
    idf = math.log(1 + (len(texts) - df + 0.5) / (df + 0.5))
    hit = result.hits[0]
    tokens = keyword_tokens(hit.text)
    tf = tokens.count("password")
    expected = idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * len(tokens) / average))
    assert hit.legs["keyword"]["score"] == pytest.approx(expected, rel=1e-5)


def test_bounded_candidates_agree_with_exhaustive_reading(docs, workspace, no_embeddings):
    doc_type, _ = docs
    for i in range(40):
        entry_make(doc_type, title=f"Orders {i}", body=f"<p>Orders and refunds, order {i}, delivery {i % 3}.</p>")
    query = "refund delivery orders"
    exhaustive = keyword.keyword_candidates(
        keyword_query_prepare(workspace_id=workspace.pk, query=query, budget=10**9), limit=10, where=None)[0]

    bounded, plan = keyword.keyword_candidates(
        keyword_query_prepare(workspace_id=workspace.pk, query=query, budget=5, champions=5), limit=10, where=None)

    assert plan.truncated_terms > 0
    # The same best scores (many chunks tie: compare scores, not which of the tied ids came first).
    assert [h.score for h in bounded][:3] == pytest.approx([h.score for h in exhaustive][:3])
    # Candidates that were read are scored exactly, whatever bound found them.
    exact = {h.id: h.score for h in exhaustive}
    assert all(h.score == pytest.approx(exact[h.id]) for h in bounded if h.id in exact)


@pytest.fixture
def postings_leg(settings):
    """Today's leg (the postings' impact order), not the BM25 index: the fallback is its own."""
    settings.SEARCH_KEYWORD_INDEX = "postings"


def test_selective_filter_reads_every_posting_rather_than_answer_short(docs, workspace, no_embeddings, postings_leg):
    doc_type, _ = docs
    for i in range(40):
        entry_make(doc_type, title=f"Orders {i}", body=f"<p>Orders and refunds, order {i}, order again.</p>",
                   version=100 + i)
    wanted = entry_make(doc_type, title="Long", body="<p>" + "A long text about many other things. " * 30
                        + "One order.</p>", version=7)
    where = chunk_filter(access=full_access(workspace), content_type=None, spec={"version": 7}).keyword_where

    hits, plan = keyword.keyword_candidates(
        keyword_query_prepare(workspace_id=workspace.pk, query="order", budget=5, champions=5), limit=10, where=where)

    assert plan.fallback
    assert [hit.entry_id for hit in hits] == [wanted.pk]


@pytest.mark.parametrize("exact_max_rows", [2000, 0], ids=["few: primary-key lookups", "many: every posting"])
def test_selective_filter_fallback_ranks_like_every_posting_read(docs, workspace, no_embeddings, monkeypatch,
                                                                 exact_max_rows, postings_leg):
    doc_type, _ = docs
    for i in range(60):
        entry_make(doc_type, title=f"Orders {i}", body=f"<p>Orders and refunds, order {i}, delivery {i % 4}.</p>",
                   version=7 if i % 6 == 0 else 100 + i)
    where = chunk_filter(access=full_access(workspace), content_type=None, spec={"version": 7}).keyword_where
    query = "refund delivery orders 3"
    # Every posting read, no bound, no fallback: the truth.
    truth, _ = keyword.keyword_candidates(
        keyword_query_prepare(workspace_id=workspace.pk, query=query, budget=10**9, champions=10**9), limit=10,
        where=where)
    monkeypatch.setattr(keyword, "EXACT_MAX_ROWS", exact_max_rows)

    hits, plan = keyword.keyword_candidates(
        keyword_query_prepare(workspace_id=workspace.pk, query=query, budget=5, champions=5), limit=10, where=where)

    assert plan.fallback
    assert len(hits) == len(truth) == 10
    # The same scores in the same order; chunks whose scores tie (to the last digit or so) may
    # come in either order, so the ids are compared with ties broken by id.
    assert [h.score for h in hits] == pytest.approx([h.score for h in truth])
    tie_broken = lambda rows: sorted((-round(h.score, 6), h.id) for h in rows)  # noqa: E731
    assert tie_broken(hits) == tie_broken(truth)
    assert all(h.metadata["fields"]["version"] == 7 for h in hits)


# --- fusion ------------------------------------------------------------------------------------

def test_hybrid_uses_both_legs(embedded, workspace):
    result = hybrid_search(access=full_access(workspace), query="How do I get my money back?")

    assert result.extra_meta["legs_used"] == ["keyword", "semantic"]
    assert "Refund policy" in titles(result)[:2]


def test_weights_are_applied_to_normalised_leg_scores(embedded, workspace):
    result = hybrid_search(access=full_access(workspace), query="refund delivery", keyword_weight=0.3,
                           semantic_weight=0.7, top_k=100)

    keyword_scores = [s["legs"]["keyword"]["score"] for s in result.as_dict()["sources"]]
    semantic_scores = [s["legs"]["semantic"]["score"] for s in result.as_dict()["sources"]]

    def norm(values, v):  # over the best candidate, 0 as the floor (search.engine.legs.fusion)
        return max(0.0, v) / max(values)

    for hit, k, s in zip(result.hits, keyword_scores, semantic_scores):
        assert hit.score == pytest.approx(0.3 * norm(keyword_scores, k) + 0.7 * norm(semantic_scores, s), abs=1e-5)
    assert result.extra_meta["weights"] == {"keyword": 0.3, "semantic": 0.7, "source": "request"}


def test_keyword_only_weight_skips_the_semantic_leg(embedded, workspace):
    result = hybrid_search(access=full_access(workspace), query="password", semantic_weight=0)

    assert result.extra_meta["legs_used"] == ["keyword"]
    assert titles(result) == ["Password reset"]


def test_semantic_only_weight_ranks_by_meaning(embedded, workspace):
    result = hybrid_search(access=full_access(workspace), query="返品", keyword_weight=0, top_k=2)

    assert result.extra_meta["legs_used"] == ["semantic"]
    assert set(titles(result)) <= {"返品について", "Refund policy"}


def test_rrf_fuses_by_rank(embedded, workspace):
    result = hybrid_search(access=full_access(workspace), query="refund delivery", fusion="rrf", top_k=100)

    weights = result.extra_meta["weights"]
    for hit in result.hits:
        expected = sum(weights[leg] / (RRF_K + hit.legs[leg]["rank"]) for leg in ("keyword", "semantic")
                       if hit.legs[leg]["rank"] is not None)
        assert hit.score == pytest.approx(expected)
    assert result.extra_meta["fusion"] == "rrf"


def test_every_candidate_is_scored_by_both_legs(embedded, workspace):
    result = hybrid_search(access=full_access(workspace), query="refund", top_k=100)

    # The semantic leg ranks every embedded chunk of this small workspace; a chunk without the
    # word has a BM25 score of 0 and no keyword rank.
    for source in result.as_dict()["sources"]:
        assert source["legs"]["semantic"]["score"] is not None
        has_word = "refund" in keyword_tokens(source["document"])
        assert (source["legs"]["keyword"]["score"] > 0) == has_word
        assert (source["legs"]["keyword"]["rank"] is not None) == has_word


# --- degradation -----------------------------------------------------------------------------

def test_no_provider_degrades_to_keyword_and_says_so(no_embeddings, docs, workspace):
    body = hybrid_search(access=full_access(workspace), query="password reset").as_dict()

    assert body["meta"]["legs_used"] == ["keyword"]
    assert body["meta"]["degraded"]["semantic"]["code"] == "not_configured"
    assert body["sources"][0]["metadata"]["title"] == "Password reset"


def test_pending_vectors_degrade_to_keyword_and_say_so(local_embeddings, docs, workspace):
    body = hybrid_search(access=full_access(workspace), query="password reset").as_dict()

    assert body["meta"]["legs_used"] == ["keyword"]
    assert body["meta"]["degraded"]["semantic"]["code"] == "vectors_pending"
    assert body["meta"]["pending"] > 0
    assert body["sources"]


def test_stopword_query_without_provider_is_an_error_not_an_empty_list(no_embeddings, docs, workspace):
    with pytest.raises(SearchError) as caught:
        hybrid_search(access=full_access(workspace), query="the of and")

    # Rewording fixes it; the message says why the vector leg could not answer instead.
    assert (caught.value.code, caught.value.status) == ("no_searchable_terms", 400)
    assert "not_configured" in caught.value.message


def test_punctuation_query_while_vectors_are_pending_is_a_400_not_a_503(local_embeddings, docs, workspace):
    # Found by the tenancy property test: "')" has no word for the keyword leg, and the vector
    # leg had nothing to search yet; that answered 503 vectors_pending, as if waiting would help.
    with pytest.raises(SearchError) as caught:
        hybrid_search(access=full_access(workspace), query="')")

    assert (caught.value.code, caught.value.status) == ("no_searchable_terms", 400)
    assert "vectors_pending" in caught.value.message


def test_stopword_query_is_answered_by_the_semantic_leg(embedded, workspace):
    result = hybrid_search(access=full_access(workspace), query="is it the", min_confidence=0)  # no good match, shown

    assert result.extra_meta["legs_used"] == ["semantic"]
    assert result.hits


def test_a_corrected_typo_is_searched_by_both_legs_and_clears_the_floor(embedded, workspace):
    """"refnud": the keyword leg corrects it to "refund", and the vector leg embeds the corrected
    query too, so the confidence reads the words that were searched: an answer, at the default floor."""
    result = hybrid_search(access=full_access(workspace), query="refnud")

    assert result.extra_meta["corrected_query"] == "refund"
    assert result.extra_meta["answerable"] is True
    assert titles(result)[0] == "Refund policy"


# --- tenancy, filters, drafts: both legs ----------------------------------------------------------

@pytest.fixture
def other_workspace_docs(local_embeddings):
    other = WorkspaceFactory(slug="globex")
    other_type = ContentTypeFactory(workspace=other, api_id="doc", semantic_search_enabled=True)
    entry_make(other_type, title="Globex refunds", body="<p>Refunds: return any unused item within 30 days.</p>")
    chunks_embed_pending(workspace=other)
    return other


@pytest.mark.parametrize("weights", [{"semantic_weight": 0}, {"keyword_weight": 0}, {}])
def test_other_workspaces_chunks_never_appear(embedded, other_workspace_docs, workspace, weights):
    result = hybrid_search(access=full_access(workspace), query="refund unused item", top_k=100, **weights)

    assert result.hits
    assert "Globex refunds" not in titles(result)


@pytest.mark.parametrize("weights", [{"semantic_weight": 0}, {"keyword_weight": 0}, {}])
def test_filter_applies_to_both_legs(embedded, workspace, weights):
    result = hybrid_search(access=full_access(workspace), query="refund delivery", top_k=100,
                           filter={"version": {"$lte": 1}}, include_candidates=True, **weights)

    assert sorted(titles(result)) == ["Refund policy", "Shipping times"]


@pytest.mark.parametrize("weights", [{"semantic_weight": 0}, {"keyword_weight": 0}, {}])
def test_content_type_applies_to_both_legs(embedded, workspace, weights):
    other_type = ContentTypeFactory(workspace=workspace, api_id="note", semantic_search_enabled=True)
    entry_make(other_type, title="Refund note", body="<p>Refund notes for unused items.</p>")
    chunks_embed_pending(workspace=workspace)

    result = hybrid_search(access=full_access(workspace), query="refund unused", top_k=100, content_type="note",
                           **weights)

    assert titles(result) == ["Refund note"]


@pytest.mark.parametrize("weights", [{"semantic_weight": 0}, {"keyword_weight": 0}, {}])
def test_viewer_never_sees_draft_chunks_on_either_leg(embedded, workspace, weights):
    doc_type, _ = embedded
    entry_make(doc_type, title="Refund plan (draft)", body="<p>Refunds within 90 days from next year.</p>",
               status=EntryStatus.DRAFT)
    chunks_embed_pending(workspace=workspace)
    viewer = UserFactory()
    MembershipFactory(user=viewer, workspace=workspace, role=Role.VIEWER)
    access = workspace_access_for_member(user=viewer, workspace=workspace)

    result = hybrid_search(access=access, query="refunds within 90 days", top_k=100, **weights)

    assert result.hits
    assert "Refund plan (draft)" not in titles(result)
    assert "Refund plan (draft)" in titles(
        hybrid_search(access=full_access(workspace), query="refunds within 90 days", top_k=100, **weights))


def test_unpublishing_hides_chunks_at_once(embedded, workspace):
    _, entries = embedded
    viewer = UserFactory()
    MembershipFactory(user=viewer, workspace=workspace, role=Role.VIEWER)
    cms_services.entry_update(entry=entries["Password reset"], status=EntryStatus.DRAFT)

    result = hybrid_search(access=workspace_access_for_member(user=viewer, workspace=workspace),
                           query="password reset", top_k=100)

    assert "Password reset" not in titles(result)


# --- validation ----------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("params", "code"),
    [
        ({"fusion": "max"}, "fusion_invalid"),
        ({"keyword_weight": 1.5}, "keyword_weight_out_of_range"),
        ({"semantic_weight": "high"}, "semantic_weight_invalid"),
        ({"keyword_weight": 0, "semantic_weight": 0}, "weights_invalid"),
        ({"rerank": "yes"}, "rerank_invalid"),
        ({"rerank_weights": {"rerank": 1.5}}, "rerank_weights_out_of_range"),
        ({"rerank_weights": {"bogus": 0.5}}, "rerank_weights_invalid"),
        ({"rerank_weights": [0.4, 0.4, 0.2]}, "rerank_weights_invalid"),
        ({"top_k": 0}, "top_k_out_of_range"),
        ({"query": ""}, "query_empty"),
        ({"content_type": "nope"}, "unknown_content_type"),
        ({"filter": {"$bogus": 1}}, "unknown_operator"),
    ],
)
def test_bad_input_is_a_coded_error(no_embeddings, docs, workspace, params, code):
    with pytest.raises(SearchError) as caught:
        hybrid_search(access=full_access(workspace), **{"query": "refund", **params})

    assert caught.value.code == code
    assert caught.value.status == 400
