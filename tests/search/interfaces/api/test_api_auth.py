"""Who may call the search API: Bearer API keys, members' sessions, 401 against 404, rate limits."""

from __future__ import annotations

import datetime

import pytest
import redis
from django.core.cache import caches
from django.utils import timezone
from rest_framework.test import APIClient

from cms.models import ApiKey, Role
from cms.services import api_key_revoke
from tests.factories import ContentTypeFactory, MembershipFactory, UserFactory, api_key_make, bearer, entry_make

pytestmark = pytest.mark.django_db

ENTRIES = "/api/v1/workspaces/{slug}/search/entries?q=refund"
SEMANTIC = "/api/v1/workspaces/{slug}/search/semantic"


@pytest.fixture(autouse=True)
def _fresh_throttle_counts():
    caches["throttle"].clear()
    yield
    caches["throttle"].clear()


@pytest.fixture
def refund(article_type):
    return entry_make(article_type, title="Refund policy")


def search(client, secret: str | None = None, slug: str = "acme"):
    return client.get(ENTRIES.format(slug=slug), **(bearer(secret) if secret else {}))


def test_key_finds_its_workspaces_entries(client, workspace, refund):
    _, secret = api_key_make(workspace)

    response = search(client, secret)

    assert [hit["id"] for hit in response.json()["results"]] == [refund.pk]


def test_missing_credentials_get_401_with_a_bearer_challenge(client, workspace):
    response = search(client)

    assert (response.status_code, response.json()["code"]) == (401, "not_authenticated")
    assert response["WWW-Authenticate"] == 'Bearer realm="cms"'


@pytest.mark.parametrize("header", ["Bearer", "Bearer not-a-key", "Bearer cms_000000000000_" + "a" * 43,
                                    "bearer cms_zz_zz"])
def test_invalid_key_gets_401_invalid_api_key(client, workspace, header):
    response = client.get(ENTRIES.format(slug="acme"), HTTP_AUTHORIZATION=header)

    assert (response.status_code, response.json()["code"]) == (401, "invalid_api_key")
    assert response["WWW-Authenticate"].startswith('Bearer realm="cms", error="invalid_token"')


def test_expired_key_gets_401_api_key_expired(client, workspace):
    api_key, secret = api_key_make(workspace, expires_at=timezone.now() + datetime.timedelta(days=1))
    ApiKey.objects.filter(pk=api_key.pk).update(expires_at=timezone.now() - datetime.timedelta(seconds=1))

    response = search(client, secret)

    assert (response.status_code, response.json()["code"]) == (401, "api_key_expired")
    assert 'error="invalid_token"' in response["WWW-Authenticate"]


def test_revoked_key_gets_401_api_key_revoked(client, workspace):
    api_key, secret = api_key_make(workspace)
    api_key_revoke(api_key=api_key)

    response = search(client, secret)

    assert (response.status_code, response.json()["code"]) == (401, "api_key_revoked")


def test_old_token_scheme_is_not_a_credential(client, workspace):
    response = client.get(ENTRIES.format(slug="acme"), HTTP_AUTHORIZATION="Token 0123456789abcdef")

    assert (response.status_code, response.json()["code"]) == (401, "not_authenticated")


def test_valid_key_on_another_workspace_is_404_like_a_missing_one(client, workspace, other_workspace):
    _, secret = api_key_make(workspace)

    theirs, missing = search(client, secret, slug="globex"), search(client, secret, slug="no-such-workspace")

    assert (theirs.status_code, theirs.json()) == (404, missing.json())
    assert theirs.json() == {"code": "not_found", "message": "No such workspace."}


def test_valid_key_on_another_workspace_is_404_for_semantic_search_too(client, workspace, other_workspace):
    _, secret = api_key_make(workspace)

    response = client.post(SEMANTIC.format(slug="globex"), {"query": "refund"}, content_type="application/json",
                           **bearer(secret))

    assert response.status_code == 404


