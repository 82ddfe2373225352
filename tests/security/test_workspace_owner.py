"""A workspace always keeps an owner: its last owner can be neither demoted nor removed, by the
admin's change form, delete page or bulk delete, by the services, by deleting the user, or by
a raw write (a deferred constraint trigger). Deleting the whole workspace stays possible."""

from __future__ import annotations

import threading

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.models import ProtectedError
from django.test.utils import CaptureQueriesContext

from cms import services
from cms.models import Membership, Role, Workspace
from tests.factories import MembershipFactory, UserFactory, WorkspaceFactory

LAST_OWNER = "the last owner of Acme"


@pytest.fixture
def acme(db):
    return WorkspaceFactory(slug="acme", name="Acme")


@pytest.fixture
def owner(acme):
    user = UserFactory(username="owner")
    MembershipFactory(user=user, workspace=acme, role=Role.OWNER)
    return user


@pytest.fixture
def ownership(owner, acme):
    return Membership.objects.get(user=owner, workspace=acme)


@pytest.fixture
def owner_client(client, owner):
    client.force_login(owner)
    return client


@pytest.fixture
def root_client(client, db):
    client.force_login(UserFactory(username="root", is_superuser=True))
    return client


def co_owner(acme) -> Membership:
    return MembershipFactory(user=UserFactory(username="co-owner"), workspace=acme, role=Role.OWNER)


def role_of(membership: Membership) -> str | None:
    return Membership.objects.filter(pk=membership.pk).values_list("role", flat=True).first()


def bulk_delete(client, ids: list[int], **extra):
    return client.post("/admin/cms/membership/",
                       {"action": "delete_selected", ACTION_CHECKBOX_NAME: ids, "post": "yes", **extra})


# --- the admin change form ------------------------------------------------------------------

@pytest.mark.parametrize("role", [Role.EDITOR, Role.VIEWER])
def test_last_owner_demoting_themselves_is_a_form_error(owner_client, ownership, role):
    response = owner_client.post(f"/admin/cms/membership/{ownership.pk}/change/", {"role": role})
    assert response.status_code == 200
    assert LAST_OWNER in " ".join(response.context["adminform"].form.errors["role"])
    assert role_of(ownership) == Role.OWNER


def test_superuser_demoting_the_last_owner_is_a_form_error(root_client, ownership):
    response = root_client.post(f"/admin/cms/membership/{ownership.pk}/change/", {"role": Role.VIEWER})
    assert response.status_code == 200
    assert LAST_OWNER in response.content.decode()
    assert role_of(ownership) == Role.OWNER


def test_an_owner_may_step_down_while_another_owner_remains(owner_client, acme, ownership):
    co_owner(acme)
    response = owner_client.post(f"/admin/cms/membership/{ownership.pk}/change/", {"role": Role.EDITOR})
    assert response.status_code == 302
    assert role_of(ownership) == Role.EDITOR


# --- the admin delete page ------------------------------------------------------------------

def test_delete_page_of_the_last_owner_says_why_it_cannot(owner_client, ownership):
    page = owner_client.get(f"/admin/cms/membership/{ownership.pk}/delete/")
    assert page.status_code == 200
    assert LAST_OWNER in page.content.decode()
    assert page.context["protected"]  # the admin offers no "Yes, I'm sure" button


def test_confirmed_delete_of_the_last_owner_deletes_nothing(owner_client, ownership):
    response = owner_client.post(f"/admin/cms/membership/{ownership.pk}/delete/", {"post": "yes"})
    assert response.status_code == 200
    assert LAST_OWNER in response.content.decode()
    assert role_of(ownership) == Role.OWNER


def test_superuser_confirmed_delete_of_the_last_owner_deletes_nothing(root_client, ownership):
    root_client.post(f"/admin/cms/membership/{ownership.pk}/delete/", {"post": "yes"})
    assert role_of(ownership) == Role.OWNER


