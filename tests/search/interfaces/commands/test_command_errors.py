"""Every search command reports a search error one way: `[code] message`, the API's code and sentence."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.factories import ContentTypeFactory

pytestmark = pytest.mark.django_db

DEEP_FILTER = "[" * 100 + "]" * 100


@pytest.fixture
def searchable(workspace, local_embeddings):
    ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)


@pytest.mark.parametrize("command", ["search_entries", "semantic_search", "hybrid_search", "agentic_search"])
def test_an_empty_query_is_code_first_in_every_command(searchable, command):
    with pytest.raises(CommandError) as raised:
        call_command(command, "acme", "   ")

    assert str(raised.value).startswith("[query_empty] "), str(raised.value)


@pytest.mark.parametrize("command", ["semantic_search", "hybrid_search", "agentic_search"])
def test_a_deep_filter_is_a_coded_error_not_a_traceback(searchable, command):
    with pytest.raises(CommandError) as raised:
        call_command(command, "acme", "refund", "--filter", DEEP_FILTER)

    assert str(raised.value).startswith("[json_too_deep] "), str(raised.value)
