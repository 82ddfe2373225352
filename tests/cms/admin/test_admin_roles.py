"""Admin writes check the caller's role in the workspace being written, new values included."""

from __future__ import annotations

import json

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME

from cms.models import Asset, ContentType, Entry, Role, Workspace
from tests.factories import ContentTypeFactory, MembershipFactory, UserFactory, WorkspaceFactory, entry_make


@pytest.fixture
def acme(db):
    return WorkspaceFactory(slug="acme", name="Acme")


@pytest.fixture
def globex(db):
    return WorkspaceFactory(slug="globex", name="Globex")


@pytest.fixture
def split_user(acme, globex):
    """Editor in acme, only a viewer in globex."""
    user = UserFactory(username="split")
    MembershipFactory(user=user, workspace=acme, role=Role.EDITOR)
    MembershipFactory(user=user, workspace=globex, role=Role.VIEWER)
    return user


@pytest.fixture
def acme_note(acme):
    return ContentTypeFactory(workspace=acme, api_id="note", name="Note")


@pytest.fixture
def globex_note(globex):
    return ContentTypeFactory(workspace=globex, api_id="note", name="Note")


@pytest.fixture
def split_client(client, split_user):
    client.force_login(split_user)
    return client


FIELDS = json.dumps([{"id": "title", "label": "Title", "type": "text"}])


def entry_post(content_type: ContentType, title: str) -> dict:
    # The entry form has one input per schema field (cms/admin/entries/form.py).
    return {"content_type": content_type.pk, "status": "draft", "data__title": title}


def test_add_entry_into_a_workspace_where_the_user_only_views_is_refused(split_client, globex_note):
    response = split_client.post("/admin/cms/entry/add/", entry_post(globex_note, "Planted"))
    assert response.status_code == 200  # the form again, with an error
    assert "Select a valid choice" in response.content.decode()
    assert not Entry.objects.filter(workspace=globex_note.workspace).exists()


def test_add_entry_into_a_workspace_where_the_user_edits_succeeds(split_client, acme_note):
    response = split_client.post("/admin/cms/entry/add/", entry_post(acme_note, "Mine"))
    assert response.status_code == 302
    assert Entry.objects.get().workspace_id == acme_note.workspace_id


def test_entry_form_offers_only_content_types_of_writable_workspaces(split_client, acme_note, globex_note):
    form = split_client.get("/admin/cms/entry/add/").context["adminform"].form
    assert list(form.fields["content_type"].queryset) == [acme_note]


def test_entry_content_type_cannot_be_switched_to_another_workspace(split_client, acme_note, globex_note):
    entry = entry_make(acme_note, title="Stays home")
    split_client.post(f"/admin/cms/entry/{entry.pk}/change/", {**entry_post(globex_note, "Moved"), "status": "published"})
    entry.refresh_from_db()
    assert (entry.content_type_id, entry.workspace_id) == (acme_note.pk, acme_note.workspace_id)


def test_entry_content_type_is_read_only_on_change(split_client, acme_note):
    entry = entry_make(acme_note, title="Typed")
    form = split_client.get(f"/admin/cms/entry/{entry.pk}/change/").context["adminform"].form
    assert "content_type" not in form.fields


def test_viewer_cannot_change_an_entry(split_client, globex_note):
    entry = entry_make(globex_note, title="Theirs")
    response = split_client.post(f"/admin/cms/entry/{entry.pk}/change/", entry_post(globex_note, "Defaced"))
    assert response.status_code == 403
    entry.refresh_from_db()
    assert entry.data["title"] == "Theirs"


def test_viewer_can_view_an_entry(split_client, globex_note):
    entry = entry_make(globex_note, title="Readable")
    response = split_client.get(f"/admin/cms/entry/{entry.pk}/change/")
    assert response.status_code == 200 and "Readable" in response.content.decode()


def bulk(client, url: str, action: str, ids: list[int], **extra) -> object:
    return client.post(url, {"action": action, ACTION_CHECKBOX_NAME: ids, "post": "yes", **extra}, follow=True)


def test_bulk_delete_in_a_viewer_workspace_is_refused(split_client, globex_note):
    entry = entry_make(globex_note, title="Theirs")
    response = bulk(split_client, "/admin/cms/entry/", "delete_selected", [entry.pk])
    assert Entry.objects.filter(pk=entry.pk).exists()
    assert "Globex" in response.content.decode()  # the refusal names the workspace


def test_bulk_action_across_workspaces_is_refused_whole(split_client, acme_note, globex_note):
    mine, theirs = entry_make(acme_note, title="Mine"), entry_make(globex_note, title="Theirs")
    bulk(split_client, "/admin/cms/entry/", "delete_selected", [mine.pk, theirs.pk])
    assert Entry.objects.filter(pk__in=[mine.pk, theirs.pk]).count() == 2


