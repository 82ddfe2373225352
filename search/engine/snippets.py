"""Snippets with their matches highlighted, as safe HTML: one function for every admin result list.

Pure functions (no database, no request). Text is escaped piece by piece and only the `<mark>`
elements added here are markup, so entry text never injects any. Matching folds case one
character to one character (as PostgreSQL's lower() does, and search.engine.fulltext relies on), so
offsets found in the folded text are offsets in the original; scripts without case, such as
Japanese, match as they are.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from cms.folding import text_fold

ELLIPSIS = "…"
# Characters of context kept before the first match, and the most an excerpt keeps in all.
EXCERPT_BEFORE = 60
EXCERPT_MAX_CHARS = 320
# Highlighting terms taken from a free-text query: at most this many, each at least
# MIN_TERM_CHARS long unless written in a script without spaces between words (CJK).
MAX_TERMS = 16
MIN_TERM_CHARS = 3
_WORD = re.compile(r"\w+")
# Hiragana, katakana, CJK ideographs (and their extensions), Hangul: one character is a word.
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")

Span = tuple[int, int]


def fold(text: str) -> str:
    """Lowercase and fold `text` one character to one character (cms.folding.text_fold: case,
    Traditional as Simplified, hiragana as katakana, full-width as ASCII), so every offset into
    the result is an offset into `text`: a highlight of 退货 in 退貨 marks 退貨."""
    return text_fold(text)


def match_spans(text: str, terms: Iterable[str]) -> tuple[Span, ...]:
    """Every case-insensitive occurrence of any of `terms` in `text`, as sorted [start, end)
    character offsets; overlapping and touching occurrences are merged into one span."""
    folded = fold(text)
    found: list[Span] = []
    for term in {fold(t) for t in terms if t}:
        start = folded.find(term)
        while start != -1:
            found.append((start, start + len(term)))
            start = folded.find(term, start + len(term))
    return _merge(found)


def highlight_html(text: str, spans: Sequence[Span]) -> SafeString:
    """`text` HTML-escaped, with each span wrapped in <mark>. Spans outside the text, empty or
    overlapping an earlier one are ignored: a bad offset never breaks or opens markup."""
    pieces: list[str] = []
    position = 0
    for start, end in sorted(spans):
        start, end = max(start, position), min(end, len(text))
        if start >= end:
            continue
        pieces.append(escape(text[position:start]))
        pieces.append(f"<mark>{escape(text[start:end])}</mark>")
        position = end
    pieces.append(escape(text[position:]))
    return mark_safe("".join(pieces))  # noqa: S308 - every piece of text above is escaped


def excerpt(text: str, spans: Sequence[Span], *, before: int = EXCERPT_BEFORE,
            max_chars: int = EXCERPT_MAX_CHARS) -> tuple[str, tuple[Span, ...]]:
    """At most `max_chars` of `text` (plus ellipses), starting `before` characters ahead of the
    first span, or at the start when there is none; the spans moved to the excerpt's offsets
    and cut at its end."""
    text_start = max(spans[0][0] - before, 0) if spans else 0
    # Whatever room is left after the end goes before the match instead.
    text_start = max(min(text_start, len(text) - max_chars), 0)
    text_end = min(text_start + max_chars, len(text))
    prefix = ELLIPSIS if text_start > 0 else ""
    suffix = ELLIPSIS if text_end < len(text) else ""
    shift = len(prefix) - text_start
    moved = tuple(
        (max(start, text_start) + shift, min(end, text_end) + shift)
        for start, end in spans
        if end > text_start and start < text_end
    )
    return f"{prefix}{text[text_start:text_end]}{suffix}", moved


def query_terms(query: str) -> list[str]:
    """The words of a free-text query worth highlighting in a chunk: the whole query, then its
    words of MIN_TERM_CHARS or more and its runs of CJK characters (two or more)."""
    terms = [query.strip()] if query.strip() else []
    for word in _WORD.findall(query):
        cjk = bool(_CJK.search(word))
        if (cjk and len(word) >= 2) or (not cjk and len(word) >= MIN_TERM_CHARS):
            terms.append(word)
    return list(dict.fromkeys(terms))[:MAX_TERMS]


def snippet_html(text: str, terms: Iterable[str], *, max_chars: int = EXCERPT_MAX_CHARS) -> SafeString:
    """An excerpt of `text` around the first of `terms` it contains, every term highlighted."""
    shown, spans = excerpt(text, match_spans(text, terms), max_chars=max_chars)
    return highlight_html(shown, spans)


def query_snippet_html(text: str, query: str, *, max_chars: int = EXCERPT_MAX_CHARS) -> SafeString:
    """An excerpt of `text` around the first word of a free-text `query` it contains, words highlighted."""
    return snippet_html(text, query_terms(query), max_chars=max_chars)


def _merge(spans: list[Span]) -> tuple[Span, ...]:
    merged: list[Span] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return tuple(merged)
