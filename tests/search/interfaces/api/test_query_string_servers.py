"""The entry search's query string through real servers: raw UTF-8 bytes on the socket.

curl sends `?q=返品` as raw UTF-8 bytes. The development server passes them through and the
API reads them as request.GET would; gunicorn by itself refuses non-ASCII bytes in the request
line with its own 400, and as deployed (gunicorn.conf.py: config/gunicorn_request_line.py) reads
them as percent-encoded, so `curl "…?q=返品"` answers as `curl -G --data-urlencode q=返品` does.
Percent-encoded, the longest query the API accepts (500 characters) must also fit in the
request line gunicorn accepts as deployed (docker/Dockerfile).
"""

from __future__ import annotations

import json
import subprocess
from urllib.parse import quote

import pytest

from search.engine.fulltext import MAX_QUERY_CHARS
from tests.factories import ContentTypeFactory, WorkspaceFactory, api_key_make, entry_make
from tests.servers import raw_http_get, serving

pytestmark = pytest.mark.django_db(transaction=True)

PATH = b"/api/v1/workspaces/acme/search/entries?q="


@pytest.fixture
def refund_entry_and_key():
    workspace = WorkspaceFactory(slug="acme")
    entry = entry_make(ContentTypeFactory(workspace=workspace, api_id="article"), title="返品ポリシー")
    return entry, {"Authorization": f"Bearer {api_key_make(workspace)[1]}"}


@pytest.fixture(scope="module")
def runserver_port(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), serving("runserver") as port:
        yield port


@pytest.fixture(scope="module")
def gunicorn_port(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), serving("gunicorn") as port:
        yield port


def test_runserver_reads_raw_utf8_query_string(runserver_port, refund_entry_and_key):
    entry, headers = refund_entry_and_key

    status, body = raw_http_get(runserver_port, PATH + "返品".encode(), headers)

    assert status == 200
    assert [hit["id"] for hit in json.loads(body)["results"]] == [entry.pk]


def test_runserver_refuses_raw_invalid_utf8_with_its_code(runserver_port, refund_entry_and_key):
    _, headers = refund_entry_and_key

    status, body = raw_http_get(runserver_port, PATH + b"\xe8\xbf", headers)

    assert (status, json.loads(body)["code"]) == (400, "query_invalid_encoding")


def test_runserver_reads_percent_encoded_query_string(runserver_port, refund_entry_and_key):
    entry, headers = refund_entry_and_key

    status, body = raw_http_get(runserver_port, PATH + quote("返品").encode(), headers)

    assert [hit["id"] for hit in json.loads(body)["results"]] == [entry.pk]


def test_gunicorn_reads_percent_encoded_query_string(gunicorn_port, refund_entry_and_key):
    entry, headers = refund_entry_and_key

    status, body = raw_http_get(gunicorn_port, PATH + quote("返品").encode(), headers)

    assert status == 200
    assert [hit["id"] for hit in json.loads(body)["results"]] == [entry.pk]


def test_gunicorn_reads_raw_utf8_in_the_request_line(gunicorn_port, refund_entry_and_key):
    entry, headers = refund_entry_and_key

    status, body = raw_http_get(gunicorn_port, PATH + "返品".encode(), headers)

    # Run from the repository's root, gunicorn reads gunicorn.conf.py by itself.
    assert status == 200
    assert [hit["id"] for hit in json.loads(body)["results"]] == [entry.pk]


@pytest.fixture(scope="module")
def deployed_gunicorn_port(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), serving("gunicorn-deployed") as port:
        yield port


def test_longest_valid_query_fits_the_request_line_of_gunicorn_as_deployed(deployed_gunicorn_port,
                                                                           refund_entry_and_key):
    # Found by the fuzzer: 500 kana percent-encode to 4,500 bytes, past gunicorn's default
    # 4,094, which answered its own HTML 414 to a request the API documents as valid.
    entry, headers = refund_entry_and_key
    query = "返品ポリシー" + "あ" * (MAX_QUERY_CHARS - 6)

    status, body = raw_http_get(deployed_gunicorn_port, PATH + quote(query).encode()
                                + b"&content_type=article&status=published&limit=100&offset=0", headers)

    assert status == 200, body[:200]
    assert json.loads(body)["results"] == []


