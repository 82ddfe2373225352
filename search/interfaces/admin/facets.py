"""The admin search page's facet sidebar: the facets it asks for, the filter its clicks build, and its links.

Like the changelist's list_filter: per facet an "All" link and one link per value with its
count; a click sets that facet's value in the URL and goes back to the first page, so a
filtered search is a link one can share. The choices in force are chips above the results,
each with a link that drops it, and "Clear all". A new query drops the field facets' choices
unless the editor ticks "Keep filters": the form carries the query it was shown with
(`pq=`), and the page compares it with the one submitted (`field_choices_dropped`). Content type and status are the page's own
selects (`content_type=`, `status=`); a field facet is `facet.<field id>=<value>`, turned
into a filter condition by the facet itself (search.engine.facets.facet_value_condition: a tag's
membership, a number's range, a date's month). Counts are the search's own
(search/engine/facets.py): disjunctive, within what the user may see.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.utils.translation import gettext, gettext_lazy as _, ngettext

from cms.model_labels import status_word
from search.engine.facets import BUILTIN_FACETS, OTHER, facet_value_condition, facetable_fields, facets_resolve
from search.contract.filter_language import FIELD_PREFIX, RESERVED_KEYS
from search.contract.option_fields import MAX_FACETS

# A field facet's value in the page's URL: `facet.<field id>=<value>`.
FIELD_PARAM_PREFIX = "facet."
BUILTIN_TITLES = {"content_type": _("By content type"), "status": _("By status")}
BUILTIN_NAMES = {"content_type": _("Content type"), "status": _("Status")}
# The query the form was shown with, and the box that keeps the field facets' choices on a new query.
PREVIOUS_QUERY_PARAM = "pq"
KEEP_FILTERS_PARAM = "keep_filters"


def sidebar_facet_names(schemas: Mapping[str, Sequence[dict]]) -> list[str]:
    """Content type, status, then the workspace's facetable fields in schema order, MAX_FACETS in all."""
    return [*BUILTIN_FACETS, *facetable_fields(schemas)][:MAX_FACETS]


def sidebar_field_choices(params: Mapping[str, str]) -> dict[str, str]:
    """The field facets' values chosen in the URL (`facet.<field id>=<value>`), by field id."""
    return {key[len(FIELD_PARAM_PREFIX):]: value for key, value in params.items()
            if key.startswith(FIELD_PARAM_PREFIX) and value != ""}


def sidebar_filter(choices: Mapping[str, str], schemas: Mapping[str, Sequence[dict]]) -> dict[str, Any]:
    """The filter the chosen field facet values make, one top-level condition each (so each
    facet's own counts ignore it). SearchInputError for a facet or value the workspace
    does not have (`unknown_facet`, `facet_value_invalid`)."""
    facets = facets_resolve(list(choices), schemas) if choices else []
    spec: dict[str, Any] = {}
    for facet in facets:
        if facet.kind == "builtin":
            continue  # content type and status are the page's selects, not facet.<name>
        key = FIELD_PREFIX + facet.name if facet.name in RESERVED_KEYS else facet.name
        spec[key] = facet_value_condition(facet, choices[facet.name])
    return spec


@dataclass(frozen=True)
class FacetLink:
    label: str
    value: str
    count: int | None
    url: str
    selected: bool

    @property
    def accessible_name(self) -> str:
        """The label with its count, as a screen reader says the link ("Shipping, 12 results")."""
        if self.count is None:
            return self.label
        return ngettext("%(label)s, %(count)s result", "%(label)s, %(count)s results", self.count) % {
            "label": self.label, "count": self.count}


@dataclass(frozen=True)
class FacetChip:
    """A choice in force: what it filters, the value, and the link that drops it."""

    param: str
    title: str
    label: str
    remove_url: str


@dataclass(frozen=True)
class FacetGroup:
    name: str
    title: str
    links: tuple[FacetLink, ...]