def test_key_never_sees_another_workspaces_entries(client, workspace, other_workspace, refund):
    entry_make(ContentTypeFactory(workspace=other_workspace, api_id="article"), title="Globex refund")
    _, theirs = api_key_make(other_workspace)

    ids = [hit["id"] for hit in search(client, theirs, slug="globex").json()["results"]]

    assert refund.pk not in ids and len(ids) == 1


def test_superuser_session_still_reaches_every_workspace(client, superuser, workspace, refund):
    client.force_login(superuser)

    assert search(client).status_code == 200


@pytest.mark.parametrize(("role", "sees_draft"), [(Role.VIEWER, False), (Role.EDITOR, True), (Role.OWNER, True)])
def test_session_member_keeps_their_role(client, workspace, article_type, role, sees_draft):
    user = UserFactory()
    MembershipFactory(user=user, workspace=workspace, role=role)
    draft = entry_make(article_type, status="draft", title="Refund draft")
    client.force_login(user)

    ids = [hit["id"] for hit in search(client).json()["results"]]

    assert (draft.pk in ids) is sees_draft


def test_error_messages_are_plain_sentences(client, workspace):
    _, secret = api_key_make(workspace)

    body = search(client, secret, slug="globex").json()

    assert body["message"] == "No such workspace."


# --- throttling -----------------------------------------------------------------------------

def test_key_over_its_rate_gets_429_with_retry_after(client, settings, workspace, refund):
    settings.API_RATE_LIMIT_KEY = "3/min"
    _, secret = api_key_make(workspace)

    statuses = [search(client, secret).status_code for _ in range(3)]
    throttled = search(client, secret)

    assert statuses == [200, 200, 200]
    assert (throttled.status_code, throttled.json()["code"]) == (429, "throttled")
    assert 0 < int(throttled["Retry-After"]) <= 60


def test_each_key_has_its_own_count(client, settings, workspace, refund):
    settings.API_RATE_LIMIT_KEY = "1/min"
    _, first = api_key_make(workspace)
    _, second = api_key_make(workspace)

    assert [search(client, first).status_code, search(client, second).status_code] == [200, 200]
    assert search(client, first).status_code == 429


def test_user_over_their_rate_gets_429(client, settings, editor, refund):
    settings.API_RATE_LIMIT_USER = "2/min"
    client.force_login(editor)

    statuses = [search(client).status_code for _ in range(3)]

    assert statuses == [200, 200, 429]


# Redis db 5, which caches["throttle"].clear() empties: the other test on it (test_api_auth.py,
# test_auth_throttle.py) runs on the same xdist worker, never at the same time.
@pytest.mark.xdist_group("throttle_redis_db5")
def test_throttle_counts_are_shared_through_redis(settings, workspace, refund):
    """With THROTTLE_CACHE_URL set (production), every worker's count is one count in Redis."""
    settings.CACHES = {**settings.CACHES, "throttle": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://127.0.0.1:6379/5"}}
    settings.API_RATE_LIMIT_KEY = "2/min"
    caches["throttle"].clear()
    api_key, secret = api_key_make(workspace)

    statuses = [search(APIClient(), secret).status_code for _ in range(3)]

    assert statuses == [200, 200, 429]
    # The count lives in Redis, where any other process reads it.
    stored = redis.Redis(host="127.0.0.1", port=6379, db=5).keys(f"*throttle:api_key:{api_key.prefix}:*")
    assert len(stored) == 1
    caches["throttle"].clear()


@pytest.mark.django_db(transaction=True)
def test_racing_workers_never_undercount(settings, workspace, refund):
    """Requests from several threads at once are each counted: the limit holds exactly."""
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connections

    settings.API_RATE_LIMIT_KEY = "10/min"
    _, secret = api_key_make(workspace)

    def one(_):
        try:
            return search(APIClient(), secret).status_code
        finally:
            connections.close_all()

    with ThreadPoolExecutor(8) as pool:
        statuses = list(pool.map(one, range(30)))

    assert statuses.count(200) == 10 and statuses.count(429) == 20


def test_empty_rate_turns_the_limit_off(client, settings, workspace, refund):
    settings.API_RATE_LIMIT_KEY = ""
    _, secret = api_key_make(workspace)

    assert {search(client, secret).status_code for _ in range(5)} == {200}
