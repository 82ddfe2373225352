"""/metrics: search latency, results and failures; error answers by code; chunk gauges per
workspace (top N + other); provider tokens; protected like health details. The last test
scrapes gunicorn with several workers and finds every worker's searches in the totals."""

from __future__ import annotations

import datetime
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from ingestion.models import Chunk, ChunkStatus, EmbeddingUsage, SourceKind
from search.contract.errors import SearchInputError
from search.operations.metrics import search_observed
from tests.factories import (
    ContentTypeFactory,
    WorkspaceFactory,
    api_key_make,
    bearer,
    entry_make,
)
from tests.servers import (
    database_env,
    deployed_gunicorn_options,
    gunicorn_started,
)

TOKEN = "metrics-test-token"
ENTRIES = "/api/v1/workspaces/{slug}/search/entries"


def sample(name: str, **labels) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def scrape(client, **headers) -> dict[tuple[str, tuple], float]:
    response = client.get("/metrics", **headers)
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/plain")
    return parse(response.content.decode())


def parse(text: str) -> dict[tuple[str, tuple], float]:
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


@pytest.fixture
def token(settings):
    settings.HEALTH_TOKEN = TOKEN
    return {"HTTP_AUTHORIZATION": f"Bearer {TOKEN}"}


# --- access ------------------------------------------------------------------------------------

def test_metrics_need_the_health_token_or_a_superuser(client, settings, token, editor, superuser, workspace):
    assert client.get("/metrics").status_code == 403
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong").json()["code"] == "permission_denied"
    _, secret = api_key_make(workspace)  # a workspace's key reads its workspace, not the deployment
    assert client.get("/metrics", **bearer(secret)).status_code == 403
    client.force_login(editor)
    assert client.get("/metrics").status_code == 403
    client.force_login(superuser)
    assert client.get("/metrics").status_code == 200
    client.logout()
    assert client.get("/metrics", **token).status_code == 200
    assert client.get("/metrics", HTTP_X_HEALTH_TOKEN=TOKEN).status_code == 200


def test_without_a_token_configured_only_a_superuser_reads_them(client, settings):
    settings.HEALTH_TOKEN = ""
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer ").status_code == 403


# --- what searches did ---------------------------------------------------------------------------

def test_api_searches_are_timed_and_their_results_and_failures_counted(client, token, workspace, article_type):
    entry_make(article_type, title="Refund policy")
    entry_make(article_type, title="Refund terms")
    _, secret = api_key_make(workspace)
    labels = {"kind": "fulltext", "interface": "api"}
    before = (sample("cms_search_duration_seconds_count", **labels), sample("cms_search_results_total", **labels),
              sample("cms_search_failures_total", code="query_empty", **labels))
    assert client.get(ENTRIES.format(slug="acme") + "?q=refund", **bearer(secret)).status_code == 200
    assert client.get(ENTRIES.format(slug="acme") + "?q=", **bearer(secret)).status_code == 400
    after = (sample("cms_search_duration_seconds_count", **labels), sample("cms_search_results_total", **labels),
             sample("cms_search_failures_total", code="query_empty", **labels))
    assert [b - a for a, b in zip(before, after)] == [2, 2, 1]
    scraped = scrape(client, **token)
    assert scraped[("cms_search_duration_seconds_count", (("interface", "api"), ("kind", "fulltext")))] == after[0]


def test_suggest_is_timed_and_its_completions_and_failures_counted(client, workspace, doc_type):
    # Suggest completes from the chunks, which only a type searched by meaning has.
    entry_make(doc_type, title="Refund policy")
    _, secret = api_key_make(workspace)
    labels = {"kind": "suggest", "interface": "api"}
    before = (sample("cms_search_duration_seconds_count", **labels), sample("cms_search_results_total", **labels),
              sample("cms_search_failures_total", code="limit_out_of_range", **labels))
    suggest = "/api/v1/workspaces/acme/search/suggest"
    answered = client.get(suggest, {"q": "refu"}, **bearer(secret))
    assert client.get(suggest, {"q": "refu", "limit": "99"}, **bearer(secret)).status_code == 400
    after = (sample("cms_search_duration_seconds_count", **labels), sample("cms_search_results_total", **labels),
             sample("cms_search_failures_total", code="limit_out_of_range", **labels))
    assert answered.status_code == 200 and answered.json()["suggestions"]
    assert [b - a for a, b in zip(before, after)] == [2, len(answered.json()["suggestions"]), 1]


def test_throttled_answers_are_counted_by_code(client, settings, workspace):
    settings.API_RATE_LIMIT_KEY = "2/min"
    _, secret = api_key_make(workspace)
    before = sample("cms_api_errors_total", status="429", code="throttled")
    responses = [client.get(ENTRIES.format(slug="acme") + "?q=x", **bearer(secret)) for _ in range(4)]
    assert [r.status_code for r in responses] == [200, 200, 429, 429]
    assert responses[-1].json()["code"] == "throttled"
    assert sample("cms_api_errors_total", status="429", code="throttled") == before + 2


