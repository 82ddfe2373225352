"""Whether an entry holds every word of a query: the evidence no fitted score may overrule.

A person who types `shipping` and sees an entry that says "shipping" expects it, whatever a
cosine or a calibrated confidence makes of a one-word query. So, for a query that reads as
keywords rather than a question (`query_reads_as_question`), hybrid and agentic search:

- rank the entries holding every word of the query above the others, and the entries holding
  some above those holding none (Meilisearch's first ranking rule, `words`: the number of query
  words a document holds, before `typo`, `proximity`, `exactness` and the score; the fused
  score then orders each tier, as Meilisearch's later rules order its buckets);
- never refuse such an entry with the confidence floor (search/engine/confidence.py): it is an
  answer by construction, as a document meeting Elasticsearch's `minimum_should_match: 100%`
  is a match whatever its score.

Semantic search ranks by meaning only, but reads the same check: an entry among its hits that
holds every word is not refused either, and when nothing is answered it says how many entries
hold the words (`words_meta`), so "no good match" is never said of words the content holds.

Words count as the keyword leg counts them (the product's tokenizer, ingestion.keywords:
folded, stemmed, stopwords aside), with the keyword leg's typo corrections and synonyms: each
query term is held when the entry holds it, one of its corrections, or every term of a
synonym its phrase added. An entry holds what any of its chunks hold (an entry's chunks
together; an asset's likewise), read in one statement from the keyword index's postings by
primary key (chunk_id, term). docs/design/short-queries.md has the rule's figures.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any
from dataclasses import dataclass, replace

from cms.citus_mode import workspace_named, workspace_param
from cms.folding import text_fold
from ingestion.keywords import keyword_words
from search.contract.results import ChunkHit
from search.engine.db.statements import search_cursor
from search.engine.dictionary import POSTING_TABLE
from search.engine.filters.compile import CompiledFilter

# A query reads as a question, not keywords, when it has a question mark, opens with a
# question word, or holds more than MAX_KEYWORD_WORDS words (stopwords aside; a CJK run counts
# one word per CJK_CHARS_PER_WORD characters). Chosen on the fit halves of ../shared/eval/
# (bench/query_shape.py, bench/words_tiers.py --cjk-chars; figures in docs/design/short-queries.md):
# the fit questions read as questions at 94-100% (CovidFAQ's at 82.5%: a sixth of them are typed
# as keywords), and the CJK sets' titles, names a person types as keywords, at 0-4%. At 3
# characters a CJK word, a long name with one more word (ハリファックス大爆発 直後) read as a question.
MAX_KEYWORD_WORDS = 4
CJK_CHARS_PER_WORD = 5
# How far the tiers go (ranked_by_words): a query of up to TIERED_MAX_WORDS words (a CJK run
# counting one: a title or a name is typed whole) ranks the entries holding every word, then
# some, then none; a longer keyword query only puts the entries holding none of its words after
# the others, and the fusion orders the rest. Three or four words typed as keywords are often a
# question without its question word ("coronavirus in animals symptoms"), whose answer need not hold
# every word. Per embedding model, as the fusion that orders the rest is: chosen on the fit
# halves, leave-one-set-out (bench/words_tiers.py; figures in docs/design/short-queries.md, "How
# far the tiers go"). E5's fusion keeps CovidFAQ's keyword-typed questions better than the tiers
# do past two words; USE's fusion loses them at any length alike (0.0009 at four words). A
# model with no fit of its own takes the shorter line.
TIERED_MAX_WORDS: dict[str, int] = {
    "multilingual-e5-small": 2,
    "use-multilingual-v3": 4,
}
TIERED_MAX_WORDS_DEFAULT = 2


def tiered_max_words(model: str | None) -> int:
    """How many words a keyword query may hold and keep every tier (TIERED_MAX_WORDS)."""
    return TIERED_MAX_WORDS.get(model or "", TIERED_MAX_WORDS_DEFAULT)
QUESTION_WORDS = frozenset(
    """what who whom whose where when why how which is are was were do does did can could should would will
    shall may might""".split())
_QUESTION_MARK = re.compile("[?？]")
# Chinese and Japanese question words and sentence-final particles.
_CJK_QUESTION = re.compile("什麼|什么|為什麼|为什么|哪|誰|谁|幾|几|多少|嗎|吗|呢|何|誰|どこ|いつ|なぜ|どう|どの|か$|か。$")

# The entries checked at most (a page's candidates; one statement).
MAX_ENTRIES_CHECKED = 300
# Entries counted at most for semantic search's `meta.words` (the count says "at least"), and the
# entries holding some query term read to count them.
MAX_ENTRIES_COUNTED = 1000
MAX_GROUPS_READ = 20000


def query_word_count(query: str, *, cjk_chars_per_word: int | None = CJK_CHARS_PER_WORD) -> int:
    """How many words `query` holds, stopwords aside, a CJK run counting one per `cjk_chars_per_word`
    characters (None: a run, as typed between spaces or punctuation, is one word)."""
    return sum((1 if cjk_chars_per_word is None else max(1, -(-len(w.surface) // cjk_chars_per_word)))
               if w.cjk else 1 for w in keyword_words(query))


def query_reads_as_question(query: str) -> bool:
    """Whether `query` reads as a question (or a sentence) rather than keywords (see MAX_KEYWORD_WORDS)."""
    if _QUESTION_MARK.search(query) or _CJK_QUESTION.search(query.strip()):
        return True
    count = query_word_count(query, cjk_chars_per_word=CJK_CHARS_PER_WORD)
    if not count:
        return False
    first = query.strip().split(maxsplit=1)[0].lower() if query.strip() else ""
    if first in QUESTION_WORDS:
        return True
    return count > MAX_KEYWORD_WORDS


@dataclass(frozen=True)
class WordClauses:
    """What "holds every word" means for one query: per query term, the term sets that stand in
    for it (the term, a correction, a synonym's terms), any one of which an entry must hold whole."""

    clauses: tuple[tuple[frozenset[str], ...], ...]

    @property
    def terms(self) -> list[str]:
        return sorted({t for clause in self.clauses for option in clause for t in option})

    def held_by(self, terms: Iterable[str]) -> bool:
        held = set(terms)
        return all(any(option <= held for option in clause) for clause in self.clauses)

    def held_any(self, terms: Iterable[str]) -> bool:
        held = set(terms)
        return any(any(option <= held for option in clause) for clause in self.clauses)


def word_terms(text: str) -> list[str]:
    """The terms that say a text's words stand in an entry: a word's stem, and a CJK run's
    character bigrams (its one character, alone), which the index holds for every run as
    written. Not the dictionary words Japanese runs are also cut into: Sudachi reads a word alone
    and in a sentence apart (支払い alone, 支払う in 元のお支払い方法), where the bigrams agree."""
    terms: list[str] = []
    for word in keyword_words(text):
        if not word.cjk:
            terms.append(word.term)
            continue
        run = text_fold(word.surface)
        terms.extend([run] if len(run) == 1 else [run[i:i + 2] for i in range(len(run) - 1)])
    return list(dict.fromkeys(terms))


def word_clauses(query: str, *, corrections: Iterable = (), expansions: Iterable = ()) -> WordClauses | None:
    """The clauses of `query` (None when it has no searchable word), with the keyword leg's
    `corrections` (search.engine.forgiving.typos.Correction) and synonym `expansions`
    (search.engine.forgiving.synonyms.Expansion) as alternatives of the terms they stand for."""
    typed = word_terms(query)
    if not typed:
        return None
    options: dict[str, list[frozenset[str]]] = {term: [frozenset([term])] for term in typed}
    for correction in corrections:
        # A typo correction replaces its word's stem; a kana one, every term of its run.
        replaced = [correction.term] if correction.kind == "typo" else word_terms(correction.term)
        for term in replaced:
            if term in options:
                options[term].append(frozenset([correction.matched]))
    for expansion in expansions:
        for term in word_terms(expansion.matched):
            if term in options:
                options[term].append(frozenset(expansion.terms))
    return WordClauses(clauses=tuple(tuple(dict.fromkeys(options[term])) for term in typed))


def entry_key(entry_id: int | None, asset_id: int | None, chunk_id: int) -> tuple[str, int]:
    """The key of a hit's entry (or asset), as search/engine/entry_results.py groups them."""
    return ("entry", entry_id) if entry_id is not None else ("asset", asset_id if asset_id is not None else -chunk_id)


def entries_holding(*, workspace_id: int, clauses: WordClauses, keys: Iterable[tuple[str, int]],
                    visible: CompiledFilter | None) -> dict[tuple[str, int], int]:
    """Of these entries (and assets), how many of the query's clauses each holds, counted over
    all its chunks the caller may see (`visible`, alias `c`; None: every chunk). One statement:
    the entries' chunks, and each chunk's postings of the query's terms by primary key."""
    wanted = list(dict.fromkeys(k for k in keys if k[1] is not None and k[1] >= 0))[:MAX_ENTRIES_CHECKED]
    if not wanted:
        return {}
    entries = [k[1] for k in wanted if k[0] == "entry"]
    assets = [k[1] for k in wanted if k[0] == "asset"]
    with search_cursor() as cursor:
        cursor.execute(
            "SELECT c.entry_id, c.asset_id, array_agg(DISTINCT p.term) FROM ingestion_chunk c"
            f" CROSS JOIN LATERAL (SELECT p.term FROM {POSTING_TABLE} p WHERE p.chunk_id = c.id"
            f"  AND p.term = ANY(%s){workspace_named('p')} OFFSET 0) p"
            " WHERE c.workspace_id = %s AND (c.entry_id = ANY(%s) OR c.asset_id = ANY(%s))"
            + ("" if visible is None else f" AND {visible.sql}")
            + " GROUP BY c.entry_id, c.asset_id",
            [clauses.terms, *workspace_param(workspace_id), workspace_id, entries, assets,
             *([] if visible is None else visible.params)],
        )
        rows = cursor.fetchall()
    held: dict[tuple[str, int], int] = {}
    for entry_id, asset_id, terms in rows:
        present = set(terms)
        count = sum(1 for clause in clauses.clauses if any(option <= present for option in clause))
        held[entry_key(entry_id, asset_id, 0)] = count
    return held


def entries_holding_count(*, workspace_id: int, clauses: WordClauses, visible: CompiledFilter | None,
                          limit: int = MAX_ENTRIES_COUNTED) -> int:
    """How many entries (and assets) the caller may see hold every word (at most `limit`): the
    entries holding the rarest clause's terms, read from the posting index, then checked whole."""
    terms = clauses.terms
    with search_cursor() as cursor:
        cursor.execute(
            "SELECT c.entry_id, c.asset_id, array_agg(DISTINCT p.term) FROM ingestion_chunk c"
            f" JOIN {POSTING_TABLE} p ON p.chunk_id = c.id AND p.term = ANY(%s)"
            " WHERE c.workspace_id = %s AND p.workspace_id = %s"
            + ("" if visible is None else f" AND {visible.sql}")
            + " GROUP BY c.entry_id, c.asset_id LIMIT %s",
            [terms, workspace_id, workspace_id, *([] if visible is None else visible.params), MAX_GROUPS_READ],
        )
        rows = cursor.fetchall()
    return min(limit, sum(1 for _, _, held in rows if clauses.held_by(held)))


def ranked_by_words(ranked: list, held: dict[tuple[str, int], int], clauses: WordClauses,
                    key_of: Callable[[Any], tuple[str, int]],
                    keyword_rank_of: Callable[[Any], int | None] | None = None,
                    words: int = 1, max_words: int = TIERED_MAX_WORDS_DEFAULT) -> list:
    """`ranked` (best first) with the entries holding every clause first, then those holding some,
    then those holding none, each tier in its order (a stable sort). With `keyword_rank_of` (a
    row's rank in the keyword leg, None where it has none), the first tier is ordered by the sum
    of each row's place in `ranked` and its place by keyword rank, ties in `ranked`'s order: where
    every row holds every word, how the words stand in it (BM25: how often, and as a whole word
    or only as part of a longer one, a CJK word read whole and as bigrams) gets a vote equal to
    the fusion's, as Meilisearch's `exactness` and `typo` rules order its `words` bucket.
    A query of more than `max_words` `words` (tiered_max_words; query_word_count, a CJK run one
    word) only has the entries holding none of its words put last; the rest keep `ranked`'s order.
    Chosen on the short sets' fit halves (docs/design/short-queries.md)."""
    every = len(clauses.clauses)

    def tier(item: Any) -> int:
        count = held.get(key_of(item), 0)
        return 0 if count >= every else (1 if count else 2)

    if words > max_words:
        return sorted(ranked, key=lambda item: tier(item) == 2)
    tiered = sorted(ranked, key=tier)
    if keyword_rank_of is None:
        return tiered
    first = [item for item in tiered if tier(item) == 0]
    by_keyword = sorted(range(len(first)), key=lambda i: (keyword_rank_of(first[i]) is None,
                                                          keyword_rank_of(first[i]) or 0, i))
    keyword_place = {i: place for place, i in enumerate(by_keyword)}
    order = sorted(range(len(first)), key=lambda i: (i + keyword_place[i], i))
    return [first[i] for i in order] + tiered[len(first):]


def hits_holding_marked(hits: list[ChunkHit], *, workspace_id: int, query: str, visible: CompiledFilter | None
                        ) -> tuple[list[ChunkHit], WordClauses | None]:
    """For a search that ranks by meaning alone (semantic): `hits` in their order, those whose
    entry holds every word of `query` marked `holds_words` when it reads as keywords, and the
    query's clauses (None when it reads as a question or has no word)."""
    clauses = None if query_reads_as_question(query) else word_clauses(query)
    if clauses is None or not hits:
        return hits, clauses
    held = entries_holding(workspace_id=workspace_id, clauses=clauses,
                           keys=[entry_key(h.entry_id, h.asset_id, h.id) for h in hits], visible=visible)
    every = len(clauses.clauses)
    return [replace(h, holds_words=True) if held.get(entry_key(h.entry_id, h.asset_id, h.id), 0) >= every else h
            for h in hits], clauses


def words_meta(*, workspace_id: int, query: str, clauses: WordClauses | None, visible: CompiledFilter | None
               ) -> dict[str, Any] | None:
    """`meta.words` of an answer that found nothing near in meaning although entries hold every
    word of the keyword query: how many (at least), and the search that lists them (hybrid,
    whose word rule answers them). None when no entry holds them."""
    if clauses is None:
        return None
    count = entries_holding_count(workspace_id=workspace_id, clauses=clauses, visible=visible)
    if not count:
        return None
    return {"near_in_meaning": False, "entries": count, "at_least": count >= MAX_ENTRIES_COUNTED,
            "follow_up": {"search": "hybrid", "query": query}}
