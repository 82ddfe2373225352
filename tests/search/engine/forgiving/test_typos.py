"""Typo tolerance of the keyword leg (search/engine/forgiving/typos.py), on the real database: budgets per word
length and script, exact before corrected, codes and numbers never corrected, kana variants."""

from __future__ import annotations

import re

import pytest
from django.db import connection

from search.engine.hybrid import hybrid_search
from search.engine.legs.keyword import keyword_query_prepare
from search.engine.forgiving.typos import TYPO_CANDIDATES_SQL, TypoBudget, kana_variants
from tests.factories import ContentTypeFactory, entry_make, full_access

pytestmark = pytest.mark.django_db

DOCS = {
    "Refund policy": "Refunds: return any unused item within 30 days of delivery for a full refund.",
    "Shipping times": "Parcels ship within two business days from our warehouse; delivery takes a week.",
    "Error codes": "Error E1234 means the payment was declined. Model X200 needs firmware 5521.",
    "Understanding statements": "Your monthly statement lists every transaction of the account.",
    "Cat": "The cat sat on the mat.",
    "プログラムの設定": "プログラムの設定はサーバーの管理画面から変更します。",
}


@pytest.fixture
def docs(workspace):
    doc_type = ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)
    for i, (title, body) in enumerate(DOCS.items()):
        entry_make(doc_type, title=title, body=f"<p>{body}</p>", version=i)
    return doc_type


def keyword_only(workspace, query: str, **options):
    return hybrid_search(access=full_access(workspace), query=query, semantic_weight=0, **options)


def titles(result) -> list[str]:
    return [hit.title for hit in result.hits]


@pytest.mark.parametrize("typo", ["refnud", "refuund", "rfund", "erfund"])
def test_one_typo_in_a_word_of_five_or_more_letters_is_corrected(no_embeddings, docs, workspace, typo):
    result = keyword_only(workspace, typo)

    assert titles(result)[0] == "Refund policy"
    correction = result.extra_meta["corrections"][0]
    assert correction["word"] == typo and correction["matched"] == "refund" and correction["edits"] == 1


def test_transposition_in_a_stemmed_word_is_shown_as_a_word(no_embeddings, docs, workspace):
    result = keyword_only(workspace, "warehuose")

    assert titles(result)[0] == "Shipping times"
    assert result.extra_meta["corrections"][0]["matched"] == "warehouse"
    assert result.extra_meta["corrected_query"] == "warehouse"


def test_two_typos_need_nine_letters(no_embeddings, docs, workspace):
    long_word = keyword_only(workspace, "statemnets")  # 10 letters, 2 edits from "statements"
    short_word = keyword_only(workspace, "rfnud")  # 5 letters, 2 edits from "refund"

    assert titles(long_word)[0] == "Understanding statements"
    assert short_word.hits == [] and short_word.extra_meta["corrections"] == []


def test_words_under_five_letters_are_never_corrected(no_embeddings, docs, workspace):
    result = keyword_only(workspace, "cta")  # "cat" is one edit away

    assert result.hits == [] and result.extra_meta["corrections"] == []


@pytest.mark.parametrize("code", ["E1235", "X201", "5522", "firmwar3"])
def test_numbers_and_codes_are_never_corrected(no_embeddings, docs, workspace, code):
    result = keyword_only(workspace, code)

    assert result.hits == [] and result.extra_meta["corrections"] == []


def test_exact_word_outranks_a_corrected_one_on_an_otherwise_equal_chunk(no_embeddings, workspace):
    doc_type = ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)
    entry_make(doc_type, title="Neighbour", body="<p>Questions about the zorblat gadget today.</p>")
    entry_make(doc_type, title="Other", body="<p>Nothing related at all, only filler words here.</p>")

    assert titles(keyword_only(workspace, "zorblit gadget"))[0] == "Neighbour"  # corrected: zorblit -> zorblat

    entry_make(doc_type, title="Exact", body="<p>Questions about the zorblit gadget today.</p>")
    assert titles(keyword_only(workspace, "zorblit gadget"))[0] == "Exact"


def test_corrected_term_weighs_less_than_the_exact_term(no_embeddings, docs, workspace):
    exact = keyword_query_prepare(workspace_id=workspace.pk, query="refund", typos=TypoBudget())
    corrected = keyword_query_prepare(workspace_id=workspace.pk, query="refnud", typos=TypoBudget())

    assert [t.term for t in corrected.terms] == ["refund"]
    assert corrected.terms[0].weight < exact.terms[0].weight


def test_typo_tolerance_false_searches_the_words_as_typed(no_embeddings, docs, workspace):
    result = keyword_only(workspace, "refnud", typo_tolerance=False)

    assert result.hits == [] and result.extra_meta["corrections"] == []


def test_workspace_budget_is_configurable(no_embeddings, docs, workspace):
    workspace.typo_one_edit_length = 7
    workspace.save()

    assert keyword_only(workspace, "refnud").hits == []  # 6 letters: under this workspace's threshold
    assert titles(keyword_only(workspace, "warehuose"))[0] == "Shipping times"


