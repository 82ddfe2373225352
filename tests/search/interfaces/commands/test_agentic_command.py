"""`manage.py agentic_search`: the same search from a terminal, readable or as JSON, as the operator or a user."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tests.factories import ContentTypeFactory, MembershipFactory, UserFactory, entry_make

pytestmark = pytest.mark.django_db

QUESTION = "How do I reset my password when the reset link expired, and what is the refund window?"


@pytest.fixture
def docs(workspace, other_workspace, no_embeddings):
    doc_type = ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)
    for i in range(4):
        entry_make(doc_type, title=f"Password {i}", body=f"<p>Reset your password: the reset link expired? "
                   f"Ask for a new password reset link ({i}).</p>")
    entry_make(doc_type, title="Refunds", body="<p>The refund window is 30 days.</p>")
    entry_make(doc_type, title="Refund draft", body="<p>Refund window draft for next year.</p>", status="draft")
    theirs = ContentTypeFactory(workspace=other_workspace, api_id="doc", semantic_search_enabled=True)
    entry_make(theirs, title="Theirs", body="<p>Other tenant refund window and password reset link.</p>")


def run(*args: str) -> str:
    out = StringIO()
    call_command("agentic_search", *args, stdout=out)
    return out.getvalue()


def test_prints_the_path_the_parts_and_the_results(docs):
    output = run("acme", QUESTION, "--top-k", "2", "--raw-chunks")  # parts place chunks in the merge

    assert "2 result(s) in acme: path agentic, 2 part(s) (decomposer:rules)" in output
    assert "part 2: What is the refund window?  (1 placed)" in output
    assert "Refunds" in output and "Theirs" not in output


def test_parts_given_with_part(docs):
    body = json.loads(run("acme", QUESTION, "--part", "password reset link", "--part", "refund window", "--json"))

    assert (body["meta"]["parts"], body["meta"]["parts_source"]) == (["password reset link", "refund window"],
                                                                     "request")


def test_a_fallback_is_printed_with_its_reason(docs):
    output = run("acme", QUESTION, "--part", "refund window", "--part", "and the?")

    assert "path standard" in output and "fell back to the whole question: part [no_searchable_terms]" in output


def test_published_only_hides_drafts_in_every_part(docs):
    assert "Refund draft" not in run("acme", QUESTION, "--published-only", "--top-k", "100")
    assert "Refund draft" in run("acme", QUESTION, "--top-k", "100")


def test_user_option_searches_as_that_user(docs, workspace):
    viewer = UserFactory(username="viv")
    MembershipFactory(user=viewer, workspace=workspace, role="viewer")

    output = run("acme", QUESTION, "--user", "viv", "--top-k", "100")

    assert "Refunds" in output and "Refund draft" not in output


def test_bad_input_is_a_command_error_with_its_code(docs):
    with pytest.raises(CommandError, match=r"\[queries_empty\]"):
        run("acme", QUESTION, "--part", "  ")
