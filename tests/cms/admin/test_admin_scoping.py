"""The admin shows an editor only the workspaces they belong to, and their content."""

import pytest

from tests.factories import ContentTypeFactory, entry_make


@pytest.fixture
def two_workspaces_of_entries(workspace, other_workspace):
    mine = ContentTypeFactory(workspace=workspace, api_id="article")
    theirs = ContentTypeFactory(workspace=other_workspace, api_id="article")
    return entry_make(mine, title="Acme quarterly report"), entry_make(theirs, title="Globex secret plan")


def test_editor_sees_only_their_workspace_entries(client, editor, two_workspaces_of_entries):
    client.force_login(editor)
    page = client.get("/admin/cms/entry/")
    assert page.status_code == 200
    assert "Acme quarterly report" in page.content.decode()
    assert "Globex secret plan" not in page.content.decode()


def test_editor_cannot_open_another_workspace_entry(client, editor, two_workspaces_of_entries):
    _, theirs = two_workspaces_of_entries
    client.force_login(editor)
    response = client.get(f"/admin/cms/entry/{theirs.pk}/change/", follow=True)
    assert "Globex secret plan" not in response.content.decode()


def test_editor_workspace_list_is_scoped(client, editor, workspace, other_workspace):
    client.force_login(editor)
    page = client.get("/admin/cms/workspace/").content.decode()
    assert "acme" in page
    assert "globex" not in page


def test_japanese_entry_is_shown_in_admin(client, superuser, article_type):
    entry_make(article_type, title="返品・返金について")
    client.force_login(superuser)
    assert "返品・返金について" in client.get("/admin/cms/entry/").content.decode()
