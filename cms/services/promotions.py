"""Promotions (editors' picks): a phrase pins an entry at a position."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext_noop

from cms.models import PROMOTION_PHRASE_MAX_CHARS, Entry, Promotion, PromotionMatch, promotion_phrase_normalise, Workspace
from cms.selectors import promotion_pinned


# --- promotions (editors' picks) --------------------------------------------------------------

# Why a promotion is refused: code -> its sentence, an English template marked with gettext_noop.
# The service's ValidationError says it in English (what the API and commands show); the admin
# says it in the editor's language, looked up by code (cms.admin.promotions.promotion_refusal_text).
PROMOTION_REFUSALS: dict[str, str] = {
    "promotion_phrase_empty": gettext_noop("Give the query phrase the entry should answer."),
    "promotion_phrase_too_long": gettext_noop("A phrase has at most %(limit)s characters."),
    "promotion_phrase_invalid_character": gettext_noop("A phrase must not contain a NUL character or a lone "
                                                       "surrogate."),
    "promotion_match_invalid": gettext_noop("Choose how the phrase matches: %(choices)s."),
    "promotion_entry_not_in_workspace": gettext_noop("The entry must belong to the same workspace."),
    "promotion_already_pinned": gettext_noop("“%(title)s” is already pinned to “%(phrase)s”."),
}


def _refusal(code: str, **params: object) -> ValidationError:
    return ValidationError(PROMOTION_REFUSALS[code], code=code, params=params or None)


def _storable(text: str) -> bool:
    """Whether PostgreSQL can store and compare `text`: no NUL, no lone surrogate (psycopg
    raises DataError on either, the first time the phrase reaches a query)."""
    if "\x00" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def promotion_phrase_checked(*, workspace: Workspace, phrase: str, entry: Entry, match: str = PromotionMatch.IS,
                             promotion: Promotion | None = None) -> tuple[str, str]:
    """(`phrase` as shown, its matching key) for a pin of `entry` in `workspace`, or ValidationError
    keyed by field, each error with a `code` of PROMOTION_REFUSALS and its `params`. Shown: as
    typed, whitespace runs made one space and trimmed; the key: promotion_phrase_normalise (NFKC
    may lengthen it: ㌀ is アパート, and both are stored). The entry must be of `workspace`, and
    no other promotion than `promotion` (the one being changed) may pin it to the same key (退貨
    and 退货 are one)."""
    shown = " ".join(phrase.split()) if isinstance(phrase, str) else ""
    key = promotion_phrase_normalise(shown)
    errors = {}
    if not key:
        errors["phrase"] = _refusal("promotion_phrase_empty")
    elif max(len(shown), len(key)) > PROMOTION_PHRASE_MAX_CHARS:
        errors["phrase"] = _refusal("promotion_phrase_too_long", limit=PROMOTION_PHRASE_MAX_CHARS)
    elif not _storable(shown):
        errors["phrase"] = _refusal("promotion_phrase_invalid_character")
    if match not in PromotionMatch.values:
        errors["match"] = _refusal("promotion_match_invalid", choices=", ".join(PromotionMatch.values))
    if entry.workspace_id != workspace.pk:
        errors["entry"] = _refusal("promotion_entry_not_in_workspace")
    elif key and "phrase" not in errors and promotion_pinned(workspace=workspace, phrase_key=key, entry=entry, excluding=promotion):
        errors["entry"] = _refusal("promotion_already_pinned", title=entry.title or entry.pk, phrase=shown)
    if errors:
        raise ValidationError(errors)
    return shown, key


@transaction.atomic
def promotion_create(*, workspace: Workspace, phrase: str, entry: Entry, position: int = 0,
                     match: str = PromotionMatch.IS) -> Promotion:
    """Pin `entry` to searches for `phrase`, matched normalised (promotion_phrase_normalise) as
    the whole query or anywhere in it (`match`, PromotionMatch). The phrase is kept as typed for
    people, its key for matching. The entry must be of `workspace`; pinning the same entry to
    the same phrase twice (in any script, case or width) is refused."""
    shown, key = promotion_phrase_checked(workspace=workspace, phrase=phrase, entry=entry, match=match)
    return Promotion.objects.create(workspace=workspace, phrase=shown, phrase_key=key, entry=entry,
                                    position=position, match=match)


@transaction.atomic
def promotion_update(*, promotion: Promotion, workspace: Workspace, phrase: str, entry: Entry, position: int,
                     match: str) -> Promotion:
    """Change a promotion, checked as promotion_create checks a new one (its own row aside)."""
    shown, key = promotion_phrase_checked(workspace=workspace, phrase=phrase, entry=entry, match=match,
                                          promotion=promotion)
    promotion.workspace, promotion.phrase, promotion.phrase_key = workspace, shown, key
    promotion.entry, promotion.position, promotion.match = entry, position, match
    promotion.save()
    return promotion


def promotion_delete(*, promotion: Promotion) -> None:
    promotion.delete()


@transaction.atomic
def promotion_move(*, promotion: Promotion, by: int) -> list[Promotion]:
    """Move `promotion` `by` places (-1 up, 1 down) among the pins of its phrase (same key), in
    the order searches show them (position, then id), and number them 0, 1, 2... so the order
    read is the order stored. Moving past either end leaves it there. Returns the pins in order."""
    pins = list(Promotion.objects.select_for_update().filter(workspace_id=promotion.workspace_id,
                                                             phrase_key=promotion.phrase_key).order_by("position", "id"))
    index = next(i for i, pin in enumerate(pins) if pin.pk == promotion.pk)
    target = max(0, min(len(pins) - 1, index + by))
    pins.insert(target, pins.pop(index))
    for position, pin in enumerate(pins):
        if pin.position != position:
            pin.position = position
            pin.save(update_fields=["position"])
    return pins
