"""The demo workspace (cms/management/commands/seed_demo.py) as a new editor leaves it, seeded once
per test module and embedded once by the default model (multilingual-E5-small), for the
short-query tests (issue 51): the demo's entries, and a few an editor writes after (an English
one, a Japanese one, a Hong Kong Chinese one), and the synonym `walkship -> shipping`."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from io import StringIO

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import override_settings

from cms import services
from cms.models import ContentType, EntryStatus, SynonymKind, Workspace
from cms.services.synonyms import synonym_set_create
from ingestion.embeddings import reset_embedding_backends
from ingestion.services import chunks_embed_pending

# The real E5 model; the numpy runtime loads in seconds, where the onnx one first builds its graph.
E5_BACKEND = {
    "BACKEND": "ingestion.embeddings.e5.E5EmbeddingBackend",
    "OPTIONS": {"threads": 1, "e5_runtime": "numpy"},
    "PRICE_PER_MILLION_TOKENS": 0.0,
}

# Entries an editor writes after seeding (the words of issue 51: Kobe, locker, 土曜日, 星期六).
EDITOR_ARTICLES = [
    ("Kobe pickup locker", "<p>Collect your order from our Kobe locker at any hour; the code arrives by "
     "email.</p>"),
    ("土曜日の配送", "<p>土曜日も配送いたします。日曜日と祝日はお休みです。</p>"),
    ("星期六送貨", "<p>我們星期六照常送貨，星期日及公眾假期暫停服務。</p>"),
]


@contextmanager
def demo_seeded() -> Iterator[Workspace]:
    """The demo workspace, its editor's entries and synonym, embedded by E5 (inside
    `django_db_blocker.unblock()`; the caller flushes the database after)."""
    with override_settings(SEARCH_EMBEDDING_BACKENDS={"default": E5_BACKEND}):
        reset_embedding_backends()
        try:
            call_command("seed_demo", stdout=StringIO())
            workspace = Workspace.objects.get(slug="demo")
            articles = ContentType.objects.get(workspace=workspace, api_id="article")
            admin = get_user_model().objects.get(username="admin")
            for title, body in EDITOR_ARTICLES:
                services.entry_create(content_type=articles, data={"title": title, "body": body, "version": 1,
                                                                   "published_on": "2026-12-01"},
                                      status=EntryStatus.PUBLISHED, created_by=admin)
            synonym_set_create(workspace=workspace, terms=["shipping"], kind=SynonymKind.ONE_WAY, source="walkship")
            chunks_embed_pending(workspace=workspace)
            yield Workspace.objects.get(pk=workspace.pk)
        finally:
            reset_embedding_backends()
