"""The vector leg ranks a small matching set exactly and a large one by the HNSW walk (raw chunks:
the notes are chunks of one entry).

search/engine/legs/vector_leg.py counts the matching rows up to EXACT_MAX_ROWS + 1 (in the statement that
sets the HNSW settings); at most EXACT_MAX_ROWS are ranked by computing every distance.
Real chunks, the local model's vectors, the real database; the expected order is computed
here with numpy from the same vectors.
"""

from __future__ import annotations

import numpy as np
import pytest
from django.test import override_settings

from search.engine.hybrid import hybrid_search
from search.engine.semantic import semantic_search
from tests.factories import WorkspaceFactory, full_access
from tests.module_rows import rows_for_the_module
from tests.search.semantic_helpers import LOCAL_BACKEND, chunk_make, embed, entry_for, plain_type

TOPICS = ["billing", "shipping", "returns", "privacy", "accounts", "security", "pricing", "support"]
TEXTS = [f"Note {i} on {TOPICS[i % len(TOPICS)]}: refunds, delivery and item {i}." for i in range(200)]
RARE = [i for i in range(len(TEXTS)) if i % 10 == 0]  # 20 rows carry version 1


@pytest.fixture(scope="module")
def _notes_rows(django_db_setup, django_db_blocker, local_model):
    """The workspace and its 200 embedded chunks, made once for the module's tests (each test's
    transaction rolls back its own, tests/module_rows.py)."""
    def build():
        with override_settings(SEARCH_EMBEDDING_BACKENDS={"default": LOCAL_BACKEND}):
            workspace = WorkspaceFactory(slug="acme")
            entry = entry_for(plain_type(workspace))
            embed(TEXTS)
            return workspace, [chunk_make(entry, text, fields={"version": 1 if i in RARE else 2})
                               for i, text in enumerate(TEXTS)]

    yield from rows_for_the_module(django_db_blocker, build)


@pytest.fixture
def workspace(_notes_rows):
    return _notes_rows[0]


@pytest.fixture
def notes(local_embeddings, _notes_rows):
    # local_embeddings rebuilds the HNSW index from the rows alive now: these 200 chunks.
    return _notes_rows[1]


def exact_scores(query: str, indexes: list[int], local_embeddings) -> list[float]:
    q = np.array(local_embeddings.embed_query(query))
    return sorted((float(np.dot(q, np.array(embed([TEXTS[i]])[0]))) for i in indexes), reverse=True)


def test_a_small_filtered_set_is_ranked_exactly(notes, workspace, local_embeddings):
    result = semantic_search(access=full_access(workspace), raw_chunks=True, include_candidates=True, query="refund", top_k=10, filter={"version": 1})

    assert all(hit.exact_plan for hit in result.hits)
    assert not any(hit.exact for hit in result.hits)  # not the short-walk fallback: the plan
    assert [hit.score for hit in result.hits] == pytest.approx(exact_scores("refund", RARE, local_embeddings)[:10],
                                                             abs=1e-5)
    assert all(hit.metadata["fields"]["version"] == 1 for hit in result.hits)


def test_a_large_matching_set_walks_the_index(notes, workspace, monkeypatch):
    monkeypatch.setattr("search.engine.legs.vector_leg.EXACT_MAX_ROWS", 50)

    unfiltered = semantic_search(access=full_access(workspace), raw_chunks=True, include_candidates=True, query="refund", top_k=10)
    filtered = semantic_search(access=full_access(workspace), raw_chunks=True, include_candidates=True, query="refund", top_k=10, filter={"version": 1})

    assert len(unfiltered.hits) == 10 and not any(hit.exact_plan for hit in unfiltered.hits)  # 200 > 50
    assert len(filtered.hits) == 10 and all(hit.exact_plan for hit in filtered.hits)  # 20 <= 50


