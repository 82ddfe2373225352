"""Chunk sync, claiming and embedding services: what each writes, and that repeats write nothing."""

from __future__ import annotations

import datetime

import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.utils import timezone

from cms import services as cms_services
from ingestion import services, sources
from ingestion.chunking import chunk_text
from ingestion.embeddings import EmbeddingProviderError
from ingestion.embeddings.fake import FakeEmbeddingBackend
from ingestion.models import Chunk, ChunkStatus, EmbeddingUsage
from tests.factories import ContentTypeFactory, WorkspaceFactory, entry_make
from tests.ingestion.conftest import current_vector, provider_calls, use_backend
from tests.ingestion.worker_backends import FailingBackend

PARAGRAPHS = [
    "Refunds are issued within thirty days of delivery. Items must be unused and in their original "
    "packaging, with the receipt. We inspect every return before the refund is approved.",
    "Shipping inside Japan takes one to three days. International parcels take between seven and "
    "fourteen days, depending on customs, and are tracked all the way to your door.",
    "To reset your password, open Settings, choose Security, and follow the link we email you. "
    "The link expires after one hour, after which you have to ask for a new one.",
    "Gift cards never expire and can be combined with other payment methods at checkout. "
    "They cannot be exchanged for cash, except where the law requires it.",
]


def body_html(paragraphs: list[str]) -> str:
    return "\n\n".join(f"<p>{p}</p>" for p in paragraphs)


def drafts(text: str, fmt: str) -> list:
    return chunk_text(text, fmt=fmt, size=django_settings.CHUNK_SIZE_CHARS, overlap=django_settings.CHUNK_OVERLAP_CHARS)


@pytest.fixture(autouse=True)
def _small_chunks(settings):
    settings.CHUNK_SIZE_CHARS = 200
    settings.CHUNK_OVERLAP_CHARS = 0


# --- sync ------------------------------------------------------------------------------------


def test_opted_in_entry_gets_pending_chunks_headed_by_its_title(semantic_type, fake_backend):
    entry = entry_make(semantic_type, title="Refund policy", body=body_html(PARAGRAPHS), version=3)
    chunks = list(Chunk.objects.filter(entry=entry).order_by("field", "ordinal"))
    expected = chunk_text(body_html(PARAGRAPHS), fmt="html", size=django_settings.CHUNK_SIZE_CHARS,
                          overlap=django_settings.CHUNK_OVERLAP_CHARS, title="Refund policy")
    assert [c.text for c in chunks] == [d.text for d in expected]
    assert {c.field for c in chunks} == {"body"}
    assert all(c.text.startswith("Refund policy\n") for c in chunks)
    assert all(c.status == ChunkStatus.PENDING and current_vector(c) is None for c in chunks)
    assert all(c.content_hash == drafts(c.text, "plain")[0].content_hash or len(c.content_hash) == 64 for c in chunks)
    assert all(c.workspace_id == entry.workspace_id and c.source_kind == "entry" for c in chunks)
    assert all(c.token_estimate > 0 for c in chunks)


def test_richtext_is_chunked_as_markdown_and_text_as_plain(semantic_type, monkeypatch):
    formats = []
    real = sources.chunk_text

    def spy(text, *, fmt, size, overlap, title):
        formats.append(fmt)
        return real(text, fmt=fmt, size=size, overlap=overlap, title=title)

    monkeypatch.setattr(sources, "chunk_text", spy)
    entry_make(semantic_type, title="T", body="<p>Body</p>")
    entry_make(semantic_type, title="Only a title")
    assert formats == ["richtext", "plain"]


def test_markdown_richtext_chunks_hold_its_text_without_markup(semantic_type):
    entry = entry_make(semantic_type, title="Pickup",
                       body="## Where\n\nCollect it at our **Kobe** pickup counter, *open daily*.\n\n- [Map](https://x.test)")
    texts = [c.text for c in Chunk.objects.filter(entry=entry)]
    assert texts == ["Pickup > Where\nCollect it at our Kobe pickup counter, open daily.\n\nMap"]


