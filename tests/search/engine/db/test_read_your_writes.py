"""Read-your-writes (search/engine/db/read_your_writes.py): every write a search reads marks its caller,
so the caller's next searches read the primary. Pins are read through search_cursor as entries
are, and synonyms change what a search finds: their writes mark the caller too (issue 32,
finding 3)."""

from __future__ import annotations

import pytest

from cms import services
from cms.models import Promotion
from search.engine.db.read_your_writes import caller_context, caller_wrote_recently
from tests.factories import entry_make

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _marks_kept(settings):
    settings.READ_YOUR_WRITES_SECONDS = 30


@pytest.mark.parametrize("write", [
    lambda workspace, entry: services.synonym_set_create(workspace=workspace, terms=["refund", "money back"]),
    lambda workspace, entry: services.synonym_set_delete(
        synonym_set=services.synonym_set_create(workspace=workspace, terms=["a1", "b1"])),
    lambda workspace, entry: services.promotion_create(workspace=workspace, phrase="refund", entry=entry),
    lambda workspace, entry: services.promotion_delete(
        promotion=Promotion.objects.create(workspace=workspace, phrase="x", entry=entry)),
])
def test_synonym_and_promotion_writes_mark_the_caller(workspace, article_type, write):
    entry = entry_make(article_type, title="Refund policy")
    with caller_context("editor-1"):
        assert not caller_wrote_recently()
        write(workspace, entry)
        assert caller_wrote_recently()
    with caller_context("someone-else"):
        assert not caller_wrote_recently()


def test_a_promotion_changed_in_the_admin_marks_its_editor(client, workspace, article_type, editor):
    entry = entry_make(article_type, title="Refund policy")
    promotion = Promotion.objects.create(workspace=workspace, phrase="refund", entry=entry)
    client.force_login(editor)
    response = client.post(f"/admin/cms/promotion/{promotion.pk}/change/",
                           {"workspace": workspace.pk, "phrase": "refund", "match": "is", "entry": entry.pk, "position": 2})
    assert response.status_code == 302, response.content
    with caller_context(_caller_of_session(client)):
        assert caller_wrote_recently()


def _caller_of_session(client) -> str:
    from django.conf import settings
    from django.test import RequestFactory

    from search.engine.db.read_your_writes import caller_of

    request = RequestFactory().get("/")
    request.COOKIES[settings.SESSION_COOKIE_NAME] = client.cookies[settings.SESSION_COOKIE_NAME].value
    return caller_of(request)
