"""Searches read from a real streaming replica; writes, lagging or dead replicas, and a caller
who just wrote, fall back to the primary (search/engine/db/replicas.py, search/engine/db/statements.py)."""

from __future__ import annotations

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connections
from django.test import Client

from search.engine.db import replicas
from search.operations.health import health_report
from tests.factories import (
    ContentTypeFactory,
    MembershipFactory,
    UserFactory,
    WorkspaceFactory,
    api_key_make,
    bearer,
    entry_make,
)
from tests.figures import figure_record
from tests.search.replica_server import REPLICA_ALIAS
from tests.search.semantic_helpers import LOCAL_BACKEND, REFUND_EN, chunk_make

pytestmark = pytest.mark.django_db(transaction=True, databases=["default", REPLICA_ALIAS])

ENTRIES = "/api/v1/workspaces/{slug}/search/entries?q={q}"
SEMANTIC = "/api/v1/workspaces/{slug}/search/semantic"
MAX_LAG = 1.0


@pytest.fixture(autouse=True)
def replica_configured(settings, streaming_replica):
    settings.DATABASE_REPLICAS = [REPLICA_ALIAS]
    settings.REPLICA_MAX_LAG_SECONDS = MAX_LAG
    settings.REPLICA_CHECK_SECONDS = 0.1
    replicas.replica_states_forget()
    if streaming_replica.execute("SELECT pg_is_wal_replay_paused()")[0]:
        streaming_replica.execute("SELECT pg_wal_replay_resume()")
    yield streaming_replica
    replicas.replica_states_forget()


class StatementLog:
    """The statements each database ran, and whether that connection is a standby."""

    def __init__(self):
        self.sql: dict[str, list[str]] = {"default": [], REPLICA_ALIAS: []}

    def __enter__(self):
        self._contexts = [connections[alias].execute_wrapper(self._recorder(alias)) for alias in self.sql]
        for context in self._contexts:
            context.__enter__()
        return self

    def __exit__(self, *exc):
        for context in reversed(self._contexts):
            context.__exit__(*exc)

    def _recorder(self, alias):
        def record(execute, sql, params, many, context):
            self.sql[alias].append(sql)
            return execute(sql, params, many, context)
        return record

    def searched(self, alias: str, table: str) -> int:
        return sum(1 for sql in self.sql[alias] if table in sql and "INSERT" not in sql and "UPDATE" not in sql)


def in_recovery(alias: str) -> bool:
    with connections[alias].cursor() as cursor:
        cursor.execute("SELECT pg_is_in_recovery()")
        return cursor.fetchone()[0]


@pytest.fixture
def acme():
    workspace = WorkspaceFactory(slug="acme")
    content_type = ContentTypeFactory(workspace=workspace, api_id="article")
    _, secret = api_key_make(workspace)
    return workspace, content_type, secret


def search_ids(client, q, secret=None, slug="acme"):
    response = client.get(ENTRIES.format(slug=slug, q=q), **(bearer(secret) if secret else {}))
    assert response.status_code == 200, response.content
    return [hit["id"] for hit in response.json()["results"]]


def test_full_text_search_runs_on_the_replica(client, acme, replica_configured):
    _, content_type, secret = acme
    entry = entry_make(content_type, title="Refund policy")
    replica_configured.caught_up()
    with StatementLog() as log:
        assert search_ids(client, "refund", secret) == [entry.pk]
    assert log.searched(REPLICA_ALIAS, "cms_entry") >= 1
    assert log.searched("default", "cms_entry") == 0
    assert in_recovery(REPLICA_ALIAS) and not in_recovery("default")


def test_semantic_search_and_its_hnsw_settings_run_on_the_replica(client, settings, local_model, acme,
                                                                  replica_configured):
    settings.SEARCH_EMBEDDING_BACKENDS = {"default": LOCAL_BACKEND}
    workspace, _, secret = acme
    chunk = chunk_make(entry_make(ContentTypeFactory(workspace=workspace, api_id="plain"), title="Returns"), REFUND_EN)
    replica_configured.caught_up()
    with StatementLog() as log:
        response = client.post(SEMANTIC.format(slug="acme"), data=json.dumps({"query": "返品", "top_k": 3}),
                               content_type="application/json", **bearer(secret))
    assert response.status_code == 200, response.content
    assert response.json()["sources"][0]["id"] == chunk.pk
    # The hnsw.ef_search and statement_timeout settings (set_config, i.e. SET LOCAL) ran on the standby.
    assert any("hnsw.ef_search" in sql for sql in log.sql[REPLICA_ALIAS])
    assert any("statement_timeout" in sql for sql in log.sql[REPLICA_ALIAS])
    assert log.searched("default", "ingestion_chunkvector") == 0


