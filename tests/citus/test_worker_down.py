"""A worker killed during a burst of searches: the other worker's workspaces keep answering,
and the dead worker's get coded 503s, never 500s. Runs last (the file's name): it kills a
worker of the session's cluster, and starts it again before the test ends."""

from __future__ import annotations

from collections import Counter

import pytest
from django.db import connection

from tests.citus.searches import content_load, search_request
from tests.figures import figure_record
from tests.search.pipeline_helpers import fake_embeddings  # noqa: F401 - fixture

SLUGS = ("acme", "globex", "initech", "umbrella", "hooli", "stark", "wayne", "tyrell")
KINDS = ("entries", "semantic", "hybrid")


def _worker_port(workspace_id: int) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT nodeport FROM citus_shards WHERE shardid ="
                       " get_shard_id_for_distribution_column('ingestion_chunk', %s)", [workspace_id])
        return cursor.fetchone()[0]


@pytest.mark.django_db(transaction=True)
def test_a_dead_worker_fails_its_workspaces_with_503_and_the_others_answer(fake_embeddings, citus_cluster):  # noqa: F811
    tenants = content_load(SLUGS)
    on = {tenant.slug: _worker_port(tenant.workspace.pk) for tenant in tenants}
    victim = citus_cluster.workers[0]
    dead = [t for t in tenants if on[t.slug] == victim.port]
    alive = [t for t in tenants if on[t.slug] != victim.port]
    assert dead and alive, on
    for tenant in tenants:  # before: every workspace answers
        assert search_request(tenant, "hybrid", "refund").status_code == 200
    victim.kill()
    try:
        outcomes: Counter[tuple[str, int, str]] = Counter()
        for _round in range(3):
            for tenant in tenants:
                for kind in KINDS:
                    response = search_request(tenant, kind, "refund")
                    side = "dead" if tenant in dead else "alive"
                    outcomes[(side, response.status_code, response.json().get("code", ""))] += 1
        figure_record(f"Citus worker killed: {dict(sorted(outcomes.items()))}")
        assert {status for (side, status, _code) in outcomes if side == "alive"} == {200}
        assert {(status, code) for (side, status, code) in outcomes if side == "dead"} == {(503, "database_unavailable")}
    finally:
        victim.start()
