"""The search log (search/insights/search_log.py): what a search leaves, in every interface, written off the
request path, nothing lost under concurrent searches or at a process's exit, redacted and pruned."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from datetime import timedelta
from io import StringIO

import pytest
import requests
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from cms.models import Role
from ingestion.queues import MAINTENANCE, TASK_QUEUE_KINDS
from search.kinds import SEARCH_ENTRIES
from search.models import SearchClick, SearchLog
from search.insights.search_log import (
    BUFFER,
    EMAIL_MARK,
    NUMBER_MARK,
    caller_hash,
    query_normalise,
    search_id_parse,
    search_log_flush,
    search_log_prune,
)
from tests.factories import (
    ContentTypeFactory,
    MembershipFactory,
    UserFactory,
    WorkspaceFactory,
    api_key_make,
    bearer,
    entry_make,
    full_access,
)
from tests.servers import REPO, database_env, gunicorn_started

ENTRIES = "/api/v1/workspaces/{slug}/search/entries"


@pytest.mark.parametrize(("raw", "logged"), [
    ("  Refund   POLICY ", "refund policy"),
    ("ＲＥＦＵＮＤ　返品", "refund 返品"),  # full-width folded, ideographic space collapsed
    ("order for alice.smith+tag@example.co.jp please", f"order for {EMAIL_MARK} please"),
    ("card 4111 1111 1111 1111", f"card {NUMBER_MARK}"),
    ("call 090-1234-5678", f"call {NUMBER_MARK}"),
    ("order 12345 in 2024", "order 12345 in 2024"),  # short numbers stay: product codes, years
])
def test_query_is_normalised_and_personal_data_redacted(raw, logged):
    assert query_normalise(raw) == logged


@pytest.mark.parametrize("raw", [
    "card 4111 - 1111 - 1111 - 1111", "card 4111/1111/1111/1111", "card 4111_1111_1111_1111",
    "card 4111,1111,1111,1111", "card 4111 / 1111 / 1111 / 1111", "card 41 11 11", "card 4111\u20131111\u20131111",
    "card 4111 -- 1111 __ 1111", "card ４１１１－１１１１－１１１１",
])
def test_any_run_of_six_digits_with_separators_is_a_number(raw):
    assert query_normalise(raw) == f"card {NUMBER_MARK}"


@pytest.mark.parametrize("raw", ["alice @ example.com", "alice@ example.com", "alice @example.co.jp",
                                 "alice @ example . com"])
def test_an_email_with_spaces_around_its_at_is_redacted(raw):
    assert query_normalise(f"mail {raw} now") == f"mail {EMAIL_MARK} now"


def test_a_long_query_is_redacted_before_it_is_cut():
    # 795 spaces collapse to one: the card number that follows falls inside what is kept.
    logged = query_normalise("a" + " " * 795 + "4111 1111 1111 1111 " + "b" * 1200)
    assert logged.startswith(f"a {NUMBER_MARK} b") and "41" not in logged
    assert "1111" not in query_normalise("x " * 390 + "4111 1111 1111 1111")


def test_query_is_cut_to_200_characters():
    assert len(query_normalise("a" * 1000)) == 200


def logged() -> list[SearchLog]:
    search_log_flush()
    return list(SearchLog.objects.order_by("created_at"))


def test_api_search_is_logged_once_with_its_search_id(client, workspace, article_type):
    entry_make(article_type, title="Refund policy")
    key, secret = api_key_make(workspace)
    body = client.get(ENTRIES.format(slug="acme"), {"q": "REFUND"}, **bearer(secret)).json()

    [row] = logged()
    assert (row.workspace_id, row.interface, row.kind, row.query, row.results) == (
        workspace.pk, "api", "fulltext", "refund", 1)
    assert row.latency_ms > 0
    assert row.caller == caller_hash(f"key:cms_{key.prefix}") and key.prefix not in row.caller
    assert search_id_parse(workspace.pk, body["meta"]["search_id"]) == row.id


def test_admin_page_and_command_searches_are_logged(client, workspace, article_type, editor):
    entry_make(article_type, title="Refund policy")
    client.force_login(editor)
    assert client.get("/admin/search/acme/", {"q": "refund", "mode": "fulltext"}).status_code == 200
    call_command("search_entries", "acme", "nothing-matches-this", stdout=StringIO())

    rows = logged()
    assert [(r.interface, r.query, r.results) for r in rows] == [("admin", "refund", 1),
                                                                ("command", "nothing-matches-this", 0)]
    assert rows[0].caller == caller_hash("user:editor")


def test_a_suggest_is_logged_as_its_own_kind_with_its_completions_as_results(client, workspace, doc_type):
    # Suggest completes from the chunks, which only a type searched by meaning has.
    entry_make(doc_type, title="Refund policy")
    _, secret = api_key_make(workspace)
    body = client.get("/api/v1/workspaces/acme/search/suggest", {"q": "Refu"}, **bearer(secret)).json()

    [row] = logged()
    assert (row.interface, row.kind, row.query, row.results) == ("api", "suggest", "refu", len(body["suggestions"]))
    assert row.results >= 1
    assert "search_id" not in body  # nothing to click: the suggest answer's JSON is unchanged


def test_the_admin_changelist_search_is_logged_as_the_admin_s(client, workspace, article_type, superuser):
    entry_make(article_type, title="Refund policy")
    client.force_login(superuser)
    assert client.get("/admin/cms/entry/", {"q": "refund"}).status_code == 200

    assert [(r.interface, r.kind, r.query, r.results) for r in logged()] == [("admin", "fulltext", "refund", 1)]


def test_a_refused_search_is_not_logged(client, workspace, editor):
    client.force_login(editor)
    assert client.get(ENTRIES.format(slug="acme"), {"q": ""}).status_code == 400
    assert logged() == []


def test_logging_off_logs_nothing_and_gives_no_search_id(client, workspace, article_type, editor):
    workspace.search_log_enabled = False
    workspace.save()
    client.force_login(editor)
    body = client.get(ENTRIES.format(slug="acme"), {"q": "refund"}).json()
    assert body["meta"]["search_id"] is None
    assert logged() == []


def test_logging_adds_no_query_to_a_search(workspace, article_type):
    entry_make(article_type, title="Refund policy")
    access = full_access(workspace)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            SEARCH_ENTRIES.search(access, {"query": "refund"}, interface="api")
        return len(captured)

    on = queries()
    workspace.search_log_enabled = False
    off = queries()
    assert on == off and BUFFER.pending() == 1


def test_a_row_for_a_deleted_workspace_is_dropped_not_retried(workspace, other_workspace):
    SEARCH_ENTRIES.search(full_access(workspace), {"query": "kept"}, interface="api")
    SEARCH_ENTRIES.search(full_access(other_workspace), {"query": "gone"}, interface="api")
    other_workspace.delete()
    assert [row.query for row in logged()] == ["kept"] and BUFFER.pending() == 0


# --- off the request path, under concurrency, at exit --------------------------------------------

@pytest.mark.django_db(transaction=True)
def test_concurrent_searches_are_all_written_by_the_background_thread(settings):
    settings.SEARCH_LOG_FLUSH_SECONDS = 0.05
    settings.SEARCH_LOG_BATCH_SIZE = 25
    workspace = WorkspaceFactory(slug="acme")
    entry_make(ContentTypeFactory(workspace=workspace, api_id="article"), title="Refund policy")
    access = full_access(workspace)
    threads, per_thread = 8, 40
    errors = []

    def searches(n: int) -> None:
        try:
            for i in range(per_thread):
                SEARCH_ENTRIES.search(access, {"query": f"refund {n}-{i}"}, interface="api")
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connection.close()

    workers = [threading.Thread(target=searches, args=(n,)) for n in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert not errors
    deadline = time.monotonic() + 30
    while SearchLog.objects.count() < threads * per_thread and time.monotonic() < deadline:
        time.sleep(0.05)
    # Written by the thread, not by a flush of this test: the buffer is empty.
    assert SearchLog.objects.count() == threads * per_thread and BUFFER.pending() == 0
    assert len(set(SearchLog.objects.values_list("query", flat=True))) == threads * per_thread


EXIT_SCRIPT = """
from cms.access import workspace_access_for_operator
from cms.models import Workspace
from search.kinds import SEARCH_ENTRIES
access = workspace_access_for_operator(workspace=Workspace.objects.get(slug="acme"))
for i in range({count}):
    SEARCH_ENTRIES.search(access, {{"query": f"refund {{i}}"}}, interface="command")
