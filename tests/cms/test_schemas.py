"""Entry data and field schemas are validated, and errors name the field."""

import pytest
from django.core.exceptions import ValidationError

from cms import services
from cms.models import Entry
from cms.schemas import content_type_fields_validate, entry_data_validate
from tests.factories import ARTICLE_FIELDS


def test_unknown_field_is_named_in_the_error():
    with pytest.raises(ValidationError) as exc:
        entry_data_validate(ARTICLE_FIELDS, {"title": "Hi", "subtitle": "x"})
    assert "subtitle" in exc.value.message_dict
    assert "Unknown field 'subtitle'" in exc.value.message_dict["subtitle"][0]


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ("title", 42, "must be text"),
        ("version", "3", "must be a number"),
        ("version", True, "must be a number"),
        ("featured", "yes", "must be true or false"),
        ("published_on", "30/11/2026", "must be a date"),
    ],
)
def test_wrong_type_names_the_field(field, value, expected):
    with pytest.raises(ValidationError) as exc:
        entry_data_validate(ARTICLE_FIELDS, {"title": "Hi", field: value})
    assert list(exc.value.message_dict) == [field]
    assert expected in exc.value.message_dict[field][0]


def test_missing_required_field_is_reported():
    with pytest.raises(ValidationError) as exc:
        entry_data_validate(ARTICLE_FIELDS, {"body": "no title"})
    assert "title" in exc.value.message_dict


def test_every_problem_is_reported_at_once():
    with pytest.raises(ValidationError) as exc:
        entry_data_validate(ARTICLE_FIELDS, {"title": 1, "version": "x", "nope": 1})
    assert set(exc.value.message_dict) == {"title", "version", "nope"}


def test_valid_data_drops_nulls():
    assert entry_data_validate(ARTICLE_FIELDS, {"title": "Hi", "body": None, "version": 2.5}) == {
        "title": "Hi",
        "version": 2.5,
    }


def test_field_schema_rejects_unknown_type():
    with pytest.raises(ValidationError, match="“rgb” is not a field type"):
        content_type_fields_validate([{"id": "colour", "label": "Colour", "type": "rgb"}])


def test_field_schema_rejects_duplicate_ids():
    with pytest.raises(ValidationError, match="Two fields have the id “a”"):
        content_type_fields_validate([{"id": "a", "type": "text"}, {"id": "a", "type": "number"}])


def test_entry_create_with_bad_data_stores_nothing(article_type):
    with pytest.raises(ValidationError):
        services.entry_create(content_type=article_type, data={"title": "ok", "version": "three"})
    assert Entry.objects.count() == 0


# --- tags ----------------------------------------------------------------------------------------

TAGGED = [{"id": "title", "label": "Title", "type": "text", "required": True},
          {"id": "tags", "label": "Tags", "type": "tags", "required": False}]


def test_tags_are_a_list_of_strings_trimmed():
    assert entry_data_validate(TAGGED, {"title": "Hi", "tags": [" new", "sale "]}) == {
        "title": "Hi", "tags": ["new", "sale"]}


def test_an_empty_tags_list_is_not_stored():
    assert entry_data_validate(TAGGED, {"title": "Hi", "tags": []}) == {"title": "Hi"}


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("new,sale", "must be a list of tags"),
        (["new", 3], "tag 2 must be text"),
        (["new", ""], "tag 2 is empty"),
        (["x" * 65], "a tag has at most 64"),
        (["a,b"], "must not contain a comma"),
        (["new", "new"], "'new' is given twice"),
        ([f"t{i}" for i in range(51)], "the limit is 50"),
    ],
)
def test_a_bad_tags_value_names_the_field_and_the_tag(value, expected):
    with pytest.raises(ValidationError) as exc:
        entry_data_validate(TAGGED, {"title": "Hi", "tags": value})
    assert list(exc.value.message_dict) == ["tags"]
    assert expected in exc.value.message_dict["tags"][0]


@pytest.mark.parametrize(("fields", "expected"), [
    ([{"type": "text"}], "Field 1 has no id. Give it one, such as “title”"),
    ([{"id": None, "type": "text"}], "Field 1 has no id."),
    ([{"id": "a"}], "Field “a”: “” is not a field type. Choose one of: text (Text)"),
    ("{}", "The fields must be a list"),
])
def test_schema_errors_are_plain_language(fields, expected):
    with pytest.raises(ValidationError) as exc:
        content_type_fields_validate(fields)
    message = exc.value.message_dict["fields"][0]
    assert expected in message
    assert "None" not in message and "fields[" not in message


def test_more_facets_than_the_search_page_shows_are_refused_naming_what_counts():
    from search.contract.option_fields import MAX_FACETS
    from cms.schemas import MAX_FACET_FIELDS

    assert MAX_FACET_FIELDS == MAX_FACETS - 2  # content type and status are the other two
    fields = [{"id": f"f{i}", "type": "tags", "facet": True} for i in range(MAX_FACET_FIELDS)]
    assert len(content_type_fields_validate(fields)) == MAX_FACET_FIELDS
    with pytest.raises(ValidationError) as exc:
        content_type_fields_validate([*fields, {"id": "extra", "type": "boolean", "facet": True}])
    assert exc.value.message_dict["fields"] == [
        "4 fields are marked facet (f0, f1, f2, extra); at most 3 may be. The search page shows 5 facets, and "
        "content type and status always take two of them."]


def test_the_tags_type_is_accepted_in_a_schema():
    assert content_type_fields_validate([{"id": "tags", "label": "Tags", "type": "tags"}])[0]["type"] == "tags"
