"""The entry form is built from the content type's schema: a field per schema field, the schema's
errors beside their field, the content type chosen first, unknown keys kept; the filter fits the user."""

from __future__ import annotations

import re

import pytest

from cms import services
from cms.models import Entry, Role
from cms.schemas import entry_data_validate
from tests.factories import ContentTypeFactory, MembershipFactory, UserFactory, WorkspaceFactory, entry_make

EVERY_TYPE = [
    {"id": "title", "label": "Title", "type": "text", "required": True},
    {"id": "body", "label": "Body", "type": "richtext"},
    {"id": "price", "label": "Price", "type": "number", "required": True},
    {"id": "in_stock", "label": "In stock", "type": "boolean"},
    {"id": "released", "label": "Released", "type": "date"},
    {"id": "related", "label": "Related entry", "type": "reference"},
    {"id": "tags", "label": "Tags", "type": "tags"},
]


@pytest.fixture
def editor_client(client, editor):
    client.force_login(editor)
    return client


@pytest.fixture
def product_type(workspace):
    return ContentTypeFactory(workspace=workspace, api_id="product", name="Product", fields=EVERY_TYPE)


def add_url(content_type) -> str:
    return f"/admin/cms/entry/add/?content_type={content_type.pk}"


def form_of(response):
    return response.context["adminform"].form


def test_add_asks_for_the_content_type_first(editor_client, product_type, article_type):
    response = editor_client.get("/admin/cms/entry/add/")
    assert response.templates[0].name == "admin/cms/entry/choose_content_type.html"
    assert set(form_of(response).fields) == {"content_type"}
    assert set(form_of(response).fields["content_type"].queryset) == {product_type, article_type}


def test_form_has_one_field_per_schema_field_in_order_with_its_label(editor_client, product_type):
    form = form_of(editor_client.get(add_url(product_type)))
    schema = [name for name in form.fields if name.startswith("data__")]
    assert schema == [f"data__{f['id']}" for f in EVERY_TYPE]
    assert [form.fields[name].label for name in schema] == [f["label"] for f in EVERY_TYPE]
    assert (form.fields["data__title"].required, form.fields["data__body"].required) == (True, False)
    assert form.fields["data__body"].widget.__class__.__name__ == "MarkdownTextarea"  # a Textarea EasyMDE enhances
    assert form.fields["data__released"].widget.input_type == "date"


def test_every_field_type_is_saved_as_the_schema_wants(editor_client, product_type, workspace):
    target = entry_make(product_type, title="Other", price=1)
    response = editor_client.post(add_url(product_type), {
        "content_type": product_type.pk, "status": "published", "data__title": "Tea cup",
        "data__body": "<p>Arita</p>", "data__price": "２４００", "data__in_stock": "true",
        "data__released": "2026-11-01", "data__related": str(target.pk), "data__tags": "arita, porcelain ,",
    })
    assert response.status_code == 302, form_of(response).errors
    entry = Entry.objects.exclude(pk=target.pk).get()
    assert entry.data == {"title": "Tea cup", "body": "<p>Arita</p>", "price": 2400, "in_stock": True,
                          "released": "2026-11-01", "related": target.pk, "tags": ["arita", "porcelain"]}
    assert entry.workspace_id == workspace.pk
    assert form_of(editor_client.get(f"/admin/cms/entry/{entry.pk}/change/"))["data__tags"].value() == "arita, porcelain"


def test_a_repeated_tag_is_an_error_on_the_tags_field(editor_client, product_type):
    response = editor_client.post(add_url(product_type), {
        "content_type": product_type.pk, "status": "draft", "data__title": "Cup", "data__price": "1",
        "data__tags": "cup, cup",
    })
    assert form_of(response).errors["data__tags"] == ["Tags (tags) tag 'cup' is given twice."]
    assert not Entry.objects.exists()


def test_bad_number_and_missing_required_field_are_errors_on_their_fields(editor_client, product_type):
    response = editor_client.post(add_url(product_type), {
        "content_type": product_type.pk, "status": "draft", "data__title": "", "data__price": "12,5",
    })
    errors = form_of(response).errors
    assert errors["data__price"] == ["Price (price) must be a number, such as 12 or 12.5 (with a dot for decimals)."]
    assert errors["data__title"] == ["This field is required."]
    assert "__all__" not in errors
    assert not Entry.objects.exists()


def test_a_schema_change_changes_the_form(editor_client, product_type):
    services.content_type_update(content_type=product_type, name="Product",
                                 fields=[*EVERY_TYPE, {"id": "colour", "label": "Colour", "type": "text"}],
                                 semantic_search_enabled=False)
    assert "data__colour" in form_of(editor_client.get(add_url(product_type))).fields


