"""Health details (database version, extensions, broker, embedding model) go only to superusers
and to callers presenting HEALTH_TOKEN: a staff member of one workspace sees `ok` and `status`."""

from __future__ import annotations

import pytest

from cms.models import Role
from search.operations.health import broker_checks_forget
from tests.factories import MembershipFactory, UserFactory, WorkspaceFactory
from tests.ingestion.conftest import celery_broker

TOKEN = "health-token-for-security-tests-0123456789"
SUMMARY = {"ok": True, "status": "ok"}


@pytest.fixture(autouse=True)
def _memory_broker(settings):
    settings.HEALTH_TOKEN = TOKEN
    broker_checks_forget()
    with celery_broker("memory://"):
        yield
    broker_checks_forget()


def _staff_member(role: str):
    user = UserFactory(username=f"staff-{role}", is_staff=True)
    MembershipFactory(user=user, workspace=WorkspaceFactory(slug="acme"), role=role)
    return user


def test_anonymous_caller_sees_no_details(client, db):
    assert client.get("/api/health").json() == SUMMARY


@pytest.mark.parametrize("role", [Role.VIEWER, Role.EDITOR, Role.OWNER])
def test_staff_member_of_a_workspace_sees_no_details(client, db, role):
    client.force_login(_staff_member(role))
    response = client.get("/api/health")
    assert response.status_code == 200
    assert response.json() == SUMMARY


def test_staff_without_any_workspace_sees_no_details(client, db):
    client.force_login(UserFactory(username="staff-alone", is_staff=True))
    assert client.get("/api/health").json() == SUMMARY


def test_superuser_session_sees_details(client, db):
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    body = client.get("/api/health").json()
    assert body["database"]["server_version"]
    assert body["database"]["extensions"]["vector"]
    assert body["broker"] == {"ok": True, "transport": "memory"}


def test_inactive_superuser_session_sees_no_details(client, db):
    root = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(root)
    root.is_active = False
    root.save()
    assert client.get("/api/health").json() == SUMMARY


def test_health_token_sees_details_without_a_session(client, db):
    body = client.get("/api/health", headers={"Authorization": f"Bearer {TOKEN}"}).json()
    assert body["database"]["server_version"]


def test_staff_member_with_the_health_token_sees_details(client, db):
    client.force_login(_staff_member(Role.VIEWER))
    body = client.get("/api/health", headers={"X-Health-Token": TOKEN}).json()
    assert body["database"]["server_version"]
