#!/usr/bin/env python
"""How often the chunk searches say "no good match" when they should and when they should not (search/engine/confidence.py).

Run from the repo root:  DEBUG=true .venv/bin/python bench/unanswerable.py [--max-queries 300] [--sets ...] [--kinds semantic,hybrid]

For every set of ../shared/eval/ (loaded by bench/eval.py: workspace `eval-<set>`, in the
database of EVAL_EMBEDDING's model), --max-queries of its TEST queries spread evenly over the
split (bench/confidence_fit.py's queries_sample; nothing here was fitted on them):

- answerable: each query on its own corpus. A "no good match" (`meta.answerable: false`)
  here is false; target <= 5%.
- unanswerable: the same query on a corpus about another subject (bench/confidence_fit.py's
  UNANSWERABLE_CORPUS, the one declaration both benches read, with each pair's reason), less
  the queries that name that corpus's subject (CORPUS_SUBJECTS). A "no good match" here is
  true; target >= 80%.

Each search runs as the product runs it, with its defaults (the default floor and the
coefficients in search/engine/confidence.py, fitted by bench/confidence_fit.py on the fit splits
only); `include_candidates` is on, which changes what is returned but not the verdict.
Agentic search answers a single question by hybrid search (meta.path "standard"), so hybrid
stands for it.
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

from confidence_fit import (  # noqa: E402
    django_ready, queries_sample, search_rows, unanswerable_corpus, unanswerable_queries, workspace_of)
from evalsets import EVAL_SETS, load_set  # noqa: E402

FALSE_TARGET, TRUE_TARGET = 0.05, 0.80


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default=",".join(EVAL_SETS))
    parser.add_argument("--kinds", default="semantic,hybrid")
    parser.add_argument("--max-queries", type=int, default=300, help="test queries per set (spread over the split)")
    args = parser.parse_args()
    names = [n.strip() for n in args.sets.split(",") if n.strip()]
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    django_ready()
    from ingestion.embeddings import get_embedding_backend
    from search.engine.confidence import DEFAULT_MIN_CONFIDENCE

    print(f"load average before {tuple(round(x, 2) for x in os.getloadavg())}; default floor "
          f"{DEFAULT_MIN_CONFIDENCE}; embedding model {get_embedding_backend().model_name}", flush=True)
    table = []
    for name in names:
        data = load_set(name, split="test")
        queries = queries_sample(data.queries, args.max_queries)
        own, own_docs = workspace_of(name)
        other_name = unanswerable_corpus(name)
        other, other_docs = workspace_of(other_name)
        for kind in kinds:
            started = time.perf_counter()
            answerable = search_rows(kind, own, own_docs, queries, data.qrels)
            unanswerable = search_rows(kind, other, other_docs, unanswerable_queries(name, queries), None)
            false_rate = sum(r["answerable"] is False for r in answerable) / max(1, len(answerable))
            true_rate = sum(r["answerable"] is False for r in unanswerable) / max(1, len(unanswerable))
            table.append((name, other_name, kind, f"{len(answerable)}/{len(unanswerable)}", false_rate, true_rate))
            print(f"  {name} {kind}: {time.perf_counter() - started:.0f} s", flush=True)
    print()
    header = (f"{'set':<12} {'unanswerable on':<15} {'kind':<9} {'queries':>7} {'false no-match':>14} "
              f"{'true no-match':>13}  targets (<= 5%, >= 80%)")
    print(header)
    print("-" * len(header))
    for name, other_name, kind, count, false_rate, true_rate in table:
        verdict = ("met" if false_rate <= FALSE_TARGET and true_rate >= TRUE_TARGET else
                   "MISSED: " + ", ".join(what for what, missed in (("false", false_rate > FALSE_TARGET),
                                                                    ("true", true_rate < TRUE_TARGET)) if missed))
        print(f"{name:<12} {other_name:<15} {kind:<9} {count:>7} {false_rate:>14.1%} {true_rate:>13.1%}  {verdict}")
    print(f"\nload average after {tuple(round(x, 2) for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
