"""The schema laid out on a real cluster by `manage.py citus_distribute` (tests/citus/conftest.py)."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.db import connection

from cms.citus_layout import DISTRIBUTION_COLUMN, citus_violations, reference_tables, tenant_tables

pytestmark = pytest.mark.django_db


def _layout() -> dict[str, tuple[str, str | None]]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT table_name::text, citus_table_type, distribution_column FROM citus_tables")
        return {table: (kind, column) for table, kind, column in cursor.fetchall()}


def test_two_workers_are_active():
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM citus_get_active_worker_nodes()")
        assert cursor.fetchone()[0] == 2


def test_every_tenant_table_is_distributed_by_workspace_id_colocated_and_the_rest_are_reference_tables():
    layout = _layout()
    for table in tenant_tables():
        assert layout[table] == ("distributed", DISTRIBUTION_COLUMN), table
    for table in reference_tables():
        assert layout[table][0] == "reference", table
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(DISTINCT colocationid) FROM pg_dist_partition WHERE logicalrelid::text = ANY(%s)",
                       [tenant_tables()])
        assert cursor.fetchone()[0] == 1
    assert citus_violations() == []


def test_the_shards_are_on_both_workers():
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(DISTINCT nodeport) FROM citus_shards WHERE table_name = 'ingestion_chunk'::regclass")
        assert cursor.fetchone()[0] == 2


def test_citus_distribute_again_changes_nothing():
    before = _layout()
    out = io.StringIO()
    call_command("citus_distribute", stdout=out)
    assert "nothing to do" in out.getvalue()
    assert _layout() == before


def test_citus_rebalance_plan_says_the_shards_are_balanced():
    out = io.StringIO()
    call_command("citus_rebalance", "--plan", stdout=out)
    assert out.getvalue().strip() == "The shards are balanced: nothing to move."


def test_health_shows_the_coordinator_and_both_workers_reachable(client, settings):
    settings.HEALTH_TOKEN = "health-token-for-the-citus-tests-0123456789"
    body = client.get("/api/health", headers={"Authorization": f"Bearer {settings.HEALTH_TOKEN}"}).json()
    nodes = body["citus"]["nodes"]
    assert [node["role"] for node in nodes] == ["coordinator", "worker", "worker"]
    assert all(node["reachable"] and node["active"] for node in nodes)
    assert body["citus"]["ok"] is True
