"""Workspace API keys: what is stored, how a key is checked, expiry, revocation, last use,
and the commands and admin page that hand them out."""

from __future__ import annotations

import datetime
import hashlib
import hmac
import json
import re
from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from cms.api_keys import ApiKeyRejected, api_key_check
from cms.models import ApiKey, Role
from cms.services import api_key_authenticate, api_key_create, api_key_revoke, api_key_touch
from tests.factories import MembershipFactory, UserFactory, api_key_make

pytestmark = pytest.mark.django_db

KEY_FORMAT = re.compile(r"^cms_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$")


def rejection_code(raw_key: str) -> str:
    with pytest.raises(ApiKeyRejected) as rejected:
        api_key_check(raw_key)
    return rejected.value.code


def test_key_reads_cms_prefix_secret(workspace):
    api_key, secret = api_key_make(workspace)

    assert KEY_FORMAT.match(secret)
    assert secret.startswith(f"cms_{api_key.prefix}_")


def test_only_a_keyed_hmac_of_the_secret_is_stored(workspace, settings):
    api_key, secret = api_key_make(workspace)
    _, prefix, raw_secret = secret.split("_", 2)

    row = ApiKey.objects.values().get(pk=api_key.pk)

    expected = hmac.new(settings.API_KEY_HASH_SECRET.encode(), f"{prefix}.{raw_secret}".encode(), hashlib.sha256)
    assert row["secret_hash"] == expected.hexdigest()
    assert raw_secret not in json.dumps(row, default=str)
    assert row["secret_hash"] != hashlib.sha256(raw_secret.encode()).hexdigest()  # keyed, not a plain digest


def test_changing_the_hash_secret_invalidates_keys(workspace, settings):
    _, secret = api_key_make(workspace)
    settings.API_KEY_HASH_SECRET = "another server secret"

    assert rejection_code(secret) == "invalid_api_key"


def test_valid_key_is_accepted(workspace):
    api_key, secret = api_key_make(workspace)

    assert api_key_check(secret).pk == api_key.pk


def test_wrong_secret_unknown_prefix_and_garbage_get_the_same_answer(workspace):
    api_key, secret = api_key_make(workspace)
    wrong_secret = secret[:-1] + ("A" if secret[-1] != "A" else "B")
    unknown_prefix = f"cms_{'0' * 12}_{secret.split('_', 2)[2]}"

    codes = {rejection_code(raw) for raw in (wrong_secret, unknown_prefix, "garbage", "", secret + "x")}

    assert codes == {"invalid_api_key"}


def test_expired_key_is_refused_as_expired(workspace):
    api_key, secret = api_key_make(workspace, expires_at=timezone.now() + datetime.timedelta(days=1))
    ApiKey.objects.filter(pk=api_key.pk).update(expires_at=timezone.now() - datetime.timedelta(seconds=1))

    assert rejection_code(secret) == "api_key_expired"


def test_key_is_valid_until_it_expires(workspace):
    _, secret = api_key_make(workspace, expires_at=timezone.now() + datetime.timedelta(minutes=5))

    assert api_key_check(secret)


def test_revoked_key_is_refused_as_revoked(workspace):
    api_key, secret = api_key_make(workspace)
    api_key_revoke(api_key=api_key)

    assert rejection_code(secret) == "api_key_revoked"


def test_revoking_twice_keeps_the_first_time(workspace):
    api_key, _ = api_key_make(workspace)
    first = api_key_revoke(api_key=api_key).revoked_at

    assert api_key_revoke(api_key=api_key).revoked_at == first


def test_expired_or_revoked_is_told_only_with_the_right_secret(workspace):
    api_key, secret = api_key_make(workspace)
    api_key_revoke(api_key=api_key)

    assert rejection_code(secret[:-1] + ("A" if secret[-1] != "A" else "B")) == "invalid_api_key"


def test_key_needs_a_name(workspace):
    with pytest.raises(ValidationError):
        api_key_create(workspace=workspace, name="  ")


def test_key_cannot_be_created_already_expired(workspace):
    with pytest.raises(ValidationError):
        api_key_create(workspace=workspace, name="late", expires_at=timezone.now() - datetime.timedelta(seconds=1))


def count_updates(fn) -> int:
    with CaptureQueriesContext(connection) as queries:
        fn()
    return sum(1 for q in queries.captured_queries if q["sql"].lstrip().upper().startswith("UPDATE"))


def test_first_use_records_last_used_at(workspace):
    api_key, secret = api_key_make(workspace)

    assert count_updates(lambda: api_key_authenticate(raw_key=secret)) == 1
    assert ApiKey.objects.get(pk=api_key.pk).last_used_at is not None


def test_uses_within_a_minute_write_nothing(workspace, django_assert_num_queries):
    _, secret = api_key_make(workspace)
    api_key_authenticate(raw_key=secret)

    with django_assert_num_queries(1):  # the key's row, read; no UPDATE
        api_key_authenticate(raw_key=secret)


def test_repeated_requests_within_a_minute_make_one_update(workspace):
    _, secret = api_key_make(workspace)

    assert count_updates(lambda: [api_key_authenticate(raw_key=secret) for _ in range(10)]) == 1


