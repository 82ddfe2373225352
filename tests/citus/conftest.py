"""The Citus tests: one session, against a real cluster (tests/citus/cluster.py).

They run in a pytest session of their own, `pytest -m citus` (`make test` runs it after the
single-node suite), because the test database itself moves: this conftest points Django's
default database at the coordinator before pytest-django creates the test database there and
migrates it, then the workers are added and `manage.py citus_distribute` lays the tables out.
Elsewhere they are skipped, each with its reason: in a session of the single-node suite, or
where `make citus` has not built Citus into the embedded PostgreSQL.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connections

from tests.citus.cluster import Cluster, citus_built

CITUS_SESSION_REASON = ("the Citus tests run in a session of their own, against a cluster: "
                        "`pytest -m citus` (make test runs it after the single-node suite)")
NOT_BUILT_REASON = "Citus is not built into the embedded PostgreSQL here: run `make citus` (make test does)"


def _citus_session(config) -> bool:
    return (config.getoption("markexpr") or "").strip() == "citus"


def pytest_collection_modifyitems(config, items) -> None:
    here = Path(__file__).parent
    reason = None if _citus_session(config) else CITUS_SESSION_REASON
    if reason is None and not citus_built():
        reason = NOT_BUILT_REASON
    for item in items:
        if Path(item.fspath).is_relative_to(here):
            item.add_marker(pytest.mark.citus)
            if reason:
                item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(scope="session")
def citus_cluster() -> Iterator[Cluster]:
    cluster = Cluster.started(Path(settings.EMBEDDED_PGDATA).parent / f"citus-{os.getpid()}")
    try:
        yield cluster
    finally:
        cluster.stop()
        shutil.rmtree(cluster.root, ignore_errors=True)


@pytest.fixture(scope="session")
def django_db_keepdb() -> bool:
    """The cluster goes with its databases at the end (Citus's maintenance daemon holds a
    connection to the test database, so Django could not drop it)."""
    return True


@pytest.fixture(scope="session")
def django_db_modify_db_settings(citus_cluster: Cluster) -> None:
    """The default database is the coordinator (pytest-django creates the test database there)."""
    default = {
        **settings.DATABASES["default"], "ENGINE": "django.db.backends.postgresql", "NAME": "cms",
        "HOST": "127.0.0.1", "PORT": str(citus_cluster.coordinator.port), "USER": "postgres", "PASSWORD": "",
    }
    default.pop("PGDATA", None)
    default.pop("SERVER_SETTINGS", None)
    settings.DATABASES["default"] = default
    connections["default"].close()
    connections.settings = connections.configure_settings({**connections.settings, "default": default})
    del connections["default"]


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker, citus_cluster: Cluster) -> None:
    """After the test database is migrated on the coordinator: citus in it and on the workers
    (a database of the same name), the workers added, the tables distributed."""
    name = connections["default"].settings_dict["NAME"]
    with django_db_blocker.unblock():
        connections["default"].close()
        citus_cluster.database_created(name, coordinator_exists=True)
        call_command("citus_distribute", verbosity=0)
