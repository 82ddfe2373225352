"""Operator commands: reindex (and its dry run), embed_pending, ingestion_status."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command

from cms import services as cms_services
from ingestion.models import Chunk, ChunkStatus
from tests.factories import ContentTypeFactory, WorkspaceFactory, entry_make


def run(*args, **options) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO(), **options)
    return out.getvalue()


def test_reindex_embeds_what_is_pending_and_second_run_changes_nothing(semantic_type, fake_backend):
    entry_make(semantic_type, title="Refund policy", body="<p>Refunds within 30 days.</p>")
    output = run("reindex")
    assert "Embedded 1 chunks" in output
    assert Chunk.objects.embedded().count() == 1
    rows = list(Chunk.objects.order_by("id").values())
    calls = len(fake_backend.calls)
    output = run("reindex")
    assert "0 new, 0 changed, 0 deleted" in output
    assert len(fake_backend.calls) == calls
    assert list(Chunk.objects.order_by("id").values()) == rows


def test_reindex_recreates_missing_chunks_and_removes_opted_out_ones(semantic_type, article_type, fake_backend):
    kept = entry_make(semantic_type, title="Refund policy")
    Chunk.objects.all().delete()
    stray = entry_make(article_type, title="Not opted in")
    Chunk.objects.create(workspace=stray.workspace, source_kind="entry", entry=stray, field="title", ordinal=0,
                         text="x", content_hash="x")
    run("reindex", "--workspace", "acme")
    assert list(Chunk.objects.values_list("entry_id", flat=True)) == [kept.pk]


def test_reindex_retries_failed_chunks(semantic_type, fake_backend):
    entry_make(semantic_type, title="Refund policy")
    Chunk.objects.update(status=ChunkStatus.FAILED, attempts=5, last_error="401 bad key")
    run("reindex", "--content-type", "doc")
    chunk = Chunk.objects.get()
    assert chunk.status == ChunkStatus.EMBEDDED and chunk.last_error == ""


def test_reindex_assets_only_rechunks_assets_not_entries(workspace, semantic_type, fake_backend):
    entry_make(semantic_type, title="Entry text")
    asset = cms_services.asset_upload(workspace=workspace, filename="faq.md", content=b"# FAQ\n\nAnswers.")
    Chunk.objects.all().delete()
    run("reindex", "--assets")
    assert set(Chunk.objects.values_list("asset_id", "status")) == {(asset.pk, ChunkStatus.EMBEDDED)}


def test_reindex_dry_run_prints_the_estimate_and_writes_nothing(semantic_type, fake_backend):
    entry_make(semantic_type, title="Refund policy", body="<p>Refunds within 30 days.</p>")
    Chunk.objects.all().delete()
    output = run("reindex", "--dry-run")
    assert "would embed 1 chunks (1 distinct texts) in 1 requests to fake-hash-16" in output
    assert "tokens" in output and "$" in output
    assert not Chunk.objects.exists() and fake_backend.calls == []


def test_reindex_async_enqueues_instead_of_embedding(semantic_type, fake_backend):
    entry_make(semantic_type, title="Refund policy")
    output = run("reindex", "--async")
    assert "enqueued" in output
    assert Chunk.objects.pending().count() == 1 and fake_backend.calls == []


def test_reindex_rejects_an_unknown_workspace(db):
    WorkspaceFactory(slug="acme")
    with pytest.raises(CommandError, match="No workspace with slug 'nope'. Known workspaces: acme"):
        run("reindex", "--workspace", "nope")


def test_reindex_rejects_an_unknown_content_type(workspace):
    with pytest.raises(CommandError, match="No content type 'nope' in workspace 'acme'"):
        run("reindex", "--workspace", "acme", "--content-type", "nope")


def test_reindex_asks_for_a_workspace_when_the_type_is_ambiguous(semantic_type):
    ContentTypeFactory(workspace=WorkspaceFactory(slug="globex"), api_id="doc")
    with pytest.raises(CommandError, match="add --workspace"):
        run("reindex", "--content-type", "doc")


def test_embed_pending_respects_limit_and_workspace(semantic_type, fake_backend):
    other_type = ContentTypeFactory(workspace=WorkspaceFactory(slug="globex"), api_id="doc", semantic_search_enabled=True)
    for i in range(3):
        entry_make(semantic_type, title=f"Ours {i}")
    entry_make(other_type, title="Theirs")
    run("embed_pending", "--workspace", "acme", "--limit", "2")
    assert Chunk.objects.embedded().count() == 2
    assert Chunk.objects.get(text="Theirs").status == ChunkStatus.PENDING


def test_embed_pending_without_provider_says_not_configured(semantic_type, no_backend):
    entry_make(semantic_type, title="Refund policy")
    with pytest.raises(CommandError, match="not_configured"):
        run("embed_pending")


def test_embed_pending_prints_plain_progress_lines_when_not_a_tty(semantic_type, fake_backend):
    for i in range(3):
        entry_make(semantic_type, title=f"Text {i}")
    output = run("embed_pending", verbosity=2)
    assert "embed: 3/3 chunks" in output


def test_embed_pending_is_silent_at_verbosity_zero(semantic_type, fake_backend):
    entry_make(semantic_type, title="Text")
    assert run("embed_pending", verbosity=0) == ""


def test_ingestion_status_json_reports_counts_age_error_and_provider(semantic_type, fake_backend):
    entry_make(semantic_type, title="One")
    entry_make(semantic_type, title="Two")
    entry_make(semantic_type, title="Three")
    run("embed_pending", "--limit", "1")
    Chunk.objects.filter(text="Two").update(status=ChunkStatus.FAILED, last_error="401: invalid key")
    report = json.loads(run("ingestion_status", "--json"))
    assert report["provider"]["configured"] is True and report["provider"]["model"] == "fake-hash-16"
    [ws] = report["workspaces"]
    assert (ws["workspace"], ws["pending"], ws["embedded"], ws["failed"]) == ("acme", 1, 1, 1)
    assert [(m["model"], m["role"], m["embedded"], m["pending"]) for m in ws["models"]] == [
        ("fake-hash-16", "active", 1, 2)]
    assert ws["oldest_pending_seconds"] >= 0
    assert ws["last_error"] == "401: invalid key"


def test_ingestion_status_says_not_configured(semantic_type, no_backend):
    entry_make(semantic_type, title="One")
    report = json.loads(run("ingestion_status", "--json"))
    assert report["provider"]["code"] == "not_configured"
    assert report["workspaces"][0]["pending"] == 1
    assert "not_configured" in run("ingestion_status")


def test_ingestion_status_text_and_workspace_scope(semantic_type, fake_backend):
    other_type = ContentTypeFactory(workspace=WorkspaceFactory(slug="globex"), api_id="doc", semantic_search_enabled=True)
    entry_make(semantic_type, title="One")
    entry_make(other_type, title="Two")
    output = run("ingestion_status", "--workspace", "globex")
    assert "globex: 1 pending" in output and "acme" not in output


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_embed_pending_draws_a_progress_bar_on_a_terminal(semantic_type, fake_backend):
    for i in range(3):
        entry_make(semantic_type, title=f"Text {i}")
    out = FakeTerminal()
    call_command("embed_pending", stdout=out, stderr=io.StringIO())
    assert "embed: 100%" in out.getvalue() and "3/3" in out.getvalue()


def test_reindex_dry_run_without_a_provider_prices_tokens_at_the_configured_rate(semantic_type, no_backend, settings):
    settings.EMBEDDING_PRICE_PER_MTOK = 1_000_000.0  # $1 a token: any text costs dollars
    entry_make(semantic_type, title="Refund policy", body="<p>Refunds within 30 days.</p>")
    Chunk.objects.all().delete()
    output = run("reindex", "--dry-run")
    tokens = int(output.split("~")[1].split(" tokens")[0])
    assert tokens > 0 and f"~${tokens:.4f}" in output
