"""Migration 0015 pins each workspace that holds vectors and never switched to its vectors' model,
so the new default provider (multilingual-e5-small) moves no existing workspace off USE."""

from __future__ import annotations

import hashlib

import pytest

from cms.models import Workspace
from ingestion.models import Chunk, ChunkVector, SourceKind, WorkspaceEmbedding
from ingestion.selectors import embedding_models
from tests.factories import ContentTypeFactory, WorkspaceFactory, entry_make
from tests.migration_steps import migrate, migrate_to_latest

pytestmark = pytest.mark.django_db(transaction=True)

USE, USE_DIMENSIONS = "use-multilingual-v3", 512
E5, E5_DIMENSIONS = "multilingual-e5-small", 384


def migrate_through_0015() -> None:
    """0015 unapplied (its reverse is a no-op) and applied again, over the rows the test made."""
    migrate([("ingestion", "0014_text_fold")])
    migrate_to_latest()


def vectors_make(workspace: Workspace, counts: dict[str, tuple[int, int]]) -> None:
    """Chunks of one entry with `n` vectors of each model: {model: (n, dimensions)}."""
    entry = entry_make(ContentTypeFactory(workspace=workspace), title="Doc", body="<p>Text.</p>")
    chunks = []
    for ordinal in range(max(n for n, _ in counts.values())):
        text = f"Chunk {ordinal}"
        chunks.append(Chunk.objects.create(workspace=workspace, source_kind=SourceKind.ENTRY, entry=entry,
                                           field="body", ordinal=ordinal, text=text,
                                           content_hash=hashlib.sha256(text.encode()).hexdigest()))
    for model, (n, dimensions) in counts.items():
        for chunk in chunks[:n]:
            ChunkVector.objects.create(chunk=chunk, workspace=workspace, model=model, dimensions=dimensions,
                                       embedding=[1.0] + [0.0] * (dimensions - 1), content_hash=chunk.content_hash)


def test_a_workspace_with_use_vectors_and_no_row_is_pinned_to_use(settings):
    settings.SEARCH_EMBEDDING_BACKENDS = {"default": {"BACKEND": "ingestion.embeddings.e5.E5EmbeddingBackend",
                                                      "OPTIONS": {}}}
    workspace = WorkspaceFactory()
    vectors_make(workspace, {USE: (3, USE_DIMENSIONS)})
    migrate_through_0015()
    row = WorkspaceEmbedding.objects.get(workspace=workspace)
    assert (row.active_model, row.target_model, row.previous_model) == (USE, "", "")
    assert embedding_models(workspace=workspace).active == USE  # not the configured default, E5


def test_the_model_with_the_most_vectors_is_pinned():
    workspace = WorkspaceFactory()
    vectors_make(workspace, {USE: (3, USE_DIMENSIONS), E5: (1, E5_DIMENSIONS)})
    migrate_through_0015()
    assert WorkspaceEmbedding.objects.get(workspace=workspace).active_model == USE


def test_a_workspace_without_vectors_gets_no_row():
    workspace = WorkspaceFactory()
    entry_make(ContentTypeFactory(workspace=workspace), title="Doc", body="<p>Text.</p>")
    migrate_through_0015()
    assert not WorkspaceEmbedding.objects.filter(workspace=workspace).exists()


def test_a_workspace_with_a_row_keeps_it():
    workspace = WorkspaceFactory()
    vectors_make(workspace, {USE: (3, USE_DIMENSIONS), E5: (3, E5_DIMENSIONS)})
    WorkspaceEmbedding.objects.create(workspace=workspace, active_model=E5, previous_model=USE)
    migrate_through_0015()
    row = WorkspaceEmbedding.objects.get(workspace=workspace)
    assert (row.active_model, row.target_model, row.previous_model) == (E5, "", USE)


def test_each_workspace_is_pinned_to_its_own_vectors_model():
    use_workspace, e5_workspace = WorkspaceFactory(), WorkspaceFactory()
    vectors_make(use_workspace, {USE: (2, USE_DIMENSIONS)})
    vectors_make(e5_workspace, {E5: (2, E5_DIMENSIONS)})
    migrate_through_0015()
    assert dict(WorkspaceEmbedding.objects.values_list("workspace_id", "active_model")) == {
        use_workspace.pk: USE, e5_workspace.pk: E5}