def test_entry_with_only_a_title_gets_one_title_chunk(semantic_type):
    entry = entry_make(semantic_type, title="Refund policy")
    assert list(Chunk.objects.filter(entry=entry).values_list("field", "text")) == [("title", "Refund policy")]


def test_opted_out_entry_gets_no_chunks(article_type):
    entry = entry_make(article_type, title="Refund policy", body="<p>Text</p>")
    assert not Chunk.objects.filter(entry=entry).exists()


def test_saving_an_opted_out_entry_costs_one_query(article_type, django_assert_num_queries):
    entry = entry_make(article_type, title="Refund policy")
    with django_assert_num_queries(1):  # the type's flag, read under its share lock
        services.chunks_sync_for_entry(entry=entry)


def test_chunk_metadata_carries_type_status_source_and_scalar_fields(semantic_type):
    entry = entry_make(semantic_type, status="draft", title="Refund policy", body="<p>Body</p>", version=3,
                       published_on="2026-01-02", featured=True)
    chunk = Chunk.objects.get(entry=entry, field="body")
    assert chunk.title == "Refund policy"
    assert chunk.metadata["content_type"] == "doc"
    assert chunk.metadata["status"] == "draft"
    assert chunk.metadata["source_kind"] == "entry"
    assert chunk.metadata["fields"] == {"title": "Refund policy", "body": "<p>Body</p>", "version": 3,
                                        "published_on": "2026-01-02", "featured": True}


def test_chunk_metadata_cuts_long_text_values(semantic_type):
    body = "<p>" + "Refunds take five days. " * 40 + "</p>"

    entry = entry_make(semantic_type, title="Refund policy", body=body)

    metadata = Chunk.objects.filter(entry=entry).first().metadata
    assert metadata["fields"]["body"] == body[:sources.FILTER_TEXT_MAX_CHARS]
    assert metadata["fields"]["title"] == "Refund policy"


def test_saving_unchanged_entry_writes_no_chunk_row(semantic_type, django_assert_num_queries):
    entry = entry_make(semantic_type, title="Refund policy", body=body_html(PARAGRAPHS))
    before = {c.id: c.updated_at for c in Chunk.objects.filter(entry=entry)}
    # The hot path: lock the type FOR SHARE, read the chunks; nothing to write.
    with django_assert_num_queries(2):
        result = services.chunks_sync_for_entry(entry=entry)
    assert not result.needs_embedding and result.retitled == 0 and result.deleted == 0
    assert {c.id: c.updated_at for c in Chunk.objects.filter(entry=entry)} == before


def test_new_entry_sync_is_one_lock_and_one_insert(semantic_type, django_assert_num_queries):
    entry = entry_make(semantic_type, title="Refund policy")
    Chunk.objects.filter(entry=entry).delete()
    entry.data["body"] = body_html(PARAGRAPHS)
    # Lock the type, bulk insert (a new entry has no chunks to read), then the keyword index:
    # the workspace's average length (for the postings' impact), one insert of the postings and
    # one of the chunks' texts for the BM25 index (ingestion_keywordtext).
    with django_assert_num_queries(5):
        services.chunks_sync_for_entry(entry=entry, created=True)


def test_status_change_rewrites_metadata_but_keeps_vectors(semantic_type, fake_backend):
    entry = entry_make(semantic_type, status="draft", title="Refund policy", body=body_html(PARAGRAPHS))
    services.chunks_embed_pending()
    calls = provider_calls()
    cms_services.entry_update(entry=entry, status="published")
    chunks = list(Chunk.objects.filter(entry=entry))
    assert all(c.status == ChunkStatus.EMBEDDED and current_vector(c) is not None for c in chunks)
    assert all(c.metadata["status"] == "published" for c in chunks)
    services.chunks_embed_pending()
    assert provider_calls() == calls


