"""The read policy: which callers see drafts in which workspace (cms/access.py)."""

from __future__ import annotations

import pytest

from cms.access import (
    WorkspaceNotFound,
    entry_visibility_q,
    workspace_access_for_member,
    workspace_access_for_operator,
    workspace_access_for_user,
    workspace_accesses_for_user,
)
from cms.models import Entry, EntryStatus, Role
from tests.factories import ContentTypeFactory, MembershipFactory, UserFactory, entry_make

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("role", "sees_drafts"), [(Role.OWNER, True), (Role.EDITOR, True), (Role.VIEWER, False)])
def test_role_decides_whether_drafts_are_visible(workspace, role, sees_drafts):
    user = UserFactory()
    MembershipFactory(user=user, workspace=workspace, role=role)

    access = workspace_access_for_user(user=user, slug="acme")

    assert access.include_drafts is sees_drafts
    assert access.role == role


def test_superuser_counts_as_owner_everywhere(superuser, workspace):
    access = workspace_access_for_user(user=superuser, slug="acme")

    assert access.role == Role.OWNER and access.include_drafts


def test_non_member_and_missing_workspace_are_the_same_not_found(workspace, other_workspace):
    user = UserFactory()
    MembershipFactory(user=user, workspace=workspace)

    with pytest.raises(WorkspaceNotFound):
        workspace_access_for_user(user=user, slug="globex")
    with pytest.raises(WorkspaceNotFound):
        workspace_access_for_user(user=user, slug="no-such-workspace")


def test_inactive_member_has_no_access(workspace):
    user = UserFactory(is_active=False)
    MembershipFactory(user=user, workspace=workspace)

    assert workspace_access_for_member(user=user, workspace=workspace) is None


def test_accesses_list_each_workspace_with_its_own_role(workspace, other_workspace):
    user = UserFactory()
    MembershipFactory(user=user, workspace=workspace, role=Role.EDITOR)
    MembershipFactory(user=user, workspace=other_workspace, role=Role.VIEWER)

    accesses = {a.workspace.slug: a.include_drafts for a in workspace_accesses_for_user(user=user)}

    assert accesses == {"acme": True, "globex": False}


def test_operator_sees_drafts_unless_told_not_to(workspace):
    assert workspace_access_for_operator(workspace=workspace).include_drafts
    assert not workspace_access_for_operator(workspace=workspace, include_drafts=False).include_drafts


def test_entry_visibility_hides_drafts_only_where_the_user_is_a_viewer(workspace, other_workspace):
    user = UserFactory()
    MembershipFactory(user=user, workspace=workspace, role=Role.EDITOR)
    MembershipFactory(user=user, workspace=other_workspace, role=Role.VIEWER)
    acme, globex = (ContentTypeFactory(workspace=ws, api_id="note") for ws in (workspace, other_workspace))
    acme_draft = entry_make(acme, status=EntryStatus.DRAFT, title="acme draft")
    globex_draft = entry_make(globex, status=EntryStatus.DRAFT, title="globex draft")
    globex_published = entry_make(globex, title="globex published")

    visible = set(Entry.objects.filter(entry_visibility_q(user=user)).values_list("pk", flat=True))

    assert visible == {acme_draft.pk, globex_published.pk}
    assert globex_draft.pk not in visible