def test_the_threshold_is_inclusive(notes, workspace, monkeypatch):
    monkeypatch.setattr("search.engine.legs.vector_leg.EXACT_MAX_ROWS", len(RARE))
    assert all(h.exact_plan for h in semantic_search(access=full_access(workspace), raw_chunks=True, include_candidates=True, query="refund",
                                                     filter={"version": 1}).hits)
    monkeypatch.setattr("search.engine.legs.vector_leg.EXACT_MAX_ROWS", len(RARE) - 1)
    assert not any(h.exact_plan for h in semantic_search(access=full_access(workspace), raw_chunks=True, include_candidates=True, query="refund",
                                                         filter={"version": 1}).hits)


def test_hybrid_with_a_selective_filter_gets_the_exact_vector_candidates(notes, workspace, local_embeddings):
    result = hybrid_search(access=full_access(workspace), raw_chunks=True, include_candidates=True, query="refund", top_k=20, filter={"version": 1})

    assert {hit.text for hit in result.hits} <= {TEXTS[i] for i in RARE}
    semantic_ranks = {hit.text: hit.legs["semantic"]["score"] for hit in result.hits
                      if hit.legs and hit.legs.get("semantic")}
    # Every semantic leg score is the exact cosine of that chunk, and the leg found the 20
    # rows (all of the filtered set) exactly.
    assert sorted(semantic_ranks.values(), reverse=True) == pytest.approx(
        exact_scores("refund", RARE, local_embeddings)[:len(semantic_ranks)], abs=1e-3)
    assert len(semantic_ranks) == len(RARE)


def test_max_distance_applies_on_the_exact_plan(notes, workspace, local_embeddings):
    best = exact_scores("refund", RARE, local_embeddings)
    threshold = (best[2] + best[3]) / 2  # between the third and fourth best

    result = semantic_search(access=full_access(workspace), raw_chunks=True, include_candidates=True, query="refund", top_k=10, filter={"version": 1},
                             min_score=threshold)

    assert [hit.score for hit in result.hits] == pytest.approx(best[:3], abs=1e-5)


@pytest.fixture
def sent(monkeypatch):
    """The SQL of every statement the searches send, in order."""
    from search.engine.db.statements import SearchCursor

    statements = []
    execute = SearchCursor.execute

    def capture(self, sql, params=(), **kwargs):
        statements.append(sql)
        return execute(self, sql, params, **kwargs)

    monkeypatch.setattr(SearchCursor, "execute", capture)
    return statements


def test_an_unfiltered_search_of_a_large_workspace_lists_no_ids(notes, workspace, monkeypatch, sent):
    # Every chunk passes, and the workspace's chunk count (200 > 50) already says the exact
    # plan cannot apply: no statement lists the passing ids (it cost ~2 ms at 100k chunks).
    from ingestion.services import keyword_index_missing

    keyword_index_missing(workspace_id=workspace.pk)  # as sync does for every chunk it writes
    monkeypatch.setattr("search.engine.legs.vector_leg.EXACT_MAX_ROWS", 50)
    unfiltered = semantic_search(access=full_access(workspace), raw_chunks=True, include_candidates=True, query="refund", top_k=10)
    listed_unfiltered = [sql for sql in sent if "WITH f AS MATERIALIZED" in sql]
    sent.clear()
    filtered = semantic_search(access=full_access(workspace), raw_chunks=True, include_candidates=True, query="refund", top_k=10, filter={"version": 1})
    listed_filtered = [sql for sql in sent if "WITH f AS MATERIALIZED" in sql]

    assert len(unfiltered.hits) == 10 and listed_unfiltered == []
    assert all(hit.exact_plan for hit in filtered.hits) and len(listed_filtered) == 1


def test_an_unfiltered_search_of_a_small_workspace_is_ranked_exactly(notes, workspace, local_embeddings):
    result = semantic_search(access=full_access(workspace), raw_chunks=True, include_candidates=True, query="refund", top_k=10)  # 200 <= 2,000

    assert all(hit.exact_plan for hit in result.hits)
    assert [hit.score for hit in result.hits] == pytest.approx(
        exact_scores("refund", list(range(len(TEXTS))), local_embeddings)[:10], abs=1e-5)


