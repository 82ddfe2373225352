#!/usr/bin/env python
"""What synonyms cost full-text: p50/p95 of a query alone and with a synonym set that adds one
variant, measured alternately, on bench/facets.py's data (100,000 chunks, 20,000 entries: run
that first, it builds the database).

    DEBUG=true .venv/bin/python bench/fulltext_synonyms.py [--runs 60]

The set {wA, wB} is created for each pair of words measured and removed after, so the same
query is timed without it, then with it (its variant ORed in: a second gram lookup in the
index plan, a second LIKE pattern in the recent scan). The load average is printed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import bench_django  # noqa: E402
import facets  # noqa: E402

PAIRS = [("w1500", "w1499"), ("w300", "w301"), ("w30", "w31"), ("w3", "w4")]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=60)
    args = parser.parse_args()
    bench_django.django_setup(facets.DB)
    from cms import services
    from cms.access import workspace_access_for_operator
    from cms.models import SynonymSet, Workspace
    from search.engine.fulltext import search_entries

    workspace = Workspace.objects.get(slug="bench")
    SynonymSet.objects.filter(workspace=workspace).delete()
    load1, load5, _ = os.getloadavg()
    print(f"full-text synonyms bench: {args.runs} runs a case, alternately; load average {load1:.2f} / {load5:.2f}")
    for word, other in PAIRS:
        plain, expanded = [], []
        synonym_set = services.synonym_set_create(workspace=workspace, terms=[word, other])
        for _ in range(args.runs):
            for with_set in (False, True):
                workspace.refresh_from_db()
                if not with_set:
                    workspace.synonyms_version = 0  # the same workspace row, no rules read
                access = workspace_access_for_operator(workspace=workspace)
                start = time.perf_counter()
                result = search_entries(access=access, query=word)
                (expanded if with_set else plain).append((time.perf_counter() - start) * 1000)
        assert result.also_searched == (other,)
        services.synonym_set_delete(synonym_set=synonym_set)
        print(f"  {word:<6} alone p50 {statistics.median(plain):6.1f} ms p95 {bench_django.pct(plain, 0.95):6.1f} ms"
              f" | with {other!r} p50 {statistics.median(expanded):6.1f} ms p95 {bench_django.pct(expanded, 0.95):6.1f} ms"
              f" ({result.plan})")
    load1, load5, _ = os.getloadavg()
    print(f"load average after: {load1:.2f} / {load5:.2f}")


if __name__ == "__main__":
    main()
