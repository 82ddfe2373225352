"""Synonyms at query time: a workspace's synonym sets (cms.models.SynonymSet) expand the keyword
leg's query, never the index, so editing a set needs no reindex.

A set's terms are tokenized like everything else (ingestion.keywords: stems, CJK bigrams), so
"refunds" in a query matches the set {refund, money back} and adds the terms of "money back".
A phrase matches where its terms occur in a row in the query's. Added terms weigh
SYNONYM_WEIGHT times what the query's own words weigh (and never replace them).

- multi_way: each term finds the others;
- one_way: the source finds the terms (phone -> smartphone), not back.

The sets are cached per process, per workspace and its `synonyms_version` (bumped by every
change: cms.services.synonym_set_*), which the request's workspace row carries anyway: a
change is seen by the next search in every process, and a search reads no more rows for it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from cms.models import SynonymKind, SynonymSet
from ingestion.keywords import keyword_tokens

# An added synonym's weight relative to the query's own word.
SYNONYM_WEIGHT = 0.6
# Workspaces whose synonyms each process keeps.
CACHE_WORKSPACES = 256


@dataclass(frozen=True)
class Expansion:
    """What a phrase of the query (`matched`) added: the terms of `added`."""

    matched: str
    added: str
    terms: tuple[str, ...]


@dataclass(frozen=True)
class SynonymRule:
    phrase: tuple[str, ...]  # the terms that must occur in a row
    text: str
    adds: tuple[tuple[str, tuple[str, ...]], ...]  # (text, terms) of each synonym


_cache: OrderedDict[int, tuple[int, list[SynonymRule]]] = OrderedDict()
_lock = threading.Lock()


def synonym_rules(*, workspace_id: int, version: int) -> list[SynonymRule]:
    """The workspace's rules, from the process cache when `version` is the cached one.
    Version 0: the workspace never had a set, so there is nothing to read."""
    if version == 0:
        return []
    with _lock:
        cached = _cache.get(workspace_id)
        if cached is not None and cached[0] == version:
            _cache.move_to_end(workspace_id)
            return cached[1]
    rules = _rules_build(list(SynonymSet.objects.filter(workspace_id=workspace_id).order_by("id")))
    with _lock:
        _cache[workspace_id] = (version, rules)
        _cache.move_to_end(workspace_id)
        while len(_cache) > CACHE_WORKSPACES:
            _cache.popitem(last=False)
    return rules


def _rules_build(sets: list[SynonymSet]) -> list[SynonymRule]:
    rules: list[SynonymRule] = []
    for synonym_set in sets:
        tokenized = [(t, tuple(keyword_tokens(t))) for t in synonym_set.terms]
        tokenized = [(t, terms) for t, terms in tokenized if terms]
        if synonym_set.kind == SynonymKind.ONE_WAY:
            source = tuple(keyword_tokens(synonym_set.source))
            if source and tokenized:
                rules.append(SynonymRule(phrase=source, text=synonym_set.source, adds=tuple(tokenized)))
            continue
        for text, phrase in tokenized:
            others = tuple((t, terms) for t, terms in tokenized if terms != phrase)
            if others:
                rules.append(SynonymRule(phrase=phrase, text=text, adds=others))
    return rules


def _occurs(phrase: tuple[str, ...], tokens: list[str]) -> bool:
    n = len(phrase)
    return any(tuple(tokens[i:i + n]) == phrase for i in range(len(tokens) - n + 1))


def synonym_expansions(*, query: str, rules: list[SynonymRule]) -> list[Expansion]:
    """The synonyms the query's phrases add (terms the query has already are left out)."""
    if not rules:
        return []
    tokens = keyword_tokens(query)
    present = set(tokens)
    expansions: list[Expansion] = []
    for rule in rules:
        if not _occurs(rule.phrase, tokens):
            continue
        for text, terms in rule.adds:
            new = tuple(t for t in terms if t not in present)
            if new:
                expansions.append(Expansion(matched=rule.text, added=text, terms=new))
    return expansions


def expanded_meta(expansions: list[Expansion]) -> list[dict]:
    """meta.expanded: each phrase of the query and the synonyms it added."""
    by_phrase: dict[str, list[str]] = {}
    for expansion in expansions:
        added = by_phrase.setdefault(expansion.matched, [])
        if expansion.added not in added:
            added.append(expansion.added)
    return [{"matched": matched, "added": added} for matched, added in by_phrase.items()]
