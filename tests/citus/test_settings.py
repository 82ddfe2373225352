"""The settings a search sets reach the Citus worker that runs its statement on the workspace's
shard: the HNSW walk's (ef_search, the iterative scan, its tuple bound) for the search's
transaction, and a statement's own (work_mem, the planner's switches) for that statement alone.

With set_config on the coordinator they did not: the worker walked the HNSW index at the default
ef_search=40 without the iterative scan, the walk came back short, and the vector leg fell back
to ranking every vector (docs/design/hybrid.md, "Citus against one node"). How they get there:
search/engine/db/statements.py.
"""

from __future__ import annotations

import pytest
from django.db import connection

from search.engine.db.statements import search_cursor
from search.engine.legs.vector_leg import MAX_SCAN_TUPLES, search_settings

pytestmark = pytest.mark.django_db(transaction=True)

WORKSPACE_ID = 1
# Read on the worker: a statement on one tenant table naming the workspace is pushed down whole
# to its shard, current_setting() and inet_server_port() included.
ON_THE_SHARD = ("SELECT inet_server_port(), current_setting('hnsw.ef_search', true),"
                " current_setting('hnsw.iterative_scan', true), current_setting('hnsw.max_scan_tuples', true),"
                " current_setting('work_mem'), count(*)"
                " FROM ingestion_chunk WHERE workspace_id = %s")


def _coordinator_port() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT inet_server_port()")
        return cursor.fetchone()[0]


def test_the_vector_legs_hnsw_settings_reach_the_worker_for_the_whole_transaction():
    with search_cursor(atomic=True) as cursor:
        cursor.settings_set(search_settings(123))
        cursor.execute(ON_THE_SHARD, [WORKSPACE_ID])
        first = cursor.fetchone()
        cursor.execute(ON_THE_SHARD, [WORKSPACE_ID])
        second = cursor.fetchone()

    assert first[0] != _coordinator_port()  # read on a worker
    assert first[1:4] == ("123", "relaxed_order", str(MAX_SCAN_TUPLES))
    assert second[1:4] == first[1:4]


def test_a_statements_own_settings_reach_the_worker_and_go_after_it():
    with search_cursor(atomic=True) as cursor:
        cursor.execute(ON_THE_SHARD, [WORKSPACE_ID])
        before = cursor.fetchone()
        cursor.execute(ON_THE_SHARD, [WORKSPACE_ID], local_settings={"work_mem": "37MB"})
        during = cursor.fetchone()
        cursor.execute(ON_THE_SHARD, [WORKSPACE_ID])
        after = cursor.fetchone()

    assert during[0] != _coordinator_port()
    assert before[4] != "37MB" and during[4] == "37MB" and after[4] == before[4]


def test_a_statement_in_autocommit_takes_its_settings_to_the_worker():
    with search_cursor() as cursor:
        cursor.execute(ON_THE_SHARD, [WORKSPACE_ID], local_settings={"work_mem": "37MB"})
        row = cursor.fetchone()

    assert row[0] != _coordinator_port() and row[4] == "37MB"
