"""The test database is the real PostgreSQL with pgvector and pg_trgm, and a UTF-8 ctype."""

from django.db import connection


def test_test_database_ctype_is_c_utf8(db):
    with connection.cursor() as cursor:
        cursor.execute("SELECT datctype, datcollate FROM pg_database WHERE datname = current_database()")
        ctype, _collate = cursor.fetchone()
    assert ctype == "C.UTF-8"


def test_show_trgm_of_japanese_is_not_empty(db):
    with connection.cursor() as cursor:
        cursor.execute("SELECT show_trgm(%s)", ["返品ポリシー"])
        trigrams = cursor.fetchone()[0]
    assert len(trigrams) >= 4


def test_vector_and_trigram_extensions_are_installed(db):
    with connection.cursor() as cursor:
        cursor.execute("SELECT extname FROM pg_extension")
        names = {row[0] for row in cursor.fetchall()}
    assert {"vector", "pg_trgm"} <= names
