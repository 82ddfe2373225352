"""Every search kind on the cluster (tests/citus/searches.py), each statement on one shard."""

from __future__ import annotations

import pytest
from django.db import connection

from tests.citus.searches import KIND_PATHS, QUERIES, answers, content_load
from tests.search.pipeline_helpers import fake_embeddings  # noqa: F401 - fixture

pytestmark = pytest.mark.django_db


def test_every_search_kind_answers_on_the_cluster_each_statement_on_one_shard(fake_embeddings):  # noqa: F811
    """Full-text (with facets and a promotion), semantic, hybrid (keyword leg, synonyms, typos)
    and agentic searches, and suggest, in three workspaces. Citus is told to refuse any
    statement that would run as more than one task (a fan-out across shards): none does."""
    tenants = content_load()
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL citus.multi_task_query_log_level TO 'error'")
    found = answers(tenants)
    for tenant in tenants:
        for kind in KIND_PATHS:
            hits = [hit for query in QUERIES for hit in found[f"{tenant.slug} {kind} {query}"]["hits"]]
            assert hits, (tenant.slug, kind)
            for title, _score in hits:
                assert f"({tenant.slug})" in title, (kind, title)
                assert not any(f"({other.slug})" in title for other in tenants if other is not tenant), (kind, title)
        assert found[f"{tenant.slug} entries gift"]["promoted"], tenant.slug
