"""Synonym sets per workspace (cms.models.SynonymSet, search/engine/forgiving/synonyms.py): applied at query time
to the keyword leg, below the original word, without a reindex; API with roles and 400
codes; CSV and Solr import/export."""

from __future__ import annotations

import csv
import html
import io
import re

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command

from cms import services
from cms.models import Role, SynonymSet
from search.engine.hybrid import hybrid_search
from tests.factories import (
    ContentTypeFactory,
    MembershipFactory,
    UserFactory,
    api_key_make,
    bearer,
    entry_make,
    full_access,
)

pytestmark = pytest.mark.django_db

URL = "/api/v1/workspaces/acme/synonyms"


@pytest.fixture
def docs(workspace):
    doc_type = ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)
    entry_make(doc_type, title="Money back", body="<p>Reimbursement of your order within 30 days.</p>")
    entry_make(doc_type, title="Smartphones", body="<p>Our smartphone range.</p>")
    entry_make(doc_type, title="払い戻し", body="<p>払い戻しの手続き。</p>")
    entry_make(doc_type, title="Refund", body="<p>A refund is paid to the card.</p>")
    return doc_type


def keyword_only(workspace, query: str):
    return hybrid_search(access=full_access(workspace), query=query, semantic_weight=0)


def titles(result) -> list[str]:
    return [hit.title for hit in result.hits]


def test_multi_way_set_takes_effect_without_a_reindex(no_embeddings, docs, workspace):
    assert "Money back" not in titles(keyword_only(workspace, "refund"))

    services.synonym_set_create(workspace=workspace, terms=["refund", "reimbursement"])

    result = keyword_only(workspace, "refund")
    assert titles(result)[:2] == ["Refund", "Money back"]  # the original word first, then the synonym
    assert result.extra_meta["expanded"] == [{"matched": "refund", "added": ["reimbursement"]}]
    # and the other way round
    assert titles(keyword_only(workspace, "reimbursement"))[:2] == ["Money back", "Refund"]


def test_one_way_set_does_not_go_back(no_embeddings, docs, workspace):
    services.synonym_set_create(workspace=workspace, kind="one_way", source="phone", terms=["smartphone"])

    assert titles(keyword_only(workspace, "phone")) == ["Smartphones"]
    assert keyword_only(workspace, "smartphone").extra_meta["expanded"] == []


def test_japanese_synonyms(no_embeddings, docs, workspace):
    services.synonym_set_create(workspace=workspace, terms=["返金", "払い戻し"])

    assert titles(keyword_only(workspace, "返金")) == ["払い戻し"]


def test_a_change_is_seen_by_the_next_search_and_a_delete_removes_it(no_embeddings, docs, workspace):
    synonym_set = services.synonym_set_create(workspace=workspace, terms=["refund", "reimbursement"])
    assert "Money back" in titles(keyword_only(workspace, "refund"))

    services.synonym_set_update(synonym_set=synonym_set, terms=["refund", "payout"])
    assert "Money back" not in titles(keyword_only(workspace, "refund"))

    services.synonym_set_delete(synonym_set=synonym_set)
    assert keyword_only(workspace, "refund").extra_meta["expanded"] == []


def test_another_workspaces_synonyms_do_not_apply(no_embeddings, docs, workspace, other_workspace):
    services.synonym_set_create(workspace=other_workspace, terms=["refund", "reimbursement"])

    assert keyword_only(workspace, "refund").extra_meta["expanded"] == []


@pytest.mark.parametrize(("body", "code"), [
    ({"terms": ["refund"]}, "synonym_set_too_small"),
    ({"terms": ["refund", "Refund"]}, "synonym_set_too_small"),
    ({"terms": [f"word{i}" for i in range(51)]}, "synonym_set_too_large"),
    ({"kind": "one_way", "terms": ["smartphone"]}, "synonym_set_too_small"),
    ({"kind": "sideways", "terms": ["a", "b"]}, "synonym_kind_invalid"),
    ({"terms": "refund, money back"}, "synonym_terms_invalid"),
    ({"terms": ["x" * 101, "y"]}, "synonym_term_invalid"),
    ({"terms": ["refund", "money back"], "extra": 1}, "unknown_parameter"),
    ({"terms": ["refund", "money back"], "Terms": ["a", "b"]}, "unknown_parameter"),
])
def test_bad_set_is_a_400_with_a_code(client, workspace, editor, body, code):
    client.force_login(editor)

    response = client.post(URL, body, content_type="application/json")

    assert response.status_code == 400 and response.json()["code"] == code
    assert not SynonymSet.objects.exists()


