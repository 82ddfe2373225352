"""What the API and commands read is bounded: body size (413), JSON nesting and filter size (400), with codes."""

from __future__ import annotations

import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from cms.models import Asset
from search.contract.filter_language import MAX_DEPTH
from search.contract.json_input import MAX_JSON_DEPTH, json_depth_exceeds

pytestmark = pytest.mark.django_db

URL = "/api/v1/workspaces/acme/search/semantic"


@pytest.fixture
def api(editor, settings):
    settings.API_MAX_BODY_BYTES = 256 * 1024
    client = APIClient()
    client.force_login(editor)
    return client


def post_raw(client, body: str | bytes, **extra):
    data = body.encode() if isinstance(body, str) else body
    return client.generic("POST", URL, data=data, content_type="application/json", **extra)


def assert_refused_cleanly(response, status: int, code: str, caplog) -> dict:
    """The answer has the status and code, and nothing was logged with a traceback."""
    assert (response.status_code, response.json()["code"]) == (status, code)
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
    return response.json()


# --- body size -------------------------------------------------------------------------------

def test_body_over_the_limit_is_413_before_it_is_read(api, caplog):
    body = json.dumps({"query": "x" * 300_000})
    body_json = assert_refused_cleanly(post_raw(api, body), 413, "request_too_large", caplog)
    assert str(256 * 1024) in body_json["message"]


def test_limit_is_a_setting(api, settings, local_embeddings, caplog):
    settings.API_MAX_BODY_BYTES = 100
    assert_refused_cleanly(post_raw(api, json.dumps({"query": "refund " * 20})), 413, "request_too_large", caplog)


def test_body_under_the_limit_is_served(api, local_embeddings):
    body = json.dumps({"query": "refund", "filter": {"status": {"$in": ["x" * 250] * 450}}})
    assert 100_000 < len(body) < 256 * 1024
    assert post_raw(api, body).status_code == 200


def test_chunked_body_over_the_limit_is_413(api, caplog):
    # As gunicorn hands a chunked body to Django: de-chunked, without Content-Length.
    body = json.dumps({"query": "x" * 300_000}).encode()
    response = post_raw(api, b"", CONTENT_LENGTH="", HTTP_TRANSFER_ENCODING="chunked",
                        **{"wsgi.input": io.BytesIO(body), "wsgi.input_terminated": True})
    assert_refused_cleanly(response, 413, "request_too_large", caplog)


def test_chunked_body_under_the_limit_is_parsed(api, local_embeddings):
    body = json.dumps({"query": "refund", "top_k": 2}).encode()
    response = post_raw(api, b"", CONTENT_LENGTH="", HTTP_TRANSFER_ENCODING="chunked",
                        **{"wsgi.input": io.BytesIO(body), "wsgi.input_terminated": True})
    assert (response.status_code, response.json()["meta"]["top_k"]) == (200, 2)


def test_chunked_body_the_server_did_not_dechunk_is_411(api, caplog):
    response = post_raw(api, b"", CONTENT_LENGTH="", HTTP_TRANSFER_ENCODING="chunked",
                        **{"wsgi.input": io.BytesIO(b'{"query": "refund"}')})
    assert_refused_cleanly(response, 411, "length_required", caplog)


def test_admin_uploads_keep_their_own_larger_limit(client, superuser, workspace):
    client.force_login(superuser)
    text = ("A line of notes about refunds and returns.\n" * 8000).encode()  # ~340 KB, over the API's limit
    response = client.post("/admin/cms/asset/add/", {
        "workspace": workspace.pk, "upload": SimpleUploadedFile("notes.md", text, content_type="text/markdown"),
    })
    assert response.status_code == 302
    assert Asset.objects.get(workspace=workspace).size == len(text)


# --- JSON nesting ----------------------------------------------------------------------------

@pytest.mark.parametrize("levels", [MAX_JSON_DEPTH + 1, 1_000, 100_000])
def test_deeply_nested_json_is_400_json_too_deep(api, caplog, levels):
    body = '{"query": "refund", "filter": ' + "[" * levels + "]" * levels + "}"
    body_json = assert_refused_cleanly(post_raw(api, body), 400, "json_too_deep", caplog)
    assert str(MAX_JSON_DEPTH) in body_json["message"]


def test_brackets_inside_strings_are_not_nesting(api, local_embeddings):
    query = "[{" * 200 + ' \\" ' + "}]" * 200
    response = post_raw(api, json.dumps({"query": query}))
    assert response.status_code == 200


def test_filter_nested_past_its_limit_is_400_naming_the_path(api, local_embeddings, caplog):
    spec: dict = {"tag": "x"}
    for _ in range(MAX_DEPTH + 1):
        spec = {"$and": [spec]}
    body = assert_refused_cleanly(post_raw(api, json.dumps({"query": "refund", "filter": spec})), 400,
                                  "filter_too_deep", caplog)
    assert body["details"]["path"].startswith("filter.$and[0]")
    assert f"{MAX_DEPTH} levels" in body["message"]


def test_filter_of_many_empty_objects_is_400_too_complex(api, local_embeddings, caplog):
    body = json.dumps({"query": "refund", "filter": {"$and": [{}] * 20_000}})
    body_json = assert_refused_cleanly(post_raw(api, body), 400, "filter_too_complex", caplog)
    assert body_json["details"]["path"] == "filter.$and"


def test_command_filter_nested_a_hundred_thousand_levels_is_json_too_deep(workspace):
    with pytest.raises(CommandError, match="json_too_deep"):
        call_command("semantic_search", "acme", "refund", "--filter", "[" * 100_000 + "]" * 100_000)


@pytest.mark.parametrize(
    ("text", "deeper_than_2"),
    [
        ("[[[]]]", True),
        ("[[]]", False),
        ('["[[[[", "]]]]"]', False),
        ('["\\\\", [["\\"[[["]]]', True),
        ('"unterminated [[[[[[', False),
        ("]]]]][[", False),
    ],
)
def test_depth_scan_ignores_strings_and_escapes(text, deeper_than_2):
    assert json_depth_exceeds(text, 2) is deeper_than_2
