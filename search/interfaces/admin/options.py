"""The admin search page's "More options": the chosen search's declared options as HTML inputs.

Built from the kind's declaration (search/contract/options.py), as the API and the MCP tool
are. The options an editor decides (how many results, how strict, typo correction) are shown
in plain words; the engine's settings (ef_search, fusion, weights, rerank...) are folded under
"Advanced", by their API names, with their declared help in the editor's language. Options the
page asks for in its own way, or does not offer, are listed with why
(tests/search/contract/test_option_parity.py reads both lists).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, gettext_lazy as _
from rest_framework import serializers

from search.contract.options import option_from_text
from search.contract.option_fields import FlagField, OptionField
from search.kinds import SearchKind

# Options the page asks for in its own way, and options it does not offer, with why.
PAGE_OWN_OPTIONS = {
    "query": "the search box (q)",
    "content_type": "the content type select",
    "status": "the status select (for chunk searches, a filter on status)",
    "limit": "the page size (20 entries a page)",
    "offset": "the previous and next links",
    "facets": "the facet sidebar (search/interfaces/admin/facets.py): counts by content type, status and the facetable "
              "fields, a click applies the filter",
}
NOT_ON_PAGE = {
    "include_vectors": "a page shows text, not vectors",
    "include_sources": "the page is the sources",
    "filter": "structured JSON: the page builds it from the selects and the facet sidebar's clicks "
              "(facet.<field>=<value>); agents and the API take any filter",
    "rerank_weights": "structured JSON: tuning for integrators, with the API",
    "queries": "the page lets the server split the question; parts written by hand are for agents",
    "include_candidates": "the page always shows the nearest results, folded under \"No good match\"",
}
# The options an editor decides, in plain words; the other options are the engine's settings,
# shown under "Advanced" by their API names (search/contract/options.py documents them).
EDITOR_OPTIONS = {
    "top_k": (_("How many results"), _("The most results to show.")),
    "min_confidence": (_("How strict"), _("Hide results the search is not sure about: from 0 (show everything) to "
                                          "1 (only sure matches).")),
    "typo_tolerance": (_("Correct typos"), _("Also search for close spellings when a word finds nothing.")),
}
YES_NO = {"true": _("Yes"), "false": _("No")}
# An engine setting's help where the declaration's names an error code (the API's doc keeps it).
ADVANCED_HELP = {"rerank": _("Rerank the fused candidates with the reranking model; the search says so when none is "
                             "configured.")}


def option_labels() -> dict[str, str]:
    """What the page calls the options it names in plain words, in the editor's language: an
    error about one names it so (search.contract.errors.localized_text), not by its API name."""
    labels = {name: str(label) for name, (label, _help) in EDITOR_OPTIONS.items()}
    query = gettext("Query")
    return {**labels, "query": query, "q": query}


@dataclass(frozen=True)
class OptionInput:
    """One "More options" field: an option of the chosen search, as an HTML input."""

    name: str
    label: str
    help: str
    kind: str  # "number", "select" or "checkbox"
    value: str
    checked: bool = False
    choices: tuple[str, ...] = ()
    minimum: Any = None
    maximum: Any = None
    step: str = "1"
    advanced: bool = True  # an engine setting, under "Advanced"; else an editor's option, in plain words
    choice_labels: tuple[str, ...] = ()

    @property
    def choice_pairs(self) -> tuple[tuple[str, str], ...]:
        """The select's (value, shown) pairs."""
        return tuple(zip(self.choices, self.choice_labels or self.choices))

    @property
    def filled(self) -> bool:
        """Whether the request gave this option (the "More options" box then stays open)."""
        return self.checked if self.kind == "checkbox" else self.value != ""


def page_options(kind: SearchKind, given: Any) -> list[OptionInput]:
    """The chosen search's options the page offers beyond its own, with the values `given` (GET)."""
    inputs = []
    for name, field in kind.options().fields.items():
        if name in PAGE_OWN_OPTIONS or name in NOT_ON_PAGE or not isinstance(field, OptionField):
            continue
        advanced = name not in EDITOR_OPTIONS
        label, help_text = EDITOR_OPTIONS.get(name, (name, ADVANCED_HELP.get(name) or advanced_help(field)))
        value = given.get(name, "")
        if isinstance(field, FlagField) and field.default is True:
            # On unless turned off: a checkbox left unticked sends nothing, which means the default.
            inputs.append(OptionInput(name, label, help_text, "select", value, choices=("true", "false"),
                                      advanced=advanced, choice_labels=tuple(YES_NO.values())))
        elif isinstance(field, FlagField):
            inputs.append(OptionInput(name, label, help_text, "checkbox", "on", checked=bool(value), advanced=advanced))
        elif isinstance(field, serializers.ChoiceField):
            choices = tuple(field.choices)
            inputs.append(OptionInput(name, label, help_text, "select", value, choices=choices, advanced=advanced,
                                      choice_labels=choices))
        else:
            whole = isinstance(field, serializers.IntegerField)
            inputs.append(OptionInput(name, label, help_text, "number", value, minimum=field.min_value,
                                      maximum=field.max_value, step="1" if whole else "any", advanced=advanced))
    return inputs


def advanced_help(field: OptionField) -> str:
    """An engine setting's declared help in the active language: the declaration marks it with
    gettext_noop (search/contract/options.py), so the API and MCP keep the English."""
    return gettext(field.help_text) if field.help_text else ""  # gettext("") is the catalogue's header


def page_option_values(kind: SearchKind, given: Any) -> dict[str, Any]:
    """The values of the "More options" fields that were filled in, read as their options read text."""
    values = {}
    for option in page_options(kind, given):
        text = given.get(option.name, "")
        if text != "":
            values[option.name] = True if option.kind == "checkbox" else option_from_text(kind.options, option.name, text)
    return values

