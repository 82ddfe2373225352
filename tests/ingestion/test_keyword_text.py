"""The BM25 index's text of a chunk: PostgreSQL's `simple` configuration gives back our terms
whole, and migration 0017's backfill writes them as the writer does."""

from __future__ import annotations

import importlib
from collections import Counter

import pytest
from django.db import connection

from ingestion.keywords import bm25_index_term, keyword_index_terms
from ingestion.services.keyword import keyword_text

pytestmark = pytest.mark.django_db

# What bench/bm25_tokens.py found cut apart (StackFAQ's Trello ids, JSQuAD's 上・), and neighbours.
TEXTS = [
    "Export 4e6a8095efa69909ba007382 and 1e5, 12e3x, 0e0 from Trello",
    "社会通念上・気象学上は春の終わり、ヴァージョン〇〇、々と〆",
    "1992年に iPhone版 第3回 café naïve ωμέγα ٣٤ Ⅻ ½ x²",
    "退貨 りんご ＡＢＣ ﾊﾝｶｸ 한국어 𠮷野家",
]


def simple_terms(text: str) -> Counter:
    with connection.cursor() as cursor:
        cursor.execute("SELECT lexeme, array_length(positions, 1) FROM unnest(to_tsvector('simple', %s))", [text])
        return Counter(dict(cursor.fetchall()))


@pytest.mark.parametrize("text", TEXTS)
def test_the_simple_configuration_keeps_every_term_whole(text):
    frequencies = keyword_index_terms(text).frequencies
    assert simple_terms(keyword_text(frequencies)) == Counter(
        {bm25_index_term(term): tf for term, tf in frequencies.items()})


def test_the_mapping_is_one_to_one():
    terms = {t for text in TEXTS for t in keyword_index_terms(text).frequencies} | {"ª", "º1e5", "1e5"}
    assert len({bm25_index_term(t) for t in terms}) == len(terms)


def test_the_backfill_function_maps_terms_as_the_writer_does():
    migration = importlib.import_module("ingestion.migrations.0017_keyword_text")
    terms = sorted({t for text in TEXTS for t in keyword_index_terms(text).frequencies} | {"", "a", "4e6x"})
    with connection.cursor() as cursor:
        cursor.execute(migration.INDEX_TERM_FUNCTION)  # rolled back with the test
        cursor.execute("SELECT ingestion_bm25_index_term(t) FROM unnest(%s::text[]) WITH ORDINALITY AS u(t, i)"
                       " ORDER BY i", [terms])
        assert [row[0] for row in cursor.fetchall()] == [bm25_index_term(t) for t in terms]