def test_search_observed_counts_a_failure_by_its_code_and_re_raises():
    labels = {"kind": "semantic", "interface": "mcp"}
    before = sample("cms_search_failures_total", code="filter_invalid", **labels)
    with pytest.raises(SearchInputError), search_observed("semantic", "mcp"):
        raise SearchInputError("filter_invalid", "bad filter")
    with search_observed("semantic", "mcp") as observed:
        observed.results = 7
    assert sample("cms_search_failures_total", code="filter_invalid", **labels) == before + 1
    assert sample("cms_search_results_total", **labels) >= 7
    assert sample("cms_search_duration_seconds_count", **labels) >= 2


# --- what the database says ----------------------------------------------------------------------

def _chunks(workspace, status: str, n: int) -> None:
    content_type = ContentTypeFactory(workspace=workspace, api_id=f"t{status}{n}")
    entry = entry_make(content_type, title="x")
    Chunk.objects.bulk_create([
        Chunk(workspace=workspace, source_kind=SourceKind.ENTRY, entry=entry, field="body", ordinal=i, text="t",
              content_hash=f"{status}{i}", status=status)
        for i in range(n)
    ])


def test_chunk_gauges_name_the_top_workspaces_and_fold_the_rest_into_other(client, settings, token, db):
    settings.METRICS_TOP_WORKSPACES = 2
    big, middle, small, tiny = (WorkspaceFactory(slug=s) for s in ("big", "middle", "small", "tiny"))
    _chunks(big, ChunkStatus.PENDING, 6)
    _chunks(big, ChunkStatus.FAILED, 1)
    _chunks(middle, ChunkStatus.BACKFILL, 4)
    _chunks(small, ChunkStatus.PENDING, 2)
    _chunks(tiny, ChunkStatus.FAILED, 1)
    scraped = scrape(client, **token)
    gauges = {labels: value for (name, labels), value in scraped.items() if name == "cms_chunks"}
    by = defaultdict(dict)
    for labels, value in gauges.items():
        label = dict(labels)
        by[label["workspace"]][label["status"]] = value
    assert set(by) == {"big", "middle", "other"}
    assert by["big"] == {"pending": 6, "backfill": 0, "failed": 1}
    assert by["middle"] == {"pending": 0, "backfill": 4, "failed": 0}
    assert by["other"] == {"pending": 2, "backfill": 0, "failed": 1}


def test_provider_tokens_come_from_usage_rows(client, settings, token, workspace, other_workspace):
    settings.SEARCH_RERANK_BACKENDS = {"default": {"BACKEND": "x", "OPTIONS": {"model": "rerank-2.5"}}}
    today = datetime.date(2026, 12, 1)
    EmbeddingUsage.objects.create(workspace=workspace, model="voyage-3.5", day=today, tokens=1000)
    EmbeddingUsage.objects.create(workspace=other_workspace, model="voyage-3.5", day=today, tokens=500)
    EmbeddingUsage.objects.create(workspace=workspace, model="voyage-3.5", day=today - datetime.timedelta(days=1),
                                  tokens=25)
    EmbeddingUsage.objects.create(workspace=workspace, model="rerank-2.5", day=today, tokens=300)
    scraped = scrape(client, **token)
    assert scraped[("cms_provider_tokens_total", (("kind", "embedding"), ("model", "voyage-3.5")))] == 1525
    assert scraped[("cms_provider_tokens_total", (("kind", "rerank"), ("model", "rerank-2.5")))] == 300


# --- several gunicorn workers --------------------------------------------------------------------

@pytest.mark.django_db(transaction=True)
def test_counts_from_every_gunicorn_worker_add_up(tmp_path):
    workspace = WorkspaceFactory(slug="acme")
    entry_make(ContentTypeFactory(workspace=workspace, api_id="article"), title="Refund policy")
    _, secret = api_key_make(workspace)
    multiproc = tmp_path / "prometheus"
    env = database_env(PROMETHEUS_MULTIPROC_DIR=str(multiproc), HEALTH_TOKEN=TOKEN, API_RATE_LIMIT_KEY="")
    found, empty = 60, 12
    # One thread per worker: concurrent requests must spread over the workers.
    with gunicorn_started(env, *deployed_gunicorn_options(), "--threads", "1", workers=3) as (base, _):

        def get(query: str) -> int:
            with requests.Session() as session:  # a connection of its own each time
                return session.get(f"{base}{ENTRIES.format(slug='acme')}?q={query}",
                                   headers={"Authorization": f"Bearer {secret}", "Connection": "close"},
                                   timeout=30).status_code

        with ThreadPoolExecutor(8) as pool:
            statuses = list(pool.map(get, ["refund"] * found + [""] * empty))
        assert statuses.count(200) == found and statuses.count(400) == empty
        pids = {path.stem.rsplit("_", 1)[-1] for path in Path(multiproc).glob("histogram_*.db")}
        assert len(pids) >= 2, f"all searches landed on one worker: {pids}"
        response = requests.get(f"{base}/metrics", headers={"Authorization": f"Bearer {TOKEN}"}, timeout=30)
        assert response.status_code == 200
        scraped = parse(response.text)
        api_fulltext = (("interface", "api"), ("kind", "fulltext"))
        assert scraped[("cms_search_duration_seconds_count", api_fulltext)] == found + empty
        assert scraped[("cms_search_results_total", api_fulltext)] == found
        assert scraped[("cms_search_failures_total", (("code", "query_empty"), *api_fulltext))] == empty
        assert scraped[("cms_api_errors_total", (("code", "query_empty"), ("status", "400")))] == empty
        assert requests.get(f"{base}/metrics", timeout=30).status_code == 403
