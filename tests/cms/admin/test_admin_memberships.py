"""Owners manage their workspaces' memberships, naming users by exact username or e-mail."""

from __future__ import annotations

import pytest

from cms.models import Membership, Role
from tests.factories import MembershipFactory, UserFactory, WorkspaceFactory


@pytest.fixture
def acme(db):
    return WorkspaceFactory(slug="acme", name="Acme")


@pytest.fixture
def globex(db):
    return WorkspaceFactory(slug="globex", name="Globex")


@pytest.fixture
def owner(acme, globex):
    """Owner of acme, only an editor in globex."""
    user = UserFactory(username="owner")
    MembershipFactory(user=user, workspace=acme, role=Role.OWNER)
    MembershipFactory(user=user, workspace=globex, role=Role.EDITOR)
    return user


@pytest.fixture
def outsider(db):
    return UserFactory(username="outsider-zq", email="Outsider.ZQ@example.com")


@pytest.fixture
def owner_client(client, owner):
    client.force_login(owner)
    return client


def add(client, workspace, user: str, role: str = "editor"):
    return client.post("/admin/cms/membership/add/", {"workspace": workspace.pk, "user": user, "role": role})


def test_membership_form_lists_no_users(owner_client, outsider):
    page = owner_client.get("/admin/cms/membership/add/").content.decode()
    assert "outsider-zq" not in page
    assert '<select name="user"' not in page


def test_owner_adds_a_member_by_exact_username(owner_client, acme, outsider):
    assert add(owner_client, acme, "outsider-zq").status_code == 302
    assert Membership.objects.get(user=outsider).workspace == acme


def test_owner_adds_a_member_by_email_in_any_case(owner_client, acme, outsider):
    assert add(owner_client, acme, "outsider.zq@EXAMPLE.com", role="viewer").status_code == 302
    assert Membership.objects.get(user=outsider).role == Role.VIEWER


def test_partial_username_is_not_a_match(owner_client, acme, outsider):
    response = add(owner_client, acme, "outsider")
    assert response.status_code == 200
    assert "No user has the username or e-mail" in response.content.decode()
    assert not Membership.objects.filter(user=outsider).exists()


def test_unknown_user_is_a_form_error(owner_client, acme):
    response = add(owner_client, acme, "nobody@example.com")
    assert response.status_code == 200
    assert "No user has the username or e-mail" in response.content.decode()


def test_unknown_role_is_a_form_error(owner_client, acme, outsider):
    response = add(owner_client, acme, "outsider-zq", role="admin")
    assert response.status_code == 200
    assert not Membership.objects.filter(user=outsider).exists()


def test_existing_member_is_a_form_error_not_a_500(owner_client, acme, owner):
    response = add(owner_client, acme, "owner")
    assert response.status_code == 200
    assert Membership.objects.get(user=owner, workspace=acme).role == Role.OWNER


def test_owner_cannot_add_members_where_they_only_edit(owner_client, globex, outsider):
    response = add(owner_client, globex, "outsider-zq")
    assert response.status_code == 200
    assert not Membership.objects.filter(user=outsider).exists()


def test_membership_workspace_choices_are_owned_workspaces(owner_client, acme):
    form = owner_client.get("/admin/cms/membership/add/").context["adminform"].form
    assert list(form.fields["workspace"].queryset) == [acme]


def test_editor_cannot_change_a_role(client, globex, owner):
    editor = UserFactory(username="ed")
    membership = MembershipFactory(user=editor, workspace=globex, role=Role.EDITOR)
    client.force_login(editor)
    response = client.post(f"/admin/cms/membership/{membership.pk}/change/", {"role": "owner"})
    assert response.status_code == 403
    membership.refresh_from_db()
    assert membership.role == Role.EDITOR


def test_owner_changes_a_role_but_not_the_user_or_workspace(owner_client, acme, globex, outsider):
    membership = MembershipFactory(user=outsider, workspace=acme, role=Role.EDITOR)
    owner_client.post(
        f"/admin/cms/membership/{membership.pk}/change/", {"role": "viewer", "workspace": globex.pk, "user": "owner"}
    )
    membership.refresh_from_db()
    assert (membership.role, membership.workspace_id, membership.user_id) == (Role.VIEWER, acme.pk, outsider.pk)
