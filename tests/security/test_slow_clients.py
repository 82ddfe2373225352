"""Review item 10: clients that send their request slowly do not keep others from being served.

Before, two connections that sent headers or a keyed body slowly blocked /api/health for
8-12 s on gunicorn's two sync workers. The server here is gunicorn started with
gunicorn.conf.py, as docker/Dockerfile starts it, reached directly (no proxy in front).
"""

from __future__ import annotations

import pytest

from tests.factories import api_key_make
from tests.search.live_app import collectstatic, gunicorn_serving, production_env
from tests.slow_clients import health_latency, slow_clients

# Generous for a loaded 2-core machine: health answers in milliseconds when it is served at all.
HEALTH_BOUND_SECONDS = 2.0


@pytest.mark.django_db(transaction=True)
def test_health_answers_while_slow_clients_trickle_headers_and_keyed_bodies(workspace, tmp_path):
    _, key = api_key_make(workspace)
    env = production_env(tmp_path)
    collectstatic(env)  # production refuses to start without it (review item 13)
    with gunicorn_serving(env, tmp_path / "gunicorn.log", workers=2) as (base_url, _):
        port = int(base_url.rsplit(":", 1)[1])
        with slow_clients(port, headers=2, bodies=2, slug=workspace.slug, key=key, max_seconds=20):
            latencies = [health_latency(port, timeout=HEALTH_BOUND_SECONDS) for _ in range(5)]

    assert max(latencies) < HEALTH_BOUND_SECONDS, latencies
