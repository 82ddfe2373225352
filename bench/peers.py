#!/usr/bin/env python
"""Side by side with the engines a user would pick instead (Tantivy, bm25s, LanceDB, hnswlib, usearch), in one run.

Run from the repo root (`make bench-peers` installs the peers, requirements-peers.txt):
    .venv/bin/python bench/peers.py [--docs 100000] [--sets scifact,...] [--max-queries N] [--load]
                                    [--speed-queries 40] [--real 3000] [--no-api] [--explain]

Every engine gets the same rows: the product's chunks (its chunker's text, the model's stored
vectors, read back from PostgreSQL: embedded once, handed to every vector engine; for the
quality sets EVAL_EMBEDDING's model, `e5` for the default multilingual-e5-small, and USE for
the speed corpus, bench/growth.py's) and
the same queries. bench/peer_engines.py says how each peer is configured (its tokenizer for
English, Japanese and Chinese, its BM25 defaults, its HNSW settings).

1. Quality, on each judged set (bench/evalsets.py, read in place) as bench/eval.py loads it
   (a workspace per set in its database, through the real pipeline), every test query (or
   the first --max-queries): nDCG@10 by document (each document keeps its best chunk of the
   top 50, as bench/eval.py does) for our keyword leg (hybrid with semantic_weight 0), our
   semantic and hybrid searches, Tantivy, bm25s, LanceDB FTS, exact kNN (NumPy), hnswlib and
   usearch (ef 100, the product's ef_search), LanceDB's vector search and its hybrid query
   (its default RRFReranker, and LinearCombinationReranker); recall@10 of each vector engine's
   chunks against exact kNN's. Then each set's margins (ours minus the best peer) and the
   worst set of each engine. DRCD has no split: nothing here is fitted, so all its queries
   are test queries. A set whose workspace is not loaded and embedded yet is skipped, and
   the run says so and why (embedding a corpus takes minutes to an hour on this machine;
   bench/eval.py or --load loads it); --max-queries keeps the first N test queries, and the
   table says how many of how many ran.
2. Speed at --docs chunks (0: skipped): bench/growth.py's corpus and database (real chunks of
   the sets plus noisy variants; 99% in one workspace, `bucket` and `tenth` filters keeping 1%
   and 0.1%), the peers built over the big workspace's chunks. Per query class (common words,
   rare words, Japanese questions, a 1% filter, a 0.1% filter): p50 / p95 of our searches
   in-process through search/kinds.py (query vectors memoised: the model's cost is printed
   once, apart) and through the API (gunicorn, one worker, on loopback: the query is embedded
   by the worker, so the API's figures include it), beside every peer. Ours rank raw chunks,
   as the peers do (RANKED); "ours entries" is the product's default, one row per entry, timed
   apart (the corpus has one entry per workspace). hnswlib's and usearch's ef is the smallest
   that reaches our semantic search's recall@10 against exact kNN on the same queries, measured
   on the rows the walk ranks (no floor, no grouping). Build time and size on disk per index;
   each of ours over the best peer's p95; our vector p95 over hnswlib's at that recall; the
   vector leg's plan per class and how often the walk came back short (the fallback rate).
3. --explain: where a hybrid search's time goes: its statements and their times, EXPLAIN
   ANALYZE of the slowest, and a profile of the real questions (the filter classes' queries, here
   unfiltered); --explain-only runs that alone (docs/design/peers.md).

The load average is printed with the figures: the machine is shared.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import agentic as agentic_bench  # noqa: E402 - bench/agentic.py
import eval as judged  # noqa: E402 - bench/eval.py: its loader, runners and metrics
import growth  # noqa: E402
import peer_engines  # noqa: E402
from bench_django import keyword_index, pct, vector_plan  # noqa: E402
from evalsets import load_set  # noqa: E402

QUALITY_SETS = ("covidfaq-en", "stackfaq-en", "drcd-zh", "jsquad-ja", "jaquad-ja", "scifact")
SCRIPT = {"scifact": "latin", "stackfaq-en": "latin", "covidfaq-en": "latin", "jsquad-ja": "cjk", "jaquad-ja": "cjk",
          "drcd-zh": "cjk"}
DEPTH = 50
TOP_K = 10
QUALITY_EF = 100
EF_SWEEP = (10, 16, 24, 32, 48, 64, 100, 150, 200, 300)
COMMON_QUERIES = ("generated variant", "variant", "the results of the study", "cell", "how to use it", "について",
                  "data analysis methods", "日本")
API_PORT = 8739
MODEL = growth.MODEL
FAMILIES = {
    "keyword": ("ours", "ours API", "tantivy", "bm25s", "lancedb fts"),
    "vector": ("ours", "ours API", "ours entries", "exact", "hnswlib", "usearch", "lancedb vec"),
    "hybrid": ("ours", "ours API", "ours entries", "lancedb rrf", "lancedb linear"),
}
# What our timed searches ask for beside the query: the ranked chunks, as every peer answers
# (the speed corpus puts each workspace's chunks in one entry, so the product's default of one
# row per entry answers one row, after widening its ranking to MAX_FETCH chunks: "ours entries"
# times that default apart), and no confidence floor (no peer has one; bench/unanswerable.py
# measures it).
RANKED = {"raw_chunks": True, "include_candidates": True}
# Ours beside the peers (ours_entries: the product's default, measured apart).
NOT_PEERS = ("ours", "ours API", "ours entries")


def load_avg() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}/{five:.2f}/{fifteen:.2f} on {os.cpu_count()} CPUs"


def chunk_rows(workspace_id: int, fields: bool = False, *, model: str = MODEL, dimensions: int = growth.DIMENSIONS
               ) -> tuple[list[int], list[int | None], peer_engines.Rows]:
    """A workspace's chunks embedded by `model`, by id: (chunk ids, entry ids, rows for the peers)."""
    from django.db import connection
    from pgvector.psycopg import register_vector

    register_vector(connection.connection)
    extra = (", (c.metadata->'fields'->>'bucket')::int, (c.metadata->'fields'->>'tenth')::int" if fields
             else ", 0, 0")
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT c.id, c.entry_id, c.text, v.embedding::vector({int(dimensions)}) {extra}"
            " FROM ingestion_chunkvector v JOIN ingestion_chunk c ON c.id = v.chunk_id"
            " AND c.content_hash = v.content_hash WHERE v.model = %s AND v.workspace_id = %s ORDER BY c.id",
            [model, workspace_id])
        rows = cursor.fetchall()
    vectors = np.asarray([r[3].to_numpy() for r in rows], dtype=np.float32)
    return ([r[0] for r in rows], [r[1] for r in rows],
            peer_engines.Rows([r[2] for r in rows], vectors, np.asarray([r[4] or 0 for r in rows], dtype=np.int32),
                              np.asarray([r[5] or 0 for r in rows], dtype=np.int32)))


