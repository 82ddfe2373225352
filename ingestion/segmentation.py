"""How the keyword tokenizer cuts a CJK run (no spaces between words) into terms: the one choice point.

`ingestion.keywords.keyword_tokens` calls `cjk_run_tokens` for every run of kanji, kana,
hanzi or hangul, after its normalisation (NFKC, lowercase, and whatever folding the
normaliser does), so chunks and queries are cut the same way.

Settings (config/settings/search.py), chosen by bench/cjk_tokenizers.py (docs/design/cjk-tokenizers.md):

- SEARCH_KEYWORD_JA_TOKENIZER, for a text that holds kana (Japanese):
  - "bigrams": overlapping character bigrams only (no dictionary in memory);
  - "sudachi-A+bigrams" (the default): SudachiPy (sudachidict-core, split mode A) words in their
    normalised form (附属 and 付属 are one term), particles, auxiliary verbs and symbols
    left out, *plus* the bigrams.
- Any other run (Chinese, Korean, a Japanese text with no kana at all) is cut into bigrams.

A text with kana is Japanese as a whole: a kanji-only run inside it (東京都) gets the
dictionary's words too. A kanji-only query (東京都 alone) has no kana and gets bigrams only;
because the chunks keep their bigrams, it finds them as before.

Changing the setting changes the terms of new postings only: `manage.py keyword_reindex`
rewrites the postings of existing chunks (see its help). Until it has run, a query's bigrams
still match the old postings and its dictionary words count for nothing (a term no chunk has).
"""

from __future__ import annotations

from functools import lru_cache

JA_TOKENIZERS = ("bigrams", "sudachi-A+bigrams")
DEFAULT_JA_TOKENIZER = "sudachi-A+bigrams"
# Parts of speech that carry no meaning of their own (Sudachi's first POS level).
_DROPPED_POS = frozenset({"助詞", "助動詞", "補助記号", "空白"})


def cjk_bigrams(run: str) -> list[str]:
    """Overlapping character bigrams; a 1-character run is its own term."""
    return [run] if len(run) == 1 else [run[i : i + 2] for i in range(len(run) - 1)]


def is_japanese(text: str) -> bool:
    """Whether `text` holds kana (hiragana, katakana, half-width katakana): Japanese, not Chinese."""
    return any("\u3040" <= ch <= "\u30ff" or "\uff66" <= ch <= "\uff9d" for ch in text)


def _ja_tokenizer_name() -> str:
    from django.conf import settings

    # Outside Django (the tokenizer is a pure function, e.g. in bench scripts): the default.
    name = getattr(settings, "SEARCH_KEYWORD_JA_TOKENIZER", DEFAULT_JA_TOKENIZER) if settings.configured else DEFAULT_JA_TOKENIZER
    if name not in JA_TOKENIZERS:
        raise ValueError(f"SEARCH_KEYWORD_JA_TOKENIZER must be one of {', '.join(JA_TOKENIZERS)}, not {name!r}")
    return name


@lru_cache(maxsize=1)
def _sudachi():
    from sudachipy import Dictionary, SplitMode

    return Dictionary(dict="core").tokenizer(mode=SplitMode.A)


def sudachi_words(run: str) -> list[str]:
    """Sudachi's mode-A words of `run` in normalised form, function words left out."""
    return [m.normalized_form() for m in _sudachi().tokenize(run) if m.part_of_speech()[0] not in _DROPPED_POS]


def cjk_run_tokens(run: str, *, japanese: bool) -> list[str]:
    """The BM25 terms of one normalised CJK run; `japanese`: the text it came from holds kana."""
    if japanese and _ja_tokenizer_name() == "sudachi-A+bigrams":
        return [*sudachi_words(run), *cjk_bigrams(run)]
    return cjk_bigrams(run)
