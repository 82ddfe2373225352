"""Shared fixtures. Tests run on the real embedded PostgreSQL (or DATABASE_URL)."""

from __future__ import annotations

import logging

import pytest

from tests.factories import ContentTypeFactory, MembershipFactory, UserFactory, WorkspaceFactory


# The fake Voyage server (werkzeug) logs every request from its own thread, sometimes after
# pytest has closed the capture stream; its access log says nothing the tests assert.
logging.getLogger("werkzeug").setLevel(logging.WARNING)


@pytest.fixture(autouse=True)
def _media_in_tmp(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def workspace(db):
    return WorkspaceFactory(slug="acme")


@pytest.fixture
def other_workspace(db):
    return WorkspaceFactory(slug="globex")


@pytest.fixture
def article_type(workspace):
    return ContentTypeFactory(workspace=workspace, api_id="article")


@pytest.fixture
def editor(workspace):
    user = UserFactory(username="editor")
    MembershipFactory(user=user, workspace=workspace)
    return user


@pytest.fixture
def superuser(db):
    return UserFactory(username="root", is_superuser=True)
