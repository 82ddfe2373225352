"""rerank: true: the fused candidates reordered by a reranker, combined like Mastra's (rerank, vector, position)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from ingestion.embeddings import EmbeddingProviderError
from ingestion.keywords import keyword_tokens
from search import rerank as rerank_module
from search.errors import SearchError
from search.hybrid import hybrid_search
from tests.factories import ContentTypeFactory, entry_make, full_access

pytestmark = pytest.mark.django_db


@dataclass(frozen=True)
class Scored:
    index: int
    relevance_score: float


class OverlapReranker:
    """A deterministic reranker: relevance is the share of the query's terms found in the document."""

    model_name = "overlap-test"

    def __init__(self, fail: EmbeddingProviderError | None = None):
        self.fail = fail
        self.calls: list[tuple[str, list[str]]] = []

    def rerank(self, query, documents, *, top_k=None):
        if self.fail is not None:
            raise self.fail
        self.calls.append((query, list(documents)))
        wanted = set(keyword_tokens(query))
        scores = [len(wanted & set(keyword_tokens(doc))) / max(1, len(wanted)) for doc in documents]
        ranked = sorted((Scored(i, s) for i, s in enumerate(scores)), key=lambda r: (-r.relevance_score, r.index))
        return ranked[:top_k] if top_k else ranked


@pytest.fixture
def docs(workspace, no_embeddings):
    doc_type = ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)
    entry_make(doc_type, title="Refunds", body="<p>Refunds refunds refunds: ask support.</p>")
    entry_make(doc_type, title="Refund window", body="<p>A refund for unused items within 30 days of delivery.</p>")
    entry_make(doc_type, title="Delivery", body="<p>Delivery of unused parcels takes days.</p>")


@pytest.fixture
def reranker(monkeypatch):
    backend = OverlapReranker()
    monkeypatch.setattr(rerank_module, "get_rerank_backend", lambda: backend)
    return backend


def test_rerank_combines_relevance_fused_score_and_position(docs, workspace, reranker):
    query = "refund unused items within 30 days"
    fused = hybrid_search(access=full_access(workspace), query=query, top_k=10)

    result = hybrid_search(access=full_access(workspace), query=query, top_k=10, rerank=True)

    relevance = {doc: r.relevance_score for doc, r in
                 zip(reranker.calls[0][1], sorted(reranker.rerank(query, reranker.calls[0][1]), key=lambda r: r.index))}
    best = fused.hits[0].score
    expected = {hit.id: 0.4 * relevance[hit.text] + 0.4 * hit.score / best + 0.2 * (1 - i / len(fused.hits))
                for i, hit in enumerate(fused.hits)}
    assert [hit.score for hit in result.hits] == pytest.approx(sorted(expected.values(), reverse=True))
    assert result.hits[0].title == "Refund window"
    assert result.extra_meta["rerank"] == {"model": "overlap-test", "candidates": len(fused.hits),
                                           "weights": {"rerank": 0.4, "vector": 0.4, "position": 0.2}}


def test_rerank_weights_can_be_set_per_request(docs, workspace, reranker):
    result = hybrid_search(access=full_access(workspace), query="refund unused items within 30 days", rerank=True,
                           rerank_weights={"rerank": 1.0, "vector": 0.0, "position": 0.0})

    assert result.hits[0].score == pytest.approx(1.0)
    assert result.extra_meta["rerank"]["weights"] == {"rerank": 1.0, "vector": 0.0, "position": 0.0}


def test_rerank_without_a_reranker_is_not_configured(docs, workspace, monkeypatch):
    def missing():
        raise rerank_module.RerankNotConfigured("No reranker is configured.")

    monkeypatch.setattr(rerank_module, "get_rerank_backend", missing)

    with pytest.raises(SearchError) as caught:
        hybrid_search(access=full_access(workspace), query="refund", rerank=True)

    assert (caught.value.code, caught.value.status) == ("not_configured", 503)


@pytest.mark.parametrize(("transient", "code"), [(True, "provider_unavailable"), (False, "provider_error")])
def test_reranker_failure_is_a_coded_error(docs, workspace, monkeypatch, transient, code):
    backend = OverlapReranker(fail=EmbeddingProviderError("boom", transient=transient))
    monkeypatch.setattr(rerank_module, "get_rerank_backend", lambda: backend)

    with pytest.raises(SearchError) as caught:
        hybrid_search(access=full_access(workspace), query="refund", rerank=True)

    assert (caught.value.code, caught.value.status) == (code, 503)


def test_rerank_false_never_calls_the_reranker(docs, workspace, reranker):
    hybrid_search(access=full_access(workspace), query="refund")

    assert reranker.calls == []
