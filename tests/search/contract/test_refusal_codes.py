"""Each kind's 400 codes are read from its option fields (search/contract/option_fields.py): every code a
bad value of an option is refused with is in its kind's list, which the OpenAPI document prints."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from search.contract.errors import SearchInputError
from search.contract.options import option_from_text
from search.contract.option_fields import OptionField
from search.kinds import SEARCH_KINDS, SUGGEST
from tests.factories import api_key_make, bearer

KINDS = [*SEARCH_KINDS.values(), SUGGEST]
# Values no option takes: each strict option refuses at least one of them with its own code, as a
# value (a JSON body) or as text (a query string, argv).
WRONG: list[Any] = [object(), "not a value", -10**6, 10**6, [], {"no": "such key"}, [" "], 2.5, True]
WRONG_TEXT = ["{not json", "not a value", "-1000000", "1000000", "", "[" * 300]


def _refusals(kind, name: str) -> set[str]:
    codes = set()
    for value in [*WRONG, *WRONG_TEXT]:
        try:
            if value in WRONG_TEXT and isinstance(value, str):
                value = option_from_text(kind.options, name, value)
            kind.options.validated({"query": "refund", name: value})
        except SearchInputError as refused:
            codes.add(refused.code)
    return codes


@pytest.mark.parametrize(("kind", "name"), [(kind, name) for kind in KINDS for name in kind.options._declared_fields],
                         ids=lambda v: getattr(v, "name", v))
def test_every_code_a_bad_option_gets_is_in_its_kinds_list(kind, name):
    refused = _refusals(kind, name)

    assert refused <= set(kind.bad_request_codes), refused - set(kind.bad_request_codes)
    field = kind.options._declared_fields[name]
    if isinstance(field, OptionField) and field.check_codes(name):
        assert refused, f"{kind.name}.{name}: no wrong value was refused"


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.name)
def test_a_kinds_codes_are_each_named_once_and_start_with_unknown_parameter(kind):
    codes = kind.bad_request_codes

    assert len(codes) == len(set(codes))
    assert codes[0] == "unknown_parameter"
    assert {"query_empty", "query_too_long"} <= set(codes)


@pytest.mark.django_db
def test_a_full_text_flag_given_a_non_flag_is_a_documented_400(client: APIClient, workspace):
    _, secret = api_key_make(workspace)

    response = client.get("/api/v1/workspaces/acme/search/entries", {"q": "refund", "exhaustive_facets": "maybe"},
                          **bearer(secret))

    assert response.status_code == 400
    assert response.json()["code"] == "exhaustive_facets_invalid"
    assert "exhaustive_facets_invalid" in SEARCH_KINDS["search_entries"].bad_request_codes