def test_delete_page_removes_an_owner_while_another_remains(owner_client, acme, ownership):
    other = co_owner(acme)
    response = owner_client.post(f"/admin/cms/membership/{other.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert role_of(other) is None


# --- the admin bulk delete ------------------------------------------------------------------

def test_bulk_delete_of_the_last_owner_deletes_nothing(owner_client, acme, ownership):
    editor = MembershipFactory(workspace=acme, role=Role.EDITOR)
    response = bulk_delete(owner_client, [ownership.pk, editor.pk])
    assert response.status_code == 200
    assert LAST_OWNER in response.content.decode()
    assert (role_of(ownership), role_of(editor)) == (Role.OWNER, Role.EDITOR)


def test_bulk_delete_of_every_owner_at_once_deletes_nothing(owner_client, acme, ownership):
    other = co_owner(acme)
    bulk_delete(owner_client, [ownership.pk, other.pk])
    assert (role_of(ownership), role_of(other)) == (Role.OWNER, Role.OWNER)


def test_bulk_delete_across_all_rows_keeps_the_owner(root_client, acme, ownership):
    viewer = MembershipFactory(workspace=acme, role=Role.VIEWER)
    # The admin posts the ids shown on the page, and select_across for every row beyond them.
    bulk_delete(root_client, [viewer.pk], select_across="1")
    assert Membership.objects.count() == 2


def test_bulk_delete_of_one_of_two_owners_is_done(owner_client, acme, ownership):
    other = co_owner(acme)
    response = bulk_delete(owner_client, [other.pk])
    assert response.status_code == 302
    assert role_of(other) is None and role_of(ownership) == Role.OWNER


# --- the services ---------------------------------------------------------------------------

def test_service_refuses_to_demote_the_last_owner(acme, owner, ownership):
    with pytest.raises(ValidationError, match=LAST_OWNER) as raised:
        services.membership_set(workspace=acme, user=owner, role=Role.EDITOR)
    assert [error.code for error in raised.value.error_dict["role"]] == ["last_owner"]
    assert role_of(ownership) == Role.OWNER


def test_service_refuses_to_delete_the_last_owner(ownership):
    with pytest.raises(ValidationError, match=LAST_OWNER):
        services.membership_delete(membership=ownership)
    assert role_of(ownership) == Role.OWNER


def test_service_refuses_to_delete_every_owner_at_once(acme, ownership):
    other = co_owner(acme)
    with pytest.raises(ValidationError, match="co-owner and owner are the last owners of Acme"):
        services.membership_delete_many(memberships=Membership.objects.filter(pk__in=[ownership.pk, other.pk]))
    assert (role_of(ownership), role_of(other)) == (Role.OWNER, Role.OWNER)


def test_service_deletes_an_owner_while_another_remains(acme, ownership):
    other = co_owner(acme)
    services.membership_delete(membership=other)
    assert role_of(other) is None


# --- deleting users and workspaces ----------------------------------------------------------

def test_deleting_the_last_owner_user_is_refused(owner, ownership):
    with pytest.raises(ProtectedError):
        owner.delete()
    assert role_of(ownership) == Role.OWNER


def test_superuser_deleting_the_last_owner_user_in_the_admin_is_refused(root_client, owner, ownership):
    response = root_client.post(f"/admin/auth/user/{owner.pk}/delete/", {"post": "yes"})
    assert response.status_code == 200
    assert "owner @ acme (owner)" in response.content.decode()
    assert get_user_model().objects.filter(pk=owner.pk).exists()


def test_deleting_a_user_who_is_not_the_last_owner_is_done(acme, owner):
    other = co_owner(acme)
    other.user.delete()
    assert role_of(other) is None


def test_deleting_every_owner_user_at_once_is_refused(acme, owner):
    other = co_owner(acme)
    with pytest.raises(ProtectedError):
        get_user_model().objects.filter(pk__in=[owner.pk, other.user_id]).delete()


def test_superuser_deletes_a_whole_workspace_with_its_owner(root_client, acme, ownership):
    response = root_client.post(f"/admin/cms/workspace/{acme.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not Workspace.objects.filter(pk=acme.pk).exists()
    assert role_of(ownership) is None


# --- the database ---------------------------------------------------------------------------

def _checked_now():
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")


def test_database_refuses_a_raw_demotion_of_the_last_owner(ownership):
    with pytest.raises(IntegrityError, match="no owner"), transaction.atomic():
        Membership.objects.filter(pk=ownership.pk).update(role=Role.VIEWER)
        _checked_now()


def test_database_refuses_a_raw_delete_of_the_last_owner(ownership):
    with pytest.raises(IntegrityError, match="no owner"), transaction.atomic():
        Membership.objects.filter(pk=ownership.pk)._raw_delete(connection.alias)
        _checked_now()


def test_database_allows_deleting_a_workspace_with_its_owners(acme, ownership):
    with transaction.atomic():
        acme.delete()
        _checked_now()
    assert role_of(ownership) is None


def test_deleting_a_user_reads_memberships_a_fixed_number_of_times(acme, owner):
    co_owner(acme)
    for slug in ("b", "c", "d", "e"):
        MembershipFactory(user=owner, workspace=WorkspaceFactory(slug=slug), role=Role.VIEWER)
    with CaptureQueriesContext(connection) as queries:
        owner.delete()
    reads = [sql for sql in (q["sql"] for q in queries.captured_queries)
             if sql.startswith("SELECT") and "cms_membership" in sql]
    # The user's memberships (ids), their owner rows, the owners kept: not one per membership.
    assert len(reads) == 3, reads
    assert not Membership.objects.filter(user_id=owner.pk).exists()


@pytest.mark.django_db(transaction=True)
def test_two_owners_demoting_each_other_at_once_leave_one_owner():
    acme = WorkspaceFactory(slug="acme", name="Acme")
    first = MembershipFactory(user=UserFactory(username="first"), workspace=acme, role=Role.OWNER)
    second = MembershipFactory(user=UserFactory(username="second"), workspace=acme, role=Role.OWNER)
    demoted, release = threading.Event(), threading.Event()
    outcome: dict[str, object] = {}

    def demote_second_and_hold() -> None:
        try:
            with transaction.atomic():
                services.membership_set(workspace=acme, user=second.user, role=Role.EDITOR)
                demoted.set()
                release.wait(10)
            outcome["first"] = "done"
        finally:
            connection.close()

    def demote_first() -> None:
        try:
            services.membership_set(workspace=acme, user=first.user, role=Role.EDITOR)
            outcome["second"] = "done"
        except Exception as exc:  # noqa: BLE001 - the kind of refusal is what is tested
            outcome["second"] = exc
        finally:
            connection.close()

    holder = threading.Thread(target=demote_second_and_hold)
    holder.start()
    assert demoted.wait(10)
    racer = threading.Thread(target=demote_first)
    racer.start()
    racer.join(1)  # it waits for the workspace lock the holder keeps
    release.set()
    holder.join(10)
    racer.join(10)

    assert outcome["first"] == "done"
    assert isinstance(outcome["second"], ValidationError), outcome["second"]
    assert (role_of(first), role_of(second)) == (Role.OWNER, Role.EDITOR)
