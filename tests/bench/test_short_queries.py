"""bench/short_queries.py: the judged short queries are the same on every run, their fit and test halves never share a query, and each is judged by what the recipe says (issue 51).

Reads the shared sets in place (EVAL_DIR); skipped, with the reason, where they are not on the machine.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "bench"))


@pytest.fixture(scope="module")
def short_queries():
    import evalsets
    import short_queries as module

    if not (evalsets.EVAL_DIR / "covidfaq-en" / "corpus.jsonl").is_file():
        pytest.skip(f"no judged sets at {evalsets.EVAL_DIR} (set EVAL_DIR to the folder holding covidfaq-en/)")
    return module


@pytest.mark.parametrize("name", ["covidfaq-en", "jsquad-ja"])
def test_the_queries_are_the_same_on_every_build(short_queries, name):
    assert short_queries.build(name) == short_queries.build(name)


@pytest.mark.parametrize("name", ["covidfaq-en", "stackfaq-en", "jsquad-ja", "drcd-zh"])
def test_no_query_is_in_both_halves(short_queries, name):
    queries = short_queries.short_queries(name)
    fit = {q["text"].lower() for q in queries if q["split"] == "fit"}
    test = {q["text"].lower() for q in queries if q["split"] == "test"}
    assert fit and test and not fit & test


@pytest.mark.parametrize("name", ["stackfaq-en", "jaquad-ja"])
def test_a_title_query_judges_every_document_of_that_title_and_no_other(short_queries, name):
    from evalsets import load_set

    corpus = load_set(name, split="all").corpus
    for query in (q for q in short_queries.short_queries(name) if q["kind"] == "title"):
        titles = {doc["title"] for doc in corpus if doc["_id"] in query["relevant"]}
        assert len(titles) == 1
        assert set(query["relevant"]) == {doc["_id"] for doc in corpus if doc["title"] in titles}


def test_an_english_word_query_is_judged_by_the_titles_that_hold_it(short_queries):
    from evalsets import load_set

    corpus = load_set("stackfaq-en", split="all").corpus
    for query in (q for q in short_queries.short_queries("stackfaq-en") if q["kind"] == "word"):
        held = {doc["_id"] for doc in corpus if query["text"] in short_queries.latin_words(doc["title"])}
        assert set(query["relevant"]) == held
        assert 2 <= len({doc["title"] for doc in corpus if doc["_id"] in held}) <= 5


def test_the_test_half_of_jsquad_comes_from_its_test_articles_only(short_queries):
    from evalsets import load_set

    corpus = {doc["_id"]: doc["title"] for doc in load_set("jsquad-ja", split="all").corpus}
    fit_titles = {corpus[d] for judged in load_set("jsquad-ja", split="fit").qrels.values() for d in judged}
    for query in short_queries.short_queries("jsquad-ja"):
        if query["split"] == "test" and query["kind"] != "word":
            assert not {corpus[d] for d in query["relevant"]} & fit_titles, query
