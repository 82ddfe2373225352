"""Review item 8: the admin's sign-in locks a username from an address after repeated failures.

Before, it allowed unlimited wrong passwords: 40 in 11 s, then the right one worked.
"""

from __future__ import annotations

import datetime

import pytest
from django.test import Client

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

LOGIN = "/admin/login/?next=/admin/"


@pytest.fixture(autouse=True)
def _lockout(settings):
    settings.AXES_FAILURE_LIMIT = 5
    settings.AXES_COOLOFF_TIME = datetime.timedelta(minutes=15)
    settings.TRUSTED_PROXY_COUNT = 0
    # Each sign-in checks a password: the default hasher's iterations would make this module slow.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def staff(db):
    return UserFactory(username="admin", password="right-password")


def sign_in(password: str, *, username: str = "admin", address: str = "203.0.113.7", **headers):
    return Client().post(LOGIN, {"username": username, "password": password}, REMOTE_ADDR=address, **headers)


def test_right_password_after_the_limit_is_refused_with_the_lockout_page(staff):
    failures = [sign_in("wrong").status_code for _ in range(5)]

    locked = sign_in("right-password")

    # The login form again, with its error; the failure that reaches the limit gets the lockout.
    assert failures == [200] * 4 + [429]
    assert locked.status_code == 429
    page = locked.content.decode()
    assert "Sign-in locked" in page and "15 minutes" in page
    assert "_auth_user_id" not in locked.client.session


def test_below_the_limit_the_right_password_still_signs_in(staff):
    for _ in range(4):
        sign_in("wrong")

    response = sign_in("right-password")

    assert (response.status_code, response["Location"]) == (302, "/admin/")


def test_the_lock_is_per_username_and_address(staff):
    UserFactory(username="editor", password="editor-password")
    for _ in range(5):
        sign_in("wrong")

    assert sign_in("right-password", address="198.51.100.9").status_code == 302
    assert sign_in("editor-password", username="editor").status_code == 302


def test_the_lock_ends_after_the_cool_off(staff):
    for _ in range(5):
        sign_in("wrong")
    from axes.models import AccessAttempt  # here: without django-axes installed the other tests still run

    AccessAttempt.objects.update(attempt_time=datetime.datetime.now(datetime.UTC) - datetime.timedelta(minutes=16))

    assert sign_in("right-password").status_code == 302


def test_a_forged_forwarded_for_does_not_escape_the_lock(staff):
    for n in range(5):
        sign_in("wrong", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}")

    assert sign_in("right-password", HTTP_X_FORWARDED_FOR="192.0.2.99").status_code == 429


def test_behind_a_trusted_proxy_the_forwarded_client_is_locked(settings, staff):
    settings.TRUSTED_PROXY_COUNT = 1
    for n in range(5):
        sign_in("wrong", address="10.0.0.2", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}, 203.0.113.7")

    assert sign_in("right-password", address="10.0.0.2", HTTP_X_FORWARDED_FOR="203.0.113.7").status_code == 429
    assert sign_in("right-password", address="10.0.0.2", HTTP_X_FORWARDED_FOR="203.0.113.8").status_code == 302
    from axes.models import AccessAttempt

    assert AccessAttempt.objects.filter(ip_address="203.0.113.7").exists()
