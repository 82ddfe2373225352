"""Words, not stems: the form of a dictionary term that stands in the content, for what a person reads.

The keyword dictionary holds Snowball stems (`ship` for shipping, `deliveri` for delivery), and
a typo correction or a completion is found among them. Shown as is, a stem reads as a typo of
its own, and a stem searched again (a chosen suggestion, full-text's did-you-mean) can find
nothing: full-text search matches the text, where `deliveri` stands nowhere. So every term
shown to a person is shown as a word some chunk holds: read from the chunks that hold the term
(its best postings by impact, among those the caller may see), the word whose stem it is,
closest to what was typed (a correction) or most frequent (a completion). One statement for
all the terms; `bench/forgiving.py` measures the suggest path that calls it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from rapidfuzz.distance import DamerauLevenshtein

from cms.citus_mode import same_workspace
from ingestion.keywords import keyword_words
from search.engine.db.statements import search_cursor
from search.engine.dictionary import POSTING_TABLE
from search.engine.filters.compile import CompiledFilter

# Chunks read per term for its surface forms (its best postings by impact).
SURFACE_CHUNKS = 3


def surface_forms(*, workspace_id: int, terms: list[str], visible: CompiledFilter | None,
                  typed: Mapping[str, str] | None = None) -> dict[str, str]:
    """Each of `terms` as a word that stands in a chunk passing `visible` (alias `c`; None: any),
    the one closest to `typed[term]` where given, else the most frequent; a term no such chunk
    holds as a word (a CJK bigram, a joined term) is left out: the caller shows it as it is."""
    wanted = [t for t in dict.fromkeys(terms) if t]
    if not wanted:
        return {}
    with search_cursor() as cursor:
        cursor.execute(
            "SELECT u.term, c.title, c.text FROM unnest(%s::text[]) AS u(term) CROSS JOIN LATERAL ("
            f" SELECT c.title, c.text FROM {POSTING_TABLE} p JOIN ingestion_chunk c ON c.id = p.chunk_id"
            f"{same_workspace('c', 'p')} WHERE p.workspace_id = %s AND p.term = u.term"
            + ("" if visible is None else f" AND {visible.sql}")
            + " ORDER BY p.impact DESC LIMIT %s) c",
            [wanted, workspace_id, *([] if visible is None else visible.params), SURFACE_CHUNKS],
        )
        rows = cursor.fetchall()
    seen: dict[str, Counter[str]] = {}
    for term, title, text in rows:
        counts = seen.setdefault(term, Counter())
        for word in keyword_words(f"{title or ''}\n{text or ''}"):
            if not word.cjk and word.term == term:
                counts[word.surface] += 1
    forms: dict[str, str] = {}
    for term, counts in seen.items():
        if not counts:
            continue
        near = (typed or {}).get(term)
        forms[term] = min(counts, key=lambda s: (DamerauLevenshtein.distance(near, s) if near else 0,
                                                -counts[s], len(s), s))
    return forms
