"""An entry's admin page shows its chunks' states and the active model; a save says when it is searchable."""

from __future__ import annotations

import datetime
import re

import pytest
from django.utils import timezone

from cms.models import Role
from ingestion.models import Chunk, ChunkStatus, ChunkVector
from ingestion.selectors import entry_embedding_eta
from ingestion.services import chunks_embed_pending
from tests.factories import (
    ContentTypeFactory,
    MembershipFactory,
    UserFactory,
    WorkspaceFactory,
    entry_make,
)

LONG_BODY = "".join(f"<p>Paragraph {i}: " + "refunds reach the card within five business days. " * 30 + "</p>"
                    for i in range(6))


@pytest.fixture
def editor_client(client, editor):
    client.force_login(editor)
    return client


@pytest.fixture
def faq(workspace):
    return ContentTypeFactory(workspace=workspace, api_id="faq", name="FAQ", semantic_search_enabled=True)


def chunk_states(html: str) -> list[str]:
    return re.findall(r'data-state="(\w+)"', html)


def test_change_page_shows_each_chunk_state_its_error_and_the_active_model(editor_client, faq, fake_backend):
    entry = entry_make(faq, title="Refund policy", body=LONG_BODY)
    chunks = list(Chunk.objects.filter(entry=entry).order_by("field", "ordinal"))
    assert len(chunks) >= 4
    Chunk.objects.filter(pk=chunks[1].pk).update(status=ChunkStatus.EMBEDDED)
    Chunk.objects.filter(pk=chunks[2].pk).update(status=ChunkStatus.FAILED, attempts=5,
                                                 last_error="Voyage rejected the API key (401)")
    Chunk.objects.filter(pk=chunks[3].pk).update(status=ChunkStatus.BACKFILL)
    html = editor_client.get(f"/admin/cms/entry/{entry.pk}/change/").content.decode()
    states = chunk_states(html)
    assert states[:4] == ["pending", "embedded", "failed", "backfill"]
    assert "Voyage rejected the API key (401)" in html
    assert 'id="entry-active-model">fake-hash-16<' in html
    assert f'href="/admin/search/{faq.workspace.slug}/?q=Refund%20policy"' in html


def test_save_says_semantic_search_in_about_n_seconds_from_the_pace(editor_client, faq, fake_backend, live_worker):
    for i in range(4):
        entry_make(faq, title=f"Earlier {i}", body="Shipping within two days.")
    chunks_embed_pending()
    # The workspace's vectors, spread over the last 20 s: a pace to go by.
    now = timezone.now()
    for n, vector in enumerate(ChunkVector.objects.filter(workspace=faq.workspace).order_by("id")):
        ChunkVector.objects.filter(pk=vector.pk).update(created_at=now - datetime.timedelta(seconds=20 - n * 5))
    entry = entry_make(faq, title="Refund policy", body="Old text.")
    response = editor_client.post(f"/admin/cms/entry/{entry.pk}/change/", {
        "status": "published", "data__title": "Refund policy", "data__body": "New text: 45 days.",
    }, follow=True)
    said = [str(m) for m in response.context["messages"]]
    eta = entry_embedding_eta(workspace=faq.workspace, entry_id=entry.pk)
    assert eta.per_second is not None and eta.ahead >= 1
    assert any(m.startswith("Indexed for full-text search now; semantic search in about ") and " s (" in m
               for m in said), said


def test_save_is_honest_when_there_is_no_pace(editor_client, faq, fake_backend, live_worker):
    entry = entry_make(faq, title="Refund policy", body="Old text.")
    response = editor_client.post(f"/admin/cms/entry/{entry.pk}/change/", {
        "status": "published", "data__title": "Refund policy", "data__body": "New text.",
    }, follow=True)
    said = " ".join(str(m) for m in response.context["messages"])
    assert "semantic search once a worker embeds its" in said
    assert "nothing embedded here in the last 10 minutes" in said


def test_save_of_a_type_without_semantic_search_says_so(editor_client, article_type, fake_backend):
    entry = entry_make(article_type, title="Plain")
    response = editor_client.post(f"/admin/cms/entry/{entry.pk}/change/", {
        "status": "published", "data__title": "Plainer"}, follow=True)
    said = " ".join(str(m) for m in response.context["messages"])
    assert "Indexed for full-text search now; semantic search is off for the content type" in said


def test_eta_reads_only_its_own_workspace(faq, fake_backend):
    globex = WorkspaceFactory(slug="globex")
    theirs = ContentTypeFactory(workspace=globex, api_id="faq", semantic_search_enabled=True)
    for i in range(5):
        entry_make(theirs, title=f"Globex {i}", body="Busy elsewhere.")
    chunks_embed_pending(workspace=globex)
    for i in range(5):
        entry_make(theirs, title=f"Globex queued {i}", body="Queued elsewhere.")
    entry = entry_make(faq, title="Mine", body="Mine to embed.")
    eta = entry_embedding_eta(workspace=faq.workspace, entry_id=entry.pk)
    assert eta.ahead == Chunk.objects.filter(entry=entry).count()  # globex's queue is not ahead of it
    assert eta.per_second is None  # globex's pace is not this workspace's


def test_viewer_sees_the_chunk_panel_without_a_save(client, faq, fake_backend):
    viewer = UserFactory(username="viewer")
    MembershipFactory(user=viewer, workspace=faq.workspace, role=Role.VIEWER)
    entry = entry_make(faq, title="Readable", body="Text.")
    client.force_login(viewer)
    html = client.get(f"/admin/cms/entry/{entry.pk}/change/").content.decode()
    assert chunk_states(html) and 'name="_save"' not in html


def test_a_viewers_panel_counts_no_draft_in_the_queue_ahead_nor_in_the_pace(client, editor, faq, fake_backend):
    # Issue 49, item 1's kin: the panel's queue and pace counted drafts for a viewer too.
    from cms.models import EntryStatus

    viewer = UserFactory(username="viewer")
    MembershipFactory(user=viewer, workspace=faq.workspace, role=Role.VIEWER)
    for i in range(4):
        entry_make(faq, status=EntryStatus.DRAFT, title=f"Embedded draft {i}", body="Drafted.")
    chunks_embed_pending()
    now = timezone.now()
    for n, vector in enumerate(ChunkVector.objects.filter(workspace=faq.workspace).order_by("id")):
        ChunkVector.objects.filter(pk=vector.pk).update(created_at=now - datetime.timedelta(seconds=20 - n * 5))
    for i in range(3):
        entry_make(faq, status=EntryStatus.DRAFT, title=f"Queued draft {i}", body="Drafted too.")
    entry = entry_make(faq, title="Readable", body="Text.")
    url = f"/admin/ingestion/status/{faq.workspace.slug}/entries/{entry.pk}/chunks/"
    etas = {}
    for user in (viewer, editor):
        client.force_login(user)
        etas[user.username] = client.get(url).context["panel"]["eta"]

    own = Chunk.objects.filter(entry=entry).count()
    assert (etas["viewer"].ahead, etas["viewer"].per_second) == (own, None)
    assert etas["editor"].ahead > own and etas["editor"].per_second is not None
