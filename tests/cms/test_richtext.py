"""Rich text is Markdown: HTML values convert to Markdown that reads as the same text, and cms
migration 0016 converts the stored HTML values of rich text fields (and nothing else)."""

from __future__ import annotations

import json

import pytest
from django.db import connection

from cms.richtext import richtext_from_html, richtext_is_html
from ingestion.chunking import html_to_text, richtext_to_text
from tests.factories import ContentTypeFactory, entry_make
from tests.migration_steps import migrate, migrate_to_latest

SEEDED = ("<h2>Refunds</h2><p>You can return any item within <strong>30 days</strong> &amp; get a_full "
          "refund.</p><ul><li>Unused</li><li>Boxed</li></ul><script>track()</script>")


def test_html_becomes_markdown():
    assert richtext_from_html(SEEDED) == ("## Refunds\n\nYou can return any item within **30 days** & get a\\_full "
                                          "refund.\n\n- Unused\n- Boxed")


def test_the_markdown_reads_as_the_html_read():
    assert richtext_to_text(richtext_from_html(SEEDED)) == html_to_text(SEEDED)


@pytest.mark.parametrize("value, is_html", [("<p>Hi</p>", True), ("Line<br/>break", True), ("a < b and <3", False),
                                            ("**bold** and x<y>z", True), ("1 <= 2", False)])
def test_what_counts_as_html(value, is_html):
    assert richtext_is_html(value) is is_html


@pytest.mark.django_db(transaction=True)
def test_migration_converts_html_richtext_values_only(workspace):
    kind = ContentTypeFactory(workspace=workspace, api_id="faq", fields=[
        {"id": "title", "label": "Title", "type": "text"}, {"id": "body", "label": "Body", "type": "richtext"}])
    html = entry_make(kind, title="<b>kept</b> in a text field", body="<p>Orders ship <em>fast</em>.</p>")
    markdown = entry_make(kind, title="Markdown", body="Orders ship **fast** (a < b).")
    try:
        migrate([("cms", "0015_entry_ws_sample")])
    finally:
        migrate_to_latest()

    with connection.cursor() as cursor:
        cursor.execute("SELECT id, data FROM cms_entry WHERE id IN (%s, %s)", [html.pk, markdown.pk])
        data = {pk: value for pk, value in cursor.fetchall()}
    data = {pk: value if isinstance(value, dict) else json.loads(value) for pk, value in data.items()}
    assert data[html.pk] == {"title": "<b>kept</b> in a text field", "body": "Orders ship *fast*."}
    assert data[markdown.pk]["body"] == "Orders ship **fast** (a < b)."
