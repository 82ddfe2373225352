"""`manage.py semantic_search`: the same search from a terminal, readable or as JSON."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tests.search.semantic_helpers import REFUND_EN, chunk_make, entry_for, plain_type

pytestmark = pytest.mark.django_db



@pytest.fixture
def chunks(local_embeddings, workspace, other_workspace):
    chunk_make(entry_for(plain_type(workspace), title="Returns"), REFUND_EN, fields={"version": 2})
    chunk_make(entry_for(plain_type(other_workspace), title="Theirs"), "Other tenant refund rules.")


def run(*args: str) -> str:
    out = StringIO()
    call_command("semantic_search", *args, stdout=out)
    return out.getvalue()


def test_prints_ranked_results_readably(chunks):
    output = run("acme", "返品")

    assert "1 result(s) in acme" in output
    assert "Returns" in output
    assert "Refund policy" in output


def test_json_flag_prints_the_api_answer(chunks):
    body = json.loads(run("acme", "refund", "--json", "--top-k", "5"))

    assert body["meta"]["top_k"] == 5
    assert [s["metadata"]["title"] for s in body["sources"]] == ["Returns"]


def test_only_the_named_workspace_is_searched(chunks):
    body = json.loads(run("globex", "refund", "--json"))

    assert [s["document"] for s in body["sources"]] == ["Other tenant refund rules."]


def test_filter_option_narrows(chunks):
    body = json.loads(run("acme", "refund", "--json", "--filter", '{"version": {"$gt": 2}}'))

    assert body["sources"] == []


def test_bad_filter_is_a_command_error_with_its_code(chunks):
    with pytest.raises(CommandError, match=r"\[unknown_operator\] filter\.version\.\$regex"):
        run("acme", "refund", "--filter", '{"version": {"$regex": "x"}}')


def test_filter_that_is_not_json_is_a_command_error(chunks):
    with pytest.raises(CommandError, match=r"\[malformed_json\]"):
        run("acme", "refund", "--filter", "{version: 2")


def test_unknown_workspace_is_a_command_error(db):
    with pytest.raises(CommandError, match="No workspace"):
        run("nope", "refund")


def test_empty_query_is_a_command_error(chunks):
    with pytest.raises(CommandError, match=r"\[query_empty\]"):
        run("acme", "  ")


def test_top_k_out_of_range_is_a_command_error(chunks):
    with pytest.raises(CommandError, match=r"\[top_k_out_of_range\]"):
        run("acme", "refund", "--top-k", "500")


def test_no_provider_is_a_command_error_saying_how_to_configure(workspace, no_embeddings):
    with pytest.raises(CommandError, match=r"\[not_configured\].*EMBEDDING_PROVIDER"):
        run("acme", "refund")
