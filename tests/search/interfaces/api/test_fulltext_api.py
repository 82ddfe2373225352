"""GET /api/v1/workspaces/<slug>/search/entries: members only, errors as {code, message}."""

from __future__ import annotations

import pytest
from tests.factories import ContentTypeFactory, UserFactory, api_key_make, bearer, entry_make

URL = "/api/v1/workspaces/{slug}/search/entries"


def get(client, query_string: str, slug: str = "acme"):
    return client.get(f"{URL.format(slug=slug)}?{query_string}")


@pytest.fixture
def member_client(client, editor):
    client.force_login(editor)
    return client


def test_member_finds_entry_with_session(member_client, article_type):
    entry = entry_make(article_type, title="返品ポリシー")
    body = get(member_client, "q=%E8%BF%94%E5%93%81").json()
    assert [hit["id"] for hit in body["results"]] == [entry.pk]


def test_agent_finds_entry_with_api_key(client, workspace, article_type):
    entry = entry_make(article_type, title="Refund policy")
    _, secret = api_key_make(workspace)
    response = client.get(URL.format(slug="acme") + "?q=refund", **bearer(secret))
    assert [hit["id"] for hit in response.json()["results"]] == [entry.pk]


def test_raw_utf8_query_string_finds_entry(member_client, article_type):
    # What curl sends for ".../entries?q=返品": the UTF-8 bytes, not percent-encoded.
    entry = entry_make(article_type, title="返品ポリシー")
    assert [hit["id"] for hit in get(member_client, "q=返品").json()["results"]] == [entry.pk]


def test_raw_invalid_utf8_query_string_is_a_400(member_client, workspace):
    # WSGI hands the raw bytes over as latin-1 text: b"q=\xe8\xbf" arrives as "q=è¿".
    response = member_client.get(URL.format(slug="acme"), QUERY_STRING="q=\xe8\xbf")
    assert (response.status_code, response.json()["code"]) == (400, "query_invalid_encoding")


def test_plus_in_query_string_is_a_space_as_in_request_get(member_client, article_type):
    spaced = entry_make(article_type, title="refund policy")
    entry_make(article_type, title="refund-policy")
    assert [hit["id"] for hit in get(member_client, "q=refund+policy").json()["results"]] == [spaced.pk]


def test_hit_has_id_type_status_timestamps_fields_and_snippet(member_client, article_type):
    entry_make(article_type, status="published", title="Refund policy")
    (hit,) = get(member_client, "q=refund").json()["results"]
    assert set(hit) == {"id", "content_type", "status", "created_at", "updated_at", "matched_fields", "snippet"}


def test_snippet_gives_highlight_offsets(member_client, article_type):
    entry_make(article_type, title="Refund policy")
    (hit,) = get(member_client, "q=policy").json()["results"]
    assert hit["snippet"] == {"field": "title", "text": "Refund policy", "highlights": [[7, 13]]}


def test_anonymous_caller_is_refused_with_401(client, workspace):
    response = get(client, "q=refund")
    assert (response.status_code, response.json()["code"]) == (401, "not_authenticated")


def test_other_workspace_slug_is_404_like_a_missing_one(member_client, other_workspace):
    ContentTypeFactory(workspace=other_workspace, api_id="article")
    theirs, missing = get(member_client, "q=refund", slug="globex"), get(member_client, "q=refund", slug="nope")
    assert (theirs.status_code, theirs.json()) == (404, missing.json())


def test_other_workspace_entries_are_not_returned(member_client, article_type, other_workspace):
    entry_make(ContentTypeFactory(workspace=other_workspace, api_id="article"), title="Globex refund")
    mine = entry_make(article_type, title="Acme refund")
    assert [hit["id"] for hit in get(member_client, "q=refund").json()["results"]] == [mine.pk]


def test_limit_and_offset_page_through_results(member_client, article_type):
    ids = [entry_make(article_type, title=f"refund {i}").pk for i in range(3)]
    body = get(member_client, "q=refund&limit=2&offset=2").json()
    assert ([hit["id"] for hit in body["results"]], body["has_more"]) == ([ids[0]], False)