def test_hybrid_reads_the_chunk_count_once(notes, workspace, monkeypatch, sent):
    # The keyword leg reads the workspace's chunk count with its terms' statistics; the vector
    # leg decides between exact and walk from that figure instead of reading it again.
    from ingestion.services import keyword_index_missing

    keyword_index_missing(workspace_id=workspace.pk)
    monkeypatch.setattr("search.engine.legs.vector_leg.EXACT_MAX_ROWS", 50)
    walked = hybrid_search(access=full_access(workspace), raw_chunks=True, include_candidates=True, query="refund", top_k=10)
    settings_statements = [sql for sql in sent if "set_config" in sql]
    listed = [sql for sql in sent if "WITH f AS MATERIALIZED" in sql]

    assert len(walked.hits) == 10 and listed == []  # 200 > 50: walked, nothing listed
    assert settings_statements and not any("AS w(chunks, total)" in sql for sql in settings_statements)
    monkeypatch.setattr("search.engine.legs.vector_leg.EXACT_MAX_ROWS", 2_000)
    sent.clear()
    exact = hybrid_search(access=full_access(workspace), raw_chunks=True, include_candidates=True, query="refund", top_k=10)
    # 200 <= 2,000: the exact plan, decided from the same figure
    assert exact.hits and len([sql for sql in sent if "WITH f AS MATERIALIZED" in sql]) == 1


def test_an_unfiltered_search_of_a_large_workspace_walks_and_does_not_fall_back(notes, workspace, monkeypatch):
    # 200 chunks of one entry, over EXACT_MAX_ROWS, no filter: the HNSW walk answers, and it is
    # not short, so the gated exact CTE ranks nothing (issue 54: an unfiltered search had paid
    # for ranking the whole workspace). meta says which plan ranked the rows, on every kind of
    # answer: the default (one row per entry, whose ranking widens to MAX_FETCH chunks here:
    # the one entry fills no page) and raw chunks, semantic and hybrid.
    from ingestion.services import keyword_index_missing

    keyword_index_missing(workspace_id=workspace.pk)
    monkeypatch.setattr("search.engine.legs.vector_leg.EXACT_MAX_ROWS", 50)
    access = full_access(workspace)
    for raw_chunks in (False, True):
        semantic = semantic_search(access=access, query="refund", raw_chunks=raw_chunks, min_confidence=0).as_dict()
        hybrid = hybrid_search(access=access, query="refund", raw_chunks=raw_chunks, min_confidence=0).as_dict()

        assert semantic["sources"] and semantic["meta"]["vector_plan"] == "walk"
        assert semantic["meta"]["exact_fallback"] is False
        assert hybrid["sources"] and hybrid["meta"]["legs"]["semantic"]["plan"] == "walk"


def test_the_entry_grouping_widens_the_ranking_not_the_search(notes, workspace, monkeypatch, sent):
    # The 40 chunks ranked for a page of 10 entries hold one entry: the ranking widens to
    # MAX_FETCH chunks, once, inside the one run of the search (the pending count, the floor,
    # the query's background are computed once), and the walk keeps the request's ef_search.
    from search.engine import semantic
    from search.engine.entry_results import MAX_FETCH

    monkeypatch.setattr("search.engine.legs.vector_leg.EXACT_MAX_ROWS", 50)
    pending = []
    counted = semantic.chunks_pending_count
    monkeypatch.setattr(semantic, "chunks_pending_count", lambda **kwargs: pending.append(1) or counted(**kwargs))

    result = semantic_search(access=full_access(workspace), query="refund", min_confidence=0)

    walks = [sql for sql in sent if ") AS walk" in sql]
    assert len(result.hits) == 1 and len(result.hits[0].passages) == 3
    assert result.extra_meta["chunks_ranked"] == len(notes) < MAX_FETCH and len(walks) == 2 and len(pending) == 1
    assert result.ef_search == 100
    # The widened walk asked for 300 and got the workspace's 200 chunks, every one that matches:
    # not short, so no statement ranked them all again.
    assert result.extra_meta["vector_plan"] == "walk" and not [sql for sql in sent if ") AS ranked" in sql]
