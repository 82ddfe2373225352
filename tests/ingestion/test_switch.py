"""Model switch services: vectors per (chunk, model), backfill through the embed loop,
promote, rollback, abort, prune, and the hash guard across them."""

from __future__ import annotations

import time

import pytest

from cms import services as cms_services
from ingestion import selectors, services
from ingestion.embeddings.fake import FakeEmbeddingBackend
from ingestion.models import Chunk, ChunkStatus, ChunkVector, WorkspaceEmbedding
from ingestion.services import switch
from ingestion.services.vectors import vectors_store
from tests.factories import entry_make
from tests.ingestion.conftest import current_vector, provider_calls
from tests.ingestion.worker_backends import OtherFakeBackend

ACTIVE, TARGET = "fake-hash-16", "fake-other-8"
BODIES = ["<p>Refunds are issued within thirty days of delivery.</p>",
          "<p>Shipping inside Japan takes one to three days.</p>",
          "<p>Gift cards never expire and can be combined at checkout.</p>"]


@pytest.fixture
def content(semantic_type, two_models):
    entries = [entry_make(semantic_type, title=f"Doc {i}", body=body) for i, body in enumerate(BODIES)]
    services.chunks_embed_pending()
    return entries


def other_texts() -> int:
    return sum(len(texts) for kind, texts in OtherFakeBackend.calls if kind == "document")


def vectors(workspace, model: str) -> int:
    return ChunkVector.objects.filter(workspace=workspace, model=model).count()


def test_without_a_switch_the_configured_model_is_active(workspace, content):
    models = selectors.embedding_models(workspace=workspace)
    assert (models.active, models.target, models.previous) == (ACTIVE, "", "")
    assert not WorkspaceEmbedding.objects.exists()
    assert vectors(workspace, ACTIVE) == Chunk.objects.count() > 0


def test_start_backfills_the_target_beside_the_active_vectors(workspace, content):
    chunks = Chunk.objects.count()
    calls = provider_calls()
    outcome = switch.embedding_switch_start(workspace=workspace, model="other")
    assert (outcome.active, outcome.target, outcome.reopened) == (ACTIVE, TARGET, chunks)
    # Searchable meanwhile: they hold the active model's vector and wait only for the target's.
    assert (Chunk.objects.backfill().count(), Chunk.objects.pending().count()) == (chunks, 0)
    report = services.chunks_embed_pending()
    assert report.embedded == chunks
    assert provider_calls() == calls  # the active model is not asked again
    assert other_texts() == chunks
    assert (vectors(workspace, ACTIVE), vectors(workspace, TARGET)) == (chunks, chunks)
    assert Chunk.objects.embedded().count() == chunks
    progress = selectors.embedding_switch_progress(workspace=workspace)
    assert (progress["covered"], progress["coverage_percent"], progress["eta_seconds"]) == (chunks, 100.0, 0.0)
    assert progress["tokens"] > 0


def test_backfill_run_twice_embeds_nothing_twice(workspace, content):
    switch.embedding_switch_start(workspace=workspace, model=TARGET)
    services.chunks_embed_pending()
    sent = other_texts()
    report = services.chunks_embed_pending()
    assert (report.claimed, other_texts()) == (0, sent)


def test_new_content_during_a_switch_is_embedded_for_both_models(workspace, semantic_type, content):
    switch.embedding_switch_start(workspace=workspace, model="other")
    entry = entry_make(semantic_type, title="New", body="<p>Returns of opened software are refused.</p>")
    # New content goes before the rest of the backfill: one claim embeds it for both models.
    assert {c.status for c in Chunk.objects.filter(entry=entry)} == {ChunkStatus.PENDING}
    claimed = services.chunks_claim_pending(limit=1, workspace=workspace)
    assert [c.id for c in claimed] == [Chunk.objects.filter(entry=entry).order_by("id").first().id]
    from ingestion.services.claims import leases_release

    leases_release([c.id for c in claimed])
    services.chunks_embed_pending()
    assert Chunk.objects.queued().count() == 0
    for chunk in Chunk.objects.filter(entry=entry):
        assert current_vector(chunk, ACTIVE) is not None and current_vector(chunk, TARGET) is not None
        assert chunk.status == ChunkStatus.EMBEDDED


