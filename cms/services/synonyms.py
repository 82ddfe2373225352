"""A workspace's synonym sets: validated terms; a change announces itself (search reloads)."""

from __future__ import annotations

import unicodedata
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext_noop

from cms.models import SynonymKind, SynonymSet, Workspace


# --- synonym sets ------------------------------------------------------------------------------

SYNONYM_SET_MAX_TERMS = 50
SYNONYM_TERM_MAX_CHARS = 100


def _term_key(term: str) -> str:
    """A term as sets compare it: NFKC, case-folded (Refund, refund and ｒｅｆｕｎｄ are one)."""
    return unicodedata.normalize("NFKC", term).casefold()


def _synonym_terms_clean(terms: Any) -> list[str]:
    if not isinstance(terms, list) or not all(isinstance(t, str) for t in terms):
        raise ValidationError(gettext_noop("Synonyms must be a list of words or phrases."), code="synonym_terms_invalid")
    by_key: dict[str, str] = {}
    for term in (" ".join(t.split()) for t in terms if t.strip()):
        by_key.setdefault(_term_key(term), term)  # Refund and refund are one
    cleaned = list(by_key.values())
    for term in cleaned:
        if len(term) > SYNONYM_TERM_MAX_CHARS or any(unicodedata.category(ch) == "Cc" for ch in term):
            raise ValidationError(gettext_noop("A synonym is at most %(limit)s characters, without control characters."),
                                  code="synonym_term_invalid", params={"limit": SYNONYM_TERM_MAX_CHARS})
    return cleaned


def synonym_set_check(*, kind: str, terms: Any, source: str = "") -> tuple[str, list[str], str]:
    """(kind, terms, source) cleaned, or ValidationError with a code: `synonym_set_too_small`
    (a multi-way set needs 2 terms, a one-way set a source and 1 term), `synonym_set_too_large`
    (over SYNONYM_SET_MAX_TERMS), `synonym_kind_invalid`, `synonym_term_invalid`. Its message is
    an English template (gettext_noop) with `params`, which the admin shows translated."""
    if kind not in SynonymKind.values:
        raise ValidationError(gettext_noop("kind must be one of %(kinds)s."), code="synonym_kind_invalid",
                              params={"kinds": ", ".join(SynonymKind.values)})
    cleaned = _synonym_terms_clean(terms)
    source = " ".join(source.split()) if isinstance(source, str) else None
    if source is None or any(unicodedata.category(ch) == "Cc" for ch in source):
        raise ValidationError(gettext_noop("A one-way set's source is a word or phrase, without control characters."),
                              code="synonym_term_invalid")
    if kind == SynonymKind.ONE_WAY:
        if not source or len(source) > SYNONYM_TERM_MAX_CHARS:
            raise ValidationError(gettext_noop("A one-way set needs its source word (what finds the others)."),
                                  code="synonym_set_too_small")
        cleaned = [t for t in cleaned if _term_key(t) != _term_key(source)]  # ｐｈｏｎｅ → phone is no set
    else:
        source = ""
    needed = 1 if kind == SynonymKind.ONE_WAY else 2
    if len(cleaned) < needed:
        too_small = (gettext_noop("A one-way set needs at least %(needed)s different term(s).") if kind == SynonymKind.ONE_WAY
                     else gettext_noop("A multi-way set needs at least %(needed)s different term(s)."))
        raise ValidationError(too_small, code="synonym_set_too_small", params={"needed": needed})
    if len(cleaned) > SYNONYM_SET_MAX_TERMS:
        raise ValidationError(gettext_noop("A set holds at most %(limit)s terms, not %(count)s."),
                              code="synonym_set_too_large", params={"limit": SYNONYM_SET_MAX_TERMS, "count": len(cleaned)})
    return kind, cleaned, source


def synonym_set_overlap_check(*, workspace: Workspace, kind: str, terms: list[str], source: str,
                              excluding: SynonymSet | None = None) -> None:
    """ValidationError unless the cleaned set (synonym_set_check's answer) adds something the
    workspace's other sets do not say: `synonym_source_taken` when a one-way set of the same
    source exists (its terms go in that set: two sets for one source overlap, and which one an
    editor changes would be a guess), `synonym_set_duplicate` when one multi-way set already
    holds every term. The admin, the API and synonyms_import all refuse through here."""
    others = SynonymSet.objects.for_workspace(workspace).filter(kind=kind)
    if excluding is not None:
        others = others.exclude(id=excluding.id)
    if kind == SynonymKind.ONE_WAY:
        for other in others:
            if _term_key(other.source) == _term_key(source):
                raise ValidationError(
                    gettext_noop("“%(source)s” already has a one-way set (%(set)s): add the terms to that set instead."),
                    code="synonym_source_taken", params={"source": source, "set": str(other)})
        return
    keys = {_term_key(term) for term in terms}
    for other in others:
        if keys <= {_term_key(term) for term in other.terms}:
            raise ValidationError(gettext_noop("The set %(set)s already holds every one of these terms."),
                                  code="synonym_set_duplicate", params={"set": str(other)})


def _synonyms_changed(workspace: Workspace) -> None:
    Workspace.objects.filter(pk=workspace.pk).update(synonyms_version=F("synonyms_version") + 1)
    workspace.refresh_from_db(fields=["synonyms_version"])


@transaction.atomic
def synonym_set_create(*, workspace: Workspace, terms: Any, kind: str = SynonymKind.MULTI_WAY,
                       source: str = "") -> SynonymSet:
    """A synonym set of the workspace, checked (synonym_set_check, then against the workspace's
    other sets: synonym_set_overlap_check); searches use it at once."""
    kind, cleaned, source = synonym_set_check(kind=kind, terms=terms, source=source)
    synonym_set_overlap_check(workspace=workspace, kind=kind, terms=cleaned, source=source)
    synonym_set = SynonymSet.objects.create(workspace=workspace, kind=kind, terms=cleaned, source=source)
    _synonyms_changed(workspace)
    return synonym_set


@transaction.atomic
def synonym_set_update(*, synonym_set: SynonymSet, terms: Any, kind: str | None = None,
                       source: str | None = None) -> SynonymSet:
    kind, cleaned, source = synonym_set_check(kind=kind or synonym_set.kind, terms=terms,
                                              source=synonym_set.source if source is None else source)
    synonym_set_overlap_check(workspace=synonym_set.workspace, kind=kind, terms=cleaned, source=source,
                              excluding=synonym_set)
    synonym_set.kind, synonym_set.terms, synonym_set.source = kind, cleaned, source
    synonym_set.save()
    _synonyms_changed(synonym_set.workspace)
    return synonym_set


@transaction.atomic
def synonym_set_delete(*, synonym_set: SynonymSet) -> None:
    workspace = synonym_set.workspace
    synonym_set.delete()
    _synonyms_changed(workspace)
