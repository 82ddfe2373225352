"""Benchmark of GET /api/health in-process: p50/p95 per call and calls/s, per configuration.

    DEBUG=true .venv/bin/python bench/health.py [--calls 500]

Calls the view through Django's test client (the whole middleware stack, no network) on
the development database. Shows what a poll every second costs, and what the cached
broker check saves on Redis (DB 13) against a check that opens a connection per call.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connections  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import override_settings  # noqa: E402

from config.celery import app as celery_app  # noqa: E402
from search.operations.health import broker_checks_forget  # noqa: E402

REDIS_URL = "redis://127.0.0.1:6379/13"
TOKEN = "bench-health-token"


def _measure(calls: int, headers: dict[str, str]) -> tuple[float, float, float, int]:
    """p50 and p95 in ms, calls per second, and the status of the last call."""
    client = Client()
    client.get("/api/health", headers=headers)  # warm: imports, first connection
    durations = []
    status = 0
    started = time.perf_counter()
    for _ in range(calls):
        t0 = time.perf_counter()
        status = client.get("/api/health", headers=headers).status_code
        durations.append((time.perf_counter() - t0) * 1000)
    elapsed = time.perf_counter() - started
    durations.sort()
    return statistics.median(durations), durations[int(len(durations) * 0.95) - 1], calls / elapsed, status


def _with_broker(url: str):
    celery_app.conf.broker_url = url
    celery_app.conf.broker_transport_options = {} if not url.startswith("filesystem") else \
        settings.CELERY_BROKER_TRANSPORT_OPTIONS
    broker_checks_forget()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=500)
    args = parser.parse_args()

    rows = []
    detailed = {"X-Health-Token": TOKEN}
    with override_settings(HEALTH_TOKEN=TOKEN):
        _with_broker(settings.CELERY_BROKER_URL)
        rows.append(("anonymous, default broker, CONN_MAX_AGE=0", *_measure(args.calls, {})))
        rows.append(("detailed (token), default broker, CONN_MAX_AGE=0", *_measure(args.calls, detailed)))
        connections["default"].settings_dict["CONN_MAX_AGE"] = 60
        rows.append(("anonymous, default broker, CONN_MAX_AGE=60", *_measure(args.calls, {})))
        connections["default"].settings_dict["CONN_MAX_AGE"] = 0
        connections["default"].close()
        _with_broker(REDIS_URL)
        rows.append(("anonymous, Redis, broker check cached 5 s", *_measure(args.calls, {})))
        with override_settings(HEALTH_BROKER_CACHE_SECONDS=0):
            rows.append(("anonymous, Redis, broker checked every call", *_measure(args.calls, {})))

    print(f"GET /api/health, {args.calls} calls each, in-process (Django test client)")
    print(f"{'configuration':<52} {'p50 ms':>8} {'p95 ms':>8} {'calls/s':>9} {'status':>7}")
    for name, p50, p95, rate, status in rows:
        print(f"{name:<52} {p50:>8.2f} {p95:>8.2f} {rate:>9.0f} {status:>7}")


if __name__ == "__main__":
    main()