def test_edit_during_a_backfill_ends_with_current_vectors_for_both_models(workspace, content):
    switch.embedding_switch_start(workspace=workspace, model="other")
    services.chunks_embed_pending(limit=1)  # the backfill is under way
    entry = content[0]
    cms_services.entry_update(entry=entry, data={**entry.data, "body": "<p>Refunds within fourteen days.</p>"})
    edited = Chunk.objects.get(entry=entry, field="body")
    assert current_vector(edited, ACTIVE) is None  # stale: made from the old text
    services.chunks_embed_pending()
    edited.refresh_from_db()
    assert "fourteen" in edited.text and edited.status == ChunkStatus.EMBEDDED
    fake, other = FakeEmbeddingBackend(), OtherFakeBackend()
    assert list(current_vector(edited, ACTIVE).embedding) == pytest.approx(fake._vector(edited.text), abs=1e-6)
    assert list(current_vector(edited, TARGET).embedding) == pytest.approx(other._vector(edited.text), abs=1e-6)
    assert ChunkVector.objects.filter(chunk=edited).count() == 2  # replaced in place, one per model


def test_promote_refuses_an_incomplete_backfill_and_force_says_what_is_missing(workspace, content):
    chunks = Chunk.objects.count()
    switch.embedding_switch_start(workspace=workspace, model="other")
    services.chunks_embed_pending(limit=1)
    with pytest.raises(switch.SwitchError) as refused:
        switch.embedding_switch_promote(workspace=workspace)
    assert refused.value.code == "coverage_incomplete" and f"{chunks - 1} still lack" in refused.value.message
    assert selectors.embedding_models(workspace=workspace).active == ACTIVE
    outcome = switch.embedding_switch_promote(workspace=workspace, force=True)
    assert (outcome.active, outcome.previous, outcome.missing) == (TARGET, ACTIVE, chunks - 1)
    assert Chunk.objects.pending().count() == chunks - 1  # still owed a vector of the new active model
    services.chunks_embed_pending()
    assert vectors(workspace, TARGET) == chunks and Chunk.objects.embedded().count() == chunks


def test_rollback_flips_back_at_once_and_keeps_both_models_vectors(workspace, content):
    chunks = Chunk.objects.count()
    switch.embedding_switch_start(workspace=workspace, model="other")
    services.chunks_embed_pending()
    switch.embedding_switch_promote(workspace=workspace)
    outcome = switch.embedding_switch_rollback(workspace=workspace)
    assert (outcome.active, outcome.previous, outcome.reopened) == (ACTIVE, TARGET, 0)
    assert (vectors(workspace, ACTIVE), vectors(workspace, TARGET)) == (chunks, chunks)
    assert Chunk.objects.embedded().count() == chunks


def test_switching_again_to_a_kept_model_embeds_nothing(workspace, content):
    switch.embedding_switch_start(workspace=workspace, model="other")
    services.chunks_embed_pending()
    switch.embedding_switch_promote(workspace=workspace)
    switch.embedding_switch_rollback(workspace=workspace)
    sent = other_texts()
    switch.embedding_switch_start(workspace=workspace, model="other")
    services.chunks_embed_pending()
    assert other_texts() == sent
    assert selectors.embedding_switch_progress(workspace=workspace)["coverage_percent"] == 100.0


def test_rollback_reembeds_chunks_edited_since_the_promote(workspace, content):
    switch.embedding_switch_start(workspace=workspace, model="other")
    services.chunks_embed_pending()
    switch.embedding_switch_promote(workspace=workspace)
    entry = content[1]
    cms_services.entry_update(entry=entry, data={**entry.data, "body": "<p>Shipping takes a week now.</p>"})
    services.chunks_embed_pending()
    outcome = switch.embedding_switch_rollback(workspace=workspace)
    assert outcome.reopened == Chunk.objects.filter(entry=entry).count()
    services.chunks_embed_pending()
    for chunk in Chunk.objects.filter(entry=entry):
        assert current_vector(chunk, ACTIVE) is not None


def test_prune_refuses_the_active_and_target_models_and_deletes_the_old_one(workspace, content):
    chunks = Chunk.objects.count()
    switch.embedding_switch_start(workspace=workspace, model="other")
    for model, role in ((ACTIVE, "active"), (TARGET, "target")):
        with pytest.raises(switch.SwitchError) as refused:
            switch.embedding_switch_prune(workspace=workspace, model=model)
        assert refused.value.code == "model_in_use" and role in refused.value.message
    services.chunks_embed_pending()
    switch.embedding_switch_promote(workspace=workspace)
    outcome = switch.embedding_switch_prune(workspace=workspace, model=ACTIVE)
    assert outcome.deleted == chunks and vectors(workspace, ACTIVE) == 0
    assert selectors.embedding_models(workspace=workspace).previous == ""
    with pytest.raises(switch.SwitchError) as nothing:
        switch.embedding_switch_rollback(workspace=workspace)
    assert nothing.value.code == "nothing_to_roll_back"


