"""Production with several gunicorn workers shares its caches, or does not start (issue 49, item 4).

Without SEARCH_RESULTS_CACHE_URL or THROTTLE_CACHE_URL each worker kept its own results cache
and rate counters: a search, then one click posted five times, answered 202, 404, 202, 404,
202. Now gunicorn with DEBUG off and two workers refuses to start without a shared cache, and
`check --deploy` says the same (cms/shared_caches.py); with Redis shared, twenty clicks on
one search all answer 202 and a rate limit counts every worker's requests.
"""

from __future__ import annotations

import runpy
import secrets
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
import redis
import requests

from cms.shared_caches import GUNICORN_CONF_WORKERS
from tests.figures import figure_record
from tests.search.live_app import (BEHIND_PROXY, collectstatic, database_flush, gunicorn_serving, production_env,
                                   tenants_seed)
from tests.servers import GUNICORN_CONF, REPO, database_env, deployed_gunicorn_options

# This module's own Redis database (other tests use 0, 2, 5, 11, 13 and 14).
REDIS_URL = "redis://127.0.0.1:6379/9"
MESSAGE = "needs caches every worker shares"

pytestmark = pytest.mark.django_db


def test_the_check_reads_gunicorn_conf_workers():
    assert runpy.run_path(str(GUNICORN_CONF))["workers"] == GUNICORN_CONF_WORKERS


@pytest.fixture
def no_shared_cache(django_db_setup, django_db_blocker, tmp_path) -> dict[str, str]:
    """Production settings (DEBUG off) with neither cache URL set."""
    with django_db_blocker.unblock():
        env = database_env(DEBUG="false", SECRET_KEY=secrets.token_urlsafe(50), ALLOWED_HOSTS="127.0.0.1",
                           STATIC_ROOT=str(tmp_path / "static"), BROKER_DIR=str(tmp_path / "broker"))
    for name in ("THROTTLE_CACHE_URL", "SEARCH_RESULTS_CACHE_URL", "GUNICORN_CMD_ARGS"):
        env.pop(name, None)
    return env


def test_gunicorn_with_two_workers_and_no_shared_cache_refuses_to_start(no_shared_cache):
    started = subprocess.run([sys.executable, "-m", "gunicorn", *deployed_gunicorn_options(), "--bind",
                              "127.0.0.1:0", "--workers", "2"], cwd=REPO, env=no_shared_cache, capture_output=True,
                             text=True, timeout=120)
    output = started.stdout + started.stderr
    assert started.returncode == 1, output[-3000:]
    assert MESSAGE in output and "THROTTLE_CACHE_URL" in output and "search_results and throttle" in output
    figure_record("shared caches, gunicorn --workers 2 without one: exit 1, "
                  + next(line for line in output.splitlines() if MESSAGE in line).strip())


def test_check_deploy_fails_without_a_shared_cache_for_the_configured_workers(no_shared_cache):
    result = subprocess.run([sys.executable, "manage.py", "check", "--deploy"], cwd=REPO, env=no_shared_cache,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    assert "cms.E002" in result.stderr and f"with {GUNICORN_CONF_WORKERS} web workers" in result.stderr
    assert MESSAGE in result.stderr


@pytest.mark.parametrize("extra", [{"GUNICORN_CMD_ARGS": "--workers 1"}, {"THROTTLE_CACHE_URL": REDIS_URL},
                                   {"DEBUG": "true"}], ids=["one worker", "shared", "debug"])
def test_check_deploy_accepts_one_worker_a_shared_cache_or_debug(no_shared_cache, extra):
    result = subprocess.run([sys.executable, "manage.py", "check", "--deploy"], cwd=REPO,
                            env={**no_shared_cache, **extra}, capture_output=True, text=True, timeout=120)
    assert "cms.E002" not in result.stderr


@pytest.fixture(scope="module")
def two_workers(django_db_setup, django_db_blocker, tmp_path_factory):
    """gunicorn (2 workers, DEBUG off) over the seeded tenants, both caches in one Redis, a
    rate limit of 25 requests a minute per key."""
    tmp = tmp_path_factory.mktemp("shared_caches")
    redis.Redis.from_url(REDIS_URL).flushdb()
    with django_db_blocker.unblock():
        keys = tenants_seed()
        env = production_env(tmp, THROTTLE_CACHE_URL=REDIS_URL, SEARCH_RESULTS_CACHE_URL=REDIS_URL,
                             API_RATE_LIMIT_KEY="25/min")
        collectstatic(env)
        try:
            with gunicorn_serving(env, tmp / "gunicorn.log", workers=2) as (base_url, _):
                yield base_url, keys
        finally:
            database_flush()
            redis.Redis.from_url(REDIS_URL).flushdb()


def test_twenty_clicks_on_one_search_all_answer_202_across_two_workers(two_workers):
    base, keys = two_workers
    headers = {**BEHIND_PROXY, "Authorization": f"Bearer {keys['key']}", "Connection": "close"}
    found = requests.get(f"{base}/api/v1/workspaces/acme/search/entries", params={"q": "refund"}, headers=headers,
                         timeout=60).json()
    click = {"search_id": found["meta"]["search_id"], "entry_id": found["results"][0]["id"], "position": 1}
    # A new connection each (Connection: close), so the workers take turns at accepting them.
    statuses = Counter(requests.post(f"{base}/api/v1/workspaces/acme/search/events", json=click, headers=headers,
                                     timeout=60).status_code for _ in range(20))
    figure_record(f"shared caches, 20 clicks on one search through 2 workers: {dict(statuses)}")
    assert statuses == {202: 20}


def test_a_rate_limit_counts_every_workers_requests(two_workers):
    base, keys = two_workers
    headers = {**BEHIND_PROXY, "Authorization": f"Bearer {keys['drafts_key']}", "Connection": "close"}
    statuses = Counter(requests.get(f"{base}/api/v1/workspaces/acme/search/entries", params={"q": "refund"},
                                    headers=headers, timeout=60).status_code for _ in range(30))
    figure_record(f"shared caches, 30 searches at 25/min through 2 workers: {dict(statuses)}")
    assert statuses == {200: 25, 429: 5}