def test_writes_never_go_to_the_replica(acme, replica_configured):
    _, content_type, _ = acme
    with StatementLog() as log:
        entry_make(content_type, title="Written")
    assert log.sql[REPLICA_ALIAS] == []
    assert any("INSERT" in sql for sql in log.sql["default"])


def test_the_search_log_is_written_to_the_primary_never_the_replica(client, acme, replica_configured):
    from search.models import SearchLog
    from search.insights.search_log import search_log_flush

    _, content_type, secret = acme
    entry = entry_make(content_type, title="Refund policy")
    replica_configured.caught_up()
    with StatementLog() as log:
        assert search_ids(client, "refund", secret) == [entry.pk]
        assert search_log_flush() == 1
    assert not any("search_searchlog" in sql for sql in log.sql[REPLICA_ALIAS])
    assert any("INSERT" in sql and "search_searchlog" in sql for sql in log.sql["default"])
    assert SearchLog.objects.using("default").count() == 1


def test_replica_lagging_past_the_bound_is_skipped(client, acme, replica_configured):
    _, content_type, secret = acme
    replica_configured.caught_up()
    replica_configured.execute("SELECT pg_wal_replay_pause()")
    entry = entry_make(content_type, title="Refund policy")  # WAL the paused replica receives, not replays
    time.sleep(MAX_LAG + 0.5)
    state = replicas.replica_state(REPLICA_ALIAS, fresh=True)
    assert state.lag_seconds > MAX_LAG and not state.usable
    with StatementLog() as log:
        assert search_ids(client, "refund", secret) == [entry.pk]
    assert log.searched("default", "cms_entry") >= 1 and log.searched(REPLICA_ALIAS, "cms_entry") == 0
    (report,) = health_report(detailed=True)["replicas"]
    assert report["alias"] == REPLICA_ALIAS and report["in_use"] is False and report["lag_seconds"] > MAX_LAG
    replica_configured.execute("SELECT pg_wal_replay_resume()")
    replica_configured.caught_up()
    time.sleep(0.2)
    with StatementLog() as log:
        assert search_ids(client, "refund", secret) == [entry.pk]
    assert log.searched(REPLICA_ALIAS, "cms_entry") >= 1


def test_a_replica_cut_off_from_its_primary_is_skipped_within_the_lag_bound(settings, acme, replica_configured):
    """Issue 32, finding 3: a standby whose primary_conninfo points at nothing kept reporting lag 0
    (receive LSN = replay LSN) and served unpublished entries forever."""
    settings.API_RATE_LIMIT_KEY = ""  # a burst of one key's searches, not a rate-limit test
    _, content_type, secret = acme
    old = entry_make(content_type, title="Refund policy")
    replica_configured.caught_up()
    assert replicas.replica_state(REPLICA_ALIAS, fresh=True).usable
    conninfo = replica_configured.cut_off()
    results: list[tuple[float, int, list[int]]] = []
    try:
        cut_at = time.monotonic()
        new = entry_make(content_type, title="Refund terms")  # on the primary only
        client = Client()
        while time.monotonic() - cut_at < MAX_LAG + 1.5 or len(results) < 20:
            response = client.get(ENTRIES.format(slug="acme", q="refund"), **bearer(secret))
            body = response.json() if response.status_code == 200 else {}
            results.append((time.monotonic() - cut_at, response.status_code,
                            sorted(hit["id"] for hit in body.get("results", []))))
            time.sleep(0.02)
        state = replicas.replica_state(REPLICA_ALIAS, fresh=True)
        figure_record(f"replicas: cut off from its primary, {len(results)} searches in "
                      f"{results[-1][0]:.1f} s, {sum(r[1] != 200 for r in results)} errors")
        assert [r for r in results if r[1] != 200] == []
        assert not state.usable and state.lag_seconds is None
        (report,) = health_report(detailed=True)["replicas"]
        assert report["in_use"] is False
        # Within the bound (plus one check), every search reads the primary, and finds the new entry.
        late = [ids for elapsed, _, ids in results if elapsed > MAX_LAG + 2 * 0.1]
        assert late and all(ids == sorted([old.pk, new.pk]) for ids in late), results[-5:]
    finally:
        replica_configured.reconnect(conninfo)
    replica_configured.caught_up()
    time.sleep(0.3)
    assert replicas.replica_state(REPLICA_ALIAS, fresh=True).usable