print("searched")
"""


@pytest.mark.django_db(transaction=True)
def test_a_process_that_exits_writes_what_it_held():
    workspace = WorkspaceFactory(slug="acme")
    entry_make(ContentTypeFactory(workspace=workspace, api_id="article"), title="Refund policy")
    # An hour between writes and batches larger than the run: only the exit can write them.
    env = database_env(SEARCH_LOG_FLUSH_SECONDS="3600", SEARCH_LOG_BATCH_SIZE="100000")
    done = subprocess.run([sys.executable, "manage.py", "shell", "-c", EXIT_SCRIPT.format(count=150)], cwd=REPO,
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "searched" in done.stdout, done.stderr
    assert SearchLog.objects.filter(workspace=workspace, interface="command").count() == 150


@pytest.mark.django_db(transaction=True)
def test_gunicorn_workers_write_what_they_held_when_stopped(tmp_path):
    workspace = WorkspaceFactory(slug="acme")
    entry_make(ContentTypeFactory(workspace=workspace, api_id="article"), title="Refund policy")
    _, secret = api_key_make(workspace)
    env = database_env(SEARCH_LOG_FLUSH_SECONDS="3600", SEARCH_LOG_BATCH_SIZE="100000")
    count = 60
    with gunicorn_started(env, "--threads", "4", workers=2, log_path=tmp_path / "gunicorn.log") as (base, _):
        session = requests.Session()
        for i in range(count):
            response = session.get(f"{base}{ENTRIES.format(slug='acme')}", params={"q": f"refund {i}"},
                                   headers={"Authorization": f"Bearer {secret}"}, timeout=30)
            assert response.status_code == 200, response.text
        assert SearchLog.objects.count() == 0  # still in the workers' memory
    # gunicorn_started stops it with SIGTERM: a graceful stop, each worker writes at exit.
    assert SearchLog.objects.filter(workspace=workspace, interface="api").count() == count


# --- retention --------------------------------------------------------------------------------

def test_prune_deletes_searches_and_clicks_past_retention_and_is_safe_to_repeat(settings, workspace):
    settings.SEARCH_LOG_RETENTION_DAYS = 90
    now = timezone.now()
    for age in (1, 89, 91, 400):
        SearchLog.objects.create(workspace=workspace, created_at=now - timedelta(days=age), interface="api",
                                 kind="hybrid", query=f"age {age}", results=1, latency_ms=1.0, caller="x")
        SearchClick.objects.create(workspace=workspace, search_id="0" * 32, created_at=now - timedelta(days=age),
                                   entry_id=1, position=1)
    assert search_log_prune(now=now) == {"searches": 2, "clicks": 2}
    assert sorted(SearchLog.objects.values_list("query", flat=True)) == ["age 1", "age 89"]
    assert SearchClick.objects.count() == 2
    assert search_log_prune(now=now) == {"searches": 0, "clicks": 0}


def test_prune_runs_on_beat_in_the_maintenance_queue(settings, db):
    from search.tasks import search_log_prune_task

    assert settings.CELERY_BEAT_SCHEDULE["search-log-prune"]["task"] == search_log_prune_task.name
    assert TASK_QUEUE_KINDS[search_log_prune_task.name] == MAINTENANCE
    assert search_log_prune_task.run() == {"searches": 0, "clicks": 0}


# --- clicks -------------------------------------------------------------------------------------

EVENTS = "/api/v1/workspaces/{slug}/search/events"


def post_event(client, body, secret, slug="acme"):
    return client.post(EVENTS.format(slug=slug), data=json.dumps(body), content_type="application/json",
                       **bearer(secret))


@pytest.fixture
def searched(client, workspace, article_type):
    entry = entry_make(article_type, title="Refund policy")
    _, secret = api_key_make(workspace)
    body = client.get(ENTRIES.format(slug="acme"), {"q": "refund"}, **bearer(secret)).json()
    return entry, secret, body["meta"]["search_id"]


def test_a_click_is_recorded_against_its_search(client, workspace, searched):
    entry, secret, search_id = searched
    response = post_event(client, {"search_id": search_id, "entry_id": entry.pk, "position": 1}, secret)
    assert response.status_code == 202 and response.json() == {"search_id": search_id, "recorded": True}
    search_log_flush()
    [click] = SearchClick.objects.all()
    assert (click.workspace_id, click.search_id, click.entry_id, click.position) == (
        workspace.pk, search_id_parse(workspace.pk, search_id), entry.pk, 1)


@pytest.mark.parametrize(("change", "code"), [
    ({"search_id": "not-an-id"}, "search_id_invalid"),
    ({"search_id": 12}, "search_id_invalid"),
    ({"search_id": None}, "search_id_invalid"),
    ({"entry_id": "x"}, "entry_id_invalid"),
    ({"entry_id": 0}, "entry_id_out_of_range"),
    ({"entry_id": 10**9}, "entry_id_invalid"),  # no such entry
    ({"chunk_id": 5}, "target_invalid"),  # both
    ({"entry_id": None}, "entry_id_invalid"),
    ({"position": 0}, "position_out_of_range"),
    ({"position": True}, "position_invalid"),
    ({"extra": 1}, "unknown_parameter"),
])
def test_bad_events_are_400_with_a_code(client, searched, change, code):
    entry, secret, search_id = searched
    body = {"search_id": search_id, "entry_id": entry.pk, "position": 1, **change}
    response = post_event(client, body, secret)
    assert (response.status_code, response.json()["code"]) == (400, code), response.json()
    search_log_flush()
    assert SearchClick.objects.count() == 0


@pytest.mark.parametrize(("change", "code"), [
    (lambda pk: {"entry_id": str(pk)}, "entry_id_invalid"),
    (lambda pk: {"entry_id": float(pk)}, "entry_id_invalid"),
    (lambda pk: {"position": "1"}, "position_invalid"),
    (lambda pk: {"position": 1.0}, "position_invalid"),
])
def test_event_ids_and_positions_are_json_integers_not_strings_or_floats(client, searched, change, code):
    entry, secret, search_id = searched
    response = post_event(client, {"search_id": search_id, "entry_id": entry.pk, "position": 1, **change(entry.pk)},
                          secret)
    assert (response.status_code, response.json()["code"]) == (400, code), response.json()
    search_log_flush()
    assert SearchClick.objects.count() == 0


@pytest.mark.parametrize("body", [[1], "x", 1, None])
def test_an_events_body_that_is_no_object_is_told_what_it_needs(client, searched, body):
    _, secret, _ = searched
    response = post_event(client, body, secret)
    assert (response.status_code, response.json()["code"]) == (400, "invalid_request")
    assert "query" not in response.json()["message"] and "search_id" in response.json()["message"]


def test_a_chunk_id_of_nothing_is_400(client, searched):
    _, secret, search_id = searched
    response = post_event(client, {"search_id": search_id, "chunk_id": 123456, "position": 2}, secret)
    assert (response.status_code, response.json()["code"]) == (400, "chunk_id_invalid")


def test_an_event_for_another_workspaces_search_is_404(client, workspace, other_workspace, searched):
    entry, _, search_id = searched
    _, globex_secret = api_key_make(other_workspace)
    globex_entry = entry_make(ContentTypeFactory(workspace=other_workspace, api_id="article"), title="Refund")
    response = post_event(client, {"search_id": search_id, "entry_id": globex_entry.pk, "position": 1},
                          globex_secret, slug="globex")
    assert (response.status_code, response.json()["code"]) == (404, "search_not_found")
    # And into the other workspace's URL with acme's key: the workspace itself is a 404.
    _, acme_secret = api_key_make(workspace, name="second")
    response = post_event(client, {"search_id": search_id, "entry_id": entry.pk, "position": 1}, acme_secret,
                          slug="globex")
    assert (response.status_code, response.json()["code"]) == (404, "not_found")


def test_a_draft_is_no_valid_target_for_a_published_only_key(client, article_type, searched):
    _, secret, search_id = searched
    draft = entry_make(article_type, status="draft", title="Refund draft")
    response = post_event(client, {"search_id": search_id, "entry_id": draft.pk, "position": 1}, secret)
    assert (response.status_code, response.json()["code"]) == (400, "entry_id_invalid")


def test_events_with_logging_off_are_accepted_and_not_kept(client, workspace, searched):
    entry, secret, search_id = searched
    workspace.search_log_enabled = False
    workspace.save()
    response = post_event(client, {"search_id": search_id, "entry_id": entry.pk, "position": 1}, secret)
    assert response.status_code == 202 and response.json()["recorded"] is False
    search_log_flush()
    assert SearchClick.objects.count() == 0


def test_a_viewer_may_report_a_click_on_what_they_see(client, workspace, searched):
    entry, _, _ = searched
    viewer = UserFactory(username="viewer")
    MembershipFactory(user=viewer, workspace=workspace, role=Role.VIEWER)
    client.force_login(viewer)
    search_id = client.get(ENTRIES.format(slug="acme"), {"q": "refund"}).json()["meta"]["search_id"]
    response = client.post(EVENTS.format(slug="acme"), data=json.dumps(
        {"search_id": search_id, "entry_id": entry.pk, "position": 3}), content_type="application/json")
    assert response.status_code == 202, response.json()


def test_a_click_on_another_callers_search_is_404_and_not_kept(client, workspace, searched):
    entry, _, search_id = searched
    _, other_secret = api_key_make(workspace, name="someone else")
    response = post_event(client, {"search_id": search_id, "entry_id": entry.pk, "position": 1}, other_secret)
    assert (response.status_code, response.json()["code"]) == (404, "search_not_found")
    search_log_flush()
    assert SearchClick.objects.count() == 0


def test_a_click_on_an_entry_the_search_did_not_return_is_400(client, workspace, article_type):
    found = entry_make(article_type, title="Refund policy")
    other = entry_make(article_type, title="Shipping times")
    _, secret = api_key_make(workspace)
    search_id = client.get(ENTRIES.format(slug="acme"), {"q": "refund"}, **bearer(secret)).json()["meta"]["search_id"]
    nothing_id = client.get(ENTRIES.format(slug="acme"), {"q": "xylophone"}, **bearer(secret)).json()["meta"]["search_id"]

    not_returned = post_event(client, {"search_id": search_id, "entry_id": other.pk, "position": 1}, secret)
    on_nothing = post_event(client, {"search_id": nothing_id, "entry_id": found.pk, "position": 1}, secret)
    returned = post_event(client, {"search_id": search_id, "entry_id": found.pk, "position": 1}, secret)

    assert (not_returned.status_code, not_returned.json()["code"]) == (400, "entry_id_invalid")
    assert (on_nothing.status_code, on_nothing.json()["code"]) == (400, "entry_id_invalid")
    assert returned.status_code == 202
    search_log_flush()
    assert [click.entry_id for click in SearchClick.objects.all()] == [found.pk]


def test_a_click_after_the_window_is_404(client, settings, workspace, searched):
    from django.core.cache import caches

    entry, secret, search_id = searched
    caches["search_results"].clear()  # as SEARCH_CLICK_SECONDS passing does
    response = post_event(client, {"search_id": search_id, "entry_id": entry.pk, "position": 1}, secret)
    assert (response.status_code, response.json()["code"]) == (404, "search_not_found")
