"""Typo tolerance for the keyword leg: query words missing from the workspace's dictionary,
corrected to close terms that are in it.

The dictionary is the keyword statistics (ingestion KeywordStat, plus the KeywordStatDelta
rows not folded in yet): one row per workspace and term, so correction works on *terms*,
that is on Snowball stems, not on surface words. The index holds nothing else, and a stem
is what a corrected word must become to match a posting anyway ("warehuose" stems to
"warehuos", one transposition from "warehous"). The budget follows the length of the word
as typed (Meilisearch's defaults: 0 edits below 5 characters, 1 from 5, 2 from 9, per
workspace in `Workspace.typo_one_edit_length` / `typo_two_edits_length`).

- Candidates come from the trigram GIN index on the terms (migration
  ingestion/0008_keyword_term_trgm.py), never from a scan of the dictionary: the closest
  CANDIDATES_PER_WORD by trigram similarity, with a length within the budget and the same
  first letter (or the first two swapped).
- Each is verified with Damerau–Levenshtein distance (rapidfuzz); the closest within the
  budget win (the most frequent first, at most CORRECTIONS_PER_WORD).
- A corrected term's BM25 weight is multiplied by EDIT_PENALTY per edit, so on an otherwise
  equal chunk, the one with the word as typed always ranks first.
- A correction is shown (meta.corrections, `corrected_query`, did-you-mean) as the word that
  stands in the content, closest to what was typed ("shiping" matched the stem "ship", shown
  "shipping"; search.engine.forgiving.surface), never as a stem.
- Numbers, and codes with a digit in them, are never corrected; nor are CJK words by edit
  distance (a kanji bigram one edit away is another word). Kana-only runs get their common
  input variants instead: hiragana ⇔ katakana and long-vowel marks (ー for - ‐ ― − ~), tried
  against the dictionary in the same statement that reads the query's statistics.

`search.engine.legs.keyword.keyword_query_prepare` calls this; `meta.corrections` reports each change.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rapidfuzz.distance import DamerauLevenshtein

from cms.folding import text_compatible, text_fold
from ingestion.keywords import QueryWord, keyword_tokens, keyword_words
from search.engine.dictionary import DELTA_TABLE, STAT_TABLE, term_visible_sql
from search.engine.filters.compile import CompiledFilter
from search.engine.db.statements import search_cursor
from search.engine.forgiving.surface import surface_forms

DEFAULT_ONE_EDIT_LENGTH = 5
DEFAULT_TWO_EDITS_LENGTH = 9
# A corrected term's weight, per edit: below 1, so the exact word outranks it.
EDIT_PENALTY = 0.8
# A kana variant's weight: the same word written another way, but not what was typed.
KANA_PENALTY = 0.9
# A word's first letter is never corrected, except by swapping the first two (Lucene's
# DirectSpellChecker and Solr's spellcheck keep a prefix of 1 by default; "erfund" is still
# "refund"). A word missing from a small workspace's dictionary is more often a real word
# ("kills", "germs", "issues") one edit from another ("ills", "terms", "tissues") than a typo
# in its first letter. Chosen on the fit splits: docs/design/forgiving.md, "Figures".
# Trigram neighbours read per word (closest first) and corrections kept per word.
CANDIDATES_PER_WORD = 24
CORRECTIONS_PER_WORD = 2
# pg_trgm's similarity floor for the index scan: one edit in a five-letter word can leave two
# shared trigrams out of ten (0.2); the length window and the distance check do the rest.
TRIGRAM_THRESHOLD = 0.18

_HIRAGANA = "\u3041-\u3096"
_KATAKANA = "\u30a1-\u30fa"
_DASHES = "\\-\u2010\u2011\u2012\u2013\u2014\u2015\u2212~\u301c\uff5e"
_KANA_RUN = re.compile(f"[{_KATAKANA}][{_KATAKANA}\u30fc{_DASHES}]*|[{_HIRAGANA}][{_HIRAGANA}\u30fc{_DASHES}]*")
_DASH_AFTER_KANA = re.compile(f"(?<=[{_HIRAGANA}{_KATAKANA}\u30fc])[{_DASHES}]")


@dataclass(frozen=True)
class TypoBudget:
    """How many edits a word may be corrected by, by its length as typed."""

    one_edit_length: int = DEFAULT_ONE_EDIT_LENGTH
    two_edits_length: int = DEFAULT_TWO_EDITS_LENGTH

    def edits_allowed(self, word: str) -> int:
        if any(ch.isdigit() for ch in word):
            return 0  # numbers, codes, versions: never "corrected"
        if len(word) >= self.two_edits_length:
            return 2
        return 1 if len(word) >= self.one_edit_length else 0


def typo_budget_for(workspace: object) -> TypoBudget:
    """The workspace's budget (its fields, or the defaults for an object without them)."""
    return TypoBudget(
        one_edit_length=getattr(workspace, "typo_one_edit_length", DEFAULT_ONE_EDIT_LENGTH),
        two_edits_length=getattr(workspace, "typo_two_edits_length", DEFAULT_TWO_EDITS_LENGTH),
    )


