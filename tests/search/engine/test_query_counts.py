"""Hybrid and agentic searches make a fixed number of queries: it does not grow with the results."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ingestion.services import chunks_embed_pending
from search.engine.agentic import agentic_search
from search.engine.hybrid import hybrid_search
from tests.factories import ContentTypeFactory, entry_make, full_access

pytestmark = pytest.mark.django_db

TOPICS = ["refund", "shipping", "password", "invoice", "warranty", "delivery", "account", "discount"]


@pytest.fixture
def embedded(local_embeddings, workspace):
    doc_type = ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)
    for i in range(24):
        topic = TOPICS[i % len(TOPICS)]
        entry_make(doc_type, title=f"{topic.title()} note {i}",
                   body=f"<p>How the {topic} process works, case {i}: refund and shipping details.</p>")
    chunks_embed_pending(workspace=workspace)


def queries_made(search) -> tuple[int, int]:
    """(queries, sources) of one search call."""
    with CaptureQueriesContext(connection) as captured:
        result = search()
    return len(captured), len(result.as_dict()["sources"])


def test_hybrid_queries_do_not_grow_with_the_results(embedded, workspace):
    access = full_access(workspace)

    few = queries_made(lambda: hybrid_search(access=access, query="refund shipping", top_k=1))
    many = queries_made(lambda: hybrid_search(access=access, query="refund shipping", top_k=20))

    assert few[1] == 1 and many[1] == 20
    assert few[0] == many[0], (few, many)


def test_agentic_queries_do_not_grow_with_the_results(embedded, workspace):
    access = full_access(workspace)

    few = queries_made(lambda: agentic_search(
        access=access, query="refunds and shipping", queries=["How do refunds work?", "How long is shipping?"],
        top_k=2, include_candidates=True))
    many_results = queries_made(lambda: agentic_search(
        access=access, query="refunds and shipping", queries=["How do refunds work?", "How long is shipping?"],
        top_k=20, include_candidates=True))

    assert few[1] == 2 and many_results[1] == 20
    assert few[0] == many_results[0], (few, many_results)