def test_editing_one_paragraph_resets_only_the_chunks_whose_text_changed(semantic_type, fake_backend):
    entry = entry_make(semantic_type, title="Refund policy", body=body_html(PARAGRAPHS))
    services.chunks_embed_pending()
    old = {(c.field, c.ordinal): current_vector(c) for c in Chunk.objects.filter(entry=entry)}
    edited = [*PARAGRAPHS[:2], PARAGRAPHS[2].replace("one hour", "two hours"), *PARAGRAPHS[3:]]
    before = {d.ordinal: d.content_hash for d in drafts(body_html(PARAGRAPHS), "html")}
    after = {d.ordinal: d.content_hash for d in drafts(body_html(edited), "html")}
    changed = {o for o in after if before.get(o) != after[o]}
    assert 0 < len(changed) < len(after)

    result = services.chunks_sync_for_entry(entry=cms_services.entry_update(
        entry=entry, data={**entry.data, "body": body_html(edited)}))
    assert result.needs_embedding is False  # the receiver already synced inside entry_update
    for chunk in Chunk.objects.filter(entry=entry, field="body"):
        if chunk.ordinal in changed:
            assert chunk.status == ChunkStatus.PENDING and current_vector(chunk) is None and chunk.attempts == 0
        else:
            assert chunk.status == ChunkStatus.EMBEDDED
            assert current_vector(chunk).created_at == old[("body", chunk.ordinal)].created_at

    FakeEmbeddingBackend.calls.clear()
    report = services.chunks_embed_pending()
    assert report.texts == len(changed)


def test_shrinking_text_deletes_surplus_chunks(semantic_type):
    entry = entry_make(semantic_type, title="T", body=body_html(PARAGRAPHS))
    cms_services.entry_update(entry=entry, data={"title": "T", "body": body_html(PARAGRAPHS[:1])})
    assert Chunk.objects.filter(entry=entry, field="body").count() == len(drafts(body_html(PARAGRAPHS[:1]), "html"))


def test_clearing_a_field_deletes_its_chunks(semantic_type):
    entry = entry_make(semantic_type, title="T", body=body_html(PARAGRAPHS))
    cms_services.entry_update(entry=entry, data={"title": "T"})
    assert list(Chunk.objects.filter(entry=entry).values_list("field", flat=True)) == ["title"]


def test_deleting_an_entry_deletes_its_chunks(semantic_type):
    entry = entry_make(semantic_type, title="T", body=body_html(PARAGRAPHS))
    other = entry_make(semantic_type, title="Other")
    cms_services.entry_delete(entry=entry)
    assert set(Chunk.objects.values_list("entry_id", flat=True)) == {other.pk}


def test_markdown_asset_is_chunked_as_markdown_under_its_filename(workspace, monkeypatch):
    formats = []
    real = sources.chunk_text
    monkeypatch.setattr(sources, "chunk_text", lambda text, **kw: formats.append(kw["fmt"]) or real(text, **kw))
    asset = cms_services.asset_upload(workspace=workspace, filename="faq.md", content="# 返品\n\n30日以内なら返品できます。".encode())
    chunks = list(Chunk.objects.filter(asset=asset))
    assert formats == ["markdown"]
    assert chunks and all(c.title == "faq.md" and c.field == "body" and c.source_kind == "asset" for c in chunks)
    assert chunks[0].metadata["source_kind"] == "asset"


def test_plain_text_asset_is_chunked_as_plain(workspace, monkeypatch):
    formats = []
    real = sources.chunk_text
    monkeypatch.setattr(sources, "chunk_text", lambda text, **kw: formats.append(kw["fmt"]) or real(text, **kw))
    cms_services.asset_upload(workspace=workspace, filename="notes.txt", content=b"Plain notes.")
    assert formats == ["plain"]


def test_binary_asset_gets_no_chunks(workspace):
    asset = cms_services.asset_upload(workspace=workspace, filename="logo.png", content=b"\x89PNG\r\n")
    assert not Chunk.objects.filter(asset=asset).exists()


