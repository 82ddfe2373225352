"""The same answers as one node: the fixed content and queries of tests/citus/searches.py, asked
of the cluster and of a plain PostgreSQL database (no citus extension in it: one node, as the
single-node suite runs) on the coordinator's server, every kind's answers compared."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.core.management import call_command
from django.db import connections

from tests.citus.searches import answers, content_load
from tests.search.pipeline_helpers import fake_embeddings  # noqa: F401 - fixture

pytestmark = pytest.mark.django_db
SINGLE_NODE = "test_cms_single_node"


@contextmanager
def _default_database(name: str) -> Iterator[None]:
    """Django's default database is `name` on the same server for the block (its writes commit
    there), in this thread and in any other that connects meanwhile (the embedding threads)."""
    kept, kept_settings = connections["default"], connections.settings["default"]
    connections.settings["default"] = {**kept_settings, "NAME": name}
    wrapper = kept.__class__(connections.settings["default"], alias="default")
    connections["default"] = wrapper
    try:
        yield
    finally:
        wrapper.close()
        connections.settings["default"] = kept_settings
        connections["default"] = kept


@pytest.fixture
def single_node_database(citus_cluster) -> Iterator[str]:
    citus_cluster.coordinator.execute(
        "postgres", f'DROP DATABASE IF EXISTS "{SINGLE_NODE}" WITH (FORCE)',
        f"CREATE DATABASE \"{SINGLE_NODE}\" TEMPLATE template0 ENCODING 'UTF8' LOCALE 'C.UTF-8'")
    with _default_database(SINGLE_NODE):
        call_command("migrate", verbosity=0)
    yield SINGLE_NODE
    citus_cluster.coordinator.execute("postgres", f'DROP DATABASE IF EXISTS "{SINGLE_NODE}" WITH (FORCE)')


def test_every_kind_answers_on_the_cluster_as_on_one_node(fake_embeddings, single_node_database):  # noqa: F811
    on_cluster = answers(content_load())
    with _default_database(single_node_database):
        on_one_node = answers(content_load())
    assert on_cluster.keys() == on_one_node.keys()
    differing = [key for key in on_cluster if on_cluster[key] != on_one_node[key]]
    assert differing == [], {key: (on_cluster[key], on_one_node[key]) for key in differing}
    assert sum(len(answer.get("hits", [])) for answer in on_cluster.values()) > 100
