"""The keyword leg on a workspace's own BM25 index (pg_textsearch): the same answers as every posting
read, the index in step with the content, and no workspace's content in another's candidates,
scores, order or meta."""

from __future__ import annotations

import pytest
from django.db import connection

from cms import services as cms_services
from cms.access import workspace_access_for_operator
from cms.models import EntryStatus
from ingestion.keywords import BM25_INDEX, bm25_workspace_index
from ingestion.services.keyword_bm25 import keyword_bm25_workspace_index_build, keyword_bm25_workspaces_to_index
from search.engine.hybrid import chunk_filter
from search.engine.legs import keyword
from search.engine.legs.keyword import keyword_query_prepare
from search.engine.legs.keyword_bm25 import BM25_DEPTH, keyword_bm25_active, keyword_bm25_forget
from tests.factories import ContentTypeFactory, WorkspaceFactory, entry_make, full_access

pytestmark = pytest.mark.django_db

QUERIES = ["refund delivery orders", "orders 3", "delivery refund 返品", "order"]


@pytest.fixture(autouse=True)
def fresh_state(settings):
    settings.SEARCH_KEYWORD_INDEX = "auto"  # the index, once valid (the default is the postings)
    keyword_bm25_forget()
    yield
    keyword_bm25_forget()


def own_index(workspace) -> None:
    """The workspace's own BM25 index, built in the test's transaction (rolled back with it): the
    deferred foreign keys' checks of the rows written so far run first, as CREATE INDEX asks."""
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        keyword_bm25_workspace_index_build(workspace_id=workspace.pk, concurrently=False)
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")


@pytest.fixture
def workspace(workspace):
    own_index(workspace)
    return workspace


def corpus(workspace, n: int = 60, *, offset: int = 0):
    doc_type = ContentTypeFactory(workspace=workspace, api_id=f"doc{offset}", semantic_search_enabled=True)
    for i in range(n):
        entry_make(doc_type, title=f"Orders {i + offset}",
                   body=f"<p>Orders and refunds, order {i}, delivery {i % 4}. {'返品の注文' if i % 5 == 0 else ''}</p>",
                   version=7 if i % 6 == 0 else 100 + i)
    return doc_type


def ranked(workspace, query: str, *, where=None, bounded: bool = True):
    limits = {"budget": 5, "champions": 5} if bounded else {"budget": 10**9, "champions": 10**9}
    hits, plan = keyword.keyword_candidates(
        keyword_query_prepare(workspace_id=workspace.pk, query=query, **limits), limit=10, where=where)
    return [(h.id, round(h.score, 9)) for h in hits], plan


def tie_broken(rows):
    return sorted((-round(score, 6), chunk_id) for chunk_id, score in rows)


def test_the_index_over_every_chunk_is_built_by_the_migration():
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_class WHERE relname = %s", [BM25_INDEX])
        assert cursor.fetchone()[0] == 1


def test_a_workspace_reads_its_own_index_once_built(workspace):
    other = WorkspaceFactory()
    assert keyword_bm25_active(workspace.pk)
    assert not keyword_bm25_active(other.pk)  # no index of its own: the postings


def test_index_candidates_rank_like_every_posting_read(workspace, no_embeddings):
    corpus(workspace)
    for query in QUERIES:
        truth, _ = ranked(workspace, query, bounded=False)
        hits, plan = ranked(workspace, query)
        assert plan.truncated_terms > 0 and not plan.fallback
        assert tie_broken(hits) == tie_broken(truth), query


def test_index_candidates_under_a_filter_are_never_short(workspace, no_embeddings):
    corpus(workspace)
    where = chunk_filter(access=full_access(workspace), content_type=None, spec={"version": 7}).keyword_where
    truth, _ = ranked(workspace, "refund delivery orders 3", where=where, bounded=False)
    hits, _ = ranked(workspace, "refund delivery orders 3", where=where)
    assert len(hits) == len(truth) == 10
    assert tie_broken(hits) == tie_broken(truth)


def test_the_workspaces_to_index_are_those_large_enough_without_a_valid_one(workspace, no_embeddings):
    corpus(workspace, 5)  # it has its own index (the fixture)
    other = WorkspaceFactory()
    corpus(other, 5, offset=100)
    assert other.pk in keyword_bm25_workspaces_to_index(min_chunks=5)
    assert workspace.pk not in keyword_bm25_workspaces_to_index(min_chunks=5)
    assert other.pk not in keyword_bm25_workspaces_to_index(min_chunks=10**6)


def test_postings_setting_keeps_todays_leg(settings, workspace, no_embeddings):
    settings.SEARCH_KEYWORD_INDEX = "postings"
    assert not keyword_bm25_active(workspace.pk)


