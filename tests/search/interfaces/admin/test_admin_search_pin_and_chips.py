"""The admin search page's editors' controls (issue 36): "Pin for this query" (search/interfaces/admin/pins.py),
the chosen facets as chips with "Clear all", a new query dropping the field facets unless kept, results
before the sidebar, no empty facet groups, and "More options" in plain words with "Advanced" folded."""

from __future__ import annotations

import json
import re
from html import unescape
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client

from cms.models import EntryStatus, Promotion, Role
from tests.factories import ContentTypeFactory, MembershipFactory, UserFactory, entry_make

pytestmark = pytest.mark.django_db

FIELDS = [
    {"id": "title", "label": "Title", "type": "text", "required": True},
    {"id": "body", "label": "Body", "type": "text"},
    {"id": "tags", "label": "Tags", "type": "tags", "facet": True},
]


@pytest.fixture
def shop(workspace, other_workspace):
    faq = ContentTypeFactory(workspace=workspace, api_id="faq", name="FAQ", fields=FIELDS)
    theirs = ContentTypeFactory(workspace=other_workspace, api_id="faq", name="FAQ", fields=FIELDS)
    return {
        "policy": entry_make(faq, title="Refund policy", body="Refunds within 30 days.", tags=["refund"]),
        "desk": entry_make(faq, title="Returns desk", body="Bring the refund parcel to the desk.", tags=["desk"]),
        "draft": entry_make(faq, status=EntryStatus.DRAFT, title="Refund draft", body="Unannounced refund."),
        "globex": entry_make(theirs, title="Globex refund", body="Refund in cash."),
    }


def member(username: str, workspace, role: str = Role.EDITOR):
    user = UserFactory(username=username)
    MembershipFactory(user=user, workspace=workspace, role=role)
    return user


def get(client, **params) -> str:
    response = client.get("/admin/search/acme/", params)
    assert response.status_code == 200
    return response.content.decode()


def pin(client, entry_id, q="refund", back="q=refund&mode=fulltext"):
    return client.post("/admin/search/acme/pin", {"entry": str(entry_id), "q": q, "back": back})


def titles(html: str) -> list[str]:
    found = re.findall(r'<li class="search-hit"[^>]*>\s*<h3><a href="[^"]*">(.*?)</a>', html)
    return [re.sub(r"</?mark>", "", title) for title in found]


# --- Pin for this query ------------------------------------------------------------------------


def test_pinning_a_result_creates_the_promotion_and_goes_back_to_the_same_search(client, workspace, shop):
    client.force_login(member("editor", workspace))

    response = pin(client, shop["desk"].pk, q="  Refund ", back="q=Refund&mode=fulltext&pq=Refund&offset=20")

    promotion = Promotion.objects.get()
    assert (promotion.workspace, promotion.phrase, promotion.phrase_key, promotion.entry, promotion.match) == (
        workspace, "Refund", "refund", shop["desk"], "is")
    assert response.status_code == 302
    assert parse_qs(urlsplit(response["Location"]).query) == {"q": ["Refund"], "mode": ["fulltext"]}
    assert urlsplit(response["Location"]).path == "/admin/search/acme/"
    html = client.get(response["Location"]).content.decode()
    assert titles(html)[0] == "Returns desk" and 'class="promoted"' in html
    assert "Pinned “Returns desk” to the query “Refund”" in html


def test_pinning_another_workspaces_entry_is_refused_with_a_code(client, workspace, shop):
    client.force_login(member("editor", workspace))

    response = pin(client, shop["globex"].pk)

    assert response.status_code == 400
    assert json.loads(response.content)["code"] == "entry_not_in_workspace"
    assert "Globex" not in response.content.decode()
    assert not Promotion.objects.exists()


@pytest.mark.parametrize(("entry", "q", "code"), [("", "refund", "entry_required"), ("abc", "refund", "entry_required"),
                                                  (None, "   ", "phrase_invalid"), (None, "a" * 201, "phrase_invalid"),
                                                  (None, "x\x00y", "phrase_invalid")])
def test_pinning_without_an_entry_or_a_query_is_a_400(client, workspace, shop, entry, q, code):
    client.force_login(member("editor", workspace))

    response = pin(client, shop["desk"].pk if entry is None else entry, q=q)

    assert (response.status_code, json.loads(response.content)["code"]) == (400, code)
    assert not Promotion.objects.exists()


def test_a_viewer_may_not_pin_nor_sees_the_control(client, workspace, shop):
    client.force_login(member("viewer", workspace, Role.VIEWER))

    assert 'class="pin-form"' not in get(client, q="refund", mode="fulltext")
    assert pin(client, shop["policy"].pk).status_code == 403
    assert not Promotion.objects.exists()


def test_an_editor_sees_the_control_on_each_unpinned_result(client, workspace, shop):
    client.force_login(member("editor", workspace))
    pin(client, shop["desk"].pk)

    html = get(client, q="refund", mode="fulltext")

    forms = re.findall(r'<form method="post" action="/admin/search/acme/pin" class="pin-form".*?</form>', html, re.S)
    assert len(forms) == len(titles(html)) - 1  # the pinned one has its "Promoted" mark instead
    assert all('name="csrfmiddlewaretoken"' in form for form in forms)


