"""The admin's ingestion status page: editors and owners only, counts and usage, actions that queue work."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.utils import timezone

from cms.models import ContentType, Role
from ingestion import services
from ingestion.models import Chunk, ChunkStatus, EmbeddingUsage
from tests.factories import (
    ContentTypeFactory,
    MembershipFactory,
    UserFactory,
    WorkspaceFactory,
    entry_make,
)
from tests.ingestion.conftest import queued_tasks

EMBED_TASK = "ingestion.chunks_embed_pending"
SYNC_TASK = "ingestion.chunks_sync_content_type"


@pytest.fixture
def faq_type(workspace):
    return ContentTypeFactory(workspace=workspace, api_id="faq", name="よくある質問", semantic_search_enabled=True)


@pytest.fixture
def pending_entries(faq_type):
    return [entry_make(faq_type, title=f"返品 {i}", body=f"<p>Refund rule {i}.</p>") for i in range(3)]


@pytest.fixture
def viewer(workspace):
    user = UserFactory(username="viewer")
    MembershipFactory(user=user, workspace=workspace, role=Role.VIEWER)
    return user


def fail_chunks(message: str = "Voyage said: invalid API key") -> int:
    return Chunk.objects.update(status=ChunkStatus.FAILED, last_error=message, attempts=5)


def page(client, slug: str = "acme"):
    return client.get(f"/admin/ingestion/status/{slug}/")


def test_member_sees_pending_counts_and_the_oldest_age(client, editor, pending_entries, no_backend):
    Chunk.objects.update(updated_at=timezone.now() - datetime.timedelta(minutes=7))
    client.force_login(editor)
    response = page(client)
    summary = response.context["summary"]
    assert (summary["pending"], summary["embedded"], summary["failed"]) == (3, 0, 0)
    html = response.content.decode()
    assert "3 chunks waiting to be embedded" in html and "the oldest has waited 7\xa0minutes" in html
    assert 'data-banner="not-configured"' in html


def test_page_shows_failed_count_and_last_error(client, editor, pending_entries):
    fail_chunks()
    client.force_login(editor)
    html = page(client).content.decode()
    assert "3 chunks failed to embed" in html and "Voyage said: invalid API key" in html


def test_page_shows_content_type_counts_in_japanese(client, editor, pending_entries):
    client.force_login(editor)
    response = page(client)
    [row] = response.context["content_types"]
    assert (row.content_type.name, row.entries, row.pending) == ("よくある質問", 3, 3)
    assert "よくある質問" in response.content.decode()


def test_usage_by_day_lists_requests_tokens_and_cost(client, editor, pending_entries, fake_backend, workspace):
    services.chunks_embed_pending(workspace=workspace)
    EmbeddingUsage.objects.create(
        workspace=workspace, model="fake-hash-16", day=timezone.now().date() - datetime.timedelta(days=2),
        requests=4, texts=40, tokens=1000, cost_usd=Decimal("0.000060"),
    )
    client.force_login(editor)
    response = page(client)
    today, older = response.context["usage"]
    assert (today.requests, today.texts) == (1, 3) and today.tokens > 0
    assert older.requests == 4
    assert response.context["usage_totals"]["requests"] == 5
    assert "$0.000060" in response.content.decode()


def test_usage_of_another_workspace_is_not_counted(client, editor, workspace, other_workspace):
    EmbeddingUsage.objects.create(workspace=other_workspace, model="m", day=timezone.now().date(), requests=9)
    client.force_login(editor)
    assert page(client).context["usage"] == []


def test_non_member_gets_404_for_another_workspace(client, editor, other_workspace):
    client.force_login(editor)
    assert page(client, "globex").status_code == 404


def test_index_lists_only_the_users_workspaces(client, editor, workspace, other_workspace):
    client.force_login(editor)
    response = client.get("/admin/ingestion/status/")
    assert [line["workspace"].slug for line in response.context["lines"]] == ["acme"]
    assert "globex" not in response.content.decode()


def test_admin_home_links_to_the_status_page(client, editor, workspace):
    client.force_login(editor)
    assert 'href="/admin/ingestion/status/"' in client.get("/admin/").content.decode()


def test_status_page_needs_a_login(client, workspace):
    response = client.get("/admin/ingestion/status/acme/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_viewer_is_refused_the_status_page_and_its_live_fragment(client, viewer, pending_entries):
    # Its counts and usage include drafts (docs/access.md): a viewer gets 403, as on insights.
    client.force_login(viewer)
    for response in (page(client), client.get("/admin/ingestion/status/acme/", {"fragment": "live"})):
        assert response.status_code == 403
        assert "Refund rule" not in response.content.decode()


def test_viewers_index_lists_no_workspace(client, viewer, pending_entries):
    client.force_login(viewer)
    response = client.get("/admin/ingestion/status/")
    assert response.status_code == 200 and response.context["lines"] == []
    assert "You are not an owner or editor of any workspace" in response.content.decode()


def test_viewers_search_page_does_not_link_to_the_status(client, viewer, pending_entries):
    client.force_login(viewer)
    html = client.get("/admin/search/acme/").content.decode()
    assert "/admin/ingestion/status/acme/" not in html


def test_viewer_cannot_run_an_action(client, viewer, pending_entries):
    fail_chunks()
    client.force_login(viewer)
    response = client.post("/admin/ingestion/status/acme/", {"action": "retry_all_failed"})
    assert response.status_code == 403
    assert Chunk.objects.failed().count() == 3


def test_retry_all_failed_requeues_and_queues_embedding(
    client, editor, pending_entries, workspace, _memory_broker, django_capture_on_commit_callbacks
):
    fail_chunks()
    client.force_login(editor)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/admin/ingestion/status/acme/", {"action": "retry_all_failed"}, follow=True)
    assert "3 failed chunk(s) requeued" in response.content.decode()
    assert Chunk.objects.pending().filter(attempts=0, last_error="").count() == 3
    assert queued_tasks(_memory_broker) == [(EMBED_TASK, {"workspace_id": workspace.pk})]


def test_retry_failed_of_one_type_leaves_other_types_failed(client, editor, pending_entries, faq_type, workspace):
    other = ContentTypeFactory(workspace=workspace, api_id="page", semantic_search_enabled=True)
    entry_make(other, title="Other page")
    fail_chunks()
    client.force_login(editor)
    client.post("/admin/ingestion/status/acme/", {"action": "retry_failed", "content_types": [faq_type.pk]})
    assert Chunk.objects.pending().count() == 3
    assert Chunk.objects.failed().get().entry.content_type == other


def test_semantic_search_on_goes_through_the_service_and_queues_embedding(
    client, editor, workspace, article_type, _memory_broker, django_capture_on_commit_callbacks
):
    entry_make(article_type, title="Shipping", body="<p>Two days.</p>")
    client.force_login(editor)
    with django_capture_on_commit_callbacks(execute=True):
        client.post("/admin/ingestion/status/acme/", {"action": "semantic_on", "content_types": [article_type.pk]})
    assert ContentType.objects.get(pk=article_type.pk).semantic_search_enabled
    assert Chunk.objects.pending().count() == 1
    assert queued_tasks(_memory_broker) == [(EMBED_TASK, {"workspace_id": workspace.pk})]


def test_semantic_search_off_removes_the_chunks(client, editor, pending_entries, faq_type):
    client.force_login(editor)
    client.post("/admin/ingestion/status/acme/", {"action": "semantic_off", "content_types": [faq_type.pk]})
    assert not ContentType.objects.get(pk=faq_type.pk).semantic_search_enabled
    assert not Chunk.objects.exists()


def test_reindex_queues_the_sync_and_requeues_failed(
    client, editor, pending_entries, faq_type, _memory_broker, django_capture_on_commit_callbacks
):
    fail_chunks()
    client.force_login(editor)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/admin/ingestion/status/acme/", {"action": "reindex", "content_types": [faq_type.pk]}, follow=True
        )
    assert "Reindex queued for 1 content type(s); 3 chunk(s) requeued" in response.content.decode()
    assert Chunk.objects.pending().count() == 3
    assert sorted(queued_tasks(_memory_broker)) == [
        (EMBED_TASK, {"workspace_id": faq_type.workspace_id}),
        (SYNC_TASK, {"content_type_id": faq_type.pk}),
    ]


def test_action_on_another_workspaces_type_is_an_invalid_choice(client, editor, workspace, other_workspace):
    theirs = ContentTypeFactory(workspace=other_workspace, api_id="faq")
    client.force_login(editor)
    response = client.post("/admin/ingestion/status/acme/", {"action": "semantic_on", "content_types": [theirs.pk]})
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert not ContentType.objects.get(pk=theirs.pk).semantic_search_enabled


def test_action_without_a_content_type_is_explained(client, editor, workspace):
    client.force_login(editor)
    response = client.post("/admin/ingestion/status/acme/", {"action": "reindex"})
    assert "Select at least one content type" in response.content.decode()


def test_changelist_retry_action_requeues_failed_chunks(client, editor, pending_entries, faq_type):
    fail_chunks()
    client.force_login(editor)
    client.post("/admin/cms/contenttype/", {"action": "retry_failed", ACTION_CHECKBOX_NAME: [faq_type.pk]})
    assert Chunk.objects.pending().count() == 3


def test_changelist_action_on_a_viewer_workspace_type_is_refused(client, editor, other_workspace):
    theirs = ContentTypeFactory(workspace=other_workspace, api_id="faq")
    MembershipFactory(user=editor, workspace=other_workspace, role=Role.VIEWER)
    client.force_login(editor)
    response = client.post(
        "/admin/cms/contenttype/", {"action": "semantic_search_on", ACTION_CHECKBOX_NAME: [theirs.pk]}, follow=True
    )
    assert "Nothing was done" in response.content.decode()
    assert not ContentType.objects.get(pk=theirs.pk).semantic_search_enabled


def test_viewer_is_offered_no_changelist_actions(client, viewer, faq_type):
    client.force_login(viewer)
    response = client.get("/admin/cms/contenttype/")
    assert response.status_code == 200
    assert 'name="action"' not in response.content.decode()


def test_other_workspace_is_never_listed_on_the_status_page(client, editor, workspace):
    WorkspaceFactory(slug="initech", name="Initech")
    client.force_login(editor)
    assert "Initech" not in page(client).content.decode()


def test_page_shows_a_running_switch_with_coverage_eta_tokens_and_cost(client, editor, pending_entries, two_models,
                                                                      workspace):
    from ingestion.services import switch

    services.chunks_embed_pending(workspace=workspace)
    switch.embedding_switch_start(workspace=workspace, model="other")
    services.chunks_embed_pending(workspace=workspace, limit=1)
    client.force_login(editor)
    response = page(client)
    progress = response.context["summary"]["switch"]
    chunks = Chunk.objects.count()
    assert (progress["target"], progress["covered"], progress["chunks"]) == ("fake-other-8", 1, chunks)
    html = response.content.decode()
    assert 'id="ingestion-switch" data-target="fake-other-8"' in html
    assert f'data-switch="coverage">{progress["coverage_percent"]}%' in html
    assert f'data-switch="tokens">{progress["tokens"]}<' in html and progress["tokens"] > 0
    roles = {m["model"]: (m["role"], m["embedded"]) for m in response.context["summary"]["models"]}
    assert roles == {"fake-hash-16": ("active", chunks), "fake-other-8": ("target", 1)}
