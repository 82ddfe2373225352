"""cms/folding.py: one character to one character, OpenCC's own table, idempotent, Latin untouched."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import opencc
import pytest

from cms.folding import FOLD_TABLE, fold_sql_map, text_fold, text_normalise
from tools.fold_table import t2s_pairs

EVAL = Path(__file__).resolve().parents[3] / "shared" / "eval"


def test_the_committed_table_is_opencc_t2s_one_character_at_a_time():
    written = {}
    for line in (Path(__file__).resolve().parents[2] / "cms" / "fold_t2s.txt").read_text("utf-8").splitlines():
        if not line.startswith("#"):
            traditional, simplified = line.split("\t")
            written[traditional] = simplified
    assert written == dict(t2s_pairs())


@pytest.mark.parametrize("written, folded", [
    ("退貨", "退货"), ("退货", "退货"), ("髮", "发"), ("發", "发"), ("りんご", "リンゴ"), ("ゝゞ", "ヽヾ"),
    ("ＡＢＣ１！", "abc1!"), ("ｶﾀｶﾅ", "カタカナ"), ("Refund POLICY 30", "refund policy 30"),
])
def test_examples(written, folded):
    assert text_fold(written) == folded


def test_a_latin_text_is_only_lowercased():
    text = "Refund Policy: Über café, naïve résumé — 30 days (İstanbul)"
    assert text_fold(text) == "".join(low if len(low := ch.lower()) == 1 else ch for ch in text)


def test_the_voiced_marks_of_half_width_katakana_stay_in_place():
    # NFKC joins ﾊﾟ into パ (two characters into one); text_fold keeps the length.
    assert text_fold("ﾊﾟﾝ") == "ハﾟン" and text_normalise("ﾊﾟﾝ") == "パン"


def test_folding_folded_text_changes_nothing():
    for code, target in FOLD_TABLE.items():
        assert text_fold(target) == target, (chr(code), target)


def test_every_character_folds_to_one():
    assert all(len(target) == 1 for target in FOLD_TABLE.values())
    assert json.loads(fold_sql_map()) == {chr(code): target for code, target in FOLD_TABLE.items()}


def test_opencc_phrase_conversion_would_not_keep_offsets():
    """Why characters, not phrases: OpenCC's phrase table rewrites words (a different length
    or different characters than one at a time), so offsets into the folded text would not
    point at the text as written."""
    converter = opencc.OpenCC("t2s")
    differing = [word for word in ("乾隆", "瞭望", "著名", "皇后") if converter.convert(word) != text_fold(word)]
    assert differing  # phrases and characters disagree somewhere; the fold takes characters


@pytest.mark.parametrize("name", ["drcd-zh", "jsquad-ja", "jaquad-ja"])
def test_length_is_kept_on_every_character_of_the_shared_corpora(name):
    path = EVAL / name / "corpus.jsonl"
    if not path.exists():
        pytest.skip(f"{path} is not on this machine")
    characters = set()
    with path.open(encoding="utf-8") as corpus:
        for line in corpus:
            record = json.loads(line)
            characters.update(record.get("title", "") + record.get("text", ""))
    text = "".join(sorted(characters))
    folded = text_fold(text)
    assert len(folded) == len(text)
    # and character by character: the fold of a text is the fold of each of its characters
    assert folded == "".join(text_fold(ch) for ch in text)
    assert sum(a != b for a, b in zip(unicodedata.normalize("NFC", text), folded)) > 0


@pytest.mark.django_db
def test_the_database_folds_as_python_does():
    """cms_text_fold (cms migration 0012) on every character of the table, kana, width forms and
    Latin letters: the same text as text_fold, so a query folded in Python meets search_text."""
    from django.db import connection

    text = "".join(chr(code) for code in sorted(FOLD_TABLE)) + "".join(FOLD_TABLE.values()) \
        + "Refund POLICY 30 days: 返品ポリシー、りんご、退貨。" + "".join(chr(c) for c in range(0x20, 0x7f))
    with connection.cursor() as cursor:
        cursor.execute("SELECT cms_text_fold(%s), cms_text_fold(''), cms_text_fold('ABC')", [text])
        folded, empty, ascii_only = cursor.fetchone()
    assert (folded, empty, ascii_only) == (text_fold(text), "", "abc")