def test_a_non_member_gets_404_and_pins_nothing(client, other_workspace, shop):
    client.force_login(member("outsider", other_workspace))

    assert pin(client, shop["policy"].pk).status_code == 404
    assert not Promotion.objects.exists()


def test_pinning_twice_is_a_message_not_a_second_promotion(client, workspace, shop):
    client.force_login(member("editor", workspace))
    pin(client, shop["desk"].pk)

    response = pin(client, shop["desk"].pk)

    assert response.status_code == 302 and Promotion.objects.count() == 1
    assert "already pinned" in client.get(response["Location"]).content.decode()


def test_pinning_needs_the_csrf_token(workspace, shop):
    client = Client(enforce_csrf_checks=True)
    client.force_login(member("editor", workspace))

    response = pin(client, shop["desk"].pk)

    assert response.status_code == 403 and not Promotion.objects.exists()
    html = client.get("/admin/search/acme/", {"q": "refund", "mode": "fulltext"}).content.decode()
    token = re.search(r'<form method="post" action="/admin/search/acme/pin".*?name="csrfmiddlewaretoken" value="([^"]+)"',
                      html, re.S).group(1)
    response = client.post("/admin/search/acme/pin", {"entry": str(shop["desk"].pk), "q": "refund",
                                                      "csrfmiddlewaretoken": token})
    assert response.status_code == 302 and Promotion.objects.count() == 1


def test_pinning_is_a_post_only(client, workspace, shop):
    client.force_login(member("editor", workspace))

    assert client.get("/admin/search/acme/pin", {"entry": shop["desk"].pk, "q": "refund"}).status_code == 405


# --- chips, a new query, the order, the groups ------------------------------------------------


def chips(html: str) -> dict[str, str]:
    """{param: remove link} of the chips shown."""
    return {param: unescape(url) for param, url in re.findall(
        r'<li class="facet-chip" data-param="([^"]+)">.*?<a href="([^"]*)" class="chip-remove"', html, re.S)}


def test_the_chosen_facets_are_chips_each_removable_and_clear_all(client, workspace, shop):
    client.force_login(member("editor", workspace))

    html = get(client, q="refund", mode="fulltext", content_type="faq", **{"facet.tags": "refund"})

    shown = chips(html)
    assert set(shown) == {"content_type", "facet.tags"}
    assert parse_qs(urlsplit(shown["facet.tags"]).query) == {"q": ["refund"], "mode": ["fulltext"],
                                                             "content_type": ["faq"]}
    assert "content_type" not in parse_qs(urlsplit(shown["content_type"]).query)
    clear = unescape(re.search(r'<a href="([^"]*)" id="search-clear-filters"', html).group(1))
    assert parse_qs(urlsplit(clear).query) == {"q": ["refund"], "mode": ["fulltext"]}
    assert 'aria-label="Remove the filter Tags: refund"' in html


def test_a_new_query_drops_the_field_facets_and_keeps_the_visible_selects(client, workspace, shop):
    # Content type and status are the form's own selects, shown as chosen: a new query keeps them,
    # as the help under "Keep filters" says; the sidebar's field facets are hidden inputs, dropped.
    client.force_login(member("editor", workspace))

    response = client.get("/admin/search/acme/", {"q": "desk", "pq": "refund", "mode": "fulltext",
                                                  "content_type": "faq", "status": "published", "facet.tags": "refund"})

    assert response.status_code == 302
    assert parse_qs(urlsplit(response["Location"]).query) == {"q": ["desk"], "mode": ["fulltext"],
                                                              "content_type": ["faq"], "status": ["published"]}
    assert titles(client.get(response["Location"]).content.decode()) == ["Returns desk"]


def test_the_keep_filters_box_says_what_a_new_query_keeps(client, workspace, shop):
    client.force_login(member("editor", workspace))

    html = get(client, q="refund", mode="fulltext", **{"facet.tags": "refund"})

    assert 'aria-describedby="search-keep-filters-help"' in html
    assert ("A new query keeps the content type and status chosen above, as you see them; it drops the filters "
            "chosen in the sidebar unless this box is ticked.") in html


def test_keep_filters_keeps_them_on_a_new_query(client, workspace, shop):
    client.force_login(member("editor", workspace))

    html = get(client, q="parcel", pq="refund", keep_filters="on", mode="fulltext", **{"facet.tags": "refund"})

    assert titles(html) == [] and "facet.tags" in chips(html)
    assert 'id="search-keep-filters" checked' in html


def test_the_same_query_keeps_the_facets(client, workspace, shop):
    client.force_login(member("editor", workspace))

    html = get(client, q="refund ", pq="refund", mode="fulltext", **{"facet.tags": "refund"})

    assert titles(html) == ["Refund policy"]
    assert '<input type="hidden" name="pq" value="refund ">' in html


