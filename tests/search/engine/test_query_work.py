"""A search's facet reruns reuse its query work: the query is embedded once, a passage reranked
once, whatever the facets constrain (search/engine/query_work.py). Counted as the provider sees it:
the usage the search records (requests and texts per model)."""

from __future__ import annotations

import pytest

from ingestion.embeddings import reset_rerank_backends
from ingestion.embeddings.fake import FakeRerankBackend
from ingestion.models import EmbeddingUsage
from ingestion.services.usage import usage_flush
from search.kinds import SEARCH_KINDS
from tests.factories import entry_make, full_access
from tests.search.pipeline_helpers import embed_all, fake_embeddings, field, semantic_type  # noqa: F401

pytestmark = pytest.mark.django_db

# Five facets, each constrained by the request: five reruns without their own constraint.
FACETS = ["content_type", "status", "topic", "region", "tier"]
CONSTRAINED = {"content_type": "faq", "filter": {"topic": "returns", "region": "eu", "tier": "gold"}}


@pytest.fixture
def faq(fake_embeddings, workspace, settings):
    kind = semantic_type(workspace, "faq", [{**field(name, "text"), "facet": True} for name in ("topic", "region", "tier")])
    for i, topic in enumerate(["returns", "shipping", "returns", "billing"]):
        entry_make(kind, title=f"Refund question {i}", body=f"<p>How refunds work for {topic}, case {i}.</p>",
                   topic=topic, region="eu", tier="gold")
    embed_all()
    settings.SEARCH_RERANK_BACKENDS = {"default": {"BACKEND": "ingestion.embeddings.fake.FakeRerankBackend"}}
    reset_rerank_backends()
    yield kind
    reset_rerank_backends()


def provider_usage(workspace) -> dict[str, tuple[int, int]]:
    usage_flush()
    return {row.model: (row.requests, row.texts) for row in EmbeddingUsage.objects.filter(workspace=workspace)}


def usage_of(workspace, kind: str, **options) -> dict[str, tuple[int, int]]:
    before = provider_usage(workspace)
    SEARCH_KINDS[kind].run(full_access(workspace), {"query": "refund rules", **options})
    after = provider_usage(workspace)
    return {model: (after[model][0] - before.get(model, (0, 0))[0], after[model][1] - before.get(model, (0, 0))[1])
            for model in after if after[model] != before.get(model)}


@pytest.mark.parametrize("kind", ["semantic_search", "hybrid_search"])
def test_constrained_facets_embed_the_query_once(faq, workspace, kind):
    plain = usage_of(workspace, kind)
    faceted = usage_of(workspace, kind, facets=FACETS, **CONSTRAINED)

    assert faceted == plain
    assert sum(requests for requests, _ in plain.values()) == 1


def test_agentic_parts_with_constrained_facets_embed_each_part_once(faq, workspace):
    parts = ["refund rules", "refund window", "shipping refunds"]
    plain = usage_of(workspace, "agentic_search", queries=parts)
    faceted = usage_of(workspace, "agentic_search", queries=parts, facets=FACETS, **CONSTRAINED)

    assert faceted == plain
    assert list(plain.values()) == [(1, 3)]


def test_rerank_with_constrained_facets_reranks_each_passage_once(faq, workspace):
    def reranked(**options) -> int:
        FakeRerankBackend.calls.clear()
        SEARCH_KINDS["hybrid_search"].run(full_access(workspace), {"query": "refund rules", "rerank": True, **options})
        return sum(FakeRerankBackend.calls)

    everything = reranked()
    plain = reranked(**CONSTRAINED)
    faceted = reranked(facets=FACETS, **CONSTRAINED)

    # A rerun without one constraint may meet passages the first run did not, and only those
    # are sent: every passage once, here the whole (small) workspace's.
    assert 0 < plain < faceted == everything