@pytest.mark.parametrize("content_type", ["%00article", "a/b", "x" * 65])
def test_content_type_that_cannot_be_an_api_id_is_a_400(member_client, workspace, content_type):
    # Found by the fuzzer: a NUL byte in content_type reached SQL and answered 500.
    response = member_client.get(f"/api/v1/workspaces/acme/search/entries?q=refund&content_type={content_type}")

    assert response.status_code == 400
    assert response.json()["code"] == "unknown_content_type"


def test_content_type_and_status_filter_results(member_client, workspace, article_type):
    faq = ContentTypeFactory(workspace=workspace, api_id="faq")
    entry_make(article_type, title="refund")
    entry_make(faq, status="published", title="refund")
    draft = entry_make(faq, status="draft", title="refund")
    body = get(member_client, "q=refund&content_type=faq&status=draft").json()
    assert [hit["id"] for hit in body["results"]] == [draft.pk]


def test_query_is_not_trimmed(member_client, article_type):
    spaced = entry_make(article_type, title="a refund")
    entry_make(article_type, title="no-refund")
    assert [hit["id"] for hit in get(member_client, "q=%20refund").json()["results"]] == [spaced.pk]


@pytest.mark.parametrize(
    ("query_string", "code"),
    [
        ("q=", "query_empty"),
        ("", "query_empty"),
        ("q=%20%20%09", "query_empty"),
        ("q=" + "a" * 501, "query_too_long"),
        ("q=ref%00und", "query_invalid_character"),
        ("q=ref%FFund", "query_invalid_encoding"),
        ("q=%E8%BF", "query_invalid_encoding"),
        ("q=refund&limit=0", "limit_out_of_range"),
        ("q=refund&limit=101", "limit_out_of_range"),
        ("q=refund&limit=ten", "limit_invalid"),
        ("q=refund&offset=-1", "offset_out_of_range"),
        ("q=refund&offset=1.5", "offset_invalid"),
        ("q=refund&content_type=nope", "unknown_content_type"),
        ("q=refund&status=archived", "unknown_status"),
        # Present but empty is not "not given" (found by the fuzzer: the document says integer).
        ("q=refund&limit=", "limit_invalid"),
        ("q=refund&offset=", "offset_invalid"),
        ("q=refund&content_type=", "unknown_content_type"),
        ("q=refund&status=", "unknown_status"),
    ],
)
def test_bad_input_is_a_400_with_a_code(member_client, article_type, query_string, code):
    response = get(member_client, query_string)
    assert (response.status_code, response.json()["code"]) == (400, code)


def test_bad_input_error_has_a_message(member_client, workspace):
    assert get(member_client, "q=").json()["message"]


def test_non_member_with_bad_input_still_gets_404(client, other_workspace):
    client.force_login(UserFactory())
    assert get(client, "q=", slug="globex").status_code == 404


# --- facets in the query string: as OpenAPI writes a list (repeated), or comma-separated --------

@pytest.mark.parametrize("facets", ["facets=content_type&facets=status", "facets=content_type,status",
                                    "facets=content_type&facets=status,content_type"])
def test_facets_repeated_or_comma_separated_are_each_counted(member_client, article_type, facets):
    # A random fuzz seed found that only the last `facets=` counted: a client that writes the
    # list as the OpenAPI document does (form, exploded) lost every facet but the last.
    entry_make(article_type, title="Refund policy")

    body = get(member_client, f"q=refund&{facets}").json()

    assert body["facets"] == {"content_type": {"article": 1}, "status": {"published": 1}}


@pytest.mark.parametrize("facets", ["facets=", "facets=content_type,", "&".join(["facets="] * 6)])
def test_an_empty_facet_name_is_a_coded_400_not_no_facets(member_client, article_type, facets):
    entry_make(article_type, title="Refund policy")

    response = get(member_client, f"q=refund&{facets}")

    assert (response.status_code, response.json()["code"]) == (400, "facets_invalid")
    assert "empty" in response.json()["message"]


def test_six_facets_repeated_are_too_many(member_client, article_type):
    entry_make(article_type, title="Refund policy")

    response = get(member_client, "q=refund&" + "&".join(f"facets={name}" for name in
                                                          ["content_type", "status", "a", "b", "c", "d"]))

    assert (response.status_code, response.json()["code"]) == (400, "facets_too_many")