def test_results_come_before_the_facets_and_choices_say_they_are_chosen(client, workspace, shop):
    client.force_login(member("editor", workspace))

    html = get(client, q="refund", mode="fulltext", **{"facet.tags": "refund"})

    assert html.index('id="search-results"') < html.index('id="search-facets"')
    assert re.search(r'data-value="refund" aria-current="true" aria-label="refund, 1 result"', html)
    assert re.search(r'data-value="" aria-current="false" aria-label="All"', html)


def test_a_search_that_finds_nothing_shows_no_empty_facet_groups(client, workspace, shop):
    client.force_login(member("editor", workspace))

    html = get(client, q="zzzzqqqq", mode="fulltext")

    assert 'id="search-facets"' not in html and "<ul data-facet=" not in html


# --- More options --------------------------------------------------------------------------------


def test_more_options_are_in_plain_words_and_engine_settings_are_advanced(client, workspace, shop):
    client.force_login(member("editor", workspace))

    html = get(client, q="refund", mode="hybrid")

    plain, advanced = html.split('id="search-advanced-options"')
    assert "How many results" in plain and "How strict" in plain and "Correct typos" in plain
    assert 'name="ef_search"' not in plain and 'name="fusion"' not in plain and 'name="rerank"' not in plain
    assert 'name="ef_search"' in advanced and 'name="fusion"' in advanced and 'name="rerank"' in advanced
    assert 'id="search-advanced-options" open' not in html
    shown = re.sub(r"<[^>]+>", " ", html)  # the text, without attributes (data-code may keep a code)
    assert "not_configured" not in shown and "503" not in shown


def test_a_filled_engine_setting_opens_advanced(client, workspace, shop):
    client.force_login(member("editor", workspace))

    html = get(client, q="refund", mode="hybrid", ef_search="80")

    assert 'id="search-advanced-options" open' in html and 'id="search-more-options" open' in html


# --- the promotion form's entry search ---------------------------------------------------------


def autocomplete(client, term: str) -> list[str]:
    response = client.get("/admin/autocomplete/", {"app_label": "cms", "model_name": "promotion",
                                                   "field_name": "entry", "term": term})
    assert response.status_code == 200
    return sorted(result["text"] for result in json.loads(response.content)["results"])


def label(entry) -> str:
    """An entry as the promotion form's select offers it (PromotionForm's label_from_instance)."""
    return f"Workspace {entry.workspace.slug} · FAQ · {entry.title} (#{entry.pk}, {entry.status})"


def test_the_promotion_forms_entry_search_offers_only_entries_of_workspaces_one_may_write(
        client, workspace, other_workspace, shop):
    user = member("editor", workspace)
    MembershipFactory(user=user, workspace=other_workspace, role=Role.VIEWER)  # reads Globex, may not pin there
    client.force_login(user)

    assert client.get("/admin/search/globex/", {"q": "refund"}).status_code == 200  # Globex is readable
    expected = sorted(label(shop[name]) for name in ("draft", "policy", "desk"))
    assert autocomplete(client, "refund") == expected
    assert autocomplete(client, "") == expected


def test_the_entry_searchs_results_name_their_workspace_as_the_forms_select_does(client, workspace, other_workspace,
                                                                                 shop):
    # Two workspaces may hold the same title: each result says whose it is, its type, id and status.
    user = member("editor", workspace)
    MembershipFactory(user=user, workspace=other_workspace, role=Role.EDITOR)
    client.force_login(user)

    assert autocomplete(client, "refund") == sorted(label(entry) for entry in shop.values())
    form = client.get("/admin/cms/promotion/add/").content.decode()
    field = re.search(r'<select name="entry".*?</select>', form, re.S).group(0)
    assert "Refund" not in field  # the select lists no entry: the search offers them, labelled as above


def test_a_viewer_finds_no_entry_to_pin_and_no_draft(client, workspace, shop):
    client.force_login(member("viewer", workspace, Role.VIEWER))

    response = client.get("/admin/autocomplete/", {"app_label": "cms", "model_name": "promotion",
                                                   "field_name": "entry", "term": "refund"})

    assert response.status_code in (200, 403)
    assert "Refund draft" not in response.content.decode() and "Unannounced" not in response.content.decode()


def test_the_entry_searchs_labels_cost_no_query_per_result(client, workspace, shop, django_assert_max_num_queries):
    client.force_login(member("editor", workspace))
    autocomplete(client, "")  # the session and caches warm
    faq = shop["policy"].content_type
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    with CaptureQueriesContext(connection) as three:
        assert len(autocomplete(client, "")) == 3
    for n in range(5):
        entry_make(faq, title=f"Extra {n}", body="More.")
    with django_assert_max_num_queries(len(three.captured_queries)):
        assert len(autocomplete(client, "")) == 8


def test_the_entry_search_is_not_a_list_of_every_entry(client, workspace, shop):
    client.force_login(member("editor", workspace))

    html = client.get("/admin/cms/promotion/add/").content.decode()

    select = re.search(r'<select name="entry".*?</select>', html, re.S).group(0)
    assert 'data-ajax--url="/admin/autocomplete/"' in select and "Refund policy" not in select
