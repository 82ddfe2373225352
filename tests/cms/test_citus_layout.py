"""Citus-ready tables (cms/citus_layout.py): the models' tables against Citus's rules, and the
citus_distribute command, which refuses on plain PostgreSQL. On a real cluster: tests/citus/."""

from __future__ import annotations

import io

import pytest
from django.apps import apps
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from cms.citus_layout import (
    DISTRIBUTION_COLUMN,
    citus_violations,
    reference_tables,
    tenant_tables,
)

pytestmark = pytest.mark.django_db

def test_no_table_breaks_a_citus_rule():
    """Every key of a tenant table includes workspace_id (migration ingestion 0011): nothing is
    allowed to break a rule, so a new table or constraint that does fails here."""
    assert [str(v) for v in citus_violations()] == []


def test_every_model_of_our_apps_is_a_tenant_or_a_reference_table_and_tenants_carry_workspace_id():
    tenants, references = set(tenant_tables()), set(reference_tables())
    assert tenants and not tenants & references
    for model in apps.get_models():
        if model._meta.app_label in ("cms", "ingestion", "search"):
            assert model._meta.db_table in tenants | references, model
    with connection.cursor() as cursor:
        for table in tenants:
            columns = [c.name for c in connection.introspection.get_table_description(cursor, table)]
            assert DISTRIBUTION_COLUMN in columns, table


def test_the_walk_finds_a_violation_when_there_is_one():
    """The check reads the live catalog: a unique index without workspace_id on a tenant table is caught."""
    with connection.cursor() as cursor:
        cursor.execute("CREATE UNIQUE INDEX citus_probe ON cms_entry (id, content_type_id)")
    try:
        assert "cms_entry: key without workspace_id: citus_probe (id, content_type_id)" in map(str, citus_violations())
    finally:
        with connection.cursor() as cursor:
            cursor.execute("DROP INDEX citus_probe")


def test_tenant_tables_come_after_the_tables_they_reference():
    order = tenant_tables()
    assert order.index("cms_entry") < order.index("ingestion_chunk") < order.index("ingestion_chunkvector")
    assert order.index("ingestion_chunk") < order.index("ingestion_keywordposting")


def test_citus_distribute_refuses_on_plain_postgresql_and_changes_nothing():
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_extension")
        before = cursor.fetchone()[0]
    with pytest.raises(CommandError, match=r"^Citus is not installed in this database \(no citus extension\), "
                                           r"so nothing was distributed"):
        call_command("citus_distribute", stdout=io.StringIO())
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_extension")
        assert cursor.fetchone()[0] == before


def test_citus_distribute_plan_lists_reference_then_colocated_tenant_tables():
    out = io.StringIO()
    call_command("citus_distribute", "--plan", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0] == "SELECT create_reference_table('cms_workspace');"
    distributed = [line for line in lines if "create_distributed_table" in line]
    assert len(distributed) == len(tenant_tables())
    assert distributed[0] == "SELECT create_distributed_table('cms_asset', 'workspace_id', colocate_with => 'default');"
    assert all("colocate_with => 'cms_asset'" in line for line in distributed[1:])
