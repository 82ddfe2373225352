"""An API key lives at most API_KEY_MAX_LIFETIME_DAYS (ten years): a longer expiry is a form
error, a CommandError or a ValidationError carrying one sentence, never an OverflowError (a 500)."""

from __future__ import annotations

import datetime
from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.utils import timezone

from cms.models import ApiKey, Role
from cms.services import api_key_create
from tests.factories import MembershipFactory, UserFactory, WorkspaceFactory

MESSAGE = "An API key expires between 1 and 3650 days (ten years) from now."


@pytest.fixture
def acme(db):
    return WorkspaceFactory(slug="acme", name="Acme")


@pytest.fixture
def owner_client(client, acme):
    owner = UserFactory(username="owner")
    MembershipFactory(user=owner, workspace=acme, role=Role.OWNER)
    client.force_login(owner)
    return client


def add_key(client, workspace, days: str):
    return client.post("/admin/cms/apikey/add/", {"workspace": workspace.pk, "name": "bot", "expires_in_days": days})


def test_the_bound_is_declared_once_as_ten_years():
    from cms.api_keys import API_KEY_MAX_LIFETIME_DAYS, api_key_expiry_message

    assert API_KEY_MAX_LIFETIME_DAYS == 3650
    assert api_key_expiry_message() == MESSAGE


@pytest.mark.parametrize("days", ["3000000", "3651", "1000000000", "0", "-5"])
def test_admin_add_form_refuses_an_expiry_out_of_bounds_as_a_form_error(owner_client, acme, days):
    response = add_key(owner_client, acme, days)
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["expires_in_days"] == [MESSAGE]
    assert not ApiKey.objects.exists()


def test_admin_add_form_accepts_exactly_ten_years(owner_client, acme):
    response = add_key(owner_client, acme, "3650")
    assert response.status_code == 200 and "API key created" in response.content.decode()
    lifetime = ApiKey.objects.get().expires_at - timezone.now()
    assert datetime.timedelta(days=3649) < lifetime <= datetime.timedelta(days=3650)


@pytest.mark.parametrize("days", ["3000000", "3651", "0"])
def test_create_command_refuses_an_expiry_out_of_bounds_with_the_same_message(acme, days):
    with pytest.raises(CommandError) as raised:
        call_command("api_key_create", "acme", "--name", "bot", "--expires-in", days, stdout=StringIO(),
                     stderr=StringIO())
    assert str(raised.value) == MESSAGE
    assert not ApiKey.objects.exists()


def test_create_command_accepts_exactly_ten_years(acme):
    call_command("api_key_create", "acme", "--name", "bot", "--expires-in", "3650",
                 stdout=StringIO(), stderr=StringIO())
    assert ApiKey.objects.get().expires_at > timezone.now() + datetime.timedelta(days=3649)


def test_service_refuses_an_expiry_past_ten_years(acme):
    too_late = timezone.now() + datetime.timedelta(days=3651)
    with pytest.raises(ValidationError) as raised:
        api_key_create(workspace=acme, name="bot", expires_at=too_late)
    assert raised.value.message_dict == {"expires_at": [MESSAGE]}
    assert not ApiKey.objects.exists()


def test_service_refuses_the_largest_datetime(acme):
    with pytest.raises(ValidationError):
        api_key_create(workspace=acme, name="bot", expires_at=datetime.datetime.max.replace(tzinfo=datetime.UTC))
