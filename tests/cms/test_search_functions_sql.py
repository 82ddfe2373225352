"""The search functions' SQL that cms migrations 0003, 0005 and 0012 build from cms/search_functions_sql.py
stays, byte for byte, the SQL those migrations ran when they were applied: a change to a shared
function's text fails here instead of silently meaning something else on a fresh database than
on one migrated before. The figures are the SHA-256 of each migration's SQL as it was written out
in full (before the helper), checked equal with `manage.py sqlmigrate` both ways. No database."""

from __future__ import annotations

import hashlib
import importlib

import pytest

APPLIED = {
    ("0003_entry_search_columns", "FUNCTIONS_SQL"):
        "585d453858fa242fd52c537abcd94a4264fb5f70317e108b78672f6db092d556",
    ("0005_entry_search_grams_per_workspace", "FUNCTIONS_SQL"):
        "05cbc0db4afc33694c346e72a3e3e0df5c400a6334c98cb62ee131a311d035ad",
    ("0005_entry_search_grams_per_workspace", "REVERSE_FUNCTIONS_SQL"):
        "3f4b65ccb837f955a9abe239d463f93c9142651587d89f277d4132ad7d4eef0a",
    ("0012_text_fold", "REVERSE_SQL"):
        "00bf114e5c4249fa474cdfd99763d5f4d9770d19f674d714e114847823343256",
}
# 0012's forward SQL after cms_text_fold (whose fold table is cms.folding's, frozen in the migration).
FOLDED_FUNCTIONS = "48655afa3008e5c465d2b07f7e3b3a200e4b07897ca96a9130ba3c0056c40b05"


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@pytest.mark.parametrize(("migration", "name"), list(APPLIED))
def test_a_migrations_search_functions_are_the_sql_it_ran(migration, name):
    module = importlib.import_module(f"cms.migrations.{migration}")

    assert _sha256(getattr(module, name)) == APPLIED[migration, name]


def test_the_folded_search_functions_are_the_sql_0012_ran():
    sql = importlib.import_module("cms.migrations.0012_text_fold")._functions_sql()

    after_fold = sql[sql.index("CREATE OR REPLACE FUNCTION cms_entry_search_text"):]

    assert _sha256(after_fold) == FOLDED_FUNCTIONS
