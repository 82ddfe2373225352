"""A promotion is checked once (cms.services.promotion_phrase_checked): each refusal carries a
code and its params, the API's sentence is English, and the admin says it in the editor's
language, looked up by the code."""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from cms import services
from cms.models import Promotion
from tests.factories import ContentTypeFactory, MembershipFactory, entry_make

pytestmark = pytest.mark.django_db

PLACEHOLDER = re.compile(r"%\(\w+\)s")


@pytest.fixture
def pinned(workspace, other_workspace, article_type):
    """An entry of the workspace pinned to 退貨, and an entry of another workspace."""
    entry = entry_make(article_type, title="Refund policy")
    foreign = entry_make(ContentTypeFactory(workspace=other_workspace, api_id="article"), title="Globex refunds")
    services.promotion_create(workspace=workspace, phrase="退貨", entry=entry)
    return entry, foreign


@pytest.mark.parametrize("language", ["ja", "zh_Hant"])
@pytest.mark.parametrize("code", sorted(services.PROMOTION_REFUSALS))
def test_every_refusal_code_is_translated_with_its_placeholders(code, language):
    english = services.PROMOTION_REFUSALS[code]
    with translation.override(language):
        translated = translation.gettext(english)

    assert translated != english
    assert sorted(PLACEHOLDER.findall(translated)) == sorted(PLACEHOLDER.findall(english))


# code -> (the call's arguments over a pin of "refund" to the workspace's entry, the field, the params)
REFUSALS = {
    "promotion_phrase_empty": ({"phrase": " \u3000 "}, "phrase", None),
    "promotion_phrase_too_long": ({"phrase": "㌀" * 60}, "phrase", {"limit": 200}),  # 240 once NFKC makes アパート
    "promotion_match_invalid": ({"match": "starts"}, "match", {"choices": "is, contains"}),
    "promotion_entry_not_in_workspace": ({"entry": "foreign"}, "entry", None),
    "promotion_already_pinned": ({"phrase": " 退货 "}, "entry", {"title": "Refund policy", "phrase": "退货"}),
}


@pytest.mark.parametrize("code", sorted(REFUSALS))
def test_the_service_refuses_with_a_code_and_its_params(workspace, pinned, code):
    entry, foreign = pinned
    changes, field, params = REFUSALS[code]
    arguments = {"workspace": workspace, "phrase": "refund", "entry": entry, **changes}
    if arguments["entry"] == "foreign":
        arguments["entry"] = foreign

    with pytest.raises(ValidationError) as refused:
        services.promotion_create(**arguments)

    assert [(name, [(e.code, e.params) for e in errors]) for name, errors in refused.value.error_dict.items()] == [
        (field, [(code, params)])]
    assert Promotion.objects.count() == 1


def test_the_services_sentence_is_english_whatever_the_language(workspace, pinned):
    entry, _ = pinned
    with translation.override("ja"), pytest.raises(ValidationError) as refused:
        services.promotion_create(workspace=workspace, phrase="退货", entry=entry)

    assert refused.value.message_dict == {"entry": ["“Refund policy” is already pinned to “退货”."]}


# What the admin's form says, in Japanese, for the refusals an editor can reach (the others are
# a field's own error first: a blank phrase is required, the match is a choice).
ADMIN_REFUSALS = {
    "promotion_phrase_too_long": ({"phrase": "㌀" * 60}, "phrase", "検索語は 200 文字以内にしてください。"),
    "promotion_entry_not_in_workspace": ({"entry": "foreign"}, "entry",
                                         "エントリーは同じワークスペースのものである必要があります。"),
    "promotion_already_pinned": ({"phrase": "退货"}, "entry", "「Refund policy」はすでに「退货」に固定されています。"),
}


@pytest.mark.parametrize("code", sorted(ADMIN_REFUSALS))
def test_the_admin_form_says_the_services_refusal_in_the_editors_language(client, workspace, other_workspace, editor,
                                                                         pinned, code):
    entry, foreign = pinned
    MembershipFactory(user=editor, workspace=other_workspace)  # so the foreign entry is a choice
    changes, field, japanese = ADMIN_REFUSALS[code]
    data = {"workspace": workspace.pk, "phrase": "refund", "match": "is", "entry": entry.pk, "position": 1, **changes}
    if data["entry"] == "foreign":
        data["entry"] = foreign.pk
    client.force_login(editor)

    response = client.post("/admin/cms/promotion/add/", data, HTTP_ACCEPT_LANGUAGE="ja")

    assert response.status_code == 200
    errors = response.context["adminform"].form.errors.as_data()
    assert [(name, [(e.code, e.message) for e in found]) for name, found in errors.items()] == [
        (field, [(code, japanese)])]
    assert Promotion.objects.count() == 1
