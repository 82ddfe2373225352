"""Admin forms show the services' validation errors beside their fields, never a 500."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from cms.models import Asset, ContentType, Entry, Role
from tests.factories import ContentTypeFactory, MembershipFactory, UserFactory, WorkspaceFactory, entry_make


@pytest.fixture
def editor_client(client, editor):
    client.force_login(editor)
    return client


def test_bad_content_type_schema_is_a_form_error(editor_client, workspace):
    response = editor_client.post(
        "/admin/cms/contenttype/add/",
        {"workspace": workspace.pk, "api_id": "bad", "name": "Bad", "fields": json.dumps([{"id": "Bad Id", "type": "text"}])},
    )
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["fields"] == [
        "Field 1: the id “Bad Id” must begin with a lowercase letter and hold only lowercase letters, digits and _ "
        "(such as “release_date”), at most 64."
    ]
    assert not ContentType.objects.filter(api_id="bad").exists()


def test_bad_schema_on_change_is_a_form_error(editor_client, article_type):
    response = editor_client.post(
        f"/admin/cms/contenttype/{article_type.pk}/change/",
        {"name": "Article", "fields": json.dumps([{"id": "title", "type": "colour"}])},
    )
    assert response.status_code == 200
    assert "“colour” is not a field type. Choose one of: text (Text), richtext (Rich text)" in response.context["adminform"].form.errors["fields"][0]
    article_type.refresh_from_db()
    assert article_type.fields[0]["type"] == "text"


# The field builder's JSON box goes through the API's one JSON check (cms.json_input): each of
# these was a 500 (JSONB's DataError, OverflowError in cms.schemas, RecursionError).
BUILDER_JSON_REFUSED = [
    ('[{"id": "title", "label": "Ti\\u0000tle", "type": "text"}]', "json_invalid_character"),
    ('[{"id": "title", "label": "\\ud800", "type": "text"}]', "json_invalid_character"),
    ('[{"id": "title", "label": "T", "type": "text", "\\ud800": 1}]', "json_invalid_character"),
    ('[{"id": "price", "label": "Price", "type": "number", "facet": true, "facet_ranges": [1, ' + "9" * 400 + ']}]',
     "a number facet needs its ranges"),  # cms.schemas' refusal, which has no code of its own
    ("[" * 5000 + "]" * 5000, "json_too_deep"),
    ('[{"id": "t", "label": "T", "type": "text", "x": ' + "[" * 5000 + "]" * 5000 + "}]", "json_too_deep"),
]


@pytest.mark.parametrize(("text", "code"), BUILDER_JSON_REFUSED, ids=["nul", "surrogate", "surrogate-key",
                                                                       "huge-integer", "deep", "deep-inside"])
def test_field_builder_json_the_api_would_refuse_is_a_form_error_with_its_code(editor_client, workspace, text,
                                                                                code):
    response = editor_client.post("/admin/cms/contenttype/add/",
                                  {"workspace": workspace.pk, "api_id": "bad", "name": "Bad", "fields": text})
    assert response.status_code == 200
    form = response.context["adminform"].form
    [error] = form.errors.as_data()["fields"]
    assert error.code == code if code.startswith("json_") else code in error.message % (error.params or {}), error
    assert not ContentType.objects.filter(api_id="bad").exists()


def test_a_reference_past_any_entry_id_is_refused_as_out_of_range(editor_client, workspace):
    kind = ContentTypeFactory(workspace=workspace, api_id="linked", fields=[
        {"id": "title", "label": "Title", "type": "text", "required": True},
        {"id": "related", "label": "Related", "type": "reference"}])
    response = editor_client.post("/admin/cms/entry/add/", {"content_type": kind.pk, "status": "draft",
                                                            "data__title": "T", "data__related": str(10**30)})
    assert response.status_code == 200
    assert "(related) is out of range: an entry id is at most 9223372036854775807" in response.content.decode()
    assert not Entry.objects.exists()


def test_bad_entry_data_is_a_form_error_naming_the_field(editor_client, article_type):
    response = editor_client.post(
        "/admin/cms/entry/add/",
        {"content_type": article_type.pk, "status": "draft", "data__title": "T", "data__version": "two"},
    )
    assert response.status_code == 200
    assert "(version) must be a number, such as 12 or 12.5" in response.content.decode()
    assert "not str" not in response.content.decode()
    assert not Entry.objects.exists()


def test_non_utf8_text_upload_is_a_form_error(editor_client, workspace):
    response = editor_client.post(
        "/admin/cms/asset/add/",
        {"workspace": workspace.pk, "upload": SimpleUploadedFile("sjis.txt", "返品".encode("shift_jis"), "text/plain")},
    )
    assert response.status_code == 200
    assert "is not valid UTF-8" in response.context["adminform"].form.errors["upload"][0]
    assert not Asset.objects.exists()


def test_text_upload_is_stored_with_its_text(editor_client, workspace):
    response = editor_client.post(
        "/admin/cms/asset/add/",
        {"workspace": workspace.pk, "upload": SimpleUploadedFile("faq.md", "# 返品\n本文".encode(), "text/markdown")},
    )
    assert response.status_code == 302
    assert Asset.objects.get().text == "# 返品\n本文"


class ReadProbe(SimpleUploadedFile):
    """An upload that records every read, to show how much of it the form consumed."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.reads: list[int | None] = []
        self.consumed = 0

    def read(self, size=-1):
        self.reads.append(size)
        data = super().read(size)
        self.consumed += len(data)
        return data