def test_deleting_an_asset_deletes_its_chunks(workspace):
    asset = cms_services.asset_upload(workspace=workspace, filename="faq.md", content=b"# FAQ\n\nText.")
    assert Chunk.objects.filter(asset=asset).exists()
    cms_services.asset_delete(asset=asset)
    assert not Chunk.objects.exists()


def test_asset_sync_twice_changes_nothing(workspace):
    asset = cms_services.asset_upload(workspace=workspace, filename="faq.md", content=b"# FAQ\n\nText.")
    result = services.chunks_sync_for_asset(asset=asset)
    assert (result.created, result.changed, result.retitled, result.deleted) == (0, 0, 0, 0)


def test_turning_semantic_search_on_creates_chunks_for_existing_entries(article_type):
    entries = [entry_make(article_type, title=f"Entry {i}", body="<p>Body</p>") for i in range(3)]
    assert not Chunk.objects.exists()
    cms_services.content_type_update(content_type=article_type, semantic_search_enabled=True)
    assert set(Chunk.objects.values_list("entry_id", flat=True)) == {e.pk for e in entries}
    assert set(Chunk.objects.values_list("status", flat=True)) == {ChunkStatus.PENDING}


def test_turning_semantic_search_off_deletes_the_types_chunks(semantic_type, workspace):
    entry_make(semantic_type, title="A", body="<p>Body</p>")
    other_type = ContentTypeFactory(workspace=workspace, api_id="faq", semantic_search_enabled=True)
    kept = entry_make(other_type, title="B")
    cms_services.content_type_update(content_type=semantic_type, semantic_search_enabled=False)
    assert set(Chunk.objects.values_list("entry_id", flat=True)) == {kept.pk}


def test_content_type_sync_twice_changes_nothing(semantic_type):
    for i in range(3):
        entry_make(semantic_type, title=f"Entry {i}", body=body_html(PARAGRAPHS))
    result = services.chunks_sync_for_content_type(content_type=semantic_type)
    assert result.sources == 3 and not result.needs_embedding and result.deleted == 0 and result.retitled == 0


# --- claiming -------------------------------------------------------------------------------


def test_claims_do_not_overlap_and_skip_leased_chunks(semantic_type):
    for i in range(5):
        entry_make(semantic_type, title=f"Entry number {i}")
    first = services.chunks_claim_pending(limit=3, lease_seconds=60)
    second = services.chunks_claim_pending(limit=3, lease_seconds=60)
    assert len(first) == 3 and len(second) == 2
    assert not {c.id for c in first} & {c.id for c in second}
    assert services.chunks_claim_pending(limit=3, lease_seconds=60) == []


def test_expired_lease_makes_a_chunk_claimable_again(semantic_type):
    entry_make(semantic_type, title="Lost to a killed worker")
    [claimed] = services.chunks_claim_pending(limit=10, lease_seconds=60)
    Chunk.objects.filter(id=claimed.id).update(leased_until=timezone.now() - datetime.timedelta(seconds=1))
    assert [c.id for c in services.chunks_claim_pending(limit=10, lease_seconds=60)] == [claimed.id]


def test_claim_is_limited_to_the_workspace(semantic_type):
    other_type = ContentTypeFactory(workspace=WorkspaceFactory(slug="globex"), api_id="doc", semantic_search_enabled=True)
    entry_make(semantic_type, title="Ours")
    entry_make(other_type, title="Theirs")
    claimed = services.chunks_claim_pending(limit=10, workspace=semantic_type.workspace, lease_seconds=60)
    assert [c.text for c in claimed] == ["Ours"]


