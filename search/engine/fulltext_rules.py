"""The query rules full-text applies besides the literal substring: synonyms as more substrings.

Full-text matches substrings, not terms, so a synonym set applies as text: where a term of a
set (search.engine.forgiving.synonyms' rules, the same cached sets the keyword leg expands with) starts a word
of the query, case-insensitively, the query is also searched with that term replaced by each
of the set's other terms ("reimbursement policy" -> "refund policy"; "refunds" -> "reimbursements").
A term in a script without spaces (CJK) matches anywhere. The variants are ORed in the
statement (search.engine.fulltext), each through the gram index like the query itself.
"""

from __future__ import annotations

import re

from search.engine.snippets import fold
from search.engine.forgiving.synonyms import SynonymRule

# Variants searched besides the query: each is one more gram-index lookup ORed in.
MAX_VARIANTS = 4
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
