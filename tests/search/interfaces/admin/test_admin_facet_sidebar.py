"""The admin search page's facet sidebar with field facets (search/interfaces/admin/facets.py): counts in
every mode, a click applies the field's value as a filter condition, facets combine, and the
URL says it all."""

from __future__ import annotations

import re
from html import escape, unescape
from urllib.parse import parse_qs, urlsplit

import pytest

from cms.models import EntryStatus, Role
from search.interfaces.admin.facets import sidebar_facet_names
from search.contract.errors import SearchInputError
from search.engine.facets import Facet, facet_value_condition
from tests.factories import MembershipFactory, UserFactory, entry_make
from tests.search.pipeline_helpers import embed_all, fake_embeddings, field, semantic_type  # noqa: F401

pytestmark = pytest.mark.django_db

FIELDS = [{**field("tags", "tags"), "label": "Tags", "facet": True},
          {**field("price", "number"), "label": "Price", "facet": True, "facet_ranges": [10, 100]},
          {**field("released", "date"), "label": "Released", "facet": True},
          {**field("featured", "boolean"), "facet": True}, field("secret", "text")]


@pytest.fixture
def shop(fake_embeddings, workspace, other_workspace):
    faq = semantic_type(workspace, "faq", FIELDS)
    news = semantic_type(workspace, "news", FIELDS)
    entries = {
        "sale_cheap": entry_make(faq, title="Refund on sale items", tags=["sale"], price=5, released="2024-05-02"),
        "sale_mid": entry_make(faq, title="Refund for sale shoes", tags=["sale", "shoes"], price=50,
                               released="2024-05-31"),
        "mid": entry_make(news, title="Refund news", tags=["news"], price=50, released="2024-06-01"),
        "dear": entry_make(faq, title="Refund of big orders", price=500, released="2023-12-15"),
        "draft": entry_make(faq, status=EntryStatus.DRAFT, title="Refund draft", tags=["sale"], price=50),
    }
    entry_make(semantic_type(other_workspace, "faq", FIELDS), title="Globex refund", tags=["sale"], price=5)
    embed_all()
    return entries


def member(username: str, workspace, role: str = Role.EDITOR):
    user = UserFactory(username=username)
    MembershipFactory(user=user, workspace=workspace, role=role)
    return user


def sidebar(html: str) -> dict[str, dict[str, str]]:
    """{facet: {value ("" for All): count text}} as the page lists them."""
    groups = {}
    for name, body in re.findall(r'<ul data-facet="([^"]+)">(.*?)</ul>', html, re.S):
        links = re.findall(r'<a href="[^"]*" data-value="([^"]*)"[^>]*>[^<]*</a>(?: <span class="facet-count"[^>]*>(\d+)</span>)?',
                           body)
        groups[name] = {unescape(value): count for value, count in links}
    return groups


def link(html: str, facet: str, value: str) -> str:
    body = re.search(rf'<ul data-facet="{facet}">(.*?)</ul>', html, re.S).group(1)
    return unescape(re.search(rf'<a href="([^"]*)" data-value="{re.escape(escape(value))}"', body).group(1))


def titles(html: str) -> list[str]:
    return re.findall(r'<li class="search-hit"[^>]*>\s*<h3><a href="[^"]*">(.*?)</a>', html)


def get(client, **params) -> str:
    response = client.get("/admin/search/acme/", params)
    assert response.status_code == 200
    assert [str(m) for m in response.context["messages"]] == []
    return response.content.decode()


def follow(client, url: str) -> str:
    params = {key: values[-1] for key, values in parse_qs(urlsplit(url).query, keep_blank_values=True).items()}
    return get(client, **params)


