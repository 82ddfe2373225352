#!/usr/bin/env python
"""Fit the chunk searches' confidence (search/engine/confidence.py) and its default floor on the fit splits only.

Run from the repo root:  DEBUG=true .venv/bin/python bench/confidence_fit.py [--max-queries 200] [--sets ...]

Data: every set of ../shared/eval/ loaded as bench/eval.py loads it (workspace `eval-<set>`,
database cms_bench_eval, the local model use-multilingual-v3). For each set's FIT queries
(SciFact train, JSQuAD valid, the `fit` half of the others in bench/eval_split.tsv; the first
--max-queries of them):

- answerable: the query on its own corpus; a row (a top-10 hit of semantic_search, and of
  hybrid_search) is labelled relevant when its entry is a judged document of the query;
- unanswerable: the same query on another set's corpus (UNANSWERABLE_CORPUS, the same
  language where there is another set in it); every row is labelled not relevant.

Rows are read from the searches as the product runs them (`include_candidates: true`, so
the floor drops nothing); their features are what search/engine/confidence.py reads: cosine
similarity and log(1 + BM25). Rows are cached in var/bench/confidence/ per (set, split,
corpus, kind); --refresh reruns the searches.

Models (logistic, each set weighted equally, L2 1e-3), per kind of row ("semantic": similarity
alone, the semantic search's rows; "hybrid": similarity and BM25, hybrid's rows; keyword-only
rows: BM25 alone, from hybrid's rows):
  sim:     z = b + w1 * similarity                       (hybrid rows too: BM25 ignored)
  sim+kw:  z = b + w1 * similarity + w2 * log(1 + BM25)
The floor for a fit: the highest confidence such that, on EVERY set fitted on, at most 5% of
the answerable queries have a best confidence under it. The model is chosen by leave-one-set-
out: fit on five sets, pick the floor on them, and score the sixth (false "no good match" rate
on its answerable queries, true rate on its unanswerable ones); the model with the best worst
set wins (true rate, with any false rate over 5% counted against it), and is refitted on all
six (the default floor is hybrid's, the default search's). It prints the coefficients to paste into search/engine/confidence.py's CALIBRATION.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from pathlib import Path

import numpy as np

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from evalsets import EVAL_SETS, load_set  # noqa: E402

# Which corpus a set's queries are run against as unanswerable ones: the same language where
# another set is in it (JSQuAD and JaQuAD are both Japanese Wikipedia: a few of one's questions
# may be answered by the other's paragraphs, which only makes the unanswerable side harder).
# StackFAQ's and DRCD's go to the smaller English corpora because SciFact and JSQuAD were not
# loaded on the machine of the first fit (docs/design/confidence.md); DRCD is the only Chinese set.
UNANSWERABLE_CORPUS = {
    "scifact": "stackfaq-en",
    "stackfaq-en": "covidfaq-en",
    "covidfaq-en": "stackfaq-en",
    "jsquad-ja": "jaquad-ja",
    "jaquad-ja": "jsquad-ja",
    "drcd-zh": "stackfaq-en",
}
KINDS = ("semantic", "hybrid")
TOP_K = 10
FALSE_TARGET = 0.05
CACHE = REPO_ROOT / "var" / "bench" / "confidence"


def django_ready() -> None:
    from eval import django_setup

    django_setup()


def workspace_of(name: str):
    """The loaded eval workspace of a set and entry id -> document id (bench/eval.py loads them)."""
    from cms.models import Entry, Workspace

    from evalsets import load_set as load

    workspace = Workspace.objects.filter(slug=f"eval-{name}").first()
    if workspace is None:
        raise SystemExit(f"eval-{name} is not loaded: run bench/eval.py --sets {name} first.")
    corpus = load(name, split="test").corpus
    entry_ids = list(Entry.objects.filter(workspace=workspace).order_by("pk").values_list("pk", flat=True))
    return workspace, {pk: doc["_id"] for pk, doc in zip(entry_ids, corpus)}


def search_rows(kind: str, workspace, entry_to_doc: dict[int, str], queries: list[dict],
                qrels: dict[str, dict[str, int]] | None) -> list[dict]:
    """One row per query: its hits' (similarity, BM25, relevant) and the product's verdict."""
    from cms.access import workspace_access_for_operator
    from search.engine.confidence import hit_features
    from search.engine.hybrid import hybrid_search
    from search.engine.semantic import semantic_search

    from evalsets import queries_prime

    queries_prime(q["text"][:2000] for q in queries)
    access = workspace_access_for_operator(workspace=workspace)
    run = semantic_search if kind == "semantic" else hybrid_search
    rows = []
    for query in queries:
        result = run(access=access, query=query["text"][:2000], top_k=TOP_K, include_candidates=True)
        judged = (qrels or {}).get(query["_id"], {})
        hits = []
        for hit in result.hits:
            similarity, keyword = hit_features(hit)
            hits.append([similarity, keyword, int(entry_to_doc.get(hit.entry_id) in judged)])
        rows.append({"id": query["_id"], "hits": hits, "answerable": result.extra_meta.get("answerable"),
                     "best_confidence": result.extra_meta.get("best_confidence")})
    return rows


def rows_cached(name: str, split: str, corpus: str, kind: str, max_queries: int | None, refresh: bool
                ) -> list[dict]:
    """The rows of `name`'s `split` queries run by `kind` on `corpus`'s workspace (cached)."""
    CACHE.mkdir(parents=True, exist_ok=True)
    path = CACHE / f"{name}.{split}.{corpus}.{kind}.{max_queries or 'all'}.jsonl"
    if path.exists() and not refresh:
        return [json.loads(line) for line in path.open(encoding="utf-8")]
    data = load_set(name, split=split)
    queries = data.queries[:max_queries]
    workspace, entry_to_doc = workspace_of(corpus)
    rows = search_rows(kind, workspace, entry_to_doc, queries, data.qrels if corpus == name else None)
    with path.open("w", encoding="utf-8") as handle:
        handle.writelines(json.dumps(row) + "\n" for row in rows)
    return rows


# --- the fit ------------------------------------------------------------------------------

MODELS = ("sim", "sim+kw")


def design(hits: list[list], model: str, kind: str) -> np.ndarray:
    """Feature columns (with the bias) of hits [similarity, BM25, relevant]."""
    columns = []
    for similarity, keyword, _ in hits:
        kw = math.log1p(max(keyword or 0.0, 0.0))
        if kind == "keyword":
            columns.append([1.0, 0.0, kw])
        elif model == "sim" or kind == "semantic":
            columns.append([1.0, similarity or 0.0, 0.0])
        else:
            columns.append([1.0, similarity or 0.0, kw])
    return np.array(columns, dtype=float).reshape(-1, 3)


def logistic_fit(x: np.ndarray, y: np.ndarray, weights: np.ndarray, l2: float = 1e-3) -> np.ndarray:
    """Weighted L2 logistic regression by Newton steps; unused columns (all 0) stay 0."""
    used = np.abs(x).sum(axis=0) > 0
    xs = x[:, used]
    beta = np.zeros(xs.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-np.clip(xs @ beta, -50, 50)))
        gradient = xs.T @ (weights * (p - y)) + l2 * beta
        hessian = (xs.T * (weights * p * (1 - p))) @ xs + l2 * np.eye(xs.shape[1])
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if np.abs(step).max() < 1e-8:
            break
    full = np.zeros(3)
    full[used] = beta
    return full


def fit_tables(data: dict, sets: list[str], model: str) -> dict[str, np.ndarray]:
    """{row kind: (bias, w_similarity, w_keyword)} fitted on `sets` (each weighted equally)."""
    tables = {}
    for kind in ("semantic", "hybrid", "keyword"):
        source = "semantic" if kind == "semantic" else "hybrid"
        xs, ys, ws = [], [], []
        for name in sets:
            hits = [h for side in ("answerable", "unanswerable") for row in data[name][source][side]
                    for h in row["hits"] if h[0] is not None or kind == "keyword"]
            if kind == "keyword":
                hits = [h for h in hits if h[1] is not None]
            if not hits:
                continue
            xs.append(design(hits, model, kind))
            ys.append(np.array([h[2] for h in hits], dtype=float))
            ws.append(np.full(len(hits), 1.0 / len(hits)))
        tables[kind] = logistic_fit(np.vstack(xs), np.concatenate(ys), np.concatenate(ws) * len(xs))
    return tables


def best_confidences(rows: list[dict], table: np.ndarray, model: str, kind: str) -> list[float]:
    """Each query's best hit confidence under `table` (0 for a query with no hit)."""
    best = []
    for row in rows:
        hits = [h for h in row["hits"] if h[0] is not None]
        if not hits:
            best.append(0.0)
            continue
        z = design(hits, model, kind) @ table
        best.append(float((1 / (1 + np.exp(-np.clip(z, -50, 50)))).max()))
    return best