def sidebar_groups(params: Mapping[str, str], facets: Mapping[str, Mapping[str, int]] | None,
                   schemas: Mapping[str, Sequence[dict]], content_type_names: Mapping[str, str]) -> list[FacetGroup]:
    """The sidebar for a search answered with `facets` ({facet: {value: count}}), on the page
    whose GET parameters are `params`."""
    if not facets:
        return []
    labels = {spec["id"]: spec.get("label") or spec["id"] for fields in schemas.values() for spec in fields}
    base = {key: value for key, value in params.items() if key not in ("offset", PREVIOUS_QUERY_PARAM)}
    groups = []
    for name, counts in facets.items():
        param = name if name in BUILTIN_FACETS else FIELD_PARAM_PREFIX + name
        title = BUILTIN_TITLES.get(name) or gettext("By %(field)s") % {"field": labels.get(name, name)}
        chosen = base.get(param, "")
        without = {key: value for key, value in base.items() if key != param}
        def shown(value: str) -> str:
            if name == "status":
                return status_word(value)
            return content_type_names.get(value, value) if name == "content_type" else value
        links = [FacetLink(gettext("All"), "", None, "?" + urlencode(without), chosen == "")]
        for value, count in counts.items():
            if value == OTHER:
                continue
            links.append(FacetLink(shown(value), value, count, "?" + urlencode({**without, param: value}),
                                   chosen == value))
        if chosen and chosen not in counts:
            links.append(FacetLink(shown(chosen), chosen, 0, "?" + urlencode(base), True))
        if len(links) > 1:  # a group with only "All" offers nothing (a search that found nothing)
            groups.append(FacetGroup(name, title, tuple(links)))
    return groups


def sidebar_chips(params: Mapping[str, str], schemas: Mapping[str, Sequence[dict]],
                  content_type_names: Mapping[str, str]) -> tuple[list[FacetChip], str]:
    """The choices in force (content type, status, field facets) as chips, and the link that
    clears them all (the query and the other parameters kept, back to the first page)."""
    labels = {spec["id"]: spec.get("label") or spec["id"] for fields in schemas.values() for spec in fields}
    base = {key: value for key, value in params.items() if key not in ("offset", PREVIOUS_QUERY_PARAM)}
    chips = []
    for param, value in base.items():
        if value == "":
            continue
        if param == "content_type":
            title, label = BUILTIN_NAMES[param], content_type_names.get(value, value)
        elif param == "status":
            title, label = BUILTIN_NAMES[param], status_word(value)
        elif param.startswith(FIELD_PARAM_PREFIX):
            name = param[len(FIELD_PARAM_PREFIX):]
            title, label = labels.get(name, name), value
        else:
            continue
        without = {key: kept for key, kept in base.items() if key != param}
        chips.append(FacetChip(param, str(title), label, "?" + urlencode(without)))
    chosen = {chip.param for chip in chips}
    return chips, "?" + urlencode({key: value for key, value in base.items() if key not in chosen})


def field_choices_dropped(params: Mapping[str, str]) -> dict[str, str] | None:
    """The page's parameters without the field facets' choices, when the query changed
    (`q` differs from the `pq` the form was shown with) and "Keep filters" is not ticked;
    None when nothing is to drop."""
    if PREVIOUS_QUERY_PARAM not in params or params.get(KEEP_FILTERS_PARAM):
        return None
    if params.get("q", "").strip() == params.get(PREVIOUS_QUERY_PARAM, "").strip():
        return None
    if not sidebar_field_choices(params):
        return None
    return {key: value for key, value in params.items()
            if not key.startswith(FIELD_PARAM_PREFIX) and key not in ("offset", PREVIOUS_QUERY_PARAM)}


def sidebar_hidden_inputs(params: Mapping[str, str]) -> list[tuple[str, str]]:
    """The chosen field facet values, as the search form's hidden inputs: a new query keeps them."""
    return [(FIELD_PARAM_PREFIX + name, value) for name, value in sidebar_field_choices(params).items()]