def test_oversized_upload_is_a_form_error_read_in_bounded_chunks(editor_client, workspace, settings):
    settings.ASSET_MAX_BYTES = 200_000
    probe = ReadProbe("big.txt", b"x" * (200_000 + 1), "text/plain")
    response = editor_client.post("/admin/cms/asset/add/", {"workspace": workspace.pk, "upload": probe})
    assert response.status_code == 200
    error = response.context["adminform"].form.errors["upload"][0]
    assert error == "big.txt is over the limit of 200,000 bytes (ASSET_MAX_BYTES)."
    assert not Asset.objects.exists()
    assert not list(settings.MEDIA_ROOT.rglob("*")) if settings.MEDIA_ROOT.exists() else True


def test_form_stops_reading_an_upload_one_byte_past_the_limit(workspace, settings, rf, editor):
    from cms.admin.content import AssetForm

    settings.ASSET_MAX_BYTES = 200_000
    probe = ReadProbe("big.txt", b"x" * 5_000_000, "text/plain")
    form = AssetForm(data={"workspace": workspace.pk}, files={"upload": probe})
    assert not form.is_valid()
    assert probe.consumed == 200_001
    assert all(size is not None and 0 < size <= 64 * 1024 for size in probe.reads)


def test_content_type_filter_names_the_workspace(client, superuser):
    for slug in ("acme", "globex"):
        note = ContentTypeFactory(workspace=WorkspaceFactory(slug=slug, name=slug.title()), api_id="note", name="Note")
        entry_make(note, title=f"{slug} note")
    client.force_login(superuser)
    page = client.get("/admin/cms/entry/").content.decode()
    # Grouped: each workspace's name heads its types (cms.admin.entries.ContentTypeListFilter).
    assert 'data-workspace-group="Acme"' in page and 'data-workspace-group="Globex"' in page


def test_content_type_filter_lists_only_the_users_workspaces(client, db):
    acme, globex = WorkspaceFactory(slug="acme", name="Acme"), WorkspaceFactory(slug="globex", name="Globex")
    for ws in (acme, globex):
        entry_make(ContentTypeFactory(workspace=ws, api_id="note", name="Note"), title="A note")
    entry_make(ContentTypeFactory(workspace=acme, api_id="page", name="Page"), title="A page")  # a filter needs two
    user = UserFactory(username="member")
    MembershipFactory(user=user, workspace=acme, role=Role.VIEWER)
    client.force_login(user)
    page = client.get("/admin/cms/entry/").content.decode()
    assert 'data-workspace-group="Acme"' in page and "Note (note)" in page and "Page (page)" in page
    assert "Globex" not in page


def test_upload_spooled_to_disk_is_refused_past_the_limit(editor_client, workspace, settings):
    settings.ASSET_MAX_BYTES = 100_000
    settings.FILE_UPLOAD_MAX_MEMORY_SIZE = 10_000  # the request goes to the capped temporary-file handler
    upload = SimpleUploadedFile("big.bin", b"x" * 1_000_000, "application/octet-stream")
    response = editor_client.post("/admin/cms/asset/add/", {"workspace": workspace.pk, "upload": upload})
    assert response.context["adminform"].form.errors["upload"] == [
        "big.bin is over the limit of 100,000 bytes (ASSET_MAX_BYTES)."
    ]
    assert not Asset.objects.exists()
