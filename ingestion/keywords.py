"""The keyword tokenizer and BM25 constants: one function turns text into terms, for chunks and queries alike.

Pure functions (no database). `ingestion.services.keyword` indexes chunk texts with them and
`search.engine.legs.keyword` turns queries into terms with the very same function, so a term can only
match if both sides produced it the same way.

Terms:

- Space-separated scripts (English and other Latin, Greek, Cyrillic...): words of letters
  and digits, lowercased, PostgreSQL's English stopwords dropped, stemmed with the Snowball
  English stemmer (the same algorithm as PostgreSQL's `english` configuration, through
  PyStemmer's C implementation), so "refunds", "refunding" and "refund" are one term.
- CJK runs (kanji, kana, hangul; no spaces between words): overlapping character bigrams,
  so 返品 is one term and 返品ポリシー gives 返品 品ポ ポリ リシ シー. A run of one
  character is its own term. `ingestion.segmentation.cjk_run_tokens` is the one place that
  cuts a run (a setting can add dictionary words for Japanese: see that module).
- Terms are normalised (cms.folding, the rule of every search): NFKC (full-width ＡＢＣ is
  abc, half-width ｶﾀｶﾅ is カタカナ), lower case, Traditional Chinese as Simplified (退貨 is
  退货) and hiragana as katakana (りんご is リンゴ). A CJK run is cut as written (after NFKC
  and lower case: Sudachi reads hiragana and kanji as people write them) and each of its
  terms is folded after: the fold is one character to one, so a bigram of the folded run is
  the folded bigram, and every search meets the same terms.

- Where a word and a CJK run touch with nothing between them (1992年, 第3回, iPhone版), the
  whole word joined to the run's nearest character is one more term (1992年, 第3, 3回,
  iphone版), as written, not stemmed: a year, a count or a model name is what such a
  question asks by, and apart its 年 or 回 is among the commonest characters. Chosen on the
  fit splits by bench/cjk_tokenizers.py (candidate `+joined`, docs/design/cjk-tokenizers.md).

For indexing, `keyword_index_terms` adds every CJK character of longer runs as an extra
unigram term, so a 1-character query (返, 品) finds the chunks that contain it anywhere.
Those unigrams are not counted in a chunk's length and never come out of a query of two or
more characters, so they change no BM25 score but a 1-character query's.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

import Stemmer

from cms.folding import text_fold, text_normalise
from ingestion.segmentation import cjk_run_tokens, is_japanese

# BM25 parameters (Robertson/Lucene defaults). The index stores an impact computed with
# them; the search scores with them.
BM25_K1 = 1.2
BM25_B = 0.75

# The BM25 index (pg_textsearch) over ingestion_keywordtext, the chunks' terms as text
# (ingestion.services.keyword_bm25 builds it). The keyword leg reads a workspace's own
# (bm25_workspace_index: a partial index of its rows, so its statistics are the workspace's).
BM25_INDEX = "ingestion_keywordtext_bm25"


def bm25_workspace_index(workspace_id: int) -> str:
    """The name of a workspace's own BM25 index (`WHERE workspace_id = <id>`)."""
    return f"{BM25_INDEX}_w{int(workspace_id)}"

# PostgreSQL's text parser, which the BM25 index's `simple` configuration uses, keeps a run of
# letters and digits as one word, by its own idea of a letter; our terms hold more
# (bench/bm25_tokens.py found both):
# - a CJK run's katakana middle dot (・ in 上・): the parser cuts the term there;
# - a word that begins with digits, "e" and a digit reads as a number in scientific notation
#   and is cut after it ("4e6a8095" is "4e6" and "a8095": StackFAQ's Trello ids).
# So a term goes to the index with every character but a-z and 0-9 written as ª and its code
# point in six hex digits (返品 is ª008fd4ª0054c1), and a scientific-looking start behind º. ª
# and º are letters to the parser that no term holds (NFKC makes them a and o): the mapping is
# one to one, the parser keeps each term whole, and migration 0016 computes the same in SQL.
_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")
_SCIENTIFIC = re.compile(r"[0-9]+e[0-9]")


def bm25_index_term(term: str) -> str:
    """`term` as the BM25 index's text holds it (and a query asks for it): whole to PostgreSQL's parser."""
    if not _PLAIN.issuperset(term):
        term = "".join(c if c in _PLAIN else f"ª{ord(c):06x}" for c in term)
    return "º" + term if _SCIENTIFIC.match(term) else term


# The term every indexed chunk has once, with tf = the chunk's length: its document
# frequency is the workspace's chunk count and its total frequency the summed length.
LENGTH_TERM = ""

# Longest word kept; longer runs (hashes, base64) are not words anyone searches by.
MAX_WORD_CHARS = 64

# Lucene's English stop words (EnglishAnalyzer.ENGLISH_STOP_WORDS_SET: the `_english_` list of
# Elasticsearch and OpenSearch, Tantivy's Language::English), plus "s" and "t": this tokenizer
# splits at an apostrophe ("it's", "don't"), where Lucene's keeps the word whole. It keeps the
# question words (what, where, how, did, from), which FAQ-style questions share with the FAQ's
# own: PostgreSQL's 127-word english.stop, used before, dropped them and cost CovidFAQ's keyword
# leg 0.12 nDCG@10 (docs/design/peers.md "Stop words").
ENGLISH_STOPWORDS = frozenset(
    """a an and are as at be but by for if in into is it no not of on or such that the their then there these
    they this to was will with s t""".split()
)

