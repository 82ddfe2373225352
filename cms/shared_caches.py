"""Production with several web workers shares its caches, or does not start at all.

Two caches must be the same for every gunicorn worker: "search_results" (each search's
results and caller, without which a click answered by another worker than its search is a
404: five posts of one click answered 202, 404, 202, 404, 202) and "throttle" (the rate
limits, the failed-authentication limit and the read-your-writes marks, which each worker
would otherwise count apart). Unset, both live in each worker's memory (config/settings/api.py).

So with DEBUG off and more than one worker, gunicorn refuses to start (gunicorn.conf.py's
on_starting asks `shared_caches_missing_message` with its real worker count), and
`manage.py check --deploy` reports the same as error cms.E002, for the worker count the
deployment configures (`web_workers_configured`). DEBUG on (development, the tests' own
processes) and one worker are not affected.
"""

from __future__ import annotations

import os
import shlex

from django.conf import settings
from django.core import checks

# The caches every web worker must share, and the backends that keep a copy per process.
SHARED_CACHES = ("search_results", "throttle")
PER_PROCESS_BACKENDS = frozenset({"django.core.cache.backends.locmem.LocMemCache",
                                  "django.core.cache.backends.dummy.DummyCache"})
# gunicorn.conf.py's `workers` (tests/config/test_shared_caches.py keeps them equal).
GUNICORN_CONF_WORKERS = 3


def web_workers_configured() -> int:
    """How many workers gunicorn starts with gunicorn.conf.py: GUNICORN_CMD_ARGS's --workers
    (or -w), which overrides the file, else the file's GUNICORN_CONF_WORKERS."""
    args = shlex.split(os.environ.get("GUNICORN_CMD_ARGS", ""))
    workers = GUNICORN_CONF_WORKERS
    for i, arg in enumerate(args):
        value = None
        if arg in ("--workers", "-w") and i + 1 < len(args):
            value = args[i + 1]
        elif arg.startswith("--workers="):
            value = arg.partition("=")[2]
        if value is not None and value.strip().isdigit():
            workers = int(value)
    return workers


def shared_caches_missing_message(*, workers: int) -> str | None:
    """Why production with `workers` web workers may not run on these cache settings, or None."""
    if settings.DEBUG or workers <= 1:
        return None
    per_process = [alias for alias in SHARED_CACHES if settings.CACHES[alias]["BACKEND"] in PER_PROCESS_BACKENDS]
    if not per_process:
        return None
    return (f"Production (DEBUG off) with {workers} web workers needs caches every worker shares, but "
            f"{' and '.join(per_process)} live in each worker's memory: a click event answered by another worker "
            "than its search would be refused (404), and each worker would count the rate limits apart. Set "
            "THROTTLE_CACHE_URL to a Redis every worker reaches (such as redis://redis:6379/2; "
            "SEARCH_RESULTS_CACHE_URL defaults to it), or run one worker (--workers 1).")


@checks.register(checks.Tags.caches, deploy=True)
def shared_caches_check(app_configs, **kwargs) -> list[checks.CheckMessage]:
    message = shared_caches_missing_message(workers=web_workers_configured())
    return [checks.Error(message, id="cms.E002")] if message else []
