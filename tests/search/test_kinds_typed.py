"""The SearchKind contract is typed: a kind runs on a caller's WorkspaceAccess and returns a
SearchOutcome, and both result classes have what the protocol names (search/kinds.py)."""

from __future__ import annotations

import dataclasses
import typing

from cms.access import WorkspaceAccess
from search.contract.results import SearchOutcome, SearchResult
from search.engine.fulltext import EntrySearchResult
from search.kinds import SEARCH_KINDS, SearchKind


def test_a_kind_runs_on_an_access_and_returns_a_search_outcome():
    run = typing.get_type_hints(SearchKind)["run"]
    arguments, returned = typing.get_args(run)
    assert arguments[0] is WorkspaceAccess
    assert returned is SearchOutcome
    search = typing.get_type_hints(SearchKind.search)
    assert (search["access"], search["return"]) == (WorkspaceAccess, SearchOutcome)


def test_every_result_class_has_the_outcomes_members():
    names = {name for name in SearchOutcome.__annotations__} | {"as_dict"}
    for result in (SearchResult, EntrySearchResult):
        fields = {field.name for field in dataclasses.fields(result)}
        assert names - {"as_dict"} <= fields, result
        assert callable(getattr(result, "as_dict")), result
    assert {kind.name for kind in SEARCH_KINDS.values()} >= {"search_entries", "hybrid_search"}
