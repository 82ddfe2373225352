"""Fixtures the search tests share."""

from __future__ import annotations

import pytest
from django.db import connection

from cms.models import Entry, EntryStatus
from tests.factories import ContentTypeFactory
from tests.search.replica_server import streaming_replica  # noqa: F401 - fixture (tests/search/engine/db/test_replicas.py)
from tests.search.semantic_helpers import local_embeddings, local_model, no_embeddings  # noqa: F401 - fixtures

# More rows than the recent scan reads (search.engine.fulltext_plans.RECENT_SCAN_MIN_ROWS), so a term
# missing from them sends the search to an index.
FILLER_ENTRIES = 150


@pytest.fixture
def doc_type(workspace):
    """A content type whose entries are searched semantically too (api_id `doc`)."""
    return ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)


@pytest.fixture
def filler_entries(article_type):
    """Many entries about nothing in particular, created in one statement, then ANALYZEd.

    Planner statistics exist in any database autovacuum looks after; without them the
    planner guesses a workspace holds 3 rows and reads it through entry_ws_newest.
    """
    entries = Entry.objects.bulk_create(
        Entry(
            workspace_id=article_type.workspace_id,
            content_type=article_type,
            data={"title": f"Filler {i}", "body": "Ordinary words about shipping and orders. 配送について。"},
            status=EntryStatus.PUBLISHED,
        )
        for i in range(FILLER_ENTRIES)
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE cms_entry")
    return entries
