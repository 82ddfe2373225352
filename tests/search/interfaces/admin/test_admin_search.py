"""The entry admin's search box runs search_entries in the user's workspaces."""

from __future__ import annotations

import re

from tests.factories import ContentTypeFactory, entry_make


def test_admin_search_finds_entry_by_value(client, editor, article_type):
    entry_make(article_type, title="返品ポリシー")
    entry_make(article_type, title="配送について")
    client.force_login(editor)
    page = client.get("/admin/cms/entry/", {"q": "返品"}).content.decode()
    assert "返品ポリシー" in page and "配送について" not in page


def test_admin_search_does_not_match_field_ids(client, editor, article_type):
    entry_make(article_type, title="Quarterly report")
    client.force_login(editor)
    assert "Quarterly report" not in client.get("/admin/cms/entry/", {"q": "title"}).content.decode()


def test_admin_search_stays_in_the_editors_workspaces(client, editor, article_type, other_workspace):
    entry_make(ContentTypeFactory(workspace=other_workspace, api_id="article"), title="Globex refund plan")
    client.force_login(editor)
    assert "Globex refund plan" not in client.get("/admin/cms/entry/", {"q": "refund"}).content.decode()


def test_admin_search_reports_bad_input(client, editor, workspace):
    client.force_login(editor)
    page = client.get("/admin/cms/entry/", {"q": "a" * 501}, follow=True).content.decode()
    assert "the limit is 500" in page


def test_admin_workspace_filter_lists_only_the_editors_workspaces(client, editor, article_type, other_workspace):
    entry_make(ContentTypeFactory(workspace=other_workspace, api_id="article"), title="Globex plan")
    entry_make(article_type, title="Acme plan")
    client.force_login(editor)
    assert "Workspace globex" not in client.get("/admin/cms/entry/").content.decode()


def test_admin_search_within_a_chosen_workspace(client, superuser, article_type, other_workspace):
    entry_make(ContentTypeFactory(workspace=other_workspace, api_id="article"), title="Globex refund")
    entry_make(article_type, title="Acme refund")
    client.force_login(superuser)
    page = client.get("/admin/cms/entry/", {"q": "refund", "workspace__id__exact": article_type.workspace_id})
    assert ("Acme refund" in page.content.decode(), "Globex refund" in page.content.decode()) == (True, False)


def test_admin_search_shows_each_hits_snippet_highlighted(client, editor, article_type):
    entry_make(article_type, title="Shipping", body="<p>Our REFUND rules.</p>")
    entry_make(article_type, title="返品ポリシー")
    client.force_login(editor)
    page = client.get("/admin/cms/entry/", {"q": "refund"}).content.decode()
    assert 'class="column-match"' in page
    assert re.search(r'<span class="search-snippet" data-field="body"[^>]*>Our <mark>REFUND</mark> rules.</span>', page)
    page = client.get("/admin/cms/entry/", {"q": "返品"}).content.decode()
    assert re.search(r'<span class="search-snippet" data-field="title"[^>]*><mark>返品</mark>ポリシー</span>', page)


def test_admin_list_without_a_search_has_no_match_column(client, editor, article_type):
    entry_make(article_type, title="Shipping")
    client.force_login(editor)
    assert 'column-match' not in client.get("/admin/cms/entry/").content.decode()
