#!/usr/bin/env python
"""What each row's own background costs a search (search/engine/confidence.py passage_centroid).

Run from the repo root:  DEBUG=true EVAL_EMBEDDING=e5 .venv/bin/python bench/own_background_cost.py
                         [--set scifact] [--queries 100] [--rounds 4]

A calibration that reads a row's own background (E5's, since the fifth fit) makes the vector
leg compute one more distance per returned row, to the background sentences' mean vector
(search/engine/legs/vector_leg.py centroid_column), and the statement that scores a hybrid
candidate only the keyword leg found do the same. This runs --queries test queries of a loaded
eval set (bench/eval.py loads `eval-<set>`) through semantic and hybrid search as the product
runs them (`include_candidates`, so a "no good match" still returns its rows), once untimed
to warm the model and caches, then --rounds times each way, alternated round by round: with the own background, and with the vector leg
told to compute none. It prints p50 / p95 of each and their ratio, with the load average.
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", default="scifact")
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()

    from bench_django import pct
    from eval import django_setup

    django_setup()
    import search.engine.hybrid as hybrid
    import search.engine.semantic as semantic
    from cms.access import workspace_access_for_operator
    from cms.models import Workspace
    from search.engine.confidence import passage_centroid

    from evalsets import load_set, queries_prime

    workspace = Workspace.objects.filter(slug=f"eval-{args.set}").first()
    if workspace is None:
        raise SystemExit(f"eval-{args.set} is not loaded: run bench/eval.py --sets {args.set} first.")
    access = workspace_access_for_operator(workspace=workspace)
    queries = [q["text"] for q in load_set(args.set, split="test").queries[:args.queries]]
    queries_prime(queries)
    print(f"load average before {tuple(round(x, 2) for x in os.getloadavg())}; {len(queries)} {args.set} test "
          f"queries, {args.rounds} rounds each way", flush=True)
    for run in (semantic.semantic_search, hybrid.hybrid_search):  # warm-up, untimed: the model, caches, plans
        for query in queries:
            run(access=access, query=query, include_candidates=True)
    timings: dict[tuple[str, bool], list[float]] = {}
    computed = leaked = 0
    for round_ in range(args.rounds):
        for own in ((True, False) if round_ % 2 == 0 else (False, True)):  # neither arm always goes first
            centroid = passage_centroid if own else (lambda model: None)
            semantic.passage_centroid = hybrid.passage_centroid = centroid
            for kind, run in (("semantic", semantic.semantic_search), ("hybrid", hybrid.hybrid_search)):
                for query in queries:
                    started = time.perf_counter()
                    result = run(access=access, query=query, include_candidates=True)
                    timings.setdefault((kind, own), []).append((time.perf_counter() - started) * 1000)
                    has_own = any(hit.passage_background is not None for hit in result.hits)
                    computed += own and has_own
                    leaked += not own and has_own
    semantic.passage_centroid = hybrid.passage_centroid = passage_centroid
    if not computed:
        raise SystemExit(f"no row had its own background: {result.model}'s calibration does not read it "
                         "(EVAL_EMBEDDING=e5).")
    if leaked:
        raise SystemExit(f"{leaked} searches computed an own background with it switched off: a search reads "
                         "passage_centroid from a module this bench does not switch, so the ratio would mean nothing.")
    for kind in ("semantic", "hybrid"):
        with_own, without = timings[(kind, True)], timings[(kind, False)]
        print(f"{kind:<9} own background p50 {pct(with_own, .5):6.2f} p95 {pct(with_own, .95):6.2f} ms;"
              f" without p50 {pct(without, .5):6.2f} p95 {pct(without, .95):6.2f} ms;"
              f" ratio p50 {pct(with_own, .5) / pct(without, .5):.3f}"
              f" p95 {pct(with_own, .95) / pct(without, .95):.3f}")
    print(f"load average after {tuple(round(x, 2) for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
