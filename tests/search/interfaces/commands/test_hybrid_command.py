"""`manage.py hybrid_search`: the same search from a terminal, readable or as JSON, as the operator or a user."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tests.factories import ContentTypeFactory, MembershipFactory, UserFactory, entry_make

pytestmark = pytest.mark.django_db


@pytest.fixture
def docs(workspace, other_workspace, no_embeddings):
    doc_type = ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)
    entry_make(doc_type, title="Returns", body="<p>Refunds: return any unused item within 30 days.</p>")
    entry_make(doc_type, title="Refund draft", body="<p>Refund plan for next year.</p>", status="draft")
    theirs = ContentTypeFactory(workspace=other_workspace, api_id="doc", semantic_search_enabled=True)
    entry_make(theirs, title="Theirs", body="<p>Other tenant refund rules.</p>")


def run(*args: str) -> str:
    out = StringIO()
    call_command("hybrid_search", *args, stdout=out)
    return out.getvalue()


def test_prints_ranked_results_with_their_legs(docs):
    output = run("acme", "refund")

    assert "2 result(s) in acme: legs keyword" in output
    assert "semantic leg not used: [not_configured]" in output
    assert "Returns" in output and "keyword " in output
    assert "Theirs" not in output


def test_json_flag_prints_the_api_answer(docs):
    body = json.loads(run("acme", "refund", "--json", "--top-k", "5", "--fusion", "rrf"))

    assert body["meta"]["top_k"] == 5
    assert body["meta"]["fusion"] == "rrf"


def test_published_only_hides_drafts(docs):
    assert "Refund draft" not in run("acme", "refund", "--published-only")


def test_user_option_searches_as_that_user(docs, workspace):
    viewer = UserFactory(username="viv")
    MembershipFactory(user=viewer, workspace=workspace, role="viewer")

    output = run("acme", "refund", "--user", "viv")

    assert "Returns" in output and "Refund draft" not in output


def test_bad_input_is_a_command_error_with_its_code(docs):
    with pytest.raises(CommandError, match=r"\[keyword_weight_out_of_range\]"):
        run("acme", "refund", "--keyword-weight", "3")