def test_a_missing_index_keeps_todays_leg(workspace, no_embeddings):
    corpus(workspace, 12)
    truth, _ = ranked(workspace, "refund delivery orders", bounded=False)
    with connection.cursor() as cursor:
        cursor.execute(f"DROP INDEX {bm25_workspace_index(workspace.pk)}")  # rolled back with the test
    keyword_bm25_forget()
    assert not keyword_bm25_active(workspace.pk)
    hits, plan = ranked(workspace, "refund delivery orders")
    assert plan.truncated_terms > 0
    assert [s for _, s in hits][:3] == [s for _, s in truth][:3]


def index_finds(workspace, word: str) -> set[int]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT chunk_id FROM ingestion_keywordtext WHERE workspace_id = %s"
                       f" ORDER BY terms <@> to_bm25query(%s, '{bm25_workspace_index(workspace.pk)}') LIMIT 10",
                       [workspace.pk, word])
        found = {row[0] for row in cursor.fetchall()}
        cursor.execute("SELECT chunk_id FROM ingestion_keywordtext WHERE workspace_id = %s AND %s = ANY(string_to_array(terms, ' '))",
                       [workspace.pk, word])
        holding = {row[0] for row in cursor.fetchall()}
    return found & holding


def test_an_edited_or_deleted_entry_leaves_the_index_at_once(workspace, no_embeddings):
    doc_type = ContentTypeFactory(workspace=workspace, api_id="doc", semantic_search_enabled=True)
    entry = entry_make(doc_type, title="Plain", body="<p>The zyzzyva beetle.</p>")
    assert index_finds(workspace, "zyzzyva")

    cms_services.entry_update(entry=entry, data={"title": "Plain", "body": "<p>The quokka instead.</p>"})
    assert not index_finds(workspace, "zyzzyva")
    assert index_finds(workspace, "quokka")

    cms_services.entry_delete(entry=entry)
    assert not index_finds(workspace, "quokka")


def test_an_unpublished_entry_leaves_a_published_only_callers_answers_at_once(workspace, no_embeddings):
    doc_type = corpus(workspace, 30)
    entry = entry_make(doc_type, title="Target", body="<p>Orders orders orders refund delivery.</p>")
    published = workspace_access_for_operator(workspace=workspace, include_drafts=False)

    def entries() -> set[int]:
        where = chunk_filter(access=published, content_type=None, spec=None).keyword_where
        hits, _ = keyword.keyword_candidates(
            keyword_query_prepare(workspace_id=workspace.pk, query="orders refund delivery", budget=5, champions=5),
            limit=10, where=where)
        return {h.entry_id for h in hits}

    assert entry.pk in entries()
    cms_services.entry_update(entry=entry, status=EntryStatus.DRAFT)
    assert entry.pk not in entries()


def test_another_workspaces_content_changes_no_score_order_or_meta(workspace, no_embeddings):
    corpus(workspace)
    where = chunk_filter(access=full_access(workspace), content_type=None, spec={"version": 7}).keyword_where
    before = {(query, filtered): ranked(workspace, query, where=where if filtered else None)
              for query in QUERIES for filtered in (False, True)}

    other = WorkspaceFactory()
    corpus(other, 150, offset=1000)  # the same words, many more of them: other statistics
    doc_type = ContentTypeFactory(workspace=other, api_id="more", semantic_search_enabled=True)
    for i in range(40):
        entry_make(doc_type, title=f"Refund {i}", body="<p>Refund refund refund delivery 返品 3.</p>")

    for (query, filtered), (hits, plan) in before.items():
        again, plan_again = ranked(workspace, query, where=where if filtered else None)
        assert again == hits, query
        assert plan_again.as_meta() == plan.as_meta(), query


def test_another_workspaces_content_changes_no_candidate_past_the_depth(workspace, no_embeddings):
    """More matching chunks than the index proposes (BM25_DEPTH), so which chunks are candidates
    decides the answer. Here "zebra" is rare and "yak" common; another workspace full of zebras
    would make "yak" the rarer of the two over every workspace, and an index with statistics
    over every workspace would propose only yak chunks. The workspace's own index does not see
    them: no id, score, order or `meta` changes."""
    doc_type = ContentTypeFactory(workspace=workspace, api_id="note", semantic_search_enabled=True)
    for i in range(12):
        entry_make(doc_type, title=f"Note {i}", body=f"<p>A zebra, seen on day {i}.</p>")
    for i in range(105):
        entry_make(doc_type, title=f"Note {i + 12}", body=f"<p>A yak, seen on day {i}.</p>")
    hits, plan = ranked(workspace, "zebra yak")
    assert plan.truncated_terms == 2 and plan.as_meta()["candidates"] == BM25_DEPTH
    assert [chunk_id for chunk_id, _ in hits] == [chunk_id for chunk_id, _ in ranked(workspace, "zebra yak", bounded=False)[0]]

    other = WorkspaceFactory()
    own_index(other)
    other_type = ContentTypeFactory(workspace=other, api_id="note", semantic_search_enabled=True)
    for i in range(150):
        entry_make(other_type, title=f"Note {i}", body=f"<p>A zebra, seen on day {i}.</p>")

    again, plan_again = ranked(workspace, "zebra yak")
    assert again == hits
    assert plan_again.as_meta() == plan.as_meta()
