"""A search's provider usage is counted in the process and flushed: nothing lost, nothing extra.

ingestion/services/usage.py: every search used to upsert the workspace's one usage row of the
day; now the process counts and writes every SEARCH_USAGE_FLUSH_SECONDS and at exit. These
tests run real searches (the local model, the real database, gunicorn workers) and compare
the written totals with the number of searches made. bench/hot_rows.py measures the lock waits.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
from django.db import OperationalError, connections

from ingestion.models import EmbeddingUsage
from ingestion.services import usage as usage_service
from ingestion.services.usage import usage_flush, usage_pending, usage_record
from search.engine.semantic import semantic_search
from tests.factories import WorkspaceFactory, api_key_make, full_access
from tests.search.semantic_helpers import (
    LOCAL_MODEL,
    REFUND_EN,
    chunk_make,
    entry_for,
    local_embeddings,  # noqa: F401 (fixture)
    local_model,  # noqa: F401 (fixture)
    plain_type,
)
from tests.servers import database_env, deployed_gunicorn_options, gunicorn_started

SEMANTIC = "/api/v1/workspaces/{slug}/search/semantic"


@pytest.fixture
def refund_chunk(workspace):
    return chunk_make(entry_for(plain_type(workspace), "Refunds"), REFUND_EN)


def totals(workspace) -> tuple[int, int]:
    row = EmbeddingUsage.objects.filter(workspace=workspace, model=LOCAL_MODEL).values_list("requests", "texts").first()
    return row or (0, 0)


def test_search_usage_is_written_by_the_flush_and_counts_every_search(local_embeddings, workspace, refund_chunk):
    for query in ["refund", "返品", "delivery", "return window", "money back"]:
        assert semantic_search(access=full_access(workspace), query=query, min_confidence=0).hits

    assert totals(workspace) == (0, 0)
    assert sum(counts[0] for counts in usage_pending().values()) == 5
    assert usage_flush() == 1
    assert totals(workspace) == (5, 5)
    assert usage_flush() == 0  # written once


def test_32_concurrent_clients_lose_no_search(local_embeddings, transactional_db, workspace, refund_chunk):
    clients, each = 32, 4
    access = full_access(workspace)

    def client(i: int) -> int:
        try:
            return sum(bool(semantic_search(access=access, query=f"refund {i} {j}", min_confidence=0).hits) for j in range(each))
        finally:
            connections.close_all()

    with ThreadPoolExecutor(clients) as pool:
        answered = sum(pool.map(client, range(clients)))

    assert answered == clients * each
    usage_flush()
    assert totals(workspace) == (clients * each, clients * each)


def test_the_flush_thread_writes_after_the_interval(settings, transactional_db, workspace):
    settings.SEARCH_USAGE_FLUSH_SECONDS = 0.2
    for _ in range(3):
        usage_record(workspace_id=workspace.pk, model=LOCAL_MODEL, requests=1, texts=1, tokens=7, cost=0.0,
                     deferred=True)
    assert totals(workspace) == (0, 0)

    deadline = time.monotonic() + 15
    while totals(workspace) != (3, 3) and time.monotonic() < deadline:
        time.sleep(0.1)

    assert totals(workspace) == (3, 3)
    assert EmbeddingUsage.objects.get(workspace=workspace).tokens == 21
    assert not usage_pending()


def test_a_failed_flush_keeps_its_counts_for_the_next_one(monkeypatch, workspace):
    usage_record(workspace_id=workspace.pk, model=LOCAL_MODEL, requests=2, texts=3, tokens=10, cost=0.0, deferred=True)
    real_upsert = usage_service._usage_upsert

    def database_down(rows):
        raise OperationalError("connection refused")

    monkeypatch.setattr(usage_service, "_usage_upsert", database_down)
    with pytest.raises(OperationalError):
        usage_flush()
    usage_record(workspace_id=workspace.pk, model=LOCAL_MODEL, requests=1, texts=1, tokens=5, cost=0.0, deferred=True)
    monkeypatch.setattr(usage_service, "_usage_upsert", real_upsert)

    usage_flush()
    assert totals(workspace) == (3, 4)


def test_usage_of_a_workspace_deleted_before_the_flush_is_dropped(workspace):
    gone = WorkspaceFactory(slug="gone")
    for ws in (workspace, gone):
        usage_record(workspace_id=ws.pk, model=LOCAL_MODEL, requests=1, texts=1, tokens=1, cost=0.0, deferred=True)
    gone_id = gone.pk
    gone.delete()

    usage_flush()

    assert totals(workspace) == (1, 1)
    assert not EmbeddingUsage.objects.filter(workspace_id=gone_id).exists()


def test_gunicorn_workers_write_what_they_counted_when_they_stop(local_embeddings, transactional_db, workspace,
                                                                refund_chunk):
    """Real workers that would flush only in an hour: every search is in the table once they stop."""
    _, secret = api_key_make(workspace)
    env = database_env(SEARCH_USAGE_FLUSH_SECONDS="3600", API_RATE_LIMIT_KEY="", EMBEDDING_PROVIDER="local")
    searches = 12
    with gunicorn_started(env, *deployed_gunicorn_options(), "--threads", "4", workers=2) as (base, _):
        def search(i: int) -> int:
            return requests.post(f"{base}{SEMANTIC.format(slug='acme')}", json={"query": f"refund {i}"},
                                 headers={"Authorization": f"Bearer {secret}"}, timeout=120).status_code

        with ThreadPoolExecutor(4) as pool:
            assert list(pool.map(search, range(searches))) == [200] * searches
        assert totals(workspace) == (0, 0), "written before the interval: the flush is not deferred"

    assert totals(workspace) == (searches, searches)


def test_a_process_writes_its_counts_at_exit(transactional_db, workspace):
    import subprocess
    import sys

    from tests.servers import REPO

    script = (
        "import django; django.setup()\n"
        "from ingestion.services.usage import usage_record\n"
        f"usage_record(workspace_id={workspace.pk}, model='{LOCAL_MODEL}', requests=4, texts=4, tokens=4, cost=0.0,"
        " deferred=True)\n"
    )
    subprocess.run([sys.executable, "-c", script], cwd=REPO, env=database_env(SEARCH_USAGE_FLUSH_SECONDS="3600"),
                   check=True, timeout=120)

    assert totals(workspace) == (4, 4)


def test_the_flush_thread_is_per_process_and_ends_when_idle(settings, transactional_db, workspace):
    settings.SEARCH_USAGE_FLUSH_SECONDS = 0.1
    usage_record(workspace_id=workspace.pk, model=LOCAL_MODEL, requests=1, texts=1, tokens=1, cost=0.0, deferred=True)
    deadline = time.monotonic() + 15
    while any(t.name == "usage-flush" for t in threading.enumerate()) and time.monotonic() < deadline:
        time.sleep(0.05)

    assert not any(t.name == "usage-flush" for t in threading.enumerate())
    assert totals(workspace) == (1, 1)