def floor_for(data: dict, sets: list[str], tables: dict, model: str, kind: str) -> float:
    """The highest floor keeping the false "no good match" rate at most 5% on every set."""
    floors = []
    for name in sets:
        best = sorted(best_confidences(data[name][kind]["answerable"], tables[kind], model, kind))
        floors.append(best[int(math.floor(FALSE_TARGET * len(best)))] if best else 1.0)
    return min(floors)


def rates(data: dict, name: str, tables: dict, model: str, kind: str, floor: float) -> tuple[float, float]:
    """(false "no good match" rate on answerable queries, true rate on unanswerable ones)."""
    answerable = best_confidences(data[name][kind]["answerable"], tables[kind], model, kind)
    unanswerable = best_confidences(data[name][kind]["unanswerable"], tables[kind], model, kind)
    false_rate = sum(c < floor for c in answerable) / max(1, len(answerable))
    true_rate = sum(c < floor for c in unanswerable) / max(1, len(unanswerable))
    return false_rate, true_rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default=",".join(EVAL_SETS))
    parser.add_argument("--max-queries", type=int, default=100, help="fit queries per set (the first N)")
    parser.add_argument("--refresh", action="store_true", help="rerun the searches instead of reading the cache")
    args = parser.parse_args()
    names = [n.strip() for n in args.sets.split(",") if n.strip()]
    django_ready()
    print(f"load average {os.getloadavg()}", flush=True)
    data: dict = {}
    for name in names:
        data[name] = {}
        for kind in KINDS:
            data[name][kind] = {
                "answerable": rows_cached(name, "fit", name, kind, args.max_queries, args.refresh),
                "unanswerable": rows_cached(name, "fit", UNANSWERABLE_CORPUS[name], kind, args.max_queries,
                                            args.refresh),
            }
        print(f"  {name}: {len(data[name]['hybrid']['answerable'])} fit queries on its corpus and on "
              f"{UNANSWERABLE_CORPUS[name]}'s", flush=True)

    print("\nleave-one-set-out (fit on the others, floor chosen on the others, scored on the one left out)")
    print(f"{'model':<8} {'kind':<9} {'left out':<12} {'floor':>6} {'false':>6} {'true':>6}")
    chosen: dict[str, tuple[float, str]] = {}
    for model in MODELS:
        for kind in KINDS:
            worst = 1.0
            for name in names:
                others = [n for n in names if n != name]
                tables = fit_tables(data, others, model)
                floor = floor_for(data, others, tables, model, kind)
                false_rate, true_rate = rates(data, name, tables, model, kind, floor)
                worst = min(worst, true_rate - max(0.0, false_rate - FALSE_TARGET) * 4)
                print(f"{model:<8} {kind:<9} {name:<12} {floor:>6.3f} {false_rate:>6.1%} {true_rate:>6.1%}")
            print(f"{model:<8} {kind:<9} {'worst score':<12} {worst:>6.3f}")
            if kind == "hybrid" and (model not in chosen or worst > chosen[model][0]):
                chosen[model] = (worst, model)
    model = max(chosen.values())[1]
    tables = fit_tables(data, names, model)
    floors = {kind: floor_for(data, names, tables, model, kind) for kind in KINDS}
    floor = floors["hybrid"]  # the default search's: hybrid answers questions unless told otherwise
    print(f"\nchosen by the worst hybrid set: {model}; refitted on all {len(names)} sets")
    print(f"floors per kind {({k: round(v, 4) for k, v in floors.items()})}; default floor (hybrid's) {floor:.4f}")
    for kind, table in tables.items():
        print(f"  {kind:<9} bias {table[0]: .4f}  similarity {table[1]: .4f}  log1p(bm25) {table[2]: .4f}")
    print(f"\nfit queries on all sets at that floor:")
    for name in names:
        for kind in KINDS:
            false_rate, true_rate = rates(data, name, tables, model, kind, floor)
            print(f"  {name:<12} {kind:<9} false {false_rate:>6.1%}  true {true_rate:>6.1%}")


if __name__ == "__main__":
    main()