def test_health_details_list_each_replica_and_its_lag(acme, replica_configured):
    replica_configured.caught_up()
    (report,) = health_report(detailed=True)["replicas"]
    assert report == {"alias": REPLICA_ALIAS, "in_use": True, "lag_seconds": report["lag_seconds"]}
    assert 0 <= report["lag_seconds"] <= MAX_LAG
    assert "replicas" not in health_report(detailed=False)


def test_a_caller_who_saved_sees_the_save_while_others_read_the_replica(acme, replica_configured):
    workspace, content_type, secret = acme
    editor = UserFactory(username="writer")
    MembershipFactory(user=editor, workspace=workspace)
    editor_client, agent = Client(), Client()
    editor_client.force_login(editor)
    replica_configured.caught_up()
    # Replay paused well within the lag bound: the replica stays in use, and lacks the save.
    replica_configured.execute("SELECT pg_wal_replay_pause()")
    saved = editor_client.post("/admin/cms/entry/add/", {
        "content_type": content_type.pk, "status": "published", "data__title": "Fresh refund note",
    })
    assert saved.status_code == 302, saved.content
    with StatementLog() as log:
        mine = search_ids(editor_client, "fresh")
        theirs = search_ids(agent, "fresh", secret)
    assert len(mine) == 1 and theirs == []
    assert log.searched("default", "cms_entry") >= 1 and log.searched(REPLICA_ALIAS, "cms_entry") >= 1


def test_another_workspaces_entries_are_not_found_on_the_replica(client, acme, replica_configured):
    _, content_type, secret = acme
    other = WorkspaceFactory(slug="globex")
    entry_make(ContentTypeFactory(workspace=other, api_id="article"), title="Refund policy")
    mine = entry_make(content_type, title="Refund terms")
    replica_configured.caught_up()
    with StatementLog() as log:
        assert search_ids(client, "refund", secret) == [mine.pk]
        assert client.get(ENTRIES.format(slug="globex", q="refund"), **bearer(secret)).status_code == 404
    assert log.searched(REPLICA_ALIAS, "cms_entry") >= 1


def test_a_replica_killed_during_a_burst_of_searches_costs_no_error(settings, acme, replica_configured):
    settings.API_RATE_LIMIT_KEY = ""  # a burst of one key's searches, not a rate-limit test
    _, content_type, secret = acme
    entry = entry_make(content_type, title="Refund policy")
    replica_configured.caught_up()
    results: list[tuple[int, list[int]]] = []
    lock = threading.Lock()
    stop = threading.Event()

    def searcher():
        client = Client()
        try:
            while not stop.is_set():
                response = client.get(ENTRIES.format(slug="acme", q="refund"), **bearer(secret))
                body = response.json() if response.status_code == 200 else {}
                with lock:
                    results.append((response.status_code, [hit["id"] for hit in body.get("results", [])]))
        finally:
            connections.close_all()

    try:
        with ThreadPoolExecutor(4) as pool:
            futures = [pool.submit(searcher) for _ in range(4)]
            time.sleep(1.0)
            before = len(results)
            assert replicas.replica_state(REPLICA_ALIAS).usable  # the burst was reading the replica
            replica_configured.kill()
            time.sleep(1.5)
            stop.set()
            for future in futures:
                future.result()
        assert before > 10 and len(results) > before + 10
        figure_record(f"replicas: {len(results)} searches, {len(results) - before} after the replica was killed, "
                      f"{sum(r[0] != 200 for r in results)} errors")
        assert all(result == (200, [entry.pk]) for result in results), [r for r in results if r[0] != 200][:5]
        assert replicas.replica_state(REPLICA_ALIAS).usable is False
    finally:
        replica_configured.start()


def test_metrics_report_each_replicas_lag(client, settings, acme, replica_configured):
    from prometheus_client.parser import text_string_to_metric_families

    settings.HEALTH_TOKEN = "metrics-token"
    replica_configured.caught_up()
    response = client.get("/metrics", HTTP_AUTHORIZATION="Bearer metrics-token")
    assert response.status_code == 200
    samples = {(s.name, tuple(s.labels.items())): s.value
               for family in text_string_to_metric_families(response.content.decode()) for s in family.samples}
    assert 0 <= samples[("cms_replica_lag_seconds", (("replica", REPLICA_ALIAS),))] <= MAX_LAG
    assert samples[("cms_replica_in_use", (("replica", REPLICA_ALIAS),))] == 1