@dataclass(frozen=True)
class Correction:
    """One query word replaced: as typed, as matched (a term; `shown` is it as a word), edits."""

    word: str
    term: str
    matched: str
    shown: str
    edits: int
    kind: str  # "typo" or "kana"
    weight: float
    df: int = 0  # the matched term's document frequency (typo corrections; kana ones read it with the query's)

    def as_meta(self) -> dict:
        return {"word": self.word, "matched": self.shown, "term": self.matched, "edits": self.edits,
                "kind": self.kind}


def shown_form(word: QueryWord, matched: str) -> str:
    """The corrected word as a person reads it: the matched stem plus what stemming cut off
    the typed word ("warehuose" -> stem "warehuos" -> "warehous" + "e")."""
    if word.surface.startswith(word.term):
        return matched + word.surface[len(word.term):]
    return matched


def words_to_correct(query: str, present: set[str], budget: TypoBudget) -> list[tuple[QueryWord, int]]:
    """The query's words that are not in the dictionary (`present`: its terms that are) and may
    be corrected, each with its edit budget."""
    wanted: list[tuple[QueryWord, int]] = []
    seen: set[str] = set()
    for word in keyword_words(query):
        if word.cjk or word.term in present or word.term in seen:
            continue
        edits = budget.edits_allowed(word.surface)
        if edits:
            wanted.append((word, edits))
            seen.add(word.term)
    return wanted


# Per word, its closest terms by trigram similarity through the GIN index of each table
# (KeywordStat, and the deltas not folded in yet), within the length window, with their
# document frequency (stat plus deltas: a term whose chunks are all gone is no candidate).
_TYPO_CANDIDATES = (
    "SELECT q.term, c.term, c.df FROM unnest(%s::text[], %s::int[]) AS q(term, slack) CROSS JOIN LATERAL ("
    " SELECT t.term, sum(t.df)::bigint AS df FROM ("
    f"  SELECT s.term, s.df FROM {STAT_TABLE} s WHERE s.workspace_id = %s AND s.term %% q.term"
    f"  UNION ALL SELECT d.term, d.df FROM {DELTA_TABLE} d WHERE d.workspace_id = %s AND d.term %% q.term) t"
    " WHERE length(t.term) BETWEEN length(q.term) - q.slack AND length(q.term) + q.slack AND t.term <> ''"
    " AND (left(t.term, 1) = left(q.term, 1) OR left(t.term, 2) = reverse(left(q.term, 2)))"
    " GROUP BY t.term HAVING sum(t.df) > 0{visible}"
    " ORDER BY similarity(t.term, q.term) DESC, t.term LIMIT %s) c"
)
# A caller who sees every chunk: no visibility check.
TYPO_CANDIDATES_SQL = _TYPO_CANDIDATES.format(visible="")


