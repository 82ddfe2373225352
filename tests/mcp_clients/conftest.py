"""The app that the real MCP clients talk to: gunicorn (DEBUG off) over two seeded tenants.

One server for the whole package (the conformance suite and the Inspector), as the fuzz
tests build theirs (tests/search/live_app.py); the tables are emptied after.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.mcp_clients.node_clients import node_clients_require
from tests.search.live_app import collectstatic, database_flush, gunicorn_serving, production_env, tenants_seed


@dataclass(frozen=True)
class McpApp:
    base_url: str  # gunicorn, http://127.0.0.1:PORT
    mcp_url: str
    key: str  # acme's published-only key
    globex_key: str
    tmp: Path


@pytest.fixture(scope="package")
def node_clients() -> None:
    node_clients_require()


@pytest.fixture(scope="package")
def mcp_app(node_clients, django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator[McpApp]:
    tmp = tmp_path_factory.mktemp("mcp-clients")
    with django_db_blocker.unblock():
        keys = tenants_seed()
        env = production_env(tmp)
        collectstatic(env)
        try:
            with gunicorn_serving(env, tmp / "gunicorn.log", workers=3) as (base_url, _):
                yield McpApp(base_url=base_url, mcp_url=f"{base_url}/mcp/", key=keys["key"],
                             globex_key=keys["globex_key"], tmp=tmp)
        finally:
            database_flush()