def query_vectors(texts: list[str]) -> np.ndarray:
    from ingestion.embeddings import get_embedding_backend

    backend = get_embedding_backend()
    if hasattr(backend, "prime"):
        backend.prime(texts)
    return np.asarray([backend.embed_query(t) for t in texts], dtype=np.float32)


def query_embedding_ms(texts: list[str]) -> float:
    """The model's p50 for one query of these (each made new: the benches' backend memoises)."""
    from ingestion.embeddings import get_embedding_backend

    backend = get_embedding_backend()
    backend.embed_query("warm up the model")
    samples = []
    for i, text in enumerate(texts[:10]):
        started = time.perf_counter()
        backend.embed_query(f"{text} ({i})")
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def recall(found: list[list[int]], truth: list[list[int]]) -> float:
    return statistics.mean(len(set(f[:TOP_K]) & set(t[:TOP_K])) / max(1, len(t[:TOP_K])) for f, t in zip(found, truth))


# --- quality ----------------------------------------------------------------------------------

def rows_to_docs(ranked: list[int], row_doc: list[str | None]) -> dict[str, float]:
    """The top 10 documents of a ranked row list, each at its best chunk (rank-based scores)."""
    best: dict[str, float] = {}
    for rank, row in enumerate(ranked):
        doc = row_doc[row]
        if doc is not None and doc not in best:
            best[doc] = float(len(ranked) - rank)
    return dict(list(best.items())[:TOP_K])


def not_loaded(data) -> str:
    """Why the set's workspace cannot be used as it is ('' when it is loaded and embedded)."""
    from cms.models import Entry, Workspace
    from ingestion.models import Chunk

    workspace = Workspace.objects.filter(slug=f"eval-{data.name}").first()
    if workspace is None:
        return "no workspace"
    entries = Entry.objects.filter(workspace=workspace).count()
    pending = Chunk.objects.filter(workspace=workspace).exclude(status="embedded").count()
    if entries != len(data.corpus) or pending:
        return f"{entries} of {len(data.corpus)} entries, {pending} chunks not embedded"
    return ""