def test_editor_adds_and_deletes_a_set_over_the_api(client, workspace, editor):
    client.force_login(editor)

    created = client.post(URL, {"terms": ["refund", "money back"]}, content_type="application/json")
    assert created.status_code == 201
    assert [s["terms"] for s in client.get(URL).json()] == [["refund", "money back"]]
    assert client.delete(f"{URL}/{created.json()['id']}").status_code == 204
    assert client.get(URL).json() == []


def test_viewer_and_key_may_read_but_not_edit(client, workspace):
    viewer = UserFactory(username="viewer")
    MembershipFactory(user=viewer, workspace=workspace, role=Role.VIEWER)
    client.force_login(viewer)
    assert client.post(URL, {"terms": ["a1", "b1"]}, content_type="application/json").status_code == 403
    assert client.get(URL).status_code == 200
    client.logout()
    _, secret = api_key_make(workspace, include_drafts=True)
    assert client.post(URL, {"terms": ["a1", "b1"]}, content_type="application/json", **bearer(secret)).status_code == 403


def test_other_workspace_is_a_404(client, other_workspace, editor):
    client.force_login(editor)

    assert client.get("/api/v1/workspaces/globex/synonyms").status_code == 404


def test_csv_and_solr_round_trip(workspace, tmp_path):
    solr = tmp_path / "synonyms.txt"
    solr.write_text("# comment\nrefund, money back, reimbursement\nphone => smartphone, mobile\n返金, 払い戻し\n",
                    encoding="utf-8")

    call_command("synonyms_import", "acme", str(solr), "--format", "solr", stdout=io.StringIO())
    out = io.StringIO()
    call_command("synonyms_export", "acme", stdout=out)
    csv_file = tmp_path / "synonyms.csv"
    csv_file.write_text(out.getvalue(), encoding="utf-8")
    call_command("synonyms_import", "acme", str(csv_file), "--replace", stdout=io.StringIO())
    solr_out = io.StringIO()
    call_command("synonyms_export", "acme", "--format", "solr", stdout=solr_out)

    assert solr_out.getvalue() == "refund, money back, reimbursement\nphone => smartphone, mobile\n返金, 払い戻し\n"


FORMULAS = ["=cmd|' /C calc'!A0", "=1+1", "@sum(1)", "x;=1+1", "-2+3", "'quoted", "\tplus"]


def test_csv_export_neutralises_formulas_and_round_trips(workspace, tmp_path):
    services.synonym_set_create(workspace=workspace, terms=FORMULAS[:4])
    services.synonym_set_create(workspace=workspace, kind="one_way", source="+danger", terms=FORMULAS[4:])
    before = sorted((s.kind, s.source, list(s.terms)) for s in SynonymSet.objects.all())
    out = io.StringIO()
    call_command("synonyms_export", "acme", stdout=out)
    for row in csv.reader(io.StringIO(out.getvalue())):
        for cell in row:
            for part in re.split(r"[,;]", cell):
                assert not re.match(r" *[=+\-@\t\r]", part), cell
    path = tmp_path / "synonyms.csv"
    path.write_text(out.getvalue(), encoding="utf-8")
    call_command("synonyms_import", "acme", str(path), "--replace", stdout=io.StringIO())
    assert sorted((s.kind, s.source, list(s.terms)) for s in SynonymSet.objects.all()) == before
    assert before[0] == ("multi_way", "", FORMULAS[:4])


def test_solr_export_escapes_what_its_format_reads_and_round_trips(workspace, tmp_path):
    services.synonym_set_create(workspace=workspace, terms=["c#", "f#, minor", "a=>b", "back\\slash", "#tag"])
    services.synonym_set_create(workspace=workspace, kind="one_way", source="x=>y, z", terms=["#1", "a,b"])
    out = io.StringIO()
    call_command("synonyms_export", "acme", "--format", "solr", stdout=out)
    assert out.getvalue().splitlines()[0].startswith("c\\#, f\\#\\, minor, a\\=>b")
    path = tmp_path / "synonyms.txt"
    path.write_text(out.getvalue(), encoding="utf-8")
    before = sorted((s.kind, s.source, list(s.terms)) for s in SynonymSet.objects.all())
    call_command("synonyms_import", "acme", str(path), "--format", "solr", "--replace", stdout=io.StringIO())
    assert sorted((s.kind, s.source, list(s.terms)) for s in SynonymSet.objects.all()) == before


def test_import_refuses_a_bad_line_and_writes_nothing(workspace, tmp_path):
    path = tmp_path / "synonyms.txt"
    path.write_text("refund, money back\nlonely\n", encoding="utf-8")

    with pytest.raises(CommandError, match="line 2: .*synonym_set_too_small"):
        call_command("synonyms_import", "acme", str(path), "--format", "solr")
    assert not SynonymSet.objects.exists()