@pytest.mark.django_db(transaction=True)
def test_claim_skips_rows_locked_by_another_transaction(workspace):
    """SKIP LOCKED: a row another worker is claiming is passed over, not waited for."""
    import psycopg

    semantic_type = ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)
    entry_make(semantic_type, title="Locked elsewhere")
    entry_make(semantic_type, title="Free")
    locked_id = Chunk.objects.get(text="Locked elsewhere").id
    with psycopg.connect(**connection.get_connection_params()) as other:
        other.execute("SELECT id FROM ingestion_chunk WHERE id = %s FOR UPDATE", [locked_id])
        claimed = services.chunks_claim_pending(limit=10, lease_seconds=60)
        other.rollback()
    assert [c.text for c in claimed] == ["Free"]


# --- embedding ------------------------------------------------------------------------------


def test_embedding_stores_vectors_with_model_and_dimensions(semantic_type, fake_backend):
    entry = entry_make(semantic_type, title="Refund policy", body=body_html(PARAGRAPHS))
    report = services.chunks_embed_pending()
    chunks = list(Chunk.objects.filter(entry=entry))
    assert report.embedded == len(chunks)
    for chunk in chunks:
        assert chunk.status == ChunkStatus.EMBEDDED
        vector = current_vector(chunk)
        assert vector.model == "fake-hash-16" and vector.dimensions == 16
        assert chunk.leased_until is None and vector.created_at is not None
        assert list(vector.embedding) == pytest.approx(FakeEmbeddingBackend()._vector(chunk.text), abs=1e-6)


def test_embedding_twice_makes_no_provider_call_and_changes_no_row(semantic_type, fake_backend):
    entry_make(semantic_type, title="Refund policy", body=body_html(PARAGRAPHS))
    services.chunks_embed_pending()
    rows = list(Chunk.objects.order_by("id").values())
    calls = len(fake_backend.calls)
    report = services.chunks_embed_pending()
    assert report.claimed == 0 and len(fake_backend.calls) == calls
    assert list(Chunk.objects.order_by("id").values()) == rows


def test_saving_twice_unchanged_makes_no_provider_call(semantic_type, fake_backend):
    entry = entry_make(semantic_type, title="Refund policy", body=body_html(PARAGRAPHS))
    services.chunks_embed_pending()
    calls = provider_calls()
    cms_services.entry_update(entry=entry, data=dict(entry.data))
    cms_services.entry_update(entry=entry, data=dict(entry.data))
    services.chunks_embed_pending()
    assert provider_calls() == calls


def test_identical_texts_in_a_batch_are_embedded_once(semantic_type, fake_backend):
    for _ in range(4):
        entry_make(semantic_type, title="Same title everywhere")
    report = services.chunks_embed_pending()
    assert report.embedded == 4 and report.texts == 1
    assert fake_backend.calls == [("document", 1)]


def test_a_stored_vector_is_reused_for_the_same_text(semantic_type, fake_backend):
    entry_make(semantic_type, title="Shared text")
    services.chunks_embed_pending()
    fake_backend.calls.clear()
    entry_make(semantic_type, title="Shared text")
    report = services.chunks_embed_pending()
    assert report.embedded == 1 and report.reused == 1 and fake_backend.calls == []
    assert Chunk.objects.embedded().count() == 2


def test_vectors_are_not_reused_across_workspaces(semantic_type, fake_backend):
    entry_make(semantic_type, title="Shared text")
    services.chunks_embed_pending()
    fake_backend.calls.clear()
    other_type = ContentTypeFactory(workspace=WorkspaceFactory(slug="globex"), api_id="doc", semantic_search_enabled=True)
    entry_make(other_type, title="Shared text")
    report = services.chunks_embed_pending()
    assert report.reused == 0 and fake_backend.calls == [("document", 1)]


def test_requests_are_packed_full_across_claims(semantic_type, fake_backend, settings):
    """Claims of 3 chunks still go out as requests of 8 (the fake's limit): 20 texts, 3 requests."""
    settings.EMBED_BATCH_MAX_CHUNKS = 3
    for i in range(20):
        entry_make(semantic_type, title=f"Distinct text {i}")
    report = services.chunks_embed_pending()
    assert report.embedded == 20
    assert [n for _, n in fake_backend.calls] == [8, 8, 4]


