"""The keyword leg on the cluster, where it reads the postings, not the BM25 index (pg_textsearch
resolves a query's index on the coordinator, which the shards refuse: search/engine/legs/keyword_bm25.py):
each statement on the workspace's shard, the answers those of every posting read."""

from __future__ import annotations

import pytest
from django.db import connection

from search.engine.legs import keyword
from search.engine.legs.keyword import keyword_query_prepare
from search.engine.legs.keyword_bm25 import keyword_bm25_active, keyword_bm25_forget
from tests.factories import ContentTypeFactory, WorkspaceFactory, entry_make

pytestmark = pytest.mark.django_db


def test_the_keyword_leg_answers_on_one_shard_as_every_posting_read():
    keyword_bm25_forget()
    workspaces = [WorkspaceFactory(), WorkspaceFactory()]
    for n, workspace in enumerate(workspaces):
        doc_type = ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)
        for i in range(25 + 20 * n):
            entry_make(doc_type, title=f"Orders {i}", body=f"<p>Orders and refunds, order {i}, delivery {i % 4}.</p>")
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_dist_shard s JOIN pg_dist_partition p USING (logicalrelid)"
                       " WHERE p.logicalrelid = 'ingestion_keywordtext'::regclass")
        assert cursor.fetchone()[0] > 1  # the index's table is distributed with the chunks
    assert not keyword_bm25_active(workspaces[0].pk)
    for workspace in workspaces:
        truth, _ = keyword.keyword_candidates(keyword_query_prepare(
            workspace_id=workspace.pk, query="refund delivery orders", budget=10**9, champions=10**9),
            limit=10, where=None)
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL citus.multi_task_query_log_level TO 'error'")
        hits, plan = keyword.keyword_candidates(keyword_query_prepare(
            workspace_id=workspace.pk, query="refund delivery orders", budget=5, champions=5), limit=10, where=None)
        assert plan.truncated_terms > 0
        # The postings' bounded reading (as on one node): the best scores, each exact.
        assert [h.score for h in hits][:3] == pytest.approx([h.score for h in truth][:3])
        exact = {h.id: h.score for h in truth}
        assert all(h.score == pytest.approx(exact[h.id]) for h in hits if h.id in exact)
