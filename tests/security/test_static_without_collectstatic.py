"""Production without `collectstatic` refuses to start, naming the command, instead of serving
a 500 on every admin page (WhiteNoise's manifest storage raises ValueError for a file missing
from the manifest). gunicorn is started as deployed, with DEBUG off, on an empty or a stale
STATIC_ROOT; `manage.py check --deploy` reports the same thing."""

from __future__ import annotations

import json
import secrets
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.servers import REPO, database_env, deployed_gunicorn_options, gunicorn_started

BEHIND_PROXY = {"X-Forwarded-Proto": "https"}
COMMAND = "manage.py collectstatic"


@pytest.fixture
def production_env(django_db_setup, django_db_blocker, tmp_path):
    """DEBUG off, the test database, and a STATIC_ROOT nothing was collected into."""
    with django_db_blocker.unblock():
        return database_env(
            DEBUG="false",
            SECRET_KEY=secrets.token_urlsafe(50),
            ALLOWED_HOSTS="127.0.0.1",
            STATIC_ROOT=str(tmp_path / "static"),
            BROKER_DIR=str(tmp_path / "broker"),
        )


def gunicorn_outcome(env: dict[str, str], log_path: Path, timeout: float = 60.0) -> tuple[int | None, str]:
    """Start gunicorn as docker/Dockerfile does; (the status of GET /admin/login/, None if
    gunicorn exited first) and everything it printed."""
    try:
        with gunicorn_started(env, *deployed_gunicorn_options(), log_path=log_path) as (base, process):
            deadline = time.monotonic() + timeout
            while process.poll() is None:
                assert time.monotonic() < deadline, "gunicorn neither answered nor exited within 60 s"
                request = urllib.request.Request(f"{base}/admin/login/", headers=BEHIND_PROXY)
                try:
                    with urllib.request.urlopen(request, timeout=5) as response:
                        return response.status, log_path.read_text()
                except urllib.error.HTTPError as error:
                    return error.code, log_path.read_text()
                except OSError:
                    time.sleep(0.2)
    except RuntimeError:  # it exited before it listened
        pass
    return None, log_path.read_text()


def test_gunicorn_refuses_to_start_on_an_empty_static_root_and_names_collectstatic(production_env, tmp_path):
    status, output = gunicorn_outcome(production_env, tmp_path / "gunicorn.log")
    assert status is None, f"gunicorn served /admin/login/ with {status} instead of refusing to start"
    assert COMMAND in output
    assert production_env["STATIC_ROOT"] in output


def test_gunicorn_refuses_to_start_on_a_manifest_missing_the_apps_files(production_env, tmp_path):
    # What an old collectstatic leaves once the code ships a static file it never saw.
    static_root = Path(production_env["STATIC_ROOT"])
    static_root.mkdir()
    (static_root / "staticfiles.json").write_text(json.dumps({"paths": {}, "version": "1.1", "hash": ""}))
    status, output = gunicorn_outcome(production_env, tmp_path / "gunicorn.log")
    assert status is None, f"gunicorn served /admin/login/ with {status} instead of refusing to start"
    assert COMMAND in output
    assert "admin/css/base.css" in output


def test_check_deploy_reports_uncollected_static_files_as_an_error(production_env):
    result = subprocess.run([sys.executable, "manage.py", "check", "--deploy"], cwd=REPO, env=production_env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    assert "cms.E001" in result.stderr
    assert COMMAND in result.stderr


def test_other_commands_still_run_without_collected_static_files(production_env):
    # migrate runs before collectstatic in some deployments; collectstatic itself must too.
    result = subprocess.run([sys.executable, "manage.py", "check"], cwd=REPO, env=production_env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
