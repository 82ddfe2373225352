#!/usr/bin/env python
"""Fit hybrid search's fusion weights on the fit splits only: SciFact train and JSQuAD `valid`.

Run from the repo root, after bench/eval.py has loaded the workspaces:
    .venv/bin/python bench/fusion_fit.py [--max-queries N]

For every fit query, both legs run once through the real pipeline
(`search.hybrid.hybrid_collect`, CANDIDATE_DEPTH_MAX chunks per leg, every candidate scored
by both legs); then `search.fusion.fuse`, the function the product uses, ranks them for each
setting on the grid: weighted fusion with keyword weight 0, 0.05, ..., 1 (semantic weight
its complement) and each normalisation (min-max over the candidates; or over the best, with
0 as the floor), and RRF, with each leg's list cut to 20, 50 or 100 chunks. Chunks map to
documents (each keeps its best chunk) and ir-measures computes nDCG@10.

The rule it prints: per query script, the keyword weight with the best nDCG@10 on that
script's fit set at the product's depth (English and other Latin-script queries: SciFact
train; CJK queries: JSQuAD valid). No test query (SciFact test, StackFAQ, JSQuAD test) is read.
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
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cms.settings")

import eval as evalbench  # noqa: E402
from evalsets import load_set  # noqa: E402

FIT_SETS = {"scifact": "latin", "jsquad-ja": "cjk"}
NORMALIZATIONS = ("minmax", "max")
CANDIDATE_DEPTH_MAX = 100
DEPTHS = (20, 50, 100)
GRID = [round(i * 0.05, 2) for i in range(21)]


def collect(workspace, queries: list[dict], name: str) -> dict[str, list]:
    """Per query: its candidates (search.fusion.Candidate) with both legs' scores and ranks, and
    the entry of each chunk. Cached in var/bench (delete the file after changing a leg)."""
    import pickle

    cache = REPO_ROOT / "var" / "bench" / f"fusion-fit-{name}-{len(queries)}.pickle"
    if cache.exists():
        with cache.open("rb") as handle:
            return pickle.load(handle)
    from search.hybrid import chunk_filter, hybrid_collect
    from cms.access import workspace_access_for_operator

    access = workspace_access_for_operator(workspace=workspace)
    where = chunk_filter(access=access, content_type=None, spec=None)
    out = {}
    for query in queries:
        collected = hybrid_collect(workspace_id=workspace.pk, query=query["text"][:2000], where=where,
                                   depth=CANDIDATE_DEPTH_MAX, keyword_weight=0.5, semantic_weight=0.5,
                                   ef_search=CANDIDATE_DEPTH_MAX)
        out[query["_id"]] = [(c, collected.hits[c.chunk_id].entry_id) for c in collected.candidates.values()]
    cache.parent.mkdir(parents=True, exist_ok=True)
    with cache.open("wb") as handle:
        pickle.dump(out, handle)
    return out


def rank_docs(pairs, entry_to_doc: dict[int, str], *, method: str, keyword_weight: float, depth: int,
              normalization: str = "minmax") -> dict[str, float]:
    from dataclasses import replace

    from search.fusion import fuse

    kept = [
        (replace(c, keyword_rank=c.keyword_rank if c.keyword_rank and c.keyword_rank <= depth else None,
                 semantic_rank=c.semantic_rank if c.semantic_rank and c.semantic_rank <= depth else None), entry)
        for c, entry in pairs
        if (c.keyword_rank and c.keyword_rank <= depth) or (c.semantic_rank and c.semantic_rank <= depth)
    ]
    entry_of = {c.chunk_id: entry for c, entry in kept}
    ranked = fuse([c for c, _ in kept], method=method, keyword_weight=keyword_weight,
                  semantic_weight=1.0 - keyword_weight, normalization=normalization)
    best: dict[str, float] = {}
    for rank, c in enumerate(ranked):
        doc = entry_to_doc.get(entry_of[c.chunk_id])
        if doc is not None and doc not in best:
            best[doc] = float(len(ranked) - rank)
        if len(best) == 10:
            break
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-queries", type=int, default=None)
    parser.add_argument("--sets", default=",".join(FIT_SETS), help="fit sets to use (an English-only model: scifact)")
    args = parser.parse_args()
    fit_sets = {name: FIT_SETS[name] for name in args.sets.split(",") if name in FIT_SETS}
    if not fit_sets:
        raise SystemExit(f"--sets: choose from {', '.join(FIT_SETS)}.")
    evalbench.django_setup()
    from django.core.management import call_command

    from ingestion import services
    from search.fusion import FUSION_RRF, FUSION_WEIGHTED

    call_command("migrate", verbosity=0)
    services.keyword_index_missing()
    services.keyword_stats_compact_all()
    tables: dict[str, dict] = {}
    for name, script in fit_sets.items():
        data = load_set(name, split="fit")
        workspace, entry_to_doc = evalbench.workspace_load(load_set(name), services, False)
        queries = data.queries[: args.max_queries]
        qrels = {q["_id"]: data.qrels[q["_id"]] for q in queries}
        started = time.perf_counter()
        pairs = collect(workspace, queries, name)
        print(f"\n{name} fit split: {len(queries)} queries ({script} script), both legs collected in "
              f"{time.perf_counter() - started:.0f} s", flush=True)
        settings = [(norm, depth) for norm in NORMALIZATIONS for depth in DEPTHS]
        header = f"{'keyword weight':>14} " + " ".join(f"{norm[:6] + ' ' + str(d):>10}" for norm, d in settings)
        print(f"weighted fusion, nDCG@10 (normalisation, depth per leg)\n{header}\n{'-' * len(header)}")
        table = {}
        for weight in GRID:
            row = []
            for norm, depth in settings:
                run = {qid: rank_docs(p, entry_to_doc, method=FUSION_WEIGHTED, keyword_weight=weight, depth=depth,
                                      normalization=norm) for qid, p in pairs.items()}
                score = evalbench.evaluate(qrels, run)["nDCG@10"]
                table[(weight, norm, depth)] = score
                row.append(score)
            print(f"{weight:>14.2f} " + " ".join(f"{v:>10.3f}" for v in row), flush=True)
        for weight in (0.5, 0.7):
            row = []
            for depth in DEPTHS:
                run = {qid: rank_docs(p, entry_to_doc, method=FUSION_RRF, keyword_weight=weight, depth=depth)
                       for qid, p in pairs.items()}
                row.append(evalbench.evaluate(qrels, run)["nDCG@10"])
            print(f"{'rrf ' + format(weight, '.2f'):>14} " + " ".join(f"{v:>10.3f}" for v in row)
                  + "   (rrf: depths 20, 50, 100)", flush=True)
        tables[name] = table
    # The product's depth is CANDIDATE_DEPTH (50). One normalisation for both scripts: the one
    # whose best weights score best on the two fit sets together (mean); then each script's weight.
    def best_weight(name: str, norm: str) -> float:
        return max(GRID, key=lambda w: (tables[name][(w, norm, 50)], -abs(w - 0.5)))

    norm = max(NORMALIZATIONS, key=lambda n: sum(tables[name][(best_weight(name, n), n, 50)] for name in fit_sets))
    print(f"\nChosen (depth 50, the product's CANDIDATE_DEPTH): normalisation {norm}")
    for name, script in fit_sets.items():
        weight = best_weight(name, norm)
        print(f"  {script:<6} queries: keyword_weight {weight:.2f}, semantic_weight {1 - weight:.2f} "
              f"(nDCG@10 {tables[name][(weight, norm, 50)]:.3f} on {name} fit split; keyword alone "
              f"{tables[name][(1.0, norm, 50)]:.3f}, semantic alone {tables[name][(0.0, norm, 50)]:.3f})")


if __name__ == "__main__":
    main()