def quality_set(name: str, services, max_queries: int | None, load: bool) -> dict | str:
    """One set's nDCG@10 per engine (and recall@10 against exact kNN per vector engine); or,
    without `load`, why its workspace is not ready (another process may be loading it)."""
    from cms.access import workspace_access_for_operator
    from ingestion.embeddings import get_embedding_backend
    from search.engine.semantic import semantic_search

    data = load_set(name, split="test")
    if not load and (why := not_loaded(data)):
        print(f"{name}: SKIPPED, its workspace is not loaded ({why}); --load loads it through bench/eval.py's "
              "loader", flush=True)
        return why
    workspace, entry_to_doc = judged.workspace_load(data, services, rebuild=False)
    queries = data.queries[:max_queries]
    qrels = {q["_id"]: data.qrels[q["_id"]] for q in queries}
    texts = [q["text"][:2000] for q in queries]
    backend = get_embedding_backend()  # EVAL_EMBEDDING's model: the one the set was embedded with
    ids, entries, rows = chunk_rows(workspace.pk, model=backend.model_name, dimensions=backend.dimensions)
    row_of = {chunk_id: i for i, chunk_id in enumerate(ids)}
    row_doc = [entry_to_doc.get(e) for e in entries]
    vectors = query_vectors(texts)
    print(f"{name}: {len(data.corpus)} documents, {len(ids)} chunks, {len(queries)} of {len(data.queries)} test "
          f"queries; {SCRIPT[name]} tokenizers; {load_avg()}", flush=True)
    peers = peer_engines.Peers(rows, SCRIPT[name])
    for engine in ("hnswlib", "usearch"):
        peers[engine].set_ef(QUALITY_EF)
    runs: dict[str, dict] = {}
    seconds: dict[str, float] = {}
    chunk_tops: dict[str, list[list[int]]] = {}

    def timed_run(method: str, fn) -> None:
        started = time.perf_counter()
        runs[method] = fn()
        seconds[method] = time.perf_counter() - started

    access = workspace_access_for_operator(workspace=workspace)
    # Rankings against rankings: a query under our confidence floor ("no good match") keeps its
    # candidates here (include_candidates), as no peer has a floor; bench/unanswerable.py
    # measures the floor.
    ranked = {"include_candidates": True}
    timed_run("ours keyword", lambda: judged.run_hybrid(workspace, queries, entry_to_doc,
                                                        {"semantic_weight": 0, **ranked}))
    timed_run("ours hybrid", lambda: judged.run_hybrid(workspace, queries, entry_to_doc, ranked))

    def ours_semantic() -> dict:
        run, tops = {}, []
        for query, text in zip(queries, texts):
            hits = semantic_search(access=access, query=text, top_k=DEPTH, raw_chunks=True, **ranked).hits
            tops.append([row_of[h.id] for h in hits if h.id in row_of])
            run[query["_id"]] = rows_to_docs(tops[-1], row_doc)
        chunk_tops["ours semantic"] = tops
        return run

    timed_run("ours semantic", ours_semantic)
    for method, engine in (("tantivy", "tantivy"), ("bm25s", "bm25s"), ("lancedb fts", "lancedb")):
        timed_run(method, lambda e=peers[engine]: {q["_id"]: rows_to_docs(e.search(t, DEPTH), row_doc)
                                                   for q, t in zip(queries, texts)})
    for method, engine in (("exact knn", "exact"), ("hnswlib", "hnswlib"), ("usearch", "usearch"),
                           ("lancedb vec", "lancedb")):
        def vector_run(e=peers[engine], method=method) -> dict:
            tops = [e.search_vector(v, DEPTH) for v in vectors]
            chunk_tops[method] = tops
            return {q["_id"]: rows_to_docs(top, row_doc) for q, top in zip(queries, tops)}

        timed_run(method, vector_run)
    for method, reranker in (("lancedb hyb rrf", "rrf"), ("lancedb hyb lin", "linear")):
        timed_run(method, lambda r=reranker: {q["_id"]: rows_to_docs(peers["lancedb"].search_hybrid(t, v, DEPTH, r),
                                                                    row_doc)
                                              for q, t, v in zip(queries, texts, vectors)})
    peers.close()
    scores = {method: judged.evaluate(qrels, run)["nDCG@10"] for method, run in runs.items()}
    recalls = {method: recall(tops, chunk_tops["exact knn"]) for method, tops in chunk_tops.items()}
    for method in runs:
        extra = f"  recall@10 vs exact {recalls[method]:.3f}" if method in recalls else ""
        print(f"  {method:<16} nDCG@10 {scores[method]:.3f}  {seconds[method] / max(1, len(queries)) * 1000:6.1f} "
              f"ms/query{extra}", flush=True)
    return {"queries": len(queries), "of": len(data.queries), "chunks": len(ids), "ndcg": scores, "recall": recalls}


def quality_report(results: dict[str, dict]) -> None:
    methods = list(next(iter(results.values()))["ndcg"])
    print(f"\nQUALITY: nDCG@10 on each set's test queries (recall@10 of chunks vs exact kNN in brackets); {load_avg()}")
    header = f"{'engine':<16}" + "".join(f" {name:>16}" for name in results) + f" {'worst':>8}"
    print(header)
    print("-" * len(header))
    for method in methods:
        cells = []
        for r in results.values():
            cell = f"{r['ndcg'][method]:.3f}"
            if method in r["recall"]:
                cell += f" [{r['recall'][method]:.3f}]"
            cells.append(f" {cell:>16}")
        print(f"{method:<16}" + "".join(cells) + f" {min(r['ndcg'][method] for r in results.values()):>8.3f}")
    print(f"{'queries':<16}" + "".join(f" {str(r['queries']) + '/' + str(r['of']):>16}" for r in results.values()))
    print("\nmargins, ours minus the best peer (nDCG@10; negative: a peer is ahead)")
    comparisons = (("keyword", "ours keyword", ("tantivy", "bm25s", "lancedb fts")),
                   ("semantic", "ours semantic", ("exact knn", "hnswlib", "usearch", "lancedb vec")),
                   ("hybrid", "ours hybrid", ("lancedb hyb rrf", "lancedb hyb lin")))
    header = f"{'leg':<10}" + "".join(f" {name:>22}" for name in results) + f" {'worst':>8}"
    print(header)
    print("-" * len(header))
    for leg, ours, peers in comparisons:
        margins, cells = [], []
        for r in results.values():
            best = max(peers, key=lambda p: r["ndcg"][p])
            margin = r["ndcg"][ours] - r["ndcg"][best]
            margins.append(margin)
            cells.append(f" {f'{margin:+.3f} ({best})':>22}")
        print(f"{leg:<10}" + "".join(cells) + f" {min(margins):>+8.3f}")