def typo_corrections(*, workspace_id: int, words: list[tuple[QueryWord, int]],
                     visible: CompiledFilter | None = None) -> list[Correction]:
    """The closest dictionary terms of each word within its budget (one indexed statement),
    among the terms a chunk passing `visible` holds (None: every chunk; search.engine.dictionary).

    Each correction's `weight` is EDIT_PENALTY ** edits (the caller multiplies the term's
    idf by it) and `df` the matched term's document frequency, read in the same statement.
    """
    if not words:
        return []
    terms = [word.term for word, _ in words]
    slack = [edits for _, edits in words]
    check = None if visible is None else term_visible_sql("t.term", visible)
    sql = _TYPO_CANDIDATES.format(visible="" if check is None else f" AND {check.sql}")
    check_params = [] if check is None else [workspace_id, *check.params]
    with search_cursor() as cursor:
        cursor.execute(sql, [terms, slack, workspace_id, workspace_id, *check_params, CANDIDATES_PER_WORD],
                       local_settings={"pg_trgm.similarity_threshold": str(TRIGRAM_THRESHOLD)})
        rows = cursor.fetchall()
    neighbours: dict[str, list[str]] = {}
    dfs: dict[str, int] = {}
    for term, candidate, df in rows:
        neighbours.setdefault(term, []).append(candidate)
        dfs[candidate] = int(df)
    chosen: list[tuple[QueryWord, int, str]] = []
    for word, edits in words:
        scored = []
        for candidate in neighbours.get(word.term, []):
            if any(ch.isdigit() for ch in candidate):
                continue
            distance = DamerauLevenshtein.distance(word.term, candidate, score_cutoff=edits)
            if 0 < distance <= edits:
                scored.append((distance, candidate))
        if not scored:
            continue
        best = min(distance for distance, _ in scored)
        for distance, candidate in sorted(c for c in scored if c[0] == best)[:CORRECTIONS_PER_WORD]:
            chosen.append((word, distance, candidate))
    # Shown as a word of the content, the one closest to what was typed (search.engine.forgiving.surface):
    # "shiping" matched the stem "ship", which reads "shipping" in the content.
    forms = surface_forms(workspace_id=workspace_id, terms=[candidate for _, _, candidate in chosen],
                          visible=visible, typed={candidate: word.surface for word, _, candidate in chosen})
    return [Correction(word=word.surface, term=word.term, matched=candidate,
                       shown=forms.get(candidate) or shown_form(word, candidate), edits=distance, kind="typo",
                       weight=EDIT_PENALTY ** distance, df=dfs[candidate])
            for word, distance, candidate in chosen]


# --- Japanese: kana input variants -------------------------------------------------------------

def _to_katakana(text: str) -> str:
    return "".join(chr(ord(ch) + 0x60) if "\u3041" <= ch <= "\u3096" else ch for ch in text)


def _to_hiragana(text: str) -> str:
    return "".join(chr(ord(ch) - 0x60) if "\u30a1" <= ch <= "\u30f6" else ch for ch in text)


def kana_variants(run: str) -> list[str]:
    """Other ways the same kana word is typed: dashes as the long-vowel mark ー, the other kana
    script, and (katakana) a final ー dropped or added. A hiragana run also tries keeping its
    last one or two characters in hiragana (a particle: プログラムの, サーバから)."""
    base = _DASH_AFTER_KANA.sub("\u30fc", run)
    variants = [base] if base != run else []
    if re.match(f"[{_KATAKANA}]", base):
        variants.append(_to_hiragana(base))
        variants.append(base[:-1] if base.endswith("\u30fc") else base + "\u30fc")
    else:
        for keep in (0, 1, 2):
            if len(base) - keep >= 2:
                variants.append(_to_katakana(base[: len(base) - keep]) + base[len(base) - keep:])
    return [v for v in dict.fromkeys(variants) if v != run]


@dataclass(frozen=True)
class KanaCandidate:
    """A kana run of the query and one variant: the terms the variant adds to the query's."""

    run: str
    variant: str
    terms: list[str]
    run_terms: list[str]


def kana_candidates(query: str) -> list[KanaCandidate]:
    """Every kana run's variants with the terms each would add (read with the query's statistics)."""
    # text_normalise without its fold: the runs and their variants keep their kana as typed.
    text = text_compatible(query).lower()
    original = set(keyword_tokens(text))
    candidates = []
    for match in _KANA_RUN.finditer(text):
        run = match.group(0)
        if len(run) < 2:
            continue
        run_terms = keyword_tokens(run)
        for variant in kana_variants(run):
            if text_fold(variant) == text_fold(run):
                # Hiragana and katakana are one in the index and the query (cms.folding): such a
                # variant only cuts differently (Sudachi reads ぷろぐらむ and プログラム apart).
                continue
            changed = text[: match.start()] + variant + text[match.end():]
            added = [t for t in dict.fromkeys(keyword_tokens(changed)) if t not in original]
            if added:
                candidates.append(KanaCandidate(run=run, variant=variant, terms=added, run_terms=run_terms))
    return candidates


