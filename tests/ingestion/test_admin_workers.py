"""The admin says "no worker is running; N chunks wait" instead of an estimate when no live worker
consumes the content queue: on the status page, the entry page's chunk panel and the message after
a save; and `ingestion_status` lists the workers. A worker's heartbeat row stands for a worker."""

from __future__ import annotations

import datetime
import io
import json

import pytest
from django.core.management import call_command
from django.utils import timezone

from ingestion.models import WorkerHeartbeat
from tests.factories import ContentTypeFactory, entry_make
from tests.ingestion.conftest import worker_alive_record


@pytest.fixture
def faq(workspace):
    return ContentTypeFactory(workspace=workspace, api_id="faq", name="FAQ", semantic_search_enabled=True)


@pytest.fixture
def editor_client(client, editor):
    client.force_login(editor)
    return client


def test_status_page_says_no_worker_is_running_and_how_many_chunks_wait(editor_client, faq, fake_backend, workspace):
    entry_make(faq, title="One")
    entry_make(faq, title="Two")
    html = editor_client.get(f"/admin/ingestion/status/{workspace.slug}/").content.decode()
    assert 'data-banner="no-worker"' in html
    assert "No worker is running; 2 chunks wait to be embedded." in html
    live = editor_client.get(f"/admin/ingestion/status/{workspace.slug}/?fragment=live").content.decode()
    assert 'data-banner="no-worker"' in live


def test_status_page_says_nothing_of_workers_while_one_is_alive(editor_client, faq, fake_backend, workspace,
                                                                live_worker):
    entry_make(faq, title="One")
    html = editor_client.get(f"/admin/ingestion/status/{workspace.slug}/").content.decode()
    assert 'data-banner="no-worker"' not in html and 'data-banner="pending"' in html


def test_a_worker_silent_too_long_counts_as_none(editor_client, faq, fake_backend, workspace, settings, live_worker):
    settings.WORKER_ALIVE_SECONDS = 30
    WorkerHeartbeat.objects.update(seen_at=timezone.now() - datetime.timedelta(seconds=31))
    entry_make(faq, title="One")
    html = editor_client.get(f"/admin/ingestion/status/{workspace.slug}/").content.decode()
    assert "No worker is running; 1 chunk waits to be embedded." in html


def test_entry_panel_says_no_worker_instead_of_an_estimate(editor_client, faq, fake_backend):
    entry = entry_make(faq, title="Refund policy", body="Old text.")
    html = editor_client.get(f"/admin/cms/entry/{entry.pk}/change/").content.decode()
    assert 'id="entry-chunks-no-worker"' in html and 'id="entry-chunks-eta"' not in html
    assert "No worker is running; 1 chunk waits in this workspace." in html


def test_entry_panel_gives_the_estimate_while_a_worker_is_alive(editor_client, faq, fake_backend, live_worker):
    entry = entry_make(faq, title="Refund policy", body="Old text.")
    html = editor_client.get(f"/admin/cms/entry/{entry.pk}/change/").content.decode()
    assert 'id="entry-chunks-eta"' in html and 'id="entry-chunks-no-worker"' not in html


def test_save_says_no_worker_is_running_instead_of_an_estimate(editor_client, faq, fake_backend):
    entry = entry_make(faq, title="Refund policy", body="Old text.")
    response = editor_client.post(f"/admin/cms/entry/{entry.pk}/change/", {
        "status": "published", "data__title": "Refund policy", "data__body": "New text.",
    }, follow=True)
    said = " ".join(str(m) for m in response.context["messages"])
    assert ("Indexed for full-text search now; semantic search waits for a worker: no worker is running; "
            "1 chunk waits in this workspace.") in said
    assert "about" not in said


def test_save_in_japanese_says_it_in_japanese(editor_client, faq, fake_backend):
    entry = entry_make(faq, title="Refund policy", body="Old text.")
    response = editor_client.post(f"/admin/cms/entry/{entry.pk}/change/", {
        "status": "published", "data__title": "Refund policy", "data__body": "New text.",
    }, follow=True, HTTP_ACCEPT_LANGUAGE="ja")
    said = " ".join(str(m) for m in response.context["messages"])
    assert "ワーカーが動いていません。このワークスペースで 1 件のチャンクが待っています。" in said


def test_ingestion_status_command_lists_the_workers_and_the_oldest_pending(faq, fake_backend, _memory_broker):
    entry_make(faq, title="One")
    out = io.StringIO()
    call_command("ingestion_status", stdout=out)
    assert "Workers: 0 alive; NONE consumes the content queue, where chunks wait" in out.getvalue()
    worker_alive_record(_memory_broker, name="w1@host")
    out = io.StringIO()
    call_command("ingestion_status", stdout=out)
    text = out.getvalue()
    assert "Workers: 1 alive\n" in text and "w1@host" in text and "Pending: 1 chunks" in text
    out = io.StringIO()
    call_command("ingestion_status", "--json", stdout=out)
    report = json.loads(out.getvalue())["workers"]
    assert [w["name"] for w in report["alive"]] == ["w1@host"] and report["pending"] == 1
    assert report["oldest_pending_seconds"] is not None and report["unserved"] == []