def plain(html: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", title) for title in titles(html)]


def test_the_sidebar_asks_for_content_type_status_and_facetable_fields_up_to_the_limit():
    schemas = {"faq": FIELDS, "news": [{**field("colour", "text"), "facet": True}]}

    assert sidebar_facet_names(schemas) == ["content_type", "status", "tags", "price", "released"]


@pytest.mark.parametrize("mode", ["fulltext", "semantic", "hybrid", "agentic"])
def test_every_mode_lists_a_facetable_field_with_its_counts(client, workspace, shop, mode):
    client.force_login(member("editor", workspace))

    groups = sidebar(get(client, q="refund", mode=mode))

    assert list(groups) == ["content_type", "status", "tags", "price", "released"]
    assert groups["tags"] == {"": "", "sale": "3", "news": "1", "shoes": "1"}
    assert groups["price"] == {"": "", "10-100": "3", "<10": "1", ">=100": "1"}


def test_clicking_a_tag_filters_the_results_and_keeps_its_own_counts(client, workspace, shop):
    client.force_login(member("editor", workspace))
    first = get(client, q="refund", mode="fulltext")

    filtered = follow(client, link(first, "tags", "sale"))

    assert sorted(plain(filtered)) == ["Refund draft", "Refund for sale shoes", "Refund on sale items"]
    groups = sidebar(filtered)
    assert groups["tags"] == {"": "", "sale": "3", "news": "1", "shoes": "1"}  # disjunctive: its own filter lifted
    assert groups["price"] == {"": "", "10-100": "2", "<10": "1"}
    assert '<li class="selected"><a href="' in filtered and 'data-value="sale"' in filtered


def test_a_number_range_and_a_month_combine_with_a_tag(client, workspace, shop):
    client.force_login(member("editor", workspace))

    html = get(client, q="refund", mode="fulltext", **{"facet.tags": "sale", "facet.price": "10-100"})
    assert sorted(plain(html)) == ["Refund draft", "Refund for sale shoes"]
    html = get(client, q="refund", mode="fulltext", **{"facet.price": "10-100", "facet.released": "2024-05"})
    assert plain(html) == ["Refund for sale shoes"]  # 2024-05-31 is in May, 2024-06-01 is not
    html = get(client, q="refund", mode="fulltext", **{"facet.price": ">=100"})
    assert plain(html) == ["Refund of big orders"]


def test_a_click_goes_back_to_the_first_page_and_all_clears_only_that_facet(client, workspace, shop):
    client.force_login(member("editor", workspace))
    html = get(client, q="refund", mode="fulltext", offset="20", content_type="faq", **{"facet.price": "<10"})

    to_sale = parse_qs(urlsplit(link(html, "tags", "sale")).query)
    cleared = parse_qs(urlsplit(link(html, "price", "")).query)

    assert "offset" not in to_sale and to_sale["facet.tags"] == ["sale"] and to_sale["facet.price"] == ["<10"]
    assert "facet.price" not in cleared and cleared["content_type"] == ["faq"]


def test_the_search_form_keeps_the_chosen_field_facets(client, workspace, shop):
    client.force_login(member("editor", workspace))

    html = get(client, q="refund", mode="semantic", **{"facet.tags": "sale"})

    assert '<input type="hidden" name="facet.tags" value="sale">' in html


def test_a_chunk_search_applies_the_field_facet(client, workspace, shop):
    client.force_login(member("editor", workspace))

    html = get(client, q="refund", mode="hybrid", **{"facet.tags": "shoes"})

    assert plain(html) == ["Refund for sale shoes"]
    assert sidebar(html)["tags"] == {"": "", "sale": "3", "news": "1", "shoes": "1"}


def test_a_viewer_never_sees_a_draft_counted_or_found(client, workspace, shop):
    client.force_login(member("viewer", workspace, Role.VIEWER))

    html = get(client, q="refund", mode="fulltext", **{"facet.tags": "sale"})

    assert sorted(plain(html)) == ["Refund for sale shoes", "Refund on sale items"]
    assert sidebar(html)["tags"]["sale"] == "2"
    assert sidebar(html)["status"] == {"": "", "published": "2"}


@pytest.mark.parametrize(("params", "code"), [
    ({"facet.secret": "x"}, "unknown_facet"),
    ({"facet.price": "cheap"}, "facet_value_invalid"),
    ({"facet.released": "2024-13"}, "facet_value_invalid"),
])
def test_a_hand_edited_facet_is_a_message_not_a_500(client, workspace, shop, params, code):
    client.force_login(member("editor", workspace))

    response = client.get("/admin/search/acme/", {"q": "refund", **params})

    assert response.status_code == 200
    assert [m.extra_tags for m in response.context["messages"]] == [code]  # the page's data-code, not its text
    assert f'data-code="{code}"' in response.content.decode() and f"({code})" not in response.content.decode()


@pytest.mark.parametrize(("facet", "value", "condition"), [
    (Facet("tags", "tags"), "sale", {"$in": ["sale"]}),
    (Facet("price", "number", (10, 100)), "<10", {"$lt": 10}),
    (Facet("price", "number", (10, 100)), "10-100", {"$gte": 10, "$lt": 100}),
    (Facet("price", "number", (10, 100)), ">=100", {"$gte": 100}),
    (Facet("price", "number", (0.5,)), "<0.5", {"$lt": 0.5}),
    (Facet("price", "number"), "42", 42),
    (Facet("released", "date"), "2024-12", {"$gte": "2024-12-01", "$lt": "2025-01-01"}),
    (Facet("featured", "boolean"), "false", False),
    (Facet("colour", "text"), "red", "red"),
    (Facet("colour", "text"), "x" * 100, {"$contains": "x" * 100}),
])
def test_a_facet_label_becomes_the_condition_that_selects_it(facet, value, condition):
    assert facet_value_condition(facet, value) == condition


@pytest.mark.parametrize(("facet", "value"), [
    (Facet("price", "number", (10, 100)), "10-99"), (Facet("price", "number"), "nan"),
    (Facet("released", "date"), "May"), (Facet("featured", "boolean"), "yes"),
])
def test_a_label_the_facet_never_gives_is_refused(facet, value):
    with pytest.raises(SearchInputError) as refused:
        facet_value_condition(facet, value)
    assert refused.value.code == "facet_value_invalid"
