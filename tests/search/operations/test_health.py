"""GET /api/health: ok and status for anyone; details for superusers or the health token; no exception text."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
from collections.abc import Iterator

import pytest
from django.db import connection

from search.operations.health import broker_checks_forget
from tests.factories import UserFactory
from tests.ingestion.conftest import celery_broker
from tests.servers import free_port

REDIS = ("127.0.0.1", 6379)
# A Redis DB no other test uses (0 and 11 are taken); nothing is written to it.
REDIS_DB = 13
TOKEN = "health-token-for-tests-0123456789"


@pytest.fixture(autouse=True)
def _fresh_broker_checks(settings):
    settings.HEALTH_TOKEN = TOKEN
    broker_checks_forget()
    with celery_broker("memory://"):
        yield
    broker_checks_forget()


def _closed_port() -> int:
    return free_port()  # free now, and nothing will listen on it


class ConnectionCountingRelay:
    """A TCP relay to the real Redis that counts the connections opened through it."""

    def __init__(self, target: tuple[str, int]):
        self.target = target
        self.accepted = 0
        self._server = socket.create_server(("127.0.0.1", 0))
        self._server.settimeout(0.2)
        self.port = self._server.getsockname()[1]
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                client, _ = self._server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self.accepted += 1
            upstream = socket.create_connection(self.target)
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self._server.close()


@pytest.fixture
def redis_relay() -> Iterator[ConnectionCountingRelay]:
    try:
        socket.create_connection(REDIS, timeout=2).close()
    except OSError:
        pytest.skip("Redis is not running on 127.0.0.1:6379 (.ci/run starts it)")
    relay = ConnectionCountingRelay(REDIS)
    yield relay
    relay.close()


def test_anonymous_caller_gets_only_ok_and_status(client, db):
    response = client.get("/api/health")
    assert response.status_code == 200
    assert response.json() == {"ok": True, "status": "ok"}


def test_signed_in_non_staff_user_gets_only_ok_and_status(client, db):
    client.force_login(UserFactory(username="member", is_staff=False))
    assert client.get("/api/health").json() == {"ok": True, "status": "ok"}


def test_staff_session_that_is_not_superuser_gets_only_ok_and_status(client, db):
    client.force_login(UserFactory(username="staff", is_staff=True))
    assert client.get("/api/health").json() == {"ok": True, "status": "ok"}


def test_superuser_session_gets_database_broker_and_embeddings(client, db):
    client.force_login(UserFactory(username="operator", is_staff=True, is_superuser=True))
    body = client.get("/api/health").json()
    assert body["ok"] is True and body["status"] == "ok"
    assert body["database"]["ok"] is True
    assert body["database"]["server_version"]
    assert body["database"]["extensions"]["vector"]
    assert body["database"]["extensions"]["pg_trgm"]
    # The keyword leg's BM25 index: its version where the server has it (make install), else null.
    assert body["database"]["extensions"]["pg_textsearch"] == keyword_bm25_extension_version()
    assert body["database"]["lc_ctype"] == "C.UTF-8"
    assert body["broker"] == {"ok": True, "transport": "memory"}
    assert "configured" in body["embeddings"]


def test_bearer_health_token_gets_details(client, db):
    body = client.get("/api/health", headers={"Authorization": f"Bearer {TOKEN}"}).json()
    assert body["database"]["ok"] is True


def test_x_health_token_header_gets_details(client, db):
    body = client.get("/api/health", headers={"X-Health-Token": TOKEN}).json()
    assert body["database"]["ok"] is True


def test_wrong_health_token_gets_only_ok_and_status(client, db):
    response = client.get("/api/health", headers={"Authorization": f"Bearer {TOKEN[:-1]}x"})
    assert response.status_code == 200
    assert response.json() == {"ok": True, "status": "ok"}


def test_no_token_is_accepted_while_health_token_is_unset(client, db, settings):
    settings.HEALTH_TOKEN = ""
    assert client.get("/api/health", headers={"Authorization": "Bearer "}).json() == {"ok": True, "status": "ok"}
    assert client.get("/api/health", headers={"X-Health-Token": ""}).json() == {"ok": True, "status": "ok"}


def test_health_says_not_configured_without_provider(client, db, settings):
    from ingestion.embeddings import reset_embedding_backends

    settings.SEARCH_EMBEDDING_BACKENDS = {"default": None}
    reset_embedding_backends()
    body = client.get("/api/health", headers={"X-Health-Token": TOKEN}).json()
    reset_embedding_backends()
    assert body["embeddings"] == {
        "configured": False,
        "code": "not_configured",
        "message": body["embeddings"]["message"],
    }
    assert "EMBEDDING_PROVIDER" in body["embeddings"]["message"]


def test_unreachable_broker_is_a_code_without_exception_text(client, db, caplog):
    port = _closed_port()
    with celery_broker(f"redis://127.0.0.1:{port}/{REDIS_DB}"):
        anonymous = client.get("/api/health")
        detailed = client.get("/api/health", headers={"X-Health-Token": TOKEN})
    assert anonymous.status_code == 503
    assert anonymous.json() == {"ok": False, "status": "degraded"}
    assert detailed.json()["broker"] == {"ok": False, "transport": "redis", "error": "unreachable"}
    text = json.dumps(detailed.json())
    assert str(port) not in text and "127.0.0.1" not in text and "refused" not in text.lower()
    # The operator still finds the cause, in the server's log.
    assert any(record.exc_info and "broker" in record.getMessage() for record in caplog.records)


@pytest.mark.django_db(transaction=True)
def test_unreachable_database_is_a_code_without_exception_text(client, settings):
    connection.close()
    saved_port = connection.settings_dict["PORT"]
    # No server listens on this port's socket in the embedded server's directory.
    connection.settings_dict["PORT"] = str(_closed_port())
    try:
        anonymous = client.get("/api/health")
        detailed = client.get("/api/health", headers={"X-Health-Token": TOKEN})
    finally:
        connection.close()
        connection.settings_dict["PORT"] = saved_port
    assert anonymous.status_code == 503
    assert anonymous.json() == {"ok": False, "status": "degraded"}
    assert detailed.json()["database"] == {"ok": False, "error": "unreachable"}
    text = json.dumps(detailed.json()).lower()
    assert "socket" not in text and "connection" not in text and "postgres" not in text


def test_twenty_polls_open_at_most_one_broker_connection(client, db, settings, redis_relay):
    # Long enough that a slow machine cannot expire the cached check between polls.
    settings.HEALTH_BROKER_CACHE_SECONDS = 60
    with celery_broker(f"redis://127.0.0.1:{redis_relay.port}/{REDIS_DB}"):
        statuses = [client.get("/api/health").status_code for _ in range(20)]
    assert statuses == [200] * 20
    assert redis_relay.accepted == 1


def test_broker_is_checked_again_once_the_cached_result_expires(client, db, settings, redis_relay):
    settings.HEALTH_BROKER_CACHE_SECONDS = 0
    with celery_broker(f"redis://127.0.0.1:{redis_relay.port}/{REDIS_DB}"):
        for _ in range(3):
            client.get("/api/health")
    assert redis_relay.accepted == 3


def keyword_bm25_extension_version() -> str | None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT extversion FROM pg_extension WHERE extname = 'pg_textsearch'")
        row = cursor.fetchone()
    return row[0] if row else None


def test_health_reports_pg_textsearchs_version_where_the_server_has_it(client, db):
    client.force_login(UserFactory(username="operator", is_staff=True, is_superuser=True))
    version = client.get("/api/health").json()["database"]["extensions"]["pg_textsearch"]
    if keyword_bm25_extension_version() is None:
        pytest.skip("this server has no pg_textsearch (make install builds it into the embedded wheel)")
    assert version == "1.4.0"