def test_use_a_minute_later_records_again(workspace):
    api_key, _ = api_key_make(workspace)
    api_key_touch(api_key=api_key)
    later = api_key.last_used_at + datetime.timedelta(minutes=1, seconds=1)

    assert api_key_touch(api_key=ApiKey.objects.get(pk=api_key.pk), now=later)
    assert ApiKey.objects.get(pk=api_key.pk).last_used_at == later


def test_a_stale_copy_does_not_write_over_a_fresh_touch(workspace):
    api_key, _ = api_key_make(workspace)
    stale = ApiKey.objects.get(pk=api_key.pk)  # loaded before another worker's touch
    api_key_touch(api_key=api_key)

    assert api_key_touch(api_key=stale) is False


# --- commands -------------------------------------------------------------------------------

def test_create_command_prints_the_secret_alone_on_stdout(workspace):
    out, err = StringIO(), StringIO()
    call_command("api_key_create", "acme", "--name", "bot", "--include-drafts", "--expires-in", "30",
                 stdout=out, stderr=err)

    secret = out.getvalue().strip()
    api_key = api_key_check(secret)
    assert (api_key.name, api_key.include_drafts) == ("bot", True)
    assert api_key.expires_at - timezone.now() > datetime.timedelta(days=29)
    assert "cannot be shown again" in err.getvalue()


def test_create_command_refuses_an_unknown_workspace(db):
    with pytest.raises(CommandError, match="No workspace"):
        call_command("api_key_create", "nope", "--name", "bot")


def test_list_command_shows_prefixes_and_states_never_secrets(workspace):
    active, active_secret = api_key_make(workspace, name="active one")
    revoked, _ = api_key_make(workspace, name="revoked one")
    api_key_revoke(api_key=revoked)
    out = StringIO()

    call_command("api_key_list", "acme", "--json", stdout=out)

    rows = {row["name"]: row for row in json.loads(out.getvalue())}
    assert (rows["active one"]["state"], rows["revoked one"]["state"]) == ("active", "revoked")
    assert rows["active one"]["prefix"] == f"cms_{active.prefix}"
    assert active_secret.split("_", 2)[2] not in out.getvalue()
    assert active.secret_hash not in out.getvalue()


def test_revoke_command_revokes_by_prefix(workspace):
    api_key, secret = api_key_make(workspace)

    call_command("api_key_revoke", f"cms_{api_key.prefix}", stdout=StringIO())

    assert rejection_code(secret) == "api_key_revoked"


def test_revoke_command_refuses_an_unknown_prefix(db):
    with pytest.raises(CommandError, match="No API key"):
        call_command("api_key_revoke", "cms_000000000000")


# --- admin ----------------------------------------------------------------------------------

@pytest.fixture
def owner(workspace):
    user = UserFactory(username="owner")
    MembershipFactory(user=user, workspace=workspace, role=Role.OWNER)
    return user


def test_owner_creates_a_key_in_the_admin_and_sees_its_secret_once(client, owner, workspace):
    client.force_login(owner)

    response = client.post("/admin/cms/apikey/add/",
                           {"workspace": workspace.pk, "name": "support bot", "expires_in_days": "7"})

    secret = re.search(r'value="(cms_[^"]+)"', response.content.decode()).group(1)
    api_key = api_key_check(secret)
    assert (api_key.name, api_key.include_drafts, api_key.created_by) == ("support bot", False, owner)
    assert "no-store" in response["Cache-Control"]
    change_page = client.get(f"/admin/cms/apikey/{api_key.pk}/change/").content.decode()
    listing = client.get("/admin/cms/apikey/").content.decode()
    for page in (change_page, listing):
        assert api_key.prefix in page
        assert secret not in page and api_key.secret_hash not in page


def test_admin_never_stores_the_secret_in_the_session_or_messages(client, owner, workspace):
    client.force_login(owner)

    response = client.post("/admin/cms/apikey/add/", {"workspace": workspace.pk, "name": "bot"})

    secret = re.search(r'value="(cms_[^"]+)"', response.content.decode()).group(1)
    assert secret not in json.dumps(dict(client.session.items()), default=str)
    assert secret not in "".join(c.value for c in response.cookies.values())


def test_owner_revokes_keys_with_the_admin_action(client, owner, workspace):
    api_key, secret = api_key_make(workspace)
    client.force_login(owner)

    client.post("/admin/cms/apikey/", {"action": "revoke_selected", "_selected_action": [api_key.pk]})

    assert rejection_code(secret) == "api_key_revoked"


def test_editor_cannot_see_or_create_keys(client, editor, workspace):
    api_key_make(workspace)
    client.force_login(editor)

    assert client.get("/admin/cms/apikey/").status_code == 403
    assert client.post("/admin/cms/apikey/add/", {"workspace": workspace.pk, "name": "x"}).status_code == 403
    assert not ApiKey.objects.filter(name="x").exists()


def test_owner_sees_only_their_workspaces_keys(client, owner, workspace, other_workspace):
    theirs, _ = api_key_make(other_workspace, name="globex key")
    client.force_login(owner)

    assert "globex key" not in client.get("/admin/cms/apikey/").content.decode()
    assert client.get(f"/admin/cms/apikey/{theirs.pk}/change/").status_code in (302, 403, 404)
    refused = client.post("/admin/cms/apikey/add/", {"workspace": other_workspace.pk, "name": "sneaky"})
    assert not ApiKey.objects.filter(name="sneaky").exists() and refused.status_code == 200  # form error