# --- speed ------------------------------------------------------------------------------------

def rare_words(texts: list[str], count: int) -> list[str]:
    """`count` English words found in 3-30 of the chunks (a seeded pick)."""
    df: Counter = Counter()
    for text in texts:
        df.update({w for w in re.findall(r"[a-z]{5,}", text.lower())})
    rare = sorted(w for w, n in df.items() if 3 <= n <= 30)
    rng = np.random.default_rng(39)
    return [rare[i] for i in sorted(rng.choice(len(rare), size=min(count, len(rare)), replace=False))]


def japanese_queries(count: int) -> list[str]:
    """`count` Japanese test questions, half from JSQuAD and half from JaQuAD (a fixed sample)."""
    rng = np.random.default_rng(11)
    japanese: list[str] = []
    for name in ("jsquad-ja", "jaquad-ja"):
        qs = load_set(name, split="test").queries
        japanese += [qs[i]["text"] for i in sorted(rng.choice(len(qs), size=max(1, count // 2), replace=False))]
    return japanese[:count]


def speed_queries(texts: list[str], count: int) -> dict[str, tuple[list[str], tuple[str, int] | None]]:
    japanese = japanese_queries(count)
    questions = growth.queries(count)
    return {"common": (list(COMMON_QUERIES), None), "rare": (rare_words(texts, count), None),
            "japanese": (japanese[:count], None), "filter 1%": (questions, ("bucket", 7)),
            "filter 0.1%": (questions, ("tenth", 7))}


def timed(fn, items: list) -> list[float]:
    for item in items:  # warm: every query once before timing
        fn(item)
    out = []
    for item in items:
        started = time.perf_counter()
        fn(item)
        out.append((time.perf_counter() - started) * 1000)
    return out


class Api:
    """Our searches through gunicorn (one sync worker) on loopback, with a workspace key."""

    def __init__(self, database: str, workspace) -> None:
        import served_app
        from django.conf import settings

        from cms.services import api_key_create

        _, self.secret = api_key_create(workspace=workspace, name="bench/peers.py", include_drafts=True)
        self.slug = workspace.slug
        saved = dict(os.environ)
        # The workers hash keys with this process's secret (production's settings otherwise).
        os.environ.update(DEBUG="false", SECRET_KEY="bench-peers-not-a-secret-" + "x" * 32,
                          API_KEY_HASH_SECRET=settings.API_KEY_HASH_SECRET, SECURE_SSL_REDIRECT="false",
                          EMBEDDING_PROVIDER="local")
        try:
            self.process = served_app.start_gunicorn(database=database, port=API_PORT, workers=1)
        finally:
            os.environ.clear()
            os.environ.update(saved)

    def search(self, mode: str, body: dict) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", API_PORT, timeout=60)
        try:
            conn.request("POST", f"/api/v1/workspaces/{self.slug}/search/{mode}", body=json.dumps(body).encode(),
                         headers={"Authorization": f"Bearer {self.secret}", "Host": "127.0.0.1",
                                  "Content-Type": "application/json"})
            response = conn.getresponse()
            payload = response.read()
            if response.status != 200:
                raise RuntimeError(f"API {mode}: {response.status} {payload[:300]!r}")
        finally:
            conn.close()

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


def match_ef(engine, vectors: np.ndarray, truth: list[list[int]], target: float) -> tuple[int, float]:
    """The smallest ef of EF_SWEEP whose recall@10 against exact kNN reaches `target` (else the largest)."""
    for ef in EF_SWEEP:
        engine.set_ef(ef)
        got = recall([engine.search_vector(v, TOP_K) for v in vectors], truth)
        if got >= target:
            return ef, got
    return ef, got


def speed(args: argparse.Namespace) -> None:
    from cms.access import workspace_access_for_operator
    from cms.models import Workspace
    from search.kinds import SEARCH_KINDS

    total = args.docs
    growth.database_switch(total)
    ws_ids, figures = growth.load(total, args.real)
    from ingestion.services.keyword_bm25 import keyword_bm25_workspace_index_build

    # The keyword leg's index path ("auto") reads the workspace's own BM25 index (bench/bm25_speed.py).
    print(keyword_bm25_workspace_index_build(workspace_id=ws_ids["big"]), flush=True)
    workspace = Workspace.objects.get(pk=ws_ids["big"])
    access = workspace_access_for_operator(workspace=workspace)
    if args.explain_only:
        texts = growth.queries(args.speed_queries)
        query_vectors(texts)  # memoised, as in the timed runs
        where_time_goes(access, texts)
        return
    ids, _, rows = chunk_rows(workspace.pk, fields=True)
    row_of = {chunk_id: i for i, chunk_id in enumerate(ids)}
    print(f"\nSPEED: {len(ids)} chunks in the searched workspace ({total} in the database); building the peers... "
          f"{load_avg()}", flush=True)
    peers = peer_engines.Peers(rows, "mixed")
    classes = speed_queries(rows.texts, args.speed_queries)
    embed_ms = query_embedding_ms(classes["japanese"][0] + classes["filter 1%"][0])
    all_texts = list(dict.fromkeys(t for texts, _ in classes.values() for t in texts))
    vector_of = dict(zip(all_texts, query_vectors(all_texts)))

    # Our semantic search's recall@10 against exact kNN on every unfiltered query; each HNSW peer at
    # the smallest ef reaching it.
    plain = [t for texts, flt in classes.values() if flt is None for t in texts]
    truth = [peers["exact"].search_vector(vector_of[t], TOP_K) for t in plain]
    semantic = SEARCH_KINDS["semantic_search"]
    # The rows the walk ranks, before the confidence floor and the entry grouping (RANKED): a
    # query under the floor, or the speed corpus's one entry per workspace, must not pass for a miss.
    ours_tops = [[row_of.get(h.id, -1) for h in semantic.search(access, {"query": t, "top_k": TOP_K, **RANKED},
                                                                 interface="command").hits] for t in plain]
    ours_recall = recall(ours_tops, truth)
    efs = {name: match_ef(peers[name], np.asarray([vector_of[t] for t in plain]), truth, ours_recall)
           for name in ("hnswlib", "usearch")}
    lance_recall = recall([peers["lancedb"].search_vector(vector_of[t], TOP_K) for t in plain], truth)
    print(f"recall@10 vs exact kNN ({len(plain)} unfiltered queries): ours {ours_recall:.3f} (ef_search 100), "
          + ", ".join(f"{name} {got:.3f} at ef {ef}" for name, (ef, got) in efs.items())
          + f", lancedb {lance_recall:.3f} (flat scan)", flush=True)

    api = None if args.no_api else Api(f"cms_bench_growth_{total}", workspace)
    kinds = {"keyword": ("hybrid_search", "hybrid", {"semantic_weight": 0}), "vector": ("semantic_search", "semantic", {}),
             "hybrid": ("hybrid_search", "hybrid", {})}
    timings: dict[tuple[str, str, str], list[float]] = {}
    plans: dict[tuple[str, str], Counter] = {}
    try:
        for label, (texts, flt) in classes.items():
            spec = None if flt is None else {flt[0]: flt[1]}
            for family, (kind_name, mode, extra) in kinds.items():
                kind = SEARCH_KINDS[kind_name]

                def options(t: str, extra=extra, ranked=RANKED) -> dict:
                    return {"query": t, "top_k": TOP_K, **ranked, **extra, **({"filter": spec} if spec else {})}

                counted = plans.setdefault((family, label), Counter())

                def search(t: str, kind=kind, options=options, counted=counted) -> None:
                    counted[vector_plan(kind.search(access, options(t), interface="command"))] += 1

                timings[family, "ours", label] = timed(search, texts)
                if family == "keyword":  # today's leg (the postings' impact order), in the same run
                    with keyword_index("postings"):
                        timings[family, "ours postings", label] = timed(
                            lambda t, kind=kind, options=options: kind.search(access, options(t), interface="command"),
                            texts)
                if family != "keyword":
                    timings[family, "ours entries", label] = timed(
                        lambda t, kind=kind, options=options: kind.search(access, options(t, ranked={}),
                                                                          interface="command"), texts)
                if api is not None:
                    timings[family, "ours API", label] = timed(lambda t: api.search(mode, options(t)), texts)
            for name, engine in (("tantivy", "tantivy"), ("bm25s", "bm25s"), ("lancedb fts", "lancedb")):
                timings["keyword", name, label] = timed(lambda t, e=peers[engine]: e.search(t, TOP_K, flt), texts)
            for name, engine in (("exact", "exact"), ("hnswlib", "hnswlib"), ("usearch", "usearch"),
                                 ("lancedb vec", "lancedb")):
                if name == "usearch" and flt is not None:
                    continue  # no filtered search in its Python API
                timings["vector", name, label] = timed(
                    lambda t, e=peers[engine]: e.search_vector(vector_of[t], TOP_K, flt), texts)
            for name, reranker in (("lancedb rrf", "rrf"), ("lancedb linear", "linear")):
                timings["hybrid", name, label] = timed(
                    lambda t, r=reranker: peers["lancedb"].search_hybrid(t, vector_of[t], TOP_K, r, flt), texts)
            print(f"  {label}: {len(texts)} queries timed, {load_avg()}", flush=True)
    finally:
        if api is not None:
            api.close()
    speed_report(timings, classes, figures, peers, embed_ms, len(ids))
    print("\nkeyword p95: the BM25 index's leg over today's (the postings'), same run; and over Tantivy's")
    for label in classes:
        ours, today = pct(timings["keyword", "ours", label], 0.95), pct(timings["keyword", "ours postings", label], 0.95)
        tantivy = pct(timings["keyword", "tantivy", label], 0.95)
        print(f"  {label:<12} {ours:7.2f} ms / {today:7.2f} ms = {ours / today:.2f}x;"
              f" / tantivy {tantivy:.2f} ms = {ours / max(tantivy, 1e-9):.1f}x")
    keyword_agreement(workspace.pk, classes)
    bm25_index_report()
    plans_report(plans, classes)
    vector_ratio(timings, classes, efs, ours_recall)
    statement_floor(timings)
    if args.explain:
        where_time_goes(access, classes["filter 1%"][0])
    peers.close()


def keyword_agreement(workspace_id: int, classes: dict) -> None:
    """Top 10 of the keyword leg (the BM25 index's candidates, and today's postings) against exact
    BM25 with the workspace's statistics (every posting of every term read), unfiltered classes:
    the share of the exact top 10 found, and of queries answered identically (ids and order)."""
    from search.engine.legs.keyword import keyword_candidates, keyword_query_prepare

    def top(query: str, **limits) -> list[int]:
        return [h.id for h in keyword_candidates(keyword_query_prepare(workspace_id=workspace_id, query=query, **limits),
                                                 limit=TOP_K, where=None)[0]]

    print("\nkeyword top 10 against exact BM25 (every posting read): found / identical lists")
    for label, (texts, flt) in classes.items():
        if flt is not None:
            continue
        exact = [top(t, budget=10**12, champions=10**12) for t in texts]
        cells = []
        for index in ("auto", "postings"):
            with keyword_index(index):
                got = [top(t) for t in texts]
            found = sum(len(set(g) & set(e)) for g, e in zip(got, exact)) / max(1, sum(len(e) for e in exact))
            same = sum(g == e for g, e in zip(got, exact)) / len(texts)
            cells.append(f"{'bm25 index' if index == 'auto' else 'postings'} {found:.3f} / {same:.2f}")
        print(f"  {label:<12} " + "; ".join(cells), flush=True)


def bm25_index_report(rebuild: bool = True) -> None:
    """The BM25 index beside the chunk table and the postings: its size, and a fresh build's time."""
    from django.db import connection

    from ingestion.keywords import BM25_INDEX
    from ingestion.services.keyword_bm25 import keyword_bm25_index_build

    def mb(sql: str) -> float:
        with connection.cursor() as cursor:
            cursor.execute(sql)
            return round(cursor.fetchone()[0] / 2**20, 1)

    index_mb = mb(f"SELECT pg_relation_size('{BM25_INDEX}')")
    texts_mb = round(mb("SELECT pg_total_relation_size('ingestion_keywordtext')") - index_mb, 1)
    chunk_mb = mb("SELECT pg_total_relation_size('ingestion_chunk')")
    postings_mb = mb("SELECT pg_total_relation_size('ingestion_keywordposting')")
    print(f"\nBM25 index (pg_textsearch): {index_mb} MB ({index_mb / chunk_mb:.2f}x the chunk table's {chunk_mb} MB);"
          f" its texts (ingestion_keywordtext + b-trees) {texts_mb} MB; postings + indexes {postings_mb} MB; {load_avg()}",
          flush=True)
    if rebuild:
        with connection.cursor() as cursor:
            cursor.execute(f"DROP INDEX IF EXISTS {BM25_INDEX}")
        started = time.perf_counter()
        keyword_bm25_index_build()
        built_s = time.perf_counter() - started
        print(f"a fresh CREATE INDEX CONCURRENTLY: {built_s:.1f} s, {mb(f'SELECT pg_relation_size({BM25_INDEX!r})')} MB;"
              f" {load_avg()}", flush=True)


def plans_report(plans: dict[tuple[str, str], Counter], classes) -> None:
    """The vector leg's plan per family and class (timed runs and their warm-up): how often the
    walk came back short and the gated exact CTE ranked the rows (the fallback)."""
    from search.engine.legs.vector_leg import PLAN_WALK_SHORT

    labels = list(classes)
    print(f"\nVECTOR PLAN per class (ours, in-process): fallback rate (the walk came back short and every matching row was ranked), then the plans")
    print(f"{'family':<8}" + "".join(f" {label:>30}" for label in labels))
    for family in ("vector", "hybrid"):
        cells = []
        for label in labels:
            counted = plans.get((family, label), Counter())
            total = sum(counted.values())
            rate = counted[PLAN_WALK_SHORT] / total if total else 0.0
            detail = ",".join(f"{plan} {n}" for plan, n in sorted(counted.items()))
            cells.append(f" {f'{rate:.0%} ({detail})':>30}")
        print(f"{family:<8}" + "".join(cells))


def vector_ratio(timings: dict, classes, efs: dict, ours_recall: float) -> None:
    """Our vector p95 over hnswlib's at the ef where hnswlib reaches our recall@10 (match_ef)."""
    ef, got = efs["hnswlib"]
    cells = []
    for label, (_, flt) in classes.items():
        if flt is None and ("vector", "hnswlib", label) in timings:
            ours, theirs = pct(timings["vector", "ours", label], 0.95), pct(timings["vector", "hnswlib", label], 0.95)
            cells.append(f"{label} {ours:.2f} / {theirs:.3f} ms = {ours / max(theirs, 1e-3):.0f}x")
    print(f"\nvector p95, ours over hnswlib at the same recall@10 (ours {ours_recall:.3f}, hnswlib {got:.3f} at ef "
          f"{ef}): " + "; ".join(cells))


def statement_floor(timings: dict) -> None:
    """The least any search through PostgreSQL costs: one `SELECT 1` through Django's connection
    (the one our in-process searches use), beside each peer's keyword p95 on rare words. A
    keyword leg sends at least two statements (the terms' statistics, the candidates), so a peer
    answering under a third of two of these is out of reach of any SQL layout: the target is
    structural there (docs/design/peers.md, "What is structural")."""
    from django.db import connection

    def select_one(_):
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()

    ms = timed(select_one, list(range(400)))
    print(f"\nTHE FLOOR: one 'SELECT 1' through Django's connection: p50 {statistics.median(ms):.3f} / p95 "
          f"{pct(ms, 0.95):.3f} ms (400 timed); two of them (the fewest a keyword leg sends): p95 "
          f"{2 * pct(ms, 0.95):.3f} ms; {load_avg()}")
    for engine in ("tantivy", "bm25s", "lancedb fts"):
        if ("keyword", engine, "rare") in timings:
            peer = pct(timings["keyword", engine, "rare"], 0.95)
            print(f"  {engine} rare words p95 {peer:.3f} ms: 3x is {3 * peer:.3f} ms, "
                  f"{3 * peer / (2 * pct(ms, 0.95)):.2f}x the floor of two statements")


def search_statement(sql: str) -> str:
    """The search statement of a message search/engine/db/statements.py sent (settings; statement; restore)."""
    parts = sql.split(";")
    if len(parts) >= 3 and parts[0].lstrip().startswith("SELECT set_config('search.saved_"):
        return ";".join(parts[1:-1]).strip()
    return sql


def where_time_goes(access, texts: list[str]) -> None:
    """For the doc: our hybrid search's statements and their times for one query, EXPLAIN
    ANALYZE of its slowest, and a profile of the searches of `texts` (the Python side)."""
    import cProfile
    import pstats

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from search.kinds import SEARCH_KINDS

    kind = SEARCH_KINDS["hybrid_search"]
    text = texts[0]
    kind.search(access, {"query": text, "top_k": TOP_K}, interface="command")
    connection.queries_log.clear()  # a full log (DEBUG keeps 9,000) would capture nothing
    started = time.perf_counter()
    with CaptureQueriesContext(connection) as captured:
        kind.search(access, {"query": text, "top_k": TOP_K}, interface="command")
    total = (time.perf_counter() - started) * 1000
    statements = [(float(q["time"]) * 1000, search_statement(q["sql"])) for q in captured.captured_queries]
    print(f"\nWHERE THE TIME GOES: one hybrid search ({text[:60]!r}) {total:.1f} ms; its {len(statements)} statements "
          f"{sum(ms for ms, _ in statements):.1f} ms (Django's timer), the rest is Python")
    for ms, sql in statements:
        print(f"  {ms:7.2f} ms  {' '.join(sql.split())[:150]}")
    # The legs' statements are the WITH ones (Django's timer counts whole milliseconds: ties).
    legs = [(ms, sql) for ms, sql in statements if sql.lstrip().upper().startswith("WITH")] or statements
    slowest = max(legs, key=lambda item: item[0])[1]
    if slowest.lstrip().upper().startswith(("SELECT", "WITH")):
        from django.db import transaction

        from search.engine.legs.vector_leg import DEFAULT_EF_SEARCH, search_settings

        # Under the settings the search ran with (hnsw.ef_search, the iterative scan: SET LOCAL in
        # its transaction). Without them pgvector's defaults walk (ef_search 40, no iterative scan)
        # comes back with 40 rows against a LIMIT of 300, and the gated exact CTE then ranks the
        # whole workspace: what an EXPLAIN of the bare statement had shown (issue 54).
        with transaction.atomic(), connection.cursor() as cursor:
            for name, value in search_settings(DEFAULT_EF_SEARCH).items():
                cursor.execute("SELECT set_config(%s, %s, true)", [name, value])
            cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + slowest)
            print("EXPLAIN ANALYZE of the slowest of the legs' statements:")
            for (line,) in cursor.fetchall():
                print(f"  {line}")
    profile = cProfile.Profile()
    profile.enable()
    for text in texts:
        kind.search(access, {"query": text, "top_k": TOP_K}, interface="command")
    profile.disable()
    print(f"profile of {len(texts)} hybrid searches, by own time (top 15):")
    stats = pstats.Stats(profile)
    rows = sorted(stats.stats.items(), key=lambda item: -item[1][2])[:15]
    for (path, line, function), (_, calls, own, cumulative, _) in rows:
        print(f"  {own * 1000 / len(texts):7.2f} ms/search own  {cumulative * 1000 / len(texts):7.2f} cumulative  "
              f"{calls:>7} calls  {Path(path).name}:{line} {function}")


def speed_report(timings, classes, figures: dict, peers, embed_ms: float, rows: int) -> None:
    labels = list(classes)
    print(f"\nSPEED at {rows} chunks: p50 / p95 ms per query class (in-process; 'ours API' through gunicorn, "
          f"query embedding included: p50 {embed_ms:.1f} ms); {load_avg()}")
    header = f"{'family':<8} {'engine':<15}" + "".join(f" {label + f' ({len(classes[label][0])})':>19}"
                                                     for label in labels)
    print(header)
    print("-" * len(header))
    for family, engines in FAMILIES.items():
        for engine in engines:
            cells = []
            for label in labels:
                ms = timings.get((family, engine, label))
                cells.append(f" {f'{statistics.median(ms):.1f} / {pct(ms, 0.95):.1f}' if ms else '-':>19}")
            print(f"{family:<8} {engine:<15}" + "".join(cells))
    print("\nours (in-process) p95 over the best peer's p95 (and which peer)")
    print(f"{'family':<8}" + "".join(f" {label:>24}" for label in labels))
    for family, engines in FAMILIES.items():
        cells = []
        for label in labels:
            peers_p95 = {e: pct(timings[family, e, label], 0.95) for e in engines
                         if (family, e, label) in timings and e not in NOT_PEERS and e != "exact"}
            if family == "vector" and "exact" in engines and (family, "exact", label) in timings:
                peers_p95["exact"] = pct(timings[family, "exact", label], 0.95)
            best = min(peers_p95, key=peers_p95.get)
            ratio = pct(timings[family, "ours", label], 0.95) / peers_p95[best]
            cells.append(f" {f'{ratio:.2f}x ({best})':>24}")
        print(f"{family:<8}" + "".join(cells))
    print("\nbuild time and size on disk per index")
    print(f"{'index':<34} {'build s':>8} {'MB':>9}")
    print(f"{'ours: HNSW (pgvector)':<34} {figures.get('hnsw_build_s', '-'):>8} {figures.get('hnsw_mb', '-'):>9}")
    print(f"{'ours: keyword postings (+indexes)':<34} {figures.get('keyword_build_s', '-'):>8} "
          f"{figures.get('keyword_mb', '-'):>9}")
    print(f"{'ours: chunk table / vector table':<34} {'':>8} "
          f"{str(figures.get('chunk_mb', '-')) + ' / ' + str(figures.get('vector_table_mb', '-')):>9}")
    for name, engine in peers.engines.items():
        label = {"lancedb": "lancedb: table + FTS + scalar idx", "exact": "exact: the vectors in memory"}.get(name, name)
        print(f"{label:<34} {engine.build_s:>8.1f} {engine.disk_mb:>9.1f}")
    print("(ours: the figures of the run that loaded the database: ingestion.services.keyword_index_missing and "
          "the migration's HNSW build, on one CPU each)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=100_000, help="chunks of the speed corpus (0: no speed run)")
    parser.add_argument("--sets", default=",".join(QUALITY_SETS), help="judged sets ('' : no quality run)")
    parser.add_argument("--max-queries", type=int, default=None, help="the first N test queries of each set")
    parser.add_argument("--speed-queries", type=int, default=40, help="queries per speed class")
    parser.add_argument("--real", type=int, default=3000, help="real chunks in the speed corpus (bench/growth.py)")
    parser.add_argument("--load", action="store_true",
                        help="load (and embed) a set whose workspace is missing or incomplete, instead of skipping it")
    parser.add_argument("--explain", action="store_true",
                        help="after the speed tables: a hybrid search's statements, EXPLAIN ANALYZE, a profile")
    parser.add_argument("--explain-only", action="store_true", help="--explain alone: no peers, no timings")
    parser.add_argument("--no-api", action="store_true", help="skip the API timings (no gunicorn)")
    args = parser.parse_args()
    names = [n.strip() for n in args.sets.split(",") if n.strip()]
    unknown = [n for n in names if n not in QUALITY_SETS]
    if unknown:
        raise SystemExit(f"Unknown set(s): {', '.join(unknown)}; choose from {', '.join(QUALITY_SETS)}.")
    missing = peer_engines.missing_peers()
    if missing:
        raise SystemExit(f"The peers are not installed ({', '.join(missing)} missing): make bench-peers.")
    started = time.perf_counter()
    print(f"bench/peers.py: {peer_engines.versions()}; {load_avg()}", flush=True)
    # bench/agentic.py's setup: bench/eval.py's database and cached model, migrated and indexed.
    services = agentic_bench.setup() if names else judged.django_setup()
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        print(f"PostgreSQL {cursor.fetchone()[0]}", flush=True)
    if names:
        results = {name: quality_set(name, services, args.max_queries, args.load) for name in names}
        skipped = {name: why for name, why in results.items() if isinstance(why, str)}
        skipped.update({name: "not asked for (--sets)" for name in QUALITY_SETS if name not in names})
        results = {name: r for name, r in results.items() if not isinstance(r, str)}
        if results:
            quality_report(results)
        for name, why in skipped.items():
            print(f"set skipped: {name}: {why}")
    if args.docs:
        args.explain = args.explain or args.explain_only
        speed(args)
    print(f"\nbench/peers.py done in {time.perf_counter() - started:.0f} s; {load_avg()}")


if __name__ == "__main__":
    main()