def kana_corrections(candidates: list[KanaCandidate], dfs: dict[str, int]) -> list[Correction]:
    """Per kana run with a term missing from the dictionary, the variant whose added terms the
    dictionary holds most of (only if it holds more of them than the run's own are missing)."""
    corrections: list[Correction] = []
    by_run: dict[str, list[KanaCandidate]] = {}
    for candidate in candidates:
        by_run.setdefault(candidate.run, []).append(candidate)
    for run, options in by_run.items():
        missing = sum(1 for t in options[0].run_terms if t not in dfs)
        if not missing:
            continue
        best = max(options, key=lambda c: (sum(1 for t in c.terms if t in dfs), -len(c.terms)))
        if sum(1 for t in best.terms if t in dfs) == 0:
            continue
        for term in best.terms:
            if term in dfs:
                corrections.append(Correction(word=run, term=run, matched=term, shown=best.variant, edits=0,
                                              kind="kana", weight=KANA_PENALTY))
    return corrections


def corrections_meta(corrections: list[Correction]) -> list[dict]:
    """meta.corrections: each corrected word once, with what it matched."""
    seen: dict[tuple[str, str], dict] = {}
    for correction in corrections:
        key = (correction.word, correction.shown)
        if key not in seen:
            seen[key] = correction.as_meta()
    return list(seen.values())


def corrected_query(query: str, corrections: list[Correction]) -> str:
    """`query` with each corrected word replaced by its first correction (what "Showing results
    for" shows)."""
    text = text_compatible(query)
    done: set[str] = set()
    for correction in corrections:
        if correction.word in done:
            continue
        done.add(correction.word)
        text = re.sub(re.escape(correction.word), correction.shown, text, count=0, flags=re.IGNORECASE)
    return text


# --- did-you-mean (full-text) --------------------------------------------------------------------

def dictionary_terms_present(*, workspace_id: int, terms: list[str]) -> set[str]:
    """Which of `terms` the workspace's dictionary holds (df above 0, deltas included)."""
    if not terms:
        return set()
    with search_cursor() as cursor:
        cursor.execute(
            "SELECT term FROM ("
            f" SELECT term, df FROM {STAT_TABLE} WHERE workspace_id = %s AND term = ANY(%s)"
            f" UNION ALL SELECT term, df FROM {DELTA_TABLE} WHERE workspace_id = %s AND term = ANY(%s)"
            ") s GROUP BY term HAVING sum(df) > 0",
            [workspace_id, terms, workspace_id, terms],
        )
        return {row[0] for row in cursor.fetchall()}


# Corrected queries tried per did-you-mean (each one search, and only when nothing was found).
MAX_SUGGESTION_TRIES = 6


def query_rewrites(*, workspace_id: int, query: str, budget: TypoBudget) -> list[str]:
    """Queries close to `query`, most likely first, for a did-you-mean: its misspelled words
    corrected through the dictionary, and its kana runs' variants. Unchecked: the caller runs
    each and keeps those that find something."""
    text = text_compatible(query)
    rewrites: list[str] = []
    words = [w for w in keyword_words(text) if not w.cjk]
    if words:
        present = dictionary_terms_present(workspace_id=workspace_id, terms=[w.term for w in words])
        corrections = typo_corrections(workspace_id=workspace_id, words=words_to_correct(text, present, budget))
        firsts: dict[str, Correction] = {}
        for correction in corrections:
            firsts.setdefault(correction.word, correction)
        if firsts:
            rewrites.append(corrected_query(text, list(firsts.values())))
        for correction in corrections:  # then each alternative alone
            rewrites.append(corrected_query(text, [correction]))
    lowered = text.lower()
    for match in _KANA_RUN.finditer(lowered):
        for variant in kana_variants(match.group(0)):
            rewrites.append(text[: match.start()] + variant + text[match.end():])
    return [r for r in dict.fromkeys(rewrites) if r.strip() and r != query][:MAX_SUGGESTION_TRIES]
