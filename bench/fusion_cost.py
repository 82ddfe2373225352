#!/usr/bin/env python
"""What fusion costs per query: today's weighted fusion (before issue 18) against adaptive fusion.

Run from the repo root:  .venv/bin/python bench/fusion_cost.py [--candidates 100] [--runs 3000]

Both rank the same candidates (random BM25 and cosine scores, a few chunks per entry, as the
legs return them at the product's depth: 50 per leg, up to 100 together). "today" is the
pure-Python weighted fusion of search/engine/legs/fusion.py at 0b40a65 (copied below, unchanged);
"adaptive" is the product's `fuse` now: the query's features (search.engine.legs.fusion.query_features,
from the scores the legs already read) plus z-scores, the per-query weights, the sigmoid and
the entry aggregation. No database: fusion is pure computation, the legs' SQL is unchanged.
Prints p50 and p95 in microseconds, with the load average.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))


# --- today's fusion (search/engine/legs/fusion.py at 0b40a65), unchanged ------------------------------------
# It ranks search.engine.legs.fusion.Candidate: the same fields as 0b40a65's, plus an entry_id it never reads.
def _max_scaled(values):
    high = max((v for v in values if v is not None), default=0.0)
    if high <= 0:
        return [0.0] * len(values)
    return [0.0 if v is None else max(0.0, v) / high for v in values]


def old_fuse(candidates, *, keyword_weight, semantic_weight):
    keyword = _max_scaled([c.keyword_score for c in candidates])
    semantic = _max_scaled([c.semantic_score for c in candidates])
    for c, k, s in zip(candidates, keyword, semantic):
        c.fused = keyword_weight * k + semantic_weight * s
    return sorted(candidates, key=lambda c: (-c.fused, c.chunk_id))
# -------------------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--candidates", type=int, default=100)
    parser.add_argument("--runs", type=int, default=3000)
    args = parser.parse_args()
    from search.engine.legs.fusion import Candidate, FusionSetting, fuse, query_features

    rng = random.Random(18)
    n = args.candidates
    base = [Candidate(chunk_id=i + 1, keyword_score=rng.uniform(0, 25) if rng.random() < 0.8 else 0.0,
                      keyword_rank=(i + 1) if i < n // 2 else None, semantic_score=rng.uniform(0.1, 0.8),
                      semantic_rank=(i - n // 2 + 1) if i >= n // 2 else None, entry_id=i // 3 + 1)
            for i in range(n)]
    query = "how do I return an item bought online for a refund"
    timings: dict[str, list[float]] = {"today (weighted, pure Python)": [], "adaptive (features + fuse)": []}
    for _ in range(args.runs):
        batch = [replace(c) for c in base]
        started = time.perf_counter()
        old_fuse(batch, keyword_weight=0.6, semantic_weight=0.4)
        timings["today (weighted, pure Python)"].append(time.perf_counter() - started)
        batch = [replace(c) for c in base]
        started = time.perf_counter()
        features = query_features(query=query, query_terms=6, known_idfs=[2.1, 3.5, 4.0, 1.2, 5.5], chunks=100_000,
                                  keyword_scores=[c.keyword_score for c in batch],
                                  semantic_scores=[c.semantic_score for c in batch])
        fuse(batch, setting=FusionSetting(), features=features)
        timings["adaptive (features + fuse)"].append(time.perf_counter() - started)
    print(f"fusion of {n} candidates, {args.runs} runs each, load average {os.getloadavg()[0]:.2f}")
    for name, values in timings.items():
        values.sort()
        print(f"  {name:<32} p50 {statistics.median(values) * 1e6:8.1f} us   p95 "
              f"{values[int(len(values) * 0.95)] * 1e6:8.1f} us")


if __name__ == "__main__":
    main()