def test_service_check_codes():
    with pytest.raises(ValidationError) as caught:
        services.synonym_set_check(kind="multi_way", terms=["one"])
    assert caught.value.code == "synonym_set_too_small"


# --- the admin page -------------------------------------------------------------------------------

ADMIN = "/admin/search/acme/synonyms/"


def test_editor_adds_and_deletes_a_set_in_the_admin(client, workspace, editor):
    client.force_login(editor)

    page = client.post(ADMIN, {"action": "add", "kind": "multi_way", "terms": "返金、払い戻し"}, follow=True)

    assert "返金, 払い戻し" in page.content.decode()
    synonym_set = SynonymSet.objects.get()
    client.post(ADMIN, {"action": "delete", "id": str(synonym_set.id), "confirmed": "yes"})  # asked first: tests/cms/test_synonym_overlap.py
    assert not SynonymSet.objects.exists()


def test_admin_refuses_a_set_of_one_term_with_its_code_in_data_code(client, workspace, editor):
    client.force_login(editor)

    page = client.post(ADMIN, {"action": "add", "kind": "multi_way", "terms": "refund"}, follow=True)

    assert messages_shown(page) == [("synonym_set_too_small", "A multi-way set needs at least 2 different term(s).")]
    assert not SynonymSet.objects.exists()


def messages_shown(page) -> list[tuple[str, str]]:
    """The page's messages as (data-code, text): the code is never in the text."""
    found = re.findall(r'<li class="[a-z]+"(?: data-code="([^"]*)")?>(.*?)</li>', page.content.decode(), re.S)
    return [(code, html.unescape(text)) for code, text in found]


def test_viewer_sees_the_sets_but_cannot_edit_them(client, workspace):
    services.synonym_set_create(workspace=workspace, terms=["refund", "reimbursement"])
    viewer = UserFactory(username="viewer")
    MembershipFactory(user=viewer, workspace=workspace, role=Role.VIEWER)
    client.force_login(viewer)

    page = client.get(ADMIN).content.decode()
    refused = client.post(ADMIN, {"action": "add", "terms": "a1, b1"}, follow=True)

    assert "refund, reimbursement" in page and 'id="synonym-add"' not in page
    assert messages_shown(refused) == [("permission_denied", "Only the workspace's owners and editors edit synonyms.")]
    assert SynonymSet.objects.count() == 1


def test_admin_page_of_another_workspace_is_a_404(client, other_workspace, editor):
    client.force_login(editor)

    assert client.get("/admin/search/globex/synonyms/").status_code == 404


# --- a file the import cannot read (issue 49, item 6) -------------------------------------------
# Each was a raw traceback; now one line naming the file, the line and the problem, exit status
# 1, and nothing imported (line 1 of each file is a good set).

UNREADABLE = {
    "not UTF-8": (b"refund, money back\nphone, mobile\ncaf\xe9, coffee\n", "solr",
                  "{path}, line 3: not UTF-8 text (byte 0xe9 at byte 4 of the line)"),
    "a cell over 128 KiB": (b"multi_way,,refund,money back\nmulti_way,,phone," + b"x" * (128 * 1024 + 1) + b"\n", "csv",
                            "{path}, line 2: a cell is longer than 131072 characters"),
    "a missing path": (None, "csv", "{path}: no such file."),
    "a directory": ("dir", "csv", "{path}: is a directory"),
}


@pytest.mark.django_db(transaction=True)  # the command runs in its own process, on the test database
@pytest.mark.parametrize("case", UNREADABLE)
def test_import_of_an_unreadable_file_says_one_line_exits_1_and_imports_nothing(workspace, tmp_path, case):
    import subprocess
    import sys

    from tests.servers import REPO, database_env

    content, file_format, expected = UNREADABLE[case]
    path = tmp_path / "synonyms.txt"
    if content == "dir":
        path.mkdir()
    elif content is not None:
        path.write_bytes(content)
    result = subprocess.run([sys.executable, "manage.py", "synonyms_import", "acme", str(path), "--format", file_format],
                            cwd=REPO, env=database_env(), capture_output=True, text=True, timeout=120)

    assert result.returncode == 1, result.stderr
    assert result.stderr.strip().splitlines() == [result.stderr.strip()], result.stderr  # one line, no traceback
    assert result.stderr.startswith("CommandError: " + expected.format(path=path)), result.stderr
    assert not SynonymSet.objects.exists()