_CJK = (
    "\u3040-\u309f"  # hiragana
    "\u30a0-\u30ff"  # katakana (with the long vowel mark ー)
    "\u3005\u3006\u3007"  # 々 〆 〇
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # CJK ideographs, extension A, compatibility
    "\u3131-\u318e\uac00-\ud7a3"  # hangul
    "\U00020000-\U0002fa1f"  # CJK extensions B-F and compatibility supplement
)
# A CJK run, or a word: letters and digits of any other script (\w minus "_" and CJK).
_TOKEN = re.compile(f"([{_CJK}]+)|((?:(?![{_CJK}])[^\\W_])+)")


@lru_cache(maxsize=1)
def _stemmer() -> Stemmer.Stemmer:
    stemmer = Stemmer.Stemmer("english")
    stemmer.maxCacheSize = 100_000
    return stemmer


@dataclass(frozen=True)
class IndexTerms:
    """A text's terms for the index: term -> frequency (CJK unigrams included) and its length."""

    frequencies: dict[str, int]
    length: int


def keyword_tokens(text: str) -> list[str]:
    """The BM25 terms of `text` in order, repeats included: the tokenizer of index and query.

    >>> keyword_tokens("Refunds within 30 days: 返品ポリシー")
    ['refund', 'within', '30', 'day', '返品', '品ポ', 'ポリ', 'リシ', 'シー']
    """
    tokens: list[str] = []
    words: list[str] = []
    japanese = is_japanese(text)
    previous: re.Match | None = None
    for match in _TOKEN.finditer(unicodedata.normalize("NFKC", text).lower()):
        cjk, word = match.groups()
        joined = _joined(previous, match)
        previous = match
        if (joined or cjk) and words:  # the words before keep their place in the order
            tokens.extend(_stemmer().stemWords(words))
            words = []
        if joined:
            tokens.append(text_fold(joined))
        if cjk:
            tokens.extend(text_fold(term) for term in cjk_run_tokens(cjk, japanese=japanese))
        elif word not in ENGLISH_STOPWORDS and len(word) <= MAX_WORD_CHARS:
            words.append(text_fold(word))
    if words:
        tokens.extend(_stemmer().stemWords(words))
    return tokens


def _joined(previous: re.Match | None, match: re.Match) -> str | None:
    """The term where a word and a CJK run touch, nothing between them: the whole word and the
    run's nearest character (1992年, 第3, iphone版), or None.

    >>> keyword_tokens("1992年に")  # Sudachi's 年, then the bigram 年に, folded
    ['1992', '1992年', '年', '年ニ']
    """
    if previous is None or previous.end() != match.start() or bool(previous.group(1)) == bool(match.group(1)):
        return None
    if previous.group(1):  # a run, then a word
        return None if len(match.group(2)) > MAX_WORD_CHARS else previous.group(1)[-1] + match.group(2)
    return None if len(previous.group(2)) > MAX_WORD_CHARS else previous.group(2) + match.group(1)[0]


def keyword_index_terms(text: str) -> IndexTerms:
    """What the index stores for one chunk's text: every term's frequency and the length.

    The length counts the BM25 tokens (`keyword_tokens`); the extra unigrams of CJK runs
    (see the module docstring) get frequencies but add nothing to it.
    """
    tokens = keyword_tokens(text)
    frequencies = Counter(tokens)
    for cjk, _ in _TOKEN.findall(text_normalise(text)):
        if len(cjk) > 1:
            frequencies.update(cjk)
    return IndexTerms(frequencies=dict(frequencies), length=len(tokens))


def bm25_term_weight(*, tf: float, length: float, average_length: float) -> float:
    """BM25's saturated, length-normalised term frequency: tf (k1 + 1) / (tf + k1 (1 - b + b len/avgdl))."""
    norm = BM25_K1 * (1.0 - BM25_B + BM25_B * length / max(average_length, 1e-9))
    return tf * (BM25_K1 + 1.0) / (tf + norm)


@dataclass(frozen=True)
class QueryWord:
    """One word of a text as the tokenizer sees it: what was written (normalised) and its
    term (the stem), or a CJK run (`cjk`, whose terms are its bigrams)."""

    surface: str
    term: str
    cjk: bool


def keyword_words(text: str) -> list[QueryWord]:
    """The words of `text` with their terms, in order, stopwords left out: what a query's
    corrections and expansions (search.engine.forgiving.typos, search.engine.forgiving.synonyms) work on.

    >>> [(w.surface, w.term) for w in keyword_words("Refunds for 返品")]
    [('refunds', 'refund'), ('返品', '返品')]
    """
    words: list[QueryWord] = []
    for cjk, word in _TOKEN.findall(text_normalise(text)):
        if cjk:
            words.append(QueryWord(surface=cjk, term=cjk, cjk=True))
        elif word not in ENGLISH_STOPWORDS and len(word) <= MAX_WORD_CHARS:
            words.append(QueryWord(surface=word, term=_stemmer().stemWord(word), cjk=False))
    return words
