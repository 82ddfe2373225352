"""The real app under gunicorn (DEBUG off) over two seeded tenants, and raw JSON-RPC over /mcp/ and stdio.

The MCP security tests (review item 17: 1, 3, 4, 5) talk to the server as a client would:
over HTTP through gunicorn, and over stdio to `manage.py mcp_serve` as a subprocess, one
JSON-RPC message per line.
"""

from __future__ import annotations

import json
import select
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import pytest
import requests
from mcp_types import CLIENT_CAPABILITIES_META_KEY, PROTOCOL_VERSION_META_KEY

from cms import services
from tests.factories import api_key_make
from tests.search.live_app import BEHIND_PROXY, collectstatic, database_flush, gunicorn_serving, production_env
from tests.servers import REPO, database_env

MODERN_VERSION = "2026-07-28"
HANDSHAKE_VERSION = "2025-06-18"
ACCEPT_BOTH = "application/json, text/event-stream"


@dataclass(frozen=True)
class LiveMcp:
    base_url: str
    key: str

    @property
    def url(self) -> str:
        return f"{self.base_url}/mcp/"


@pytest.fixture(scope="module")
def live_mcp(django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator[LiveMcp]:
    """gunicorn with 2 sync workers (as deployed, DEBUG off) and a workspace "acme" with a key; tables emptied after.

    The workspace holds no content: what these tests ask is answered before any search reads it.
    """
    tmp = tmp_path_factory.mktemp("mcp")
    with django_db_blocker.unblock():
        key = api_key_make(services.workspace_create(slug="acme", name="Acme"))[1]
        env = production_env(tmp)
        collectstatic(env)
        try:
            with gunicorn_serving(env, tmp / "gunicorn.log") as (base_url, _):
                app = LiveMcp(base_url=base_url, key=key)
                _warm_up(app)
                yield app
        finally:
            database_flush()


def _warm_up(app: LiveMcp) -> None:
    """Start each worker's MCP bridge (built on first use), so timings measure answers, not start-up."""
    ping = json.dumps({"jsonrpc": "2.0", "id": 0, "method": "ping"})
    with ThreadPoolExecutor(max_workers=6) as pool:
        list(pool.map(lambda _: post_raw(app, ping, handshake_headers(app), timeout=30), range(12)))


def modern_message(method: str, params: dict[str, Any] | None = None, *, id: Any = 1) -> dict[str, Any]:  # noqa: A002
    """A 2026-07-28 request: no handshake, the protocol version and capabilities in every request's _meta."""
    meta = {PROTOCOL_VERSION_META_KEY: MODERN_VERSION, CLIENT_CAPABILITIES_META_KEY: {}}
    return {"jsonrpc": "2.0", "id": id, "method": method, "params": {**(params or {}), "_meta": meta}}


def modern_headers(app: LiveMcp, method: str, **extra: str) -> dict[str, str]:
    return {**BEHIND_PROXY, "Authorization": f"Bearer {app.key}", "Accept": ACCEPT_BOTH,
            "MCP-Protocol-Version": MODERN_VERSION, "Mcp-Method": method, **extra}


def handshake_headers(app: LiveMcp, **extra: str) -> dict[str, str]:
    return {**BEHIND_PROXY, "Authorization": f"Bearer {app.key}", "Accept": ACCEPT_BOTH,
            "MCP-Protocol-Version": HANDSHAKE_VERSION, **extra}


def post_raw(app: LiveMcp, body: bytes | str, headers: dict[str, str], *, timeout: float = 10) -> requests.Response:
    data = body.encode() if isinstance(body, str) else body
    return requests.post(app.url, data=data, headers={"Content-Type": "application/json", **headers}, timeout=timeout)


def post_modern(app: LiveMcp, method: str, params: dict[str, Any] | None = None, *, timeout: float = 10,
                **extra_headers: str) -> requests.Response:
    return post_raw(app, json.dumps(modern_message(method, params)), modern_headers(app, method, **extra_headers),
                    timeout=timeout)


def post_handshake(app: LiveMcp, message: Any, *, timeout: float = 10) -> requests.Response:
    """A request of the initialize-handshake era (stateless: no session to open first)."""
    return post_raw(app, json.dumps(message), handshake_headers(app), timeout=timeout)


class StdioServer:
    """`manage.py mcp_serve --api-key KEY` as a subprocess, spoken to one line at a time."""

    def __init__(self, key: str):
        from django.conf import settings

        # The keys were made here: the server must hash presented keys with the same secret.
        env = database_env(EMBEDDING_PROVIDER="fake", API_KEY_HASH_SECRET=settings.API_KEY_HASH_SECRET)
        env.pop("CMS_API_KEY", None)
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "mcp_serve", "--api-key", key], cwd=REPO, env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, encoding="utf-8",
        )

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def request(self, line: str) -> dict[str, Any]:
        """Send one line and read the server's next message."""
        self.send(line)
        return self.receive()

    def receive(self, *, timeout: float = 20) -> dict[str, Any]:
        """The server's next message; fails if none comes within `timeout` seconds (a line left unanswered)."""
        assert self.process.stdout is not None
        readable, _, _ = select.select([self.process.stdout], [], [], timeout)
        assert readable, f"no answer within {timeout} s"
        reply = self.process.stdout.readline()
        assert reply, "the server closed stdout"
        return json.loads(reply)

    def initialize(self) -> dict[str, Any]:
        answer = self.request(json.dumps({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {
            "protocolVersion": HANDSHAKE_VERSION, "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}}}))
        self.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        return answer

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()