def test_candidates_come_through_the_trigram_index(no_embeddings, docs, workspace):
    with connection.cursor() as cursor:
        # A dictionary of 20,000 terms, so the planner has a real choice.
        cursor.execute("INSERT INTO ingestion_keywordstat (workspace_id, term, df, tf)"
                       " SELECT %s, md5(g::text), 1, 1 FROM generate_series(1, 20000) g", [workspace.pk])
        cursor.execute("ANALYZE ingestion_keywordstat")
        cursor.execute("EXPLAIN " + TYPO_CANDIDATES_SQL, [["refnud"], [1], workspace.pk, workspace.pk, 24])
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "keyword_stat_term_trgm" in plan
    assert "Seq Scan on ingestion_keywordstat " not in plan


def test_a_typo_in_another_workspace_dictionary_is_not_offered(no_embeddings, docs, workspace, other_workspace):
    other_type = ContentTypeFactory(workspace=other_workspace, api_id="doc", semantic_search_enabled=True)
    entry_make(other_type, title="Secret", body="<p>The zeppelin hangar.</p>")

    result = keyword_only(workspace, "zeppelni")

    assert result.extra_meta["corrections"] == []


# --- Japanese -------------------------------------------------------------------------------

def test_hiragana_typed_for_a_katakana_word_finds_it(no_embeddings, docs, workspace):
    result = keyword_only(workspace, "ぷろぐらむ")

    # Hiragana is folded to katakana in the index and the query alike (cms.folding): the word
    # is found as typed, with no correction to make.
    assert titles(result)[0] == "プログラムの設定"
    assert not [c for c in result.extra_meta.get("corrections", []) if c["kind"] == "kana"]


@pytest.mark.parametrize("variant", ["サーバ-", "サーバ‐", "サーバ"])
def test_long_vowel_mark_variants_find_the_word(no_embeddings, docs, workspace, variant):
    result = keyword_only(workspace, variant)

    assert titles(result)[0] == "プログラムの設定"


def test_kanji_are_never_corrected_by_edit_distance(no_embeddings, docs, workspace):
    result = keyword_only(workspace, "設宝")  # one character from 設定

    assert result.hits == [] and result.extra_meta["corrections"] == []


def test_kana_variants():
    assert "プログラム" in kana_variants("ぷろぐらむ")
    assert "プログラムの" in kana_variants("ぷろぐらむの")
    assert "サーバー" in kana_variants("サーバ-")
    assert "サーバ" in kana_variants("サーバー")
    assert re.fullmatch("[ぁ-ゖー]+", kana_variants("サーバー")[0])


@pytest.mark.django_db(transaction=True)
def test_a_typo_search_can_be_the_first_statement_of_a_new_connection(no_embeddings, docs, workspace):
    # pg_trgm defines its threshold setting only once its library is loaded in the session;
    # the search's settings wrapper saves and restores it even before then, in the same message.
    connection.close()
    result = keyword_only(workspace, "refnud")

    assert titles(result)[0] == "Refund policy"
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('pg_trgm.similarity_threshold')")
        assert float(cursor.fetchone()[0]) == pytest.approx(0.3)  # the default again after the search


@pytest.mark.parametrize("word", ["ransaction", "xransaction", "atransaction"])
def test_the_first_letter_is_never_corrected(no_embeddings, docs, workspace, word):
    # As Lucene's and Solr's spellcheckers (prefix 1): in a small dictionary a word that
    # differs in its first letter is more often another real word ("kills" is not "ills").
    result = keyword_only(workspace, word)

    assert result.extra_meta.get("corrections") in (None, [])
    assert titles(result) == []


def test_the_first_two_letters_swapped_are_corrected(no_embeddings, docs, workspace):
    result = keyword_only(workspace, "rtansaction")

    assert titles(result)[0] == "Understanding statements"
    assert result.extra_meta["corrections"][0]["matched"] == "transaction"


def test_fusion_features_describe_the_typed_words_not_their_corrections(no_embeddings, docs, workspace):
    # The adaptive weights were fitted on features of the query as typed (bench/fusion_fit.py
    # collects without typo tolerance): a correction must not count as a known word.
    from search.engine.hybrid import chunk_filter, hybrid_collect

    def features(typos):
        return hybrid_collect(workspace_id=workspace.pk, query="refnud policy", depth=10, keyword_leg=True,
                              semantic_leg=False, ef_search=40, typos=typos,
                              where=chunk_filter(access=full_access(workspace), content_type=None, spec=None)).features

    corrected, as_typed = features(TypoBudget()), features(None)

    assert corrected.coverage == as_typed.coverage == pytest.approx(0.5)  # "polici" known, "refnud" not
    assert corrected.rarity == pytest.approx(as_typed.rarity)


def test_a_typo_costs_one_statement_with_its_candidates_statistics(no_embeddings, docs, workspace):
    # The query's statistics, then the trigram candidates with their df, then the chosen
    # corrections' words as the content writes them (search.engine.forgiving.surface): no fourth read.
    # (Each search statement runs in a savepoint inside this test's transaction: not counted.)
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        prepared = keyword_query_prepare(workspace_id=workspace.pk, query="refnud policy", typos=TypoBudget())
    statements = [q["sql"] for q in captured.captured_queries if "SAVEPOINT" not in q["sql"]]

    assert len(statements) == 3 and "similarity(" in statements[1] and "impact DESC" in statements[2]

    weights = {t.term: t for t in prepared.terms}
    assert [c.matched for c in prepared.corrections] == ["refund"]
    assert weights["refund"].df == 1 and weights["refund"].weight < weights["polici"].weight * 1.5