def test_query_too_long_through_gunicorn_as_deployed_is_the_apis_400(deployed_gunicorn_port, refund_entry_and_key):
    _, headers = refund_entry_and_key

    status, body = raw_http_get(deployed_gunicorn_port, PATH + quote("あ" * (MAX_QUERY_CHARS + 1)).encode(), headers)

    assert (status, json.loads(body)["code"]) == (400, "query_too_long")


# --- gunicorn's own refusals, as deployed: the API's error shape, not gunicorn's HTML page ----------

def test_a_request_line_over_gunicorns_limit_is_a_coded_414(deployed_gunicorn_port, refund_entry_and_key):
    # A random fuzz seed found it: an 8,312-byte URL (a query and a filter past their own
    # limits) got gunicorn's HTML 414, the one refusal without a code.
    _, headers = refund_entry_and_key

    status, body = raw_http_get(deployed_gunicorn_port, PATH + b"x" * 9_000, headers)

    assert status == 414
    assert json.loads(body)["code"] == "uri_too_long"
    assert "8190" in json.loads(body)["message"]


def test_a_header_over_gunicorns_limit_is_a_coded_431(deployed_gunicorn_port, refund_entry_and_key):
    _, headers = refund_entry_and_key

    status, body = raw_http_get(deployed_gunicorn_port, PATH + b"refund", {**headers, "X-Padding": "p" * 9_000})

    assert (status, json.loads(body)["code"]) == (431, "headers_too_large")


def _answer(body: bytes) -> dict:
    """A search's JSON answer without its search_id (each search has its own)."""
    answer = json.loads(body)
    answer["meta"].pop("search_id")
    return answer


def test_raw_utf8_as_deployed_answers_as_the_percent_encoded_query(deployed_gunicorn_port, refund_entry_and_key):
    entry, headers = refund_entry_and_key

    raw = raw_http_get(deployed_gunicorn_port, PATH + "返品".encode(), headers)
    encoded = raw_http_get(deployed_gunicorn_port, PATH + quote("返品").encode(), headers)

    assert raw[0] == encoded[0] == 200
    assert _answer(raw[1]) == _answer(encoded[1])
    assert [hit["id"] for hit in json.loads(raw[1])["results"]] == [entry.pk]


def test_curl_with_a_raw_japanese_query_as_deployed(deployed_gunicorn_port, refund_entry_and_key):
    """The command a Japanese developer types first, as typed: curl sends the bytes unencoded."""
    entry, headers = refund_entry_and_key
    url = f"http://127.0.0.1:{deployed_gunicorn_port}{PATH.decode()}返品"

    typed = subprocess.run(["curl", "-sS", "-H", f"Authorization: {headers['Authorization']}", url],
                           capture_output=True, check=True, timeout=30)
    encoded = subprocess.run(["curl", "-sS", "-G", "--data-urlencode", "q=返品", "-H",
                              f"Authorization: {headers['Authorization']}",
                              url.split("?")[0]], capture_output=True, check=True, timeout=30)

    assert _answer(typed.stdout) == _answer(encoded.stdout)
    assert [hit["id"] for hit in json.loads(typed.stdout)["results"]] == [entry.pk]


def test_raw_invalid_utf8_as_deployed_is_the_apis_coded_400(deployed_gunicorn_port, refund_entry_and_key):
    _, headers = refund_entry_and_key

    status, body = raw_http_get(deployed_gunicorn_port, PATH + b"\xe8\xbf", headers)

    assert (status, json.loads(body)["code"]) == (400, "query_invalid_encoding")
    assert json.loads(body)["message"] == "The query string is not valid UTF-8."


def test_controls_in_the_request_line_are_still_refused_as_deployed(deployed_gunicorn_port, refund_entry_and_key):
    _, headers = refund_entry_and_key

    status, body = raw_http_get(deployed_gunicorn_port, PATH + "返品\x01".encode(), headers)

    assert (status, json.loads(body)["code"]) == (400, "invalid_request")
