"""The query rules full-text applies besides the literal substring: synonyms as more substrings, and the searched typo correction.

Full-text matches substrings, not terms, so a synonym set applies as text: where a term of a
set (search.engine.forgiving.synonyms' rules, the same cached sets the keyword leg expands with) starts a word
of the query, case-insensitively, the query is also searched with that term replaced by each
of the set's other terms ("reimbursement policy" -> "refund policy"; "refunds" -> "reimbursements").
A term in a script without spaces (CJK) matches anywhere. The variants are ORed in the
statement (search.engine.fulltext_plans), each through the gram index like the query itself.

When nothing is found, did-you-mean offers the corrections (search.engine.forgiving.typos) that
do find an entry (entry_suggestions); with `typo_tolerance` search.engine.fulltext searches the
first in the query's place.
"""

from __future__ import annotations

import re

from cms.access import WorkspaceAccess
from search.engine.forgiving.synonyms import SynonymRule
from search.engine.forgiving.typos import query_rewrites, typo_budget_for
from search.engine.fulltext_plans import EntryFilters, entry_rows_find
from search.engine.snippets import fold

# Variants searched besides the query: each is one more gram-index lookup ORed in.
MAX_VARIANTS = 4
# Did-you-mean: the most corrected queries offered when nothing is found.
MAX_SUGGESTIONS = 3
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")


def synonym_variants(*, query: str, rules: list[SynonymRule]) -> tuple[str, ...]:
    """The query with each synonym term it holds replaced by the set's other terms (at most
    MAX_VARIANTS, none equal to the query ignoring case)."""
    variants: list[str] = []
    seen = {fold(query)}
    folded = fold(query)
    for rule in rules:
        term = fold(rule.text.strip())
        if not term:
            continue
        pattern = re.escape(term) if _CJK.search(term) else rf"(?<!\w){re.escape(term)}"
        found = re.search(pattern, folded)
        if found is None:
            continue
        for text, _ in rule.adds:
            variant = query[: found.start()] + text.strip() + query[found.end():]
            if fold(variant) not in seen and variant.strip():
                seen.add(fold(variant))
                variants.append(variant)
    return tuple(variants[:MAX_VARIANTS])


def entry_suggestions(*, access: WorkspaceAccess, query: str, filters: EntryFilters) -> tuple[str, ...]:
    """Did-you-mean: up to MAX_SUGGESTIONS queries close to `query` (search.engine.forgiving.typos.query_rewrites)
    that each find at least one entry with the same filters and visibility. With
    `typo_tolerance` (the default) search_entries_run then searches the first in the literal
    query's place and says so (meta.corrected_query); without it they are only offered."""
    found: list[str] = []
    for rewrite in query_rewrites(workspace_id=access.workspace.pk, query=query,
                                  budget=typo_budget_for(access.workspace)):
        _, rows, _ = entry_rows_find(filters=filters, query=rewrite, limit=1, offset=0)
        if rows:
            found.append(rewrite)
            if len(found) == MAX_SUGGESTIONS:
                break
    return tuple(found)
