"""Data migrations' SQL on distributed tables: what an upgrade of a Citus deployment runs."""

from __future__ import annotations

import importlib

import pytest
from django.db import connection

from ingestion.models import WorkspaceEmbedding
from tests.factories import WorkspaceFactory
from tests.ingestion.test_migration_pin_models import E5, E5_DIMENSIONS, USE, USE_DIMENSIONS, vectors_make

pytestmark = pytest.mark.django_db

PIN_WORKSPACE_MODELS = importlib.import_module("ingestion.migrations.0015_pin_workspace_models").PIN_WORKSPACE_MODELS


def test_workspaces_are_pinned_to_their_vectors_model_on_the_cluster():
    """Migration ingestion.0015's one INSERT ... SELECT on the colocated, distributed tables."""
    use_workspace, e5_workspace, empty, switched = (WorkspaceFactory() for _ in range(4))
    vectors_make(use_workspace, {USE: (3, USE_DIMENSIONS), E5: (1, E5_DIMENSIONS)})
    vectors_make(e5_workspace, {E5: (2, E5_DIMENSIONS)})
    vectors_make(switched, {USE: (2, USE_DIMENSIONS)})
    WorkspaceEmbedding.objects.create(workspace=switched, active_model=E5, previous_model=USE)
    with connection.cursor() as cursor:
        cursor.execute(PIN_WORKSPACE_MODELS)
    assert dict(WorkspaceEmbedding.objects.values_list("workspace_id", "active_model")) == {
        use_workspace.pk: USE, e5_workspace.pk: E5, switched.pk: E5}
    assert not WorkspaceEmbedding.objects.filter(workspace=empty).exists()


KEYWORD_TEXT = importlib.import_module("ingestion.migrations.0017_keyword_text")


def test_the_keyword_texts_are_backfilled_from_the_postings_on_the_cluster():
    """Migration ingestion.0017's backfill (its SQL function, then one INSERT ... SELECT grouped by
    chunk) on the colocated, distributed tables gives each chunk the text the writer gives it."""
    from tests.factories import ContentTypeFactory, entry_make

    for workspace in (WorkspaceFactory(), WorkspaceFactory()):
        doc_type = ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)
        entry_make(doc_type, title="Trello 4e6a8095", body="<p>Refunds within 30 days: 返品・交換。 Refund policy.</p>")
    with connection.cursor() as cursor:
        cursor.execute("SELECT chunk_id, workspace_id, terms FROM ingestion_keywordtext")
        written = {(c, w): sorted(t.split()) for c, w, t in cursor.fetchall()}
        cursor.execute("DELETE FROM ingestion_keywordtext")
        cursor.execute(KEYWORD_TEXT.INDEX_TERM_FUNCTION)
        cursor.execute(KEYWORD_TEXT.BACKFILL_SQL)
        cursor.execute("SELECT chunk_id, workspace_id, terms FROM ingestion_keywordtext")
        backfilled = {(c, w): sorted(t.split()) for c, w, t in cursor.fetchall()}
        cursor.execute("DROP FUNCTION ingestion_bm25_index_term(text)")
    assert written and backfilled == written