def test_limit_caps_the_chunks_claimed(semantic_type, fake_backend):
    for i in range(5):
        entry_make(semantic_type, title=f"Distinct text {i}")
    report = services.chunks_embed_pending(limit=2)
    assert report.claimed == 2 and Chunk.objects.pending().count() == 3
    assert Chunk.objects.filter(leased_until__isnull=False).count() == 0


def test_usage_is_recorded_per_workspace_model_and_day(semantic_type, fake_backend):
    entry_make(semantic_type, title="Refund policy", body=body_html(PARAGRAPHS))
    report = services.chunks_embed_pending()
    services.chunks_embed_batch(chunk_ids=[])  # nothing: no usage row change
    usage = EmbeddingUsage.objects.get()
    assert usage.workspace_id == semantic_type.workspace_id and usage.model == "fake-hash-16"
    assert usage.day == timezone.now().date()
    assert usage.requests == report.requests and usage.texts == report.texts
    assert usage.tokens == report.tokens > 0
    assert float(usage.cost_usd) == pytest.approx(report.tokens * 0.06 / 1_000_000, abs=1e-6)


def test_usage_accumulates_with_an_upsert(semantic_type, fake_backend):
    entry_make(semantic_type, title="First text")
    services.chunks_embed_pending()
    entry_make(semantic_type, title="Second text")
    services.chunks_embed_pending()
    usage = EmbeddingUsage.objects.get()
    assert (usage.requests, usage.texts) == (2, 2)


class ReportingBackend(FakeEmbeddingBackend):
    """Exposes the provider's real token count, as the Voyage client reports it."""

    last_call_stats = None

    def _embed(self, texts, *, input_type):
        self.last_call_stats = {"total_tokens": 1000 * len(texts)}
        return super()._embed(texts, input_type=input_type)


def test_usage_prefers_the_tokens_the_provider_reports(semantic_type, settings):
    use_backend(settings, "tests.ingestion.test_services.ReportingBackend")
    entry_make(semantic_type, title="Refund policy")
    services.chunks_embed_pending()
    assert EmbeddingUsage.objects.get().tokens == 1000


class EditingBackend(FakeEmbeddingBackend):
    """Edits the entry through entry_update while its batch is being embedded."""

    entry = None
    new_body = ""

    def _embed(self, texts, *, input_type):
        vectors = super()._embed(texts, input_type=input_type)
        if EditingBackend.entry is not None:
            entry, EditingBackend.entry = EditingBackend.entry, None
            cms_services.entry_update(entry=entry, data={**entry.data, "body": EditingBackend.new_body})
        return vectors


def test_text_edited_while_its_batch_is_in_flight_never_keeps_the_old_vector(semantic_type, settings):
    use_backend(settings, "tests.ingestion.test_services.EditingBackend")
    entry = entry_make(semantic_type, title="Refund policy", body="<p>Refunds within 30 days.</p>")
    EditingBackend.entry = entry
    EditingBackend.new_body = "<p>Refunds within 14 days.</p>"
    report = services.chunks_embed_pending()
    assert report.discarded == 1
    body = Chunk.objects.get(entry=entry, field="body")
    assert "14 days" in body.text
    assert body.status == ChunkStatus.PENDING and current_vector(body) is None and body.leased_until is None

    services.chunks_embed_pending()
    body.refresh_from_db()
    assert body.status == ChunkStatus.EMBEDDED
    assert list(current_vector(body).embedding) == pytest.approx(FakeEmbeddingBackend()._vector(body.text), abs=1e-6)


def test_transient_error_releases_the_lease_counts_the_attempt_and_raises(semantic_type, settings):
    use_backend(settings, "tests.ingestion.worker_backends.FailingBackend")
    FailingBackend.transient = True
    entry_make(semantic_type, title="Refund policy")
    with pytest.raises(EmbeddingProviderError):
        services.chunks_embed_pending()
    chunk = Chunk.objects.get()
    assert (chunk.status, chunk.attempts, chunk.last_error) == (ChunkStatus.PENDING, 1, "provider said 503")
    assert chunk.leased_until is None


