"""Cms migration 0014 gives every promotion a matching key computed from its phrase, which it keeps
as it was; twins under the key merge into the pin placed first; reversed, the phrase is the key."""

from __future__ import annotations

import pytest
from django.db import connection

from tests.factories import ContentTypeFactory, entry_make
from tests.migration_steps import migrate, migrate_to_latest

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("cms", "0013_promotion_match")]


def promotions() -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM cms_promotion LIMIT 0")
        columns = [column.name for column in cursor.description]
        shown = [name for name in ("phrase", "phrase_key", "entry_id", "position") if name in columns]
        cursor.execute(f"SELECT {', '.join(shown)} FROM cms_promotion ORDER BY position, id")
        return cursor.fetchall()


def test_existing_promotions_keep_their_phrases_and_get_their_keys(workspace):
    faq = ContentTypeFactory(workspace=workspace, api_id="faq")
    first, second = entry_make(faq, title="Refund policy"), entry_make(faq, title="Returns desk")
    try:
        migrate(BEFORE)
        with connection.cursor() as cursor:
            for phrase, entry, position in [("Refund  Policy", first, 0), ("退貨", first, 1), ("退货", first, 2),
                                            ("退货", second, 3)]:
                cursor.execute("INSERT INTO cms_promotion (workspace_id, phrase, entry_id, position, match, created_at)"
                               " VALUES (%s, %s, %s, %s, 'is', now())", [workspace.pk, phrase, entry.pk, position])
    finally:
        migrate_to_latest()

    assert promotions() == [("Refund  Policy", "refund policy", first.pk, 0), ("退貨", "退货", first.pk, 1),
                            ("退货", "退货", second.pk, 3)]

    try:
        migrate(BEFORE)
        assert promotions() == [("refund policy", first.pk, 0), ("退货", first.pk, 1), ("退货", second.pk, 3)]
    finally:
        migrate_to_latest()
