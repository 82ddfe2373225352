"""The keyword tokenizer's CJK cut (ingestion/segmentation.py): bigrams by default, Sudachi's
words plus bigrams for Japanese when configured, and `keyword_reindex` rewriting the postings
of existing chunks after a change (real database, real SudachiPy dictionary). Terms are folded
after the cut (cms.folding: の is ノ, 確認 is 确认), so the expected terms are written as typed
and folded with `folded`."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from cms.folding import text_fold
from ingestion.keywords import keyword_tokens
from ingestion.models import Chunk, KeywordPosting
from ingestion.segmentation import cjk_run_tokens, is_japanese
from tests.factories import ContentTypeFactory, entry_make
from tests.ingestion.test_keyword_index import assert_statistics_match_recount

SUDACHI = "sudachi-A+bigrams"


def folded(*terms: str) -> list[str]:
    return [text_fold(term) for term in terms]


def test_bigrams_setting_cuts_japanese_into_bigrams_only(settings):
    settings.SEARCH_KEYWORD_JA_TOKENIZER = "bigrams"
    assert keyword_tokens("附属の書類") == folded("附属", "属の", "の書", "書類")


def test_default_adds_sudachi_words():
    assert keyword_tokens("附属の書類")[:2] == folded("付属", "書類")


def test_sudachi_adds_normalised_words_to_the_bigrams(settings):
    settings.SEARCH_KEYWORD_JA_TOKENIZER = SUDACHI
    tokens = keyword_tokens("附属の書類")
    assert tokens[:2] == folded("付属", "書類")  # 附属 in Sudachi's normalised form; the particle の left out
    assert tokens[2:] == folded("附属", "属の", "の書", "書類")


def test_sudachi_makes_spelling_variants_one_term(settings):
    settings.SEARCH_KEYWORD_JA_TOKENIZER = SUDACHI
    written, variant = set(keyword_tokens("附属品を打込む")), set(keyword_tokens("付属品を打ち込む"))
    assert set(folded("付属", "打つ", "込む")) <= written & variant


def test_chinese_and_korean_stay_bigrams(settings):
    settings.SEARCH_KEYWORD_JA_TOKENIZER = SUDACHI
    assert keyword_tokens("退貨政策") == folded("退貨", "貨政", "政策")
    assert keyword_tokens("환불정책") == ["환불", "불정", "정책"]
    assert keyword_tokens("Refunds within 30 days") == ["refund", "within", "30", "day"]


def test_a_word_touching_a_cjk_run_is_joined_to_its_nearest_character():
    assert "1992年" in keyword_tokens("1992年に設立")
    assert {"第3", "3回"} <= set(keyword_tokens("第3回大会"))
    assert text_fold("iphone版") in keyword_tokens("iPhone版の発売")
    assert text_fold("2010年") in keyword_tokens("臺灣2010年的選舉")  # Chinese too


def test_words_apart_from_a_cjk_run_are_not_joined():
    assert "1992年" not in keyword_tokens("1992 年")
    assert keyword_tokens("Refunds within 30 days") == ["refund", "within", "30", "day"]
    assert keyword_tokens("x" * 65 + "年") == ["年"]  # a word too long to be one is not half of a term either


def test_kana_decides_japanese_half_width_too():
    assert is_japanese("ﾘﾝｺﾞ")
    assert is_japanese("東京の")
    assert not is_japanese("東京都")
    assert cjk_run_tokens("東京都", japanese=False) == ["東京", "京都"]


def test_unknown_setting_is_refused(settings):
    settings.SEARCH_KEYWORD_JA_TOKENIZER = "mecab"
    with pytest.raises(ValueError, match="SEARCH_KEYWORD_JA_TOKENIZER"):
        keyword_tokens("りんご")


@pytest.mark.django_db
def test_keyword_reindex_rewrites_existing_postings(settings, workspace):
    doc_type = ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)
    settings.SEARCH_KEYWORD_JA_TOKENIZER = "bigrams"
    entry_make(doc_type, title="付属品", body="<p>附属の書類を確認してください。</p>")
    entry_make(doc_type, title="Refunds", body="<p>Refunds within 30 days.</p>")
    chunk_ids = list(Chunk.objects.filter(workspace=workspace).values_list("pk", flat=True))
    assert not KeywordPosting.objects.filter(chunk_id__in=chunk_ids, term=text_fold("下さる")).exists()  # bigrams only

    settings.SEARCH_KEYWORD_JA_TOKENIZER = SUDACHI
    call_command("keyword_reindex", "--workspace", workspace.slug, verbosity=0)
    # Sudachi's verb 下さる (normalised) is a term now; the bigrams stay.
    terms = set(KeywordPosting.objects.filter(chunk_id__in=chunk_ids).values_list("term", flat=True))
    assert set(folded("下さる", "付属", "属品", "確認")) <= terms
    assert_statistics_match_recount()  # postings and statistics are the new tokenizer's, and agree

    settings.SEARCH_KEYWORD_JA_TOKENIZER = "bigrams"
    call_command("keyword_reindex", verbosity=0)
    terms = set(KeywordPosting.objects.filter(chunk_id__in=chunk_ids).values_list("term", flat=True))
    assert text_fold("下さる") not in terms
    assert_statistics_match_recount()
