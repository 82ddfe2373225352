#!/usr/bin/env python
"""Short queries as a caller gets them: hybrid against its keyword leg, and how often a short query is refused (issue 51).

Run from the repo root, once bench/eval.py has loaded the workspaces:
    [EVAL_EMBEDDING=e5] .venv/bin/python bench/short_eval.py [--sets scifact-short,...] [--max-queries N]

Sets: by default every short set (bench/short_queries.py, `<set>-short`), every query of its
TEST half (nothing was fitted on them); a question set may be named too (its test split, N
queries spread over it with --max-queries). Each query runs as the product runs it, the
default page (10 entries, one row per entry), with `include_candidates` so that the ranking
is read even where the floor refused it:

- keyword: hybrid search with semantic_weight 0 (its keyword leg alone; no confidence, no floor);
- hybrid (ranking): the default hybrid search's page;
- hybrid (as returned): the page without the candidates, as a caller gets it: empty where the
  answer is "no good match", and ending where relevance ends (rows under the floor after the first);
- refused: the share of these queries (every one has a judged answer in the corpus) that
  hybrid, and semantic search, answer "no good match" (`meta.answerable: false`): target 1%.

nDCG@10 by ir-measures (bench/eval.py evaluate), per set and per kind of short query (word,
words, title). Targets: hybrid (as returned) >= keyword - 0.005; refused <= 1%.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from evalsets import SHORT_SETS  # noqa: E402

MARGIN, REFUSED_TARGET = 0.005, 0.01


def page_docs(hits, entry_to_doc: dict[int, str]) -> dict[str, float]:
    """The page's documents, rank-scored (ties keep the search's order)."""
    docs: dict[str, float] = {}
    for rank, hit in enumerate(hits):
        doc = entry_to_doc.get(hit.entry_id)
        if doc is not None and doc not in docs:
            docs[doc] = float(len(hits) - rank)
    return dict(list(docs.items())[:10])


def set_run(name: str, max_queries: int | None, split: str = "test") -> dict:
    """Every method's run and the refusals of one set's test queries."""
    from confidence_fit import set_queries_ready
    from search.engine.hybrid import hybrid_search
    from search.engine.semantic import semantic_search

    data, queries, access, entry_to_doc = set_queries_ready(name, split, max_queries)
    runs: dict[str, dict] = {"keyword": {}, "hybrid (ranking)": {}, "hybrid (as returned)": {}}
    refused: dict[str, set[str]] = {"hybrid": set(), "semantic": set()}
    for query in queries:
        text, qid = query["text"][:2000], query["_id"]
        runs["keyword"][qid] = page_docs(hybrid_search(access=access, query=text, semantic_weight=0).hits,
                                         entry_to_doc)
        hybrid = hybrid_search(access=access, query=text, include_candidates=True)
        runs["hybrid (ranking)"][qid] = page_docs(hybrid.hits, entry_to_doc)
        answered = hybrid.extra_meta.get("answerable") is not False
        # What a caller gets: no candidates, so the list ends where relevance ends (issue 51, item 3).
        runs["hybrid (as returned)"][qid] = page_docs(hybrid_search(access=access, query=text).hits, entry_to_doc)
        if not answered:
            refused["hybrid"].add(qid)
        if semantic_search(access=access, query=text).extra_meta.get("answerable") is False:
            refused["semantic"].add(qid)
    return {"queries": queries, "qrels": {q["_id"]: data.qrels[q["_id"]] for q in queries}, "runs": runs,
            "refused": refused}


def report_rows(name: str, result: dict) -> list[tuple]:
    """(set, kind, queries, keyword, ranking, returned, margin, hybrid refused, semantic refused) per kind and all."""
    from eval import evaluate

    kinds = {}
    for query in result["queries"]:
        kinds.setdefault(query.get("kind", "question"), []).append(query["_id"])
    groups = ([("all", [q["_id"] for q in result["queries"]])] if len(kinds) > 1 else []) + sorted(kinds.items())
    rows = []
    for kind, ids in groups:
        qrels = {qid: result["qrels"][qid] for qid in ids}
        scores = {method: evaluate(qrels, {qid: run.get(qid, {}) for qid in ids})["nDCG@10"]
                  for method, run in result["runs"].items()}
        rows.append((name, kind, len(ids), scores["keyword"], scores["hybrid (ranking)"],
                     scores["hybrid (as returned)"], scores["hybrid (as returned)"] - scores["keyword"],
                     len(result["refused"]["hybrid"] & set(ids)) / len(ids),
                     len(result["refused"]["semantic"] & set(ids)) / len(ids)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default=",".join(SHORT_SETS))
    parser.add_argument("--max-queries", type=int, default=None, help="test queries per set, spread over it")
    parser.add_argument("--split", default="test", choices=("test", "fit"),
                        help="fit: the fit halves, to choose a rule on (the test halves only report it)")
    args = parser.parse_args()
    names = [n.strip() for n in args.sets.split(",") if n.strip()]
    from confidence_fit import django_ready

    django_ready()
    from ingestion.embeddings import get_embedding_backend
    from search.contract.options import DEFAULT_MIN_CONFIDENCE

    print(f"load average before {tuple(round(x, 2) for x in os.getloadavg())}; embedding model "
          f"{get_embedding_backend().model_name}; default floor {DEFAULT_MIN_CONFIDENCE}", flush=True)
    rows = []
    for name in names:
        started = time.perf_counter()
        rows += report_rows(name, set_run(name, args.max_queries, args.split))
        print(f"  {name}: {time.perf_counter() - started:.0f} s", flush=True)
    print()
    header = (f"{'set':<20} {'kind':<8} {'queries':>7} {'keyword':>8} {'hybrid rank':>11} {'hybrid page':>11} "
              f"{'margin':>7} {'refused hybrid':>14} {'refused semantic':>16}  targets (margin >= -{MARGIN}, "
              f"hybrid refused <= {REFUSED_TARGET:.0%})")
    print(header)
    print("-" * len(header))
    for name, kind, count, keyword, ranking, returned, margin, refused, semantic_refused in rows:
        verdict = "" if kind not in ("all", "question") else (
            "met" if margin >= -MARGIN and refused <= REFUSED_TARGET else
            "MISSED: " + ", ".join(what for what, missed in (("margin", margin < -MARGIN),
                                                             ("refused", refused > REFUSED_TARGET)) if missed))
        print(f"{name:<20} {kind:<8} {count:>7} {keyword:>8.3f} {ranking:>11.3f} {returned:>11.3f} {margin:>+7.3f} "
              f"{refused:>14.1%} {semantic_refused:>16.1%}  {verdict}")
    print(f"\nload average after {tuple(round(x, 2) for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
