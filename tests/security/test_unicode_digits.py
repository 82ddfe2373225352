"""Whole numbers and dates sent as text are read by one helper (cms/text_numbers.py), which
takes ASCII digits only: '²' passes str.isdigit() and fails int(), and was a 500 wherever a
view checked with one and converted with the other (issue 32, finding 5). A synonym's source
that is not a string, or holds a NUL, is a coded 400 as its terms are."""

from __future__ import annotations

import datetime

import pytest

from cms.models import Role, SynonymSet
from cms.text_numbers import int_from_text, month_from_text
from search.insights.search_log import search_log_flush
from tests.factories import MembershipFactory, UserFactory, entry_make
from tests.search.pipeline_helpers import field, semantic_type

pytestmark = pytest.mark.django_db

UNICODE_DIGITS = ["²", "٣", "１２", "1²", "߁", "𝟗"]


@pytest.mark.parametrize("text", [*UNICODE_DIGITS, "", " 1", "1 ", "+1", "-1", "1_000", "1.0", "0x1", "9" * 19])
def test_int_from_text_takes_ascii_digits_only(text):
    assert int_from_text(text) is None


def test_int_from_text_reads_a_whole_number_within_its_bounds():
    assert int_from_text("42") == 42 and int_from_text("007") == 7
    assert int_from_text("0", low=1) is None and int_from_text("366", high=365) is None
    assert int_from_text(None) is None and int_from_text(12) is None


@pytest.mark.parametrize("text", ["9999-12", "0000-01", "2024-13", "2024-1", "２０２４-01", "2024-0²", "2024-05-01"])
def test_month_from_text_refuses_what_is_no_month_with_a_following_one(text):
    assert month_from_text(text) is None


def test_month_from_text_gives_the_month_and_the_next():
    assert month_from_text("2024-12") == (datetime.date(2024, 12, 1), datetime.date(2025, 1, 1))


def member(workspace, name, role=Role.EDITOR):
    user = UserFactory(username=name)
    MembershipFactory(user=user, workspace=workspace, role=role)
    return user


@pytest.mark.parametrize("days", UNICODE_DIGITS)
def test_insights_days_of_unicode_digits_fall_back_with_a_message(client, workspace, days):
    client.force_login(member(workspace, "ed"))
    page = client.get("/admin/search/acme/insights/", {"days": days})
    assert page.status_code == 200 and page.context["days"] == 30
    assert client.get("/admin/search/acme/insights.csv", {"days": days}).status_code == 200


@pytest.mark.parametrize("value", UNICODE_DIGITS)
def test_entry_list_workspace_filter_of_unicode_digits_is_no_500(client, workspace, article_type, value):
    client.force_login(member(workspace, "ed"))
    response = client.get("/admin/cms/entry/", {"workspace__id__exact": value})
    assert response.status_code in (200, 302)


@pytest.mark.parametrize("value", UNICODE_DIGITS)
def test_entry_add_page_content_type_of_unicode_digits_is_no_500(client, workspace, article_type, value):
    client.force_login(member(workspace, "ed"))
    assert client.get("/admin/cms/entry/add/", {"content_type": value}).status_code == 200
    assert client.post(f"/admin/cms/entry/add/?content_type={value}", {"content_type": value}).status_code in (200, 302)


@pytest.mark.parametrize("value", UNICODE_DIGITS)
def test_promotion_add_with_an_entry_of_unicode_digits_is_a_form_error(client, workspace, value):
    """The entry's search box shows the entry posted back; '²' reached int() there (a 500)."""
    client.force_login(member(workspace, "ed"))
    response = client.post("/admin/cms/promotion/add/", {"workspace": workspace.pk, "phrase": "refund",
                                                         "match": "is", "entry": value, "position": 1})
    assert response.status_code == 200 and "entry" in response.context["adminform"].form.errors


@pytest.mark.parametrize("change", [{"entry_id": "²"}, {"position": "²"}, {"entry_id": "１"}, {"position": "٣"}])
def test_admin_click_of_unicode_digits_is_400(client, workspace, article_type, change):
    entry = entry_make(article_type, title="Refund policy")
    client.force_login(member(workspace, "ed"))
    client.get("/admin/search/acme/", {"q": "refund"})
    search_log_flush()
    response = client.post("/admin/search/acme/clicks", {"search_id": "0" * 48, "entry_id": entry.pk, "position": 1,
                                                         **change})
    assert response.status_code == 400 and response.json()["code"] == "invalid_request"


@pytest.mark.parametrize("month", ["9999-12", "2024-0²", "０２０２４-01"])
def test_a_date_facet_past_the_calendar_is_a_message(client, workspace, month):
    semantic_type(workspace, "log", [{**field("day", "date"), "facet": True}])
    client.force_login(member(workspace, "ed"))
    response = client.get("/admin/search/acme/", {"q": "refund", "mode": "fulltext", "facet.day": month})
    assert response.status_code == 200
    assert [m.extra_tags for m in response.context["messages"]] == ["facet_value_invalid"]  # the page's data-code


SYNONYMS = "/api/v1/workspaces/acme/synonyms"


@pytest.mark.parametrize("source", ["ph\u0000one", 123, ["a"], {"a": 1}, True, "ph\u0007one"])
def test_a_synonym_source_that_is_no_clean_string_is_a_coded_400(client, workspace, editor, source):
    client.force_login(editor)
    response = client.post(SYNONYMS, {"kind": "one_way", "source": source, "terms": ["smartphone"]},
                           content_type="application/json")
    assert (response.status_code, response.json()["code"]) == (400, "synonym_term_invalid")
    assert not SynonymSet.objects.exists()


def test_a_synonym_source_with_a_nul_is_refused_in_the_admin(client, workspace, editor):
    client.force_login(editor)
    page = client.post("/admin/search/acme/synonyms/", {"action": "add", "kind": "one_way", "source": "ph\u0000one",
                                                        "terms": "smartphone"}, follow=True)
    assert page.status_code == 200 and "synonym_term_invalid" in page.content.decode()
    assert not SynonymSet.objects.exists()