def test_transient_errors_back_off_and_never_fail_the_chunk(semantic_type, settings):
    use_backend(settings, "tests.ingestion.worker_backends.FailingBackend")
    settings.EMBED_RETRY_BASE_SECONDS = 30
    FailingBackend.transient = True
    entry_make(semantic_type, title="Refund policy")
    with pytest.raises(EmbeddingProviderError):
        services.chunks_embed_pending()
    first = Chunk.objects.get()
    Chunk.objects.update(retry_at=timezone.now() - datetime.timedelta(hours=1))  # the backoff is over
    with pytest.raises(EmbeddingProviderError):
        services.chunks_embed_pending()
    second = Chunk.objects.get()

    assert (second.status, second.attempts) == (ChunkStatus.PENDING, 2)
    # 30 s after the first failure, then 60 s after the second.
    assert 25 < (first.retry_at - first.updated_at).total_seconds() <= 31
    assert 55 < (second.retry_at - second.updated_at).total_seconds() <= 61


def test_backoff_is_capped(semantic_type, settings):
    use_backend(settings, "tests.ingestion.worker_backends.FailingBackend")
    settings.EMBED_RETRY_BASE_SECONDS, settings.EMBED_RETRY_MAX_SECONDS = 30, 100
    FailingBackend.transient = True
    entry_make(semantic_type, title="Refund policy")
    Chunk.objects.update(attempts=20)
    with pytest.raises(EmbeddingProviderError):
        services.chunks_embed_pending()
    chunk = Chunk.objects.get()

    assert 95 < (chunk.retry_at - chunk.updated_at).total_seconds() <= 101


def test_a_chunk_backing_off_is_not_claimed_until_it_is_due(semantic_type, settings, fake_backend):
    entry_make(semantic_type, title="Refund policy")
    Chunk.objects.update(retry_at=timezone.now() + datetime.timedelta(minutes=5), attempts=1)

    assert services.chunks_embed_pending().claimed == 0
    Chunk.objects.update(retry_at=timezone.now() - datetime.timedelta(hours=1))
    report = services.chunks_embed_pending()

    assert report.embedded == 1
    chunk = Chunk.objects.get()
    assert chunk.status == ChunkStatus.EMBEDDED and chunk.retry_at is None


def test_permanent_error_fails_the_chunks_with_the_message(semantic_type, settings):
    use_backend(settings, "tests.ingestion.worker_backends.FailingBackend")
    FailingBackend.transient = False
    entry_make(semantic_type, title="Refund policy")
    with pytest.raises(EmbeddingProviderError):
        services.chunks_embed_pending()
    chunk = Chunk.objects.get()
    assert (chunk.status, chunk.last_error) == (ChunkStatus.FAILED, "provider said 503")


def test_not_configured_leaves_chunks_pending_and_unleased(semantic_type, no_backend):
    entry_make(semantic_type, title="Refund policy")
    report = services.chunks_embed_pending()
    assert report.not_configured and report.claimed == 0
    chunk = Chunk.objects.get()
    assert chunk.status == ChunkStatus.PENDING and chunk.leased_until is None


def test_embed_batch_embeds_the_given_chunks_once(semantic_type, fake_backend):
    entry_make(semantic_type, title="One")
    entry_make(semantic_type, title="Two")
    one = Chunk.objects.get(text="One")
    assert services.chunks_embed_batch(chunk_ids=[one.id]).embedded == 1
    assert services.chunks_embed_batch(chunk_ids=[one.id]).claimed == 0
    assert Chunk.objects.get(text="Two").status == ChunkStatus.PENDING
    assert fake_backend.calls == [("document", 1)]