def test_keys_unknown_to_the_schema_are_shown_and_survive_a_save(editor_client, product_type):
    entry = entry_make(product_type, title="Old", price=3)
    Entry.objects.filter(pk=entry.pk).update(data={"title": "Old", "price": 3, "legacy_sku": "A-1", "n": [1, 2]})
    page = editor_client.get(f"/admin/cms/entry/{entry.pk}/change/")
    html = page.content.decode()
    assert "Not in the schema" in html and "legacy_sku" in html and "A-1" in html
    response = editor_client.post(f"/admin/cms/entry/{entry.pk}/change/", {
        "status": "published", "data__title": "New", "data__price": "4",
        "legacy_sku": "forged", "kept__legacy_sku": "forged",
    })
    assert response.status_code == 302, form_of(response).errors
    entry.refresh_from_db()
    assert entry.data == {"title": "New", "price": 4, "legacy_sku": "A-1", "n": [1, 2]}


def test_an_unknown_key_may_stay_but_not_be_added_or_changed():
    fields = [{"id": "title", "label": "Title", "type": "text", "required": False}]
    stored = {"title": "a", "old": 1}
    assert entry_data_validate(fields, {"title": "b", "old": 1}, stored=stored) == {"title": "b", "old": 1}
    for data in ({"title": "b", "old": 2}, {"title": "b", "new": 1}):
        with pytest.raises(Exception, match="Unknown field"):
            entry_data_validate(fields, data, stored=stored)


def test_a_foreign_content_type_in_the_query_string_is_refused(editor_client, article_type, other_workspace):
    theirs = ContentTypeFactory(workspace=other_workspace, api_id="secret", name="Secret")
    response = editor_client.get(add_url(theirs))
    assert "Select a valid choice" in response.content.decode()
    assert "data__title" not in form_of(response).fields
    assert "Secret" not in response.content.decode()


def test_viewer_sees_the_form_disabled_and_cannot_save(client, product_type):
    viewer = UserFactory(username="viewer")
    MembershipFactory(user=viewer, workspace=product_type.workspace, role=Role.VIEWER)
    entry = entry_make(product_type, title="Readable", price=5)
    client.force_login(viewer)
    response = client.get(f"/admin/cms/entry/{entry.pk}/change/")
    form = form_of(response)
    assert all(form.fields[name].disabled for name in form.fields if name.startswith("data__"))
    assert 'name="data__title" value="Readable"' in response.content.decode()
    assert 'name="_save"' not in response.content.decode()
    assert client.post(f"/admin/cms/entry/{entry.pk}/change/", {"status": "draft", "data__title": "X",
                                                                 "data__price": "1"}).status_code == 403


def test_editor_of_another_workspace_gets_404(client, product_type):
    outsider = UserFactory(username="outsider")
    MembershipFactory(user=outsider, workspace=WorkspaceFactory(slug="elsewhere"), role=Role.EDITOR)
    entry = entry_make(product_type, title="Private", price=5)
    client.force_login(outsider)
    response = client.get(f"/admin/cms/entry/{entry.pk}/change/")
    assert response.status_code == 404
    assert "Private" not in response.content.decode()
    missing = client.get("/admin/cms/entry/999999/change/")
    assert missing.status_code == 404 and missing.content == response.content  # foreign looks like missing


# --- the changelist's content-type filter ---------------------------------------------------

def _two_workspaces_with_types():
    acme, globex = WorkspaceFactory(slug="acme", name="Acme"), WorkspaceFactory(slug="globex", name="Globex")
    for ws in (acme, globex):
        for api_id in ("note", "page"):
            entry_make(ContentTypeFactory(workspace=ws, api_id=api_id, name=api_id.title()), title=f"{ws.slug} {api_id}")
    return acme, globex


def filter_items(html: str) -> list[str]:
    block = html[html.index('id="content-type-filter"'):]
    block = block[:block.index("</ul>")]
    return [re.sub(r"<[^>]+>", "", item).strip() for item in re.findall(r"<li[^>]*>(.*?)</li>", block, re.S)]


def test_filter_groups_content_types_under_their_workspace(client, superuser):
    _two_workspaces_with_types()
    client.force_login(superuser)
    items = filter_items(client.get("/admin/cms/entry/").content.decode())
    assert items == ["All", "Acme", "Note (note)", "Page (page)", "Globex", "Note (note)", "Page (page)"]


def test_filter_lists_only_the_filtered_workspaces_types(client, superuser):
    acme, _ = _two_workspaces_with_types()
    client.force_login(superuser)
    items = filter_items(client.get("/admin/cms/entry/", {"workspace__id__exact": acme.pk}).content.decode())
    assert items == ["All", "Note (note)", "Page (page)"]


def test_filter_shows_a_member_only_their_workspaces_types(client, db):
    acme, _ = _two_workspaces_with_types()
    user = UserFactory(username="member")
    MembershipFactory(user=user, workspace=acme, role=Role.VIEWER)
    client.force_login(user)
    html = client.get("/admin/cms/entry/").content.decode()
    assert filter_items(html) == ["All", "Acme", "Note (note)", "Page (page)"]
    assert "Globex" not in html
