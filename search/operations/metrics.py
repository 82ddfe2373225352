"""What searches did, counted for Prometheus: latency, results and failures per kind and interface.

Every interface (API, MCP, admin, CLI) runs a search inside `search_observed(kind, interface)`,
which times it, counts what it returned, and counts a failure by its SearchError code (then
re-raises). Labels come from code, never from a request: kind and interface are the callers'
constants and `code` is a SearchError's, so the number of series stays bounded.

Several gunicorn workers each count in their own process; with PROMETHEUS_MULTIPROC_DIR set
(prometheus-client's multiprocess mode, docs/operators.md "Metrics") each writes its values to
files there and /metrics (search/operations/metrics_view.py) sums them. Gauges about the data (pending
chunks, tokens, replica lag) are answered by the database at scrape time instead.
"""

from __future__ import annotations

import contextvars
import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from prometheus_client import Counter, Histogram

from search.contract.errors import SearchError

# Up to the statement timeout (3 s by default) and beyond, for searches that call a provider.
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 10.0, 30.0)

SEARCH_DURATION = Histogram(
    "cms_search_duration_seconds", "Time a search took, failures included.", ["kind", "interface"],
    buckets=LATENCY_BUCKETS,
)
SEARCH_RESULTS = Counter(
    "cms_search_results", "Results searches returned.", ["kind", "interface"],
)
SEARCH_FAILURES = Counter(
    "cms_search_failures", "Searches that failed, by the error's code.", ["kind", "interface", "code"],
)
# Every API or MCP answer with an error code (throttled: 429 *_throttled), whatever raised it.
API_ERRORS = Counter(
    "cms_api_errors", "API and MCP answers with an error, by status and code.", ["status", "code"],
)

INTERNAL_ERROR = "internal_error"

# Whether the current request already ran a search under search_observed (the middleware then
# leaves it alone, so a search is never counted twice).
_observed: contextvars.ContextVar[bool] = contextvars.ContextVar("search_observed", default=False)


@dataclass
class SearchObservation:
    """Set `results` to the number of results the search returned, if it returned any."""

    results: int | None = None


@contextmanager
def search_observed(kind: str, interface: str) -> Iterator[SearchObservation]:
    """Time the block as one search of `kind` through `interface`; count its failure by
    SearchError.code (anything else as `internal_error`) and re-raise it."""
    _observed.set(True)
    observation = SearchObservation()
    started = time.perf_counter()
    try:
        yield observation
    except SearchError as exc:
        SEARCH_FAILURES.labels(kind, interface, exc.code).inc()
        raise
    except Exception:
        SEARCH_FAILURES.labels(kind, interface, INTERNAL_ERROR).inc()
        raise
    finally:
        SEARCH_DURATION.labels(kind, interface).observe(time.perf_counter() - started)
    if observation.results:
        SEARCH_RESULTS.labels(kind, interface).inc(observation.results)


# The API's search routes (search/interfaces/api/urls.py names) and the kind each runs.
API_SEARCH_ROUTES = {"search-entries": "fulltext", "search-semantic": "semantic", "search-hybrid": "hybrid",
                     "search-agentic": "agentic", "search-suggest": "suggest"}
_RESULT_LISTS = ("results", "sources")


class ApiMetricsMiddleware:
    """Counts API and MCP error answers by code, and observes an API search refused before it
    reached SearchKind.search (a body that is no JSON, a throttled or unauthenticated call)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        path = request.path_info
        if not path.startswith(("/api/", "/mcp")):
            return self.get_response(request)
        token = _observed.set(False)
        started = time.perf_counter()
        try:
            response = self.get_response(request)
            observed_inside = _observed.get()
        finally:
            _observed.reset(token)
        data = getattr(response, "data", None)
        if data is None and response.status_code >= 400:
            data = _small_json(response)
        code = data.get("code") if isinstance(data, dict) and isinstance(data.get("code"), str) else None
        if response.status_code >= 400:
            API_ERRORS.labels(str(response.status_code), _bounded(code)).inc()
        match = getattr(request, "resolver_match", None)
        kind = API_SEARCH_ROUTES.get(match.url_name) if match is not None else None
        if kind and not observed_inside:
            SEARCH_DURATION.labels(kind, "api").observe(time.perf_counter() - started)
            if response.status_code >= 400:
                SEARCH_FAILURES.labels(kind, "api", _bounded(code)).inc()
            elif isinstance(data, dict):
                found = next((data[key] for key in _RESULT_LISTS if isinstance(data.get(key), list)), None)
                if found:
                    SEARCH_RESULTS.labels(kind, "api").inc(len(found))
        return response


def _small_json(response) -> dict | None:
    """The body of an error answered outside DRF (a middleware's JsonResponse), if small JSON."""
    if getattr(response, "streaming", False) or "json" not in response.get("Content-Type", ""):
        return None
    content = response.content
    if len(content) > 4096:
        return None
    try:
        return json.loads(content)
    except ValueError:
        return None


def _bounded(code: str | None) -> str:
    """Error codes are our own snake_case words; anything else is counted as `other`."""
    if code and len(code) <= 40 and code.replace("_", "").isalpha() and code.islower():
        return code
    return "other" if code else "none"
