"""`manage.py search_entries`: a readable table, --json, filters, and CommandError for bad input."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tests.factories import ContentTypeFactory, entry_make


def run(*args: str) -> str:
    out = StringIO()
    call_command("search_entries", *args, stdout=out)
    return out.getvalue()


def test_prints_a_table_of_hits(workspace, article_type):
    entry = entry_make(article_type, title="返品ポリシー")
    output = run("acme", "返品")
    assert output.splitlines()[0].split()[:3] == ["id", "type", "status"] and str(entry.pk) in output


def test_json_output_lists_hits(workspace, article_type):
    entry = entry_make(article_type, title="Refund policy")
    body = json.loads(run("acme", "REFUND", "--json"))
    assert [(hit["id"], hit["matched_fields"]) for hit in body["results"]] == [(entry.pk, ["title"])]


def test_content_type_option_filters(workspace, article_type):
    faq = ContentTypeFactory(workspace=workspace, api_id="faq")
    entry_make(article_type, title="refund")
    question = entry_make(faq, title="refund")
    body = json.loads(run("acme", "refund", "--content-type", "faq", "--json"))
    assert [hit["id"] for hit in body["results"]] == [question.pk]


def test_limit_option_caps_hits(workspace, article_type):
    for i in range(3):
        entry_make(article_type, title=f"refund {i}")
    body = json.loads(run("acme", "refund", "--limit", "2", "--json"))
    assert (len(body["results"]), body["has_more"]) == (2, True)


def test_other_workspace_entries_are_not_listed(workspace, article_type, other_workspace):
    entry_make(ContentTypeFactory(workspace=other_workspace, api_id="article"), title="Globex refund")
    assert json.loads(run("acme", "refund", "--json"))["results"] == []


def test_no_match_says_so(workspace):
    assert "No entries contain" in run("acme", "refund")


def test_explain_prints_the_plan(workspace, article_type):
    assert run("acme", "refund", "--explain").startswith("plan: recent_scan")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("acme", " "), "query is empty"),
        (("acme", "a" * 501), "the limit is 500"),
        (("acme", "refund", "--limit", "0"), "limit must be between 1 and 100"),
        (("acme", "refund", "--limit", "many"), "limit must be a whole number"),
        (("acme", "refund", "--content-type", "nope"), "no content type 'nope'"),
        (("nope", "refund"), "No workspace with slug 'nope'"),
    ],
)
def test_bad_input_raises_command_error_with_the_search_message(workspace, args, message):
    with pytest.raises(CommandError, match=message):
        run(*args)


def test_bad_input_exits_non_zero(workspace, capsys):
    with pytest.raises(SystemExit) as exited:
        from django.core.management import ManagementUtility

        ManagementUtility(["manage.py", "search_entries", "acme", ""]).execute()
    assert exited.value.code != 0
