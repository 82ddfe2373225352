"""Production settings fail closed: `check --deploy` is clean with DEBUG off, a key is required.

Each test runs manage.py in a fresh process with only the environment it names (the test
run itself has DEBUG on), as an operator or docker/compose.yaml would start it.
"""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
COMPOSE = REPO / "docker" / "compose.yaml"


def _run(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    base = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/root"), "LC_ALL": "C.UTF-8",
            "LANG": "C.UTF-8", "DJANGO_SETTINGS_MODULE": "config.settings"}
    return subprocess.run(
        [sys.executable, *args], cwd=REPO, env={**base, **env}, capture_output=True, text=True, timeout=120
    )


def _manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return _run("manage.py", *args, env=env)


def _settings_printed(names: str, env: dict[str, str]) -> list[str]:
    """The repr of each named setting, as a process with `env` loads them."""
    result = _run("-c", f"from django.conf import settings\nfor n in {names.split()!r}: print(repr(getattr(settings, n)))",
                  env=env)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def _random_key() -> str:
    return secrets.token_urlsafe(50)


def _interpolate(value: str, variables: dict[str, str]) -> str:
    """Compose's `${NAME}`, `${NAME:-default}` and `${NAME:?error}` substitution."""

    def substitute(match: re.Match) -> str:
        name, operator, argument = match.group(1), match.group(2), match.group(3) or ""
        current = variables.get(name, "")
        if operator == ":?" and not current:
            raise AssertionError(f"compose requires {name}: {argument}")
        return current or (argument if operator == ":-" else "")

    return re.sub(r"\$\{(\w+)(?:(:[-?])([^}]*))?\}", substitute, value)


def compose_service_environment(service: str, variables: dict[str, str]) -> dict[str, str]:
    config = yaml.safe_load(COMPOSE.read_text())
    environment = config["services"][service]["environment"]
    return {key: _interpolate(str(value), variables) for key, value in environment.items()}


@pytest.fixture(scope="module")
def collected_static_root(tmp_path_factory) -> str:
    """A STATIC_ROOT collectstatic filled, as docker/Dockerfile fills the image's: without
    one, `check --deploy` reports cms.E001 (tests/security/test_static_without_collectstatic.py)."""
    static_root = str(tmp_path_factory.mktemp("static"))
    result = _manage("collectstatic", "--noinput",
                     env={"DEBUG": "false", "SECRET_KEY": _random_key(), "STATIC_ROOT": static_root})
    assert result.returncode == 0, result.stderr
    return static_root


def test_check_deploy_is_clean_with_debug_off_a_random_key_and_one_host(collected_static_root):
    result = _manage("check", "--deploy", "--fail-level", "WARNING",
                     env={"DEBUG": "false", "SECRET_KEY": _random_key(), "ALLOWED_HOSTS": "cms.example.com",
                          "STATIC_ROOT": collected_static_root, "THROTTLE_CACHE_URL": "redis://redis:6379/2"})
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_check_deploy_is_clean_with_the_environment_compose_gives_the_web_service(collected_static_root):
    env = compose_service_environment(
        "web", {"SECRET_KEY": _random_key(), "APP_DB_PASSWORD": "db-password", "POSTGRES_PASSWORD": "su-password"}
    )
    assert env["DEBUG"] == "false"
    env["STATIC_ROOT"] = collected_static_root  # the image's, collected when it was built
    result = _manage("check", "--deploy", "--fail-level", "WARNING", env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_compose_web_service_connects_as_the_app_role_not_the_superuser():
    env = compose_service_environment(
        "web", {"SECRET_KEY": _random_key(), "APP_DB_PASSWORD": "db-password", "POSTGRES_PASSWORD": "su-password"}
    )
    db = compose_service_environment(
        "db", {"APP_DB_PASSWORD": "db-password", "POSTGRES_PASSWORD": "su-password"}
    )
    assert env["DATABASE_URL"].startswith(f"postgres://{db['APP_DB_USER']}:db-password@db:5432/{db['APP_DB_NAME']}")
    assert db["APP_DB_USER"] != db["POSTGRES_USER"]


def test_missing_secret_key_with_debug_off_refuses_to_start():
    result = _manage("check", env={"DEBUG": "false"})
    assert result.returncode != 0
    assert "ImproperlyConfigured: SECRET_KEY is not set, and DEBUG is off" in result.stderr


def test_development_key_with_debug_off_refuses_to_start():
    from django.conf import settings

    result = _manage("check", env={"DEBUG": "false", "SECRET_KEY": settings.DEVELOPMENT_SECRET_KEY})
    assert result.returncode != 0
    assert "ImproperlyConfigured: SECRET_KEY is the public development key" in result.stderr


def test_debug_is_off_and_https_settings_on_unless_debug_is_set():
    printed = _settings_printed(
        "DEBUG SESSION_COOKIE_SECURE CSRF_COOKIE_SECURE SECURE_SSL_REDIRECT SECURE_HSTS_SECONDS SECURE_PROXY_SSL_HEADER",
        env={"SECRET_KEY": _random_key()},
    )
    assert printed == ["False", "True", "True", "True", "31536000", "('HTTP_X_FORWARDED_PROTO', 'https')"]


def test_https_redirect_and_proxy_header_can_be_turned_off():
    printed = _settings_printed(
        "SECURE_SSL_REDIRECT SECURE_PROXY_SSL_HEADER SESSION_COOKIE_SECURE",
        env={"SECRET_KEY": _random_key(), "SECURE_SSL_REDIRECT": "false", "SECURE_PROXY_SSL_HEADER": ""},
    )
    assert printed == ["False", "None", "True"]


def test_debug_on_runs_with_the_development_key_and_no_https_redirect():
    printed = _settings_printed("DEBUG SECRET_KEY SECURE_SSL_REDIRECT", env={"DEBUG": "true"})
    assert printed == ["True", "'dev-only-insecure-key-change-me'", "False"]
