"""As-you-type suggestions: completions of what has been typed so far, for a search box.

Two kinds, both read through btree prefix ranges with a LIMIT, never a trigram or a scan
(`bench/forgiving.py` measures them at 100k chunks):

- `title`: titles of chunks (so of entries and assets) the caller may see that start with
  the prefix, normalised and folded (cms.folding: 返 -> 返品・返金について, "refund po" ->
  "Refund policy", 退貨 -> 退货政策, りん -> リンゴ), newest first. Index
  `chunk_title_fold_prefix` on (workspace_id, cms_text_fold(title) text_pattern_ops),
  read in its own order (`ORDER BY ... USING ~<~`): ordered by the default collation
  instead, the index cannot give the order and every title in the range is fetched and
  sorted before the LIMIT (29 ms for "a" at 100k chunks, 1.5 ms in index order).
- `term`: the workspace's dictionary terms (the keyword statistics) completing the last
  word, most frequent first (df), each checked to occur in a chunk the caller may see, so a
  published-only key is never offered a word only drafts contain. Index
  `keyword_stat_term_prefix` on (workspace_id, term) INCLUDE (df), with the deltas not
  folded in yet (their (workspace_id, term) index). Terms are what the index
  holds: Snowball stems ("polici" for policy), each shown as the word that stands in the
  content ("policy"; search.engine.forgiving.surface), so a chosen completion finds what it promised.

When what was typed completes to nothing, its last word is corrected by one typo as the
keyword leg corrects it (search.engine.forgiving.typos, through the same visibility check) and the corrected
text completed instead, each suggestion marked `corrected` ("refnud" -> "refund").

Visibility is the chunk searches' own (`search.engine.filters.visibility`); another workspace is a 404
before this runs (the API view's access).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cms.access import WorkspaceAccess
from cms.folding import text_normalise
from search.engine.dictionary import DELTA_TABLE, STAT_TABLE, term_visible_sql
from search.engine.filters.compile import CompiledFilter
from search.contract.options import SuggestOptions
from search.engine.db.statements import search_cursor
from search.engine.filters.visibility import chunk_visibility_filter
from ingestion.keywords import keyword_words
from search.engine.forgiving.surface import surface_forms
from search.engine.forgiving.typos import typo_budget_for, typo_corrections

# Rows read in index order before ranking: titles (chunks, several per entry) and terms.
TITLE_SCAN_ROWS = 200
TERM_SCAN_ROWS = 300
# What was typed that completes to nothing is tried with its last word corrected by at most
# this many edits (and no more than the workspace's typo budget allows for its length).
SUGGEST_TYPO_EDITS = 1
# Terms need this many typed letters (a one-letter range holds too many to rank by frequency).
TERM_MIN_CHARS = 2
# Above every character, in code point (and UTF-8 byte) order: the end of a prefix range.
_TOP = "\U0010ffff"
_LAST_WORD = re.compile(r"([^\W_]+)$")
_CJK = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7a3]")


@dataclass(frozen=True)
class Suggestion:
    text: str
    kind: str  # "title" or "term"
    # Completes the typed text with its last word corrected (one typo), not as typed.
    corrected: bool = False


@dataclass(frozen=True)
class SuggestResult:
    query: str
    suggestions: list[Suggestion]
    # The search log's id (search/insights/search_log.py). Not in the JSON: a completion is typed
    # into the box, not opened, so there is no click to report against it.
    search_id: str | None = None

    @property
    def hits(self) -> tuple[()]:
        """No entry or chunk: completions are text (the search log remembers no result ids)."""
        return ()

    @property
    def answers(self) -> int:
        return len(self.suggestions)

    def as_dict(self) -> dict[str, Any]:
        return {"query": self.query,
                "suggestions": [{"text": s.text, "kind": s.kind, **({"corrected": True} if s.corrected else {})}
                                for s in self.suggestions]}


def term_completions(*, workspace_id: int, word: str, limit: int, visible: CompiledFilter | None) -> list[str]:
    """The workspace's `limit` most frequent terms starting with `word` (and longer), among the
    first TERM_SCAN_ROWS in order (the prefix btree of KeywordStat and the deltas'), each held
    by a chunk passing `visible` (None: the caller sees every chunk; search.engine.dictionary).
    Suggestions show them; hybrid's `prefix: true` adds them to the keyword leg, whose
    statistics in `meta` must not count a word only drafts hold."""
    check = None if visible is None else term_visible_sql("t.term", visible)
    with search_cursor() as cursor:
        # Candidates most frequent first, materialised in that order, so the visibility check
        # (one posting probe each) runs only until `limit` have passed.
        cursor.execute(
            "WITH t AS MATERIALIZED (SELECT term, sum(df) AS df FROM ("
            f" (SELECT term, df FROM {STAT_TABLE} WHERE workspace_id = %s AND term > %s AND term < %s"
            "  ORDER BY term LIMIT %s)"
            f" UNION ALL (SELECT term, df FROM {DELTA_TABLE} WHERE workspace_id = %s AND term > %s AND term < %s"
            "  ORDER BY term LIMIT %s)) u GROUP BY term HAVING sum(df) > 0 ORDER BY sum(df) DESC, term)"
            f" SELECT t.term FROM t WHERE {'TRUE' if check is None else check.sql} LIMIT %s",
            [workspace_id, word, word + _TOP, TERM_SCAN_ROWS, workspace_id, word, word + _TOP, TERM_SCAN_ROWS,
             *([] if check is None else [workspace_id, *check.params]), limit],
        )
        return [row[0] for row in cursor.fetchall()]


def suggest_run(access: WorkspaceAccess, options: Mapping[str, Any]) -> SuggestResult:
    """Up to `limit` completions of `query` (SuggestOptions; 400s with codes): titles first,
    then terms completing the last word."""
    request = SuggestOptions.validated(options)
    typed, limit = request["query"], request["limit"]
    prefix = text_normalise(typed)
    visible = chunk_visibility_filter(access, alias="c")
    workspace_id = access.workspace.pk
    titles = title_completions(workspace_id=workspace_id, prefix=prefix, visible=visible, limit=limit)
    suggestions = [Suggestion(text=title, kind="title") for title in titles]
    last = _LAST_WORD.search(prefix)
    if len(suggestions) < limit and last and len(last.group(1)) >= TERM_MIN_CHARS and not _CJK.search(last.group(1)):
        word = last.group(1)
        terms = term_completions(workspace_id=workspace_id, word=word, limit=limit - len(suggestions),
                                 visible=None if visible.sql == "TRUE" else visible)
        head = typed.rstrip()[: len(typed.rstrip()) - len(word)]
        seen = {s.text.lower() for s in suggestions}
        # Terms are stems ("deliveri"): each is offered as the word that stands in the content
        # ("delivery"), which finds what it promised in every search (search.engine.forgiving.surface).
        forms = surface_forms(workspace_id=workspace_id, terms=terms, visible=None if visible.sql == "TRUE" else visible)
        for term in terms:
            text = head + forms.get(term, term)
            if text.lower() not in seen:
                seen.add(text.lower())
                suggestions.append(Suggestion(text=text, kind="term"))
    if not suggestions and last and not _CJK.search(last.group(1)):
        suggestions = typo_suggestions(access=access, typed=typed, prefix=prefix, word=last.group(1),
                                       visible=visible, limit=limit)
    return SuggestResult(query=typed, suggestions=suggestions[:limit])


def title_completions(*, workspace_id: int, prefix: str, visible: CompiledFilter, limit: int) -> list[str]:
    """Up to `limit` titles of chunks passing `visible` that start with `prefix` (folded, cms.folding),
    newest first, read in the prefix index's order (see the module's docstring)."""
    with search_cursor() as cursor:
        cursor.execute(
            "SELECT title FROM ("
            " SELECT c.title, c.updated_at FROM ingestion_chunk c"
            " WHERE c.workspace_id = %s AND cms_text_fold(c.title) ~>=~ %s AND cms_text_fold(c.title) ~<~ %s"
            f" AND {visible.sql} ORDER BY cms_text_fold(c.title) USING ~<~ LIMIT %s) t"
            " GROUP BY title ORDER BY max(updated_at) DESC, title LIMIT %s",
            [workspace_id, prefix, prefix + _TOP, *visible.params, TITLE_SCAN_ROWS, limit],
        )
        return [row[0] for row in cursor.fetchall()]


def typo_suggestions(*, access: WorkspaceAccess, typed: str, prefix: str, word: str, visible: CompiledFilter,
                     limit: int) -> list[Suggestion]:
    """When what was typed completes to nothing: its last word with one typo corrected, as the
    keyword leg corrects it (search.engine.forgiving.typos: the workspace's length budget, at most SUGGEST_TYPO_EDITS
    edits; only terms a chunk the caller may see holds, search.engine.dictionary), then the titles
    starting with the corrected text and the corrected text itself, each marked `corrected`."""
    (query_word, *_) = keyword_words(word) or [None]
    if query_word is None or query_word.cjk:
        return []
    edits = min(typo_budget_for(access.workspace).edits_allowed(query_word.surface), SUGGEST_TYPO_EDITS)
    if not edits:
        return []
    corrections = typo_corrections(workspace_id=access.workspace.pk, words=[(query_word, edits)],
                                   visible=None if visible.sql == "TRUE" else visible)
    head = prefix[: len(prefix) - len(word)]
    typed_head = typed.rstrip()[: len(typed.rstrip()) - len(word)]
    suggestions: list[Suggestion] = []
    seen: set[str] = set()
    for correction in corrections:
        titles = title_completions(workspace_id=access.workspace.pk, prefix=head + correction.shown, visible=visible,
                                   limit=limit)
        for text, kind in [*((title, "title") for title in titles), (typed_head + correction.shown, "term")]:
            if text.lower() not in seen:
                seen.add(text.lower())
                suggestions.append(Suggestion(text=text, kind=kind, corrected=True))
    return suggestions[:limit]