def test_requeue_puts_failed_and_other_model_chunks_back_to_pending(semantic_type, fake_backend):
    entry_make(semantic_type, title="One")
    entry_make(semantic_type, title="Two")
    services.chunks_embed_pending()
    Chunk.objects.filter(text="One").update(status=ChunkStatus.FAILED, attempts=5)
    assert services.chunks_requeue(model_name="fake-hash-16") == 1
    assert services.chunks_requeue(model_name="another-model") == 1  # "Two" was made by another model
    assert Chunk.objects.get(text="One").attempts == 0


# --- estimate --------------------------------------------------------------------------------


def test_reindex_estimate_counts_what_would_be_embedded_and_writes_nothing(semantic_type, fake_backend):
    entry_make(semantic_type, title="Refund policy", body=body_html(PARAGRAPHS))
    entry_make(semantic_type, title="Returns")
    entry_make(semantic_type, title="Returns")  # same text as the one before: embedded once
    rows = list(Chunk.objects.order_by("id").values())
    estimate = services.chunks_reindex_estimate(content_types=[semantic_type], include_assets=True)
    assert estimate.chunks == len(rows)
    assert estimate.texts == len(rows) - 1
    assert estimate.tokens > 0 and estimate.cost_usd > 0 and estimate.requests >= 1
    assert list(Chunk.objects.order_by("id").values()) == rows
    services.chunks_embed_pending()
    assert services.chunks_reindex_estimate(content_types=[semantic_type]).texts == 0


class ConcurrentEditingBackend(FakeEmbeddingBackend):
    """While its batch is in flight, another connection edits the entry and commits."""

    entry_pk: int | None = None

    def _embed(self, texts, *, input_type):
        import threading

        from cms.models import Entry

        vectors = super()._embed(texts, input_type=input_type)
        if ConcurrentEditingBackend.entry_pk is not None:
            pk, ConcurrentEditingBackend.entry_pk = ConcurrentEditingBackend.entry_pk, None

            def edit() -> None:
                try:
                    entry = Entry.objects.select_related("content_type").get(pk=pk)
                    cms_services.entry_update(entry=entry, data={**entry.data, "body": "<p>Refunds within 14 days.</p>"})
                finally:
                    connection.close()

            editor = threading.Thread(target=edit)
            editor.start()
            editor.join()
        return vectors


@pytest.mark.django_db(transaction=True)
def test_edit_committed_by_another_transaction_mid_batch_discards_the_old_vector(workspace, settings):
    use_backend(settings, "tests.ingestion.test_services.ConcurrentEditingBackend")
    semantic_type = ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)
    entry = entry_make(semantic_type, title="Refund policy", body="<p>Refunds within 30 days.</p>")
    ConcurrentEditingBackend.entry_pk = entry.pk
    report = services.chunks_embed_pending()
    assert report.discarded == 1
    body = Chunk.objects.get(entry=entry, field="body")
    assert "14 days" in body.text and body.status == ChunkStatus.PENDING and current_vector(body) is None
    services.chunks_embed_pending()
    assert list(current_vector(body).embedding) == pytest.approx(FakeEmbeddingBackend()._vector(body.text), abs=1e-6)


@pytest.mark.django_db(transaction=True)
def test_toggle_does_not_wait_on_an_entry_being_edited(workspace):
    """An edit holds its entry's row lock and then waits on the type's row; a toggle holds the
    type's row, so it must not wait on the entry (that would be a deadlock)."""
    import psycopg

    article_type = ContentTypeFactory(workspace=workspace, api_id="article")
    entry = entry_make(article_type, title="Being edited")
    with psycopg.connect(**connection.get_connection_params()) as editor:
        # What entry_update's save does first: a non-key UPDATE (FOR NO KEY UPDATE row lock).
        editor.execute("UPDATE cms_entry SET status = status WHERE id = %s", [entry.pk])
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '3s'")
        try:
            cms_services.content_type_update(content_type=article_type, semantic_search_enabled=True)
        finally:
            with connection.cursor() as cursor:
                cursor.execute("SET lock_timeout = 0")
            editor.rollback()
    assert Chunk.objects.filter(entry=entry).exists()
