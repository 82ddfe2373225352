"""One set per one-way source, no multi-way set another holds whole, a one-way set whose only term
is its source in another width refused, and a delete that asks first (issue 52, item 5): the
service refuses, so the admin, the API and synonyms_import refuse alike."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command

from cms import services
from cms.models import SynonymSet

pytestmark = pytest.mark.django_db


@pytest.fixture
def walkparcel(workspace):
    return services.synonym_set_create(workspace=workspace, kind="one_way", source="walkparcel", terms=["locker"])


def refusal_code(**kwargs) -> str:
    with pytest.raises(ValidationError) as refused:
        services.synonym_set_create(**kwargs)
    return refused.value.code


def test_a_second_one_way_set_for_the_same_source_is_refused(workspace, walkparcel):
    assert refusal_code(workspace=workspace, kind="one_way", source="WalkParcel",
                        terms=["locker", "cubby"]) == "synonym_source_taken"
    assert SynonymSet.objects.for_workspace(workspace).count() == 1


def test_a_multi_way_set_another_holds_whole_is_refused(workspace):
    services.synonym_set_create(workspace=workspace, terms=["refund", "money back", "reimbursement"])
    assert refusal_code(workspace=workspace, terms=["Money back", "refund"]) == "synonym_set_duplicate"
    services.synonym_set_create(workspace=workspace, terms=["refund", "store credit"])  # adds a term: kept


def test_a_one_way_set_whose_term_is_its_source_in_full_width_is_refused(workspace):
    assert refusal_code(workspace=workspace, kind="one_way", source="phone",
                        terms=["ｐｈｏｎｅ"]) == "synonym_set_too_small"


def test_a_set_changed_into_its_own_shape_is_not_an_overlap(workspace, walkparcel):
    services.synonym_set_update(synonym_set=walkparcel, terms=["locker", "cubby"])
    assert walkparcel.terms == ["locker", "cubby"]


def test_the_api_refuses_the_overlap_with_its_code(client, workspace, editor, walkparcel):
    client.force_login(editor)
    response = client.post(f"/api/v1/workspaces/{workspace.slug}/synonyms",
                           {"kind": "one_way", "source": "walkparcel", "terms": ["locker", "cubby"]},
                           content_type="application/json")
    assert response.status_code == 400 and response.json()["code"] == "synonym_source_taken"


def test_the_import_refuses_the_overlap_and_keeps_nothing(workspace, walkparcel, tmp_path):
    path = tmp_path / "synonyms.csv"
    path.write_text("multi_way,,tea,matcha\none_way,walkparcel,locker,cubby\n", encoding="utf-8")
    with pytest.raises(CommandError, match=r"line 2: .*synonym_source_taken"):
        call_command("synonyms_import", workspace.slug, str(path))
    assert list(SynonymSet.objects.for_workspace(workspace)) == [walkparcel]


def test_the_admin_asks_before_it_deletes(client, workspace, editor, walkparcel):
    client.force_login(editor)
    url = f"/admin/search/{workspace.slug}/synonyms/"
    asked = client.post(url, {"action": "delete", "id": str(walkparcel.id)})
    assert asked.status_code == 200 and 'id="synonym-delete-confirm"' in asked.content.decode()
    assert SynonymSet.objects.for_workspace(workspace).count() == 1
    client.post(url, {"action": "delete", "id": str(walkparcel.id), "confirmed": "yes"})
    assert SynonymSet.objects.for_workspace(workspace).count() == 0


def test_the_admin_says_the_overlap(client, workspace, editor, walkparcel):
    client.force_login(editor)
    page = client.post(f"/admin/search/{workspace.slug}/synonyms/",
                       {"action": "add", "kind": "one_way", "source": "walkparcel", "terms": "locker，cubby"},
                       follow=True).content.decode()
    assert 'data-code="synonym_source_taken"' in page
    assert SynonymSet.objects.for_workspace(workspace).count() == 1
