"""Promotions (editors' picks): a phrase pins an entry at a position."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from cms.models import PROMOTION_PHRASE_MAX_CHARS, Entry, Promotion, PromotionMatch, promotion_phrase_normalise, Workspace


# --- promotions (editors' picks) --------------------------------------------------------------

@transaction.atomic
def promotion_create(*, workspace: Workspace, phrase: str, entry: Entry, position: int = 0,
                     match: str = PromotionMatch.IS) -> Promotion:
    """Pin `entry` to searches for `phrase` (normalised), matched as the whole query or
    anywhere in it (`match`, PromotionMatch). The entry must be of `workspace`; pinning the
    same entry to the same phrase twice is refused."""
    normalised = promotion_phrase_normalise(phrase if isinstance(phrase, str) else "")
    errors = {}
    if not normalised:
        errors["phrase"] = "Give the query phrase the entry should answer."
    elif len(normalised) > PROMOTION_PHRASE_MAX_CHARS:
        errors["phrase"] = f"A phrase has at most {PROMOTION_PHRASE_MAX_CHARS} characters."
    if match not in PromotionMatch.values:
        errors["match"] = f"Choose how the phrase matches: {' or '.join(PromotionMatch.values)}."
    if entry.workspace_id != workspace.pk:
        errors["entry"] = "The entry must belong to the same workspace."
    elif normalised and Promotion.objects.filter(workspace=workspace, phrase=normalised, entry=entry).exists():
        errors["entry"] = f"This entry is already pinned to {normalised!r}."
    if errors:
        raise ValidationError(errors)
    return Promotion.objects.create(workspace=workspace, phrase=normalised, entry=entry, position=position,
                                    match=match)


def promotion_delete(*, promotion: Promotion) -> None:
    promotion.delete()