def test_abort_discards_partial_vectors_and_settles_the_chunks(workspace, content):
    chunks = Chunk.objects.count()
    switch.embedding_switch_start(workspace=workspace, model="other")
    services.chunks_embed_pending(limit=1)
    assert vectors(workspace, TARGET) == 1
    outcome = switch.embedding_switch_abort(workspace=workspace)
    assert (outcome.deleted, outcome.settled) == (1, chunks - 1)
    assert vectors(workspace, TARGET) == 0 and Chunk.objects.embedded().count() == chunks
    assert selectors.embedding_models(workspace=workspace).target == ""


def test_a_batch_in_flight_when_the_switch_is_aborted_stores_nothing(workspace, content):
    switch.embedding_switch_start(workspace=workspace, model="other")
    chunk = Chunk.objects.first()
    switch.embedding_switch_abort(workspace=workspace)
    other = OtherFakeBackend()
    rows = [(chunk.id, chunk.content_hash, "[" + ",".join(map(str, other._vector(chunk.text))) + "]")]
    assert vectors_store(backend=other, rows=rows, default_model=ACTIVE) == 0
    assert vectors(workspace, TARGET) == 0


@pytest.mark.parametrize(("call", "code"), [
    (lambda ws: switch.embedding_switch_start(workspace=ws, model="no-such-model"), "model_unknown"),
    (lambda ws: switch.embedding_switch_start(workspace=ws, model="fake"), "model_active"),
    (lambda ws: switch.embedding_switch_promote(workspace=ws), "no_switch"),
    (lambda ws: switch.embedding_switch_abort(workspace=ws), "no_switch"),
    (lambda ws: switch.embedding_switch_rollback(workspace=ws), "nothing_to_roll_back"),
    (lambda ws: switch.embedding_switch_prune(workspace=ws, model="fake-other-8"), "model_not_stored"),
])
def test_bad_requests_are_refused_with_a_code(workspace, content, call, code):
    with pytest.raises(switch.SwitchError) as refused:
        call(workspace)
    assert refused.value.code == code and refused.value.message


def test_a_second_start_while_one_runs_is_refused(workspace, content):
    switch.embedding_switch_start(workspace=workspace, model="other")
    with pytest.raises(switch.SwitchError) as refused:
        switch.embedding_switch_start(workspace=workspace, model="fake")
    assert refused.value.code == "switch_running"


def test_dry_run_estimates_the_backfill_and_changes_nothing(workspace, content):
    chunks = Chunk.objects.count()
    estimate = switch.embedding_switch_estimate(workspace=workspace, model="other")
    assert (estimate.model, estimate.chunks, estimate.texts) == (TARGET, chunks, chunks)
    assert estimate.tokens > 0 and estimate.requests >= 1 and estimate.cost_usd >= 0
    assert not WorkspaceEmbedding.objects.exists() and other_texts() == 0
    assert Chunk.objects.embedded().count() == chunks


def test_switch_in_one_workspace_leaves_another_alone(workspace, other_workspace, content):
    from tests.factories import ContentTypeFactory

    theirs = ContentTypeFactory(workspace=other_workspace, api_id="doc", semantic_search_enabled=True)
    entry_make(theirs, title="Theirs", body="<p>Another tenant's text.</p>")
    services.chunks_embed_pending()
    switch.embedding_switch_start(workspace=workspace, model="other")
    services.chunks_embed_pending()
    assert vectors(other_workspace, TARGET) == 0
    assert selectors.embedding_models(workspace=other_workspace).active == ACTIVE
    assert Chunk.objects.for_workspace(other_workspace).embedded().count() == 1


def _rest_seconds(pace, store) -> float:
    started = time.monotonic()
    pace.rest(store)
    return time.monotonic() - started


def test_backfill_claims_rest_in_proportion_and_pending_claims_never_wait(settings):
    from ingestion.services.claims import ClaimedChunk
    from ingestion.services.embed import EmbedReport, _BackfillPace, _StoreBehind

    settings.EMBED_BACKFILL_PAUSE = 2.0
    pace, store = _BackfillPace(), _StoreBehind(EmbedReport(), None)
    try:
        pace.claimed([ClaimedChunk(1, 1, "text", "hash", status="backfill")])
        time.sleep(0.1)  # the claim's work
        assert _rest_seconds(pace, store) >= 0.2
        pace.claimed([ClaimedChunk(2, 1, "text", "hash", status="backfill"),
                      ClaimedChunk(3, 1, "new text", "hash2", status="pending")])
        time.sleep(0.1)
        assert _rest_seconds(pace, store) < 0.05
    finally:
        store.close()