def test_bulk_delete_with_select_across_is_refused_when_a_row_is_read_only(split_client, acme_note, globex_note):
    mine, _ = entry_make(acme_note, title="Mine"), entry_make(globex_note, title="Theirs")
    # Django runs an action only with a row ticked; select_across then widens it to every row.
    response = bulk(split_client, "/admin/cms/entry/", "delete_selected", [mine.pk], select_across="1")
    assert Entry.objects.count() == 2
    assert "Nothing was done" in response.content.decode()  # refused whole, naming the read-only workspace


def test_bulk_delete_with_select_across_deletes_when_every_row_is_editable(split_client, acme_note):
    mine, _ = entry_make(acme_note, title="Mine"), entry_make(acme_note, title="Also mine")
    bulk(split_client, "/admin/cms/entry/", "delete_selected", [mine.pk], select_across="1")
    assert Entry.objects.count() == 0


def test_bulk_delete_in_an_editor_workspace_succeeds(split_client, acme_note):
    entry = entry_make(acme_note, title="Mine")
    bulk(split_client, "/admin/cms/entry/", "delete_selected", [entry.pk])
    assert not Entry.objects.filter(pk=entry.pk).exists()


def test_add_content_type_into_a_viewer_workspace_is_refused(split_client, globex):
    response = split_client.post(
        "/admin/cms/contenttype/add/",
        {"workspace": globex.pk, "api_id": "planted", "name": "Planted", "fields": FIELDS},
    )
    assert response.status_code == 200
    assert not ContentType.objects.filter(workspace=globex).exists()


def test_add_content_type_into_an_editor_workspace_succeeds(split_client, acme):
    response = split_client.post(
        "/admin/cms/contenttype/add/", {"workspace": acme.pk, "api_id": "page", "name": "Page", "fields": FIELDS}
    )
    assert response.status_code == 302
    assert ContentType.objects.get(api_id="page").workspace_id == acme.pk


def test_content_type_workspace_choices_are_writable_workspaces(split_client, acme):
    form = split_client.get("/admin/cms/contenttype/add/").context["adminform"].form
    assert list(form.fields["workspace"].queryset) == [acme]


def test_content_type_workspace_and_api_id_are_read_only_on_change(split_client, acme_note, globex):
    split_client.post(
        f"/admin/cms/contenttype/{acme_note.pk}/change/",
        {"workspace": globex.pk, "api_id": "moved", "name": "Renamed", "fields": json.dumps(acme_note.fields)},
    )
    acme_note.refresh_from_db()
    assert (acme_note.workspace_id, acme_note.api_id, acme_note.name) == (acme_note.workspace_id, "note", "Renamed")
    assert acme_note.workspace.slug == "acme"


def test_bulk_delete_of_a_viewer_workspace_content_type_is_refused(split_client, globex_note):
    bulk(split_client, "/admin/cms/contenttype/", "delete_selected", [globex_note.pk])
    assert ContentType.objects.filter(pk=globex_note.pk).exists()


def test_upload_asset_into_a_viewer_workspace_is_refused(split_client, globex):
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = split_client.post(
        "/admin/cms/asset/add/", {"workspace": globex.pk, "upload": SimpleUploadedFile("a.txt", b"planted")}
    )
    assert response.status_code == 200
    assert not Asset.objects.exists()


def test_editor_cannot_change_the_workspace_itself(split_client, acme):
    response = split_client.post(f"/admin/cms/workspace/{acme.pk}/change/", {"slug": "acme", "name": "Renamed"})
    assert response.status_code == 403
    assert Workspace.objects.get(pk=acme.pk).name == "Acme"


def test_owner_changes_the_workspace(client, acme):
    owner = UserFactory(username="boss")
    MembershipFactory(user=owner, workspace=acme, role=Role.OWNER)
    client.force_login(owner)
    # The whole form, as the browser posts it (the search settings keep their values).
    client.post(f"/admin/cms/workspace/{acme.pk}/change/", {
        "slug": "acme", "name": "Renamed", "typo_one_edit_length": 5, "typo_two_edits_length": 9,
        "search_log_enabled": "on"})
    assert Workspace.objects.get(pk=acme.pk).name == "Renamed"


def test_superuser_adds_entries_anywhere(client, superuser, globex_note):
    client.force_login(superuser)
    assert client.post("/admin/cms/entry/add/", entry_post(globex_note, "Root's")).status_code == 302
    assert Entry.objects.get().workspace_id == globex_note.workspace_id


def test_viewer_only_user_sees_no_add_button(client, globex_note):
    viewer = UserFactory(username="looker")
    MembershipFactory(user=viewer, workspace=globex_note.workspace, role=Role.VIEWER)
    client.force_login(viewer)
    assert client.get("/admin/cms/entry/add/").status_code == 403
    assert client.get("/admin/cms/entry/").status_code == 200
