#!/usr/bin/env python
"""How search speed grows with the data: keyword leg, semantic and hybrid at 100k, 300k, 1M chunks.

Run from the repo root:  .venv/bin/python bench/growth.py [--sizes 100000,300000] [--queries 60] [--real 3000]
                         .venv/bin/python bench/growth.py --selective [--sizes 100000]   (bench/selective.py)
                         .venv/bin/python bench/growth.py --citus --sizes 30000   (bench/growth_citus.py)

1. Data, one database per size (cms_bench_growth_<N>), built like bench/hybrid.py's:
   --real chunks of the eval corpora (SciFact, StackFAQ, JSQuAD, JaQuAD: the product's
   500-character splitter), embedded by the local model (use-multilingual-v3, 512 dims) and
   cached in var/bench; the rest up to N are variants: a real vector plus Gaussian noise
   (sigma 0.035, cosine ~0.8 to its source), re-normalised, with the first 300 characters of
   its text followed by "[generated variant k]". 99% of the chunks are in one workspace, 1% in
   another. Every chunk carries `bucket` = i % 100 and `tenth` = i % 1000 in its metadata
   fields: filters keeping 1% and 0.1% of the big workspace.
2. Load: binary COPY; the HNSW index of migration 0006 (timed, its size); the keyword index
   through the product's service (ingestion.services.keyword_index_missing, timed, its size);
   VACUUM ANALYZE.
3. Measure (real queries of the sets, the same at every size): the keyword leg
   (search.engine.legs.keyword, 50 candidates, as hybrid asks), semantic_search and hybrid_search
   (top_k 10) on the big workspace, p50 and p95, timed end to end from Python. Query vectors
   are memoised (the model is deterministic; its cost does not depend on the data and is
   printed once), so the figures are the database's and the fusion's.
   Then the ratio of each figure per 10x data (from the smallest to each larger size:
   (t_N / t_smallest) ** (1 / log10(N / smallest))).
4. --selective: hybrid (and the semantic leg's recall@10 against exact ranking, every
   distance computed with index scans off) with filters keeping 1% and 0.1% of the big
   workspace, before (search.engine.legs.vector_leg.EXACT_MAX_ROWS = 0: always the HNSW walk, as before
   the exact plan existed) and now.

The load average is printed with every figure: the machine is shared. Nothing is
extrapolated: a size that was not reached prints what it reached and how long it took.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "bench"))

import bench_django  # noqa: E402
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import vectorload  # noqa: E402
from evalsets import SETS, load_set, split_text  # noqa: E402

CACHE_DIR = REPO_ROOT / "var" / "bench"
MODEL = "use-multilingual-v3"
DIMENSIONS = 512
NOISE_SIGMA = 0.035
TOP_K = 10
DEPTH = 50
pct = bench_django.pct


def load_avg() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load {one:.1f}/{five:.1f}/{fifteen:.1f}"


def django_setup(total: int) -> None:
    bench_django.django_setup(f"cms_bench_growth_{total}", CELERY_BROKER_URL="memory://", SEARCH_EMBEDDING_BACKENDS={
        "default": {"BACKEND": "ingestion.embeddings.local.LocalEmbeddingBackend", "OPTIONS": {"threads": 1}}})


def database_switch(total: int) -> None:
    """Point the default connection at this size's database (created on first use)."""
    from django.db import connection

    connection.close()
    connection.settings_dict["NAME"] = f"cms_bench_growth_{total}"
    connection.ensure_connection()


# --- data ------------------------------------------------------------------------------------

def real_texts(count: int) -> list[str]:
    """`count` real chunks' texts of the eval corpora (an equal share of each set), cut at 500 characters."""
    texts: list[str] = []
    for name in SETS:
        share: list[str] = []
        for doc in load_set(name).corpus:
            share.extend(split_text(f"{doc.get('title') or ''}. {doc.get('text') or ''}".strip(". "), 500))
            if len(share) >= count // len(SETS):
                break
        texts.extend(share[: count // len(SETS)])
    return texts


def real_chunks(count: int) -> tuple[list[str], np.ndarray]:
    """`count` real chunks of the eval corpora (real_texts) and their vectors."""
    path = CACHE_DIR / f"growth-real-{count}.npz"
    if path.exists():
        data = np.load(path, allow_pickle=False)
        return [str(t) for t in data["texts"]], data["vectors"]
    texts = real_texts(count)
    from ingestion.embeddings import get_embedding_backend

    backend = get_embedding_backend()
    started = time.perf_counter()
    vectors = np.zeros((len(texts), DIMENSIONS), dtype=np.float32)
    for i in range(0, len(texts), 256):
        vectors[i:i + 256] = np.asarray(backend.embed_documents(texts[i:i + 256]), dtype=np.float32)
    print(f"embedded {len(texts)} real chunks with the local model in {time.perf_counter() - started:.0f} s", flush=True)
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    np.savez(path, texts=np.asarray(texts), vectors=vectors)
    return texts, vectors


def load(total: int, real_count: int, keyword: bool = True) -> tuple[dict[str, int], dict]:
    """Workspace ids, and the build figures (from this run, or recorded by the run that loaded)."""
    import json

    from django.core.management import call_command
    from django.db import connection
    from pgvector.psycopg import register_vector
    from psycopg.types.json import Jsonb

    from ingestion import services

    call_command("migrate", verbosity=0)
    ws_ids, entry_ids = bench_django.bench_workspaces([{"id": "tenth", "label": "Tenth", "type": "number"}])
    fingerprint = f"growth v1 {total} {real_count}"
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE IF NOT EXISTS bench_growth_built (fingerprint text, figures jsonb)")
        cursor.execute("SELECT figures FROM bench_growth_built WHERE fingerprint = %s", [fingerprint])
        row = cursor.fetchone()
    if row:
        figures = row[0] if isinstance(row[0], dict) else json.loads(row[0])
        if figures.get("stage") != "vectors" or not keyword:
            print(f"{total}: reusing the loaded data set (built earlier: {figures})", flush=True)
            return ws_ids, figures
        # An earlier run loaded the chunks and built the HNSW index, and stopped (or was
        # stopped) while building the keyword index: index the chunks it did not reach.
        print(f"{total}: chunks and HNSW index loaded earlier ({figures}); resuming the keyword index", flush=True)
        return ws_ids, keyword_index(total, fingerprint, figures, ws_ids)
    rng = np.random.default_rng(20260101)
    texts, real = real_chunks(real_count)
    order = rng.permutation(total)
    small = np.zeros(total, dtype=bool)
    small[rng.choice(total, size=total // 100, replace=False)] = True
    sources = rng.integers(0, len(real), size=max(0, total - len(real)))
    print(f"{total}: loading ({len(real)} real chunks, {len(sources)} variants)... {load_avg()}", flush=True)
    with connection.cursor() as cursor:
        # A bulk load writes far less WAL when checkpoints are rare (PostgreSQL's "Populating a
        # Database": increase max_wal_size): after each checkpoint every page the postings
        # index touches is logged whole again. The figures say what the cluster had.
        cursor.execute("SELECT current_setting('max_wal_size'), current_setting('checkpoint_timeout'),"
                       " current_setting('shared_buffers')")
        wal, timeout, buffers = cursor.fetchone()
        print(f"  cluster: max_wal_size {wal}, checkpoint_timeout {timeout}, shared_buffers {buffers}"
              " (ALTER SYSTEM SET max_wal_size = '16GB' before a 1M load)", flush=True)
        vectorload.truncate_and_drop_vector_indexes(cursor)
        cursor.execute("DELETE FROM bench_growth_built")
    raw = connection.connection
    register_vector(raw)
    figures: dict = {}
    started = time.perf_counter()

    def vector_of(j: int) -> np.ndarray:
        if j < len(real):
            return real[j]
        v = real[sources[j - len(real)]] + rng.normal(0.0, NOISE_SIGMA, size=DIMENSIONS).astype(np.float32)
        return (v / np.linalg.norm(v)).astype(np.float32)

    def text_of(j: int) -> str:
        return texts[j] if j < len(real) else f"{texts[sources[j - len(real)]][:300]} [generated variant {j}]"

    def rows():
        for i in range(total):
            j = int(order[i])
            ws = "small" if small[i] else "big"
            text = text_of(j)
            metadata = {"content_type": "article", "status": "published", "source_kind": "entry",
                        "fields": {"bucket": i % 100, "tenth": i % 1000}}
            yield (ws_ids[ws], entry_ids[ws], i, text, f"{i:064x}", len(text) // 3, f"Chunk {i}", Jsonb(metadata),
                   vector_of(j))

    vectorload.copy_chunks(raw, rows(), model=MODEL, dimensions=DIMENSIONS)
    figures["copy_s"] = round(time.perf_counter() - started, 1)
    print(f"  COPY {total} chunks: {figures['copy_s']} s  {load_avg()}", flush=True)
    started = time.perf_counter()
    with connection.cursor() as cursor:
        # The graph must fit in memory while it is built (at 1M chunks of 512 dimensions, ~2.6 GB);
        # past it pgvector builds on disk, far slower.
        cursor.execute("SET maintenance_work_mem = '4GB'")
        vectorload.build_vector_indexes(cursor)
        figures["hnsw_build_s"] = round(time.perf_counter() - started, 1)
        cursor.execute("SELECT pg_relation_size(%s)", [vectorload.indexes_module().index_name(MODEL)])
        figures["hnsw_mb"] = round(cursor.fetchone()[0] / 2**20, 1)
    print(f"  HNSW index build: {figures['hnsw_build_s']} s, {figures['hnsw_mb']} MB  {load_avg()}", flush=True)
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO bench_growth_built VALUES (%s, %s)", [fingerprint, Jsonb({**figures, "stage": "vectors"})])
        cursor.execute("VACUUM ANALYZE ingestion_chunk")
        cursor.execute("VACUUM ANALYZE ingestion_chunkvector")
    if not keyword:
        return ws_ids, {**figures, "stage": "vectors"}
    return ws_ids, keyword_index(total, fingerprint, figures, ws_ids)


def keyword_index(total: int, fingerprint: str, figures: dict, ws_ids: dict[str, int]) -> dict:
    """Build (or finish) the keyword index through the product's service, workspace by workspace
    (as on Citus, where its locking read runs on one shard only); record the figures."""
    from django.db import connection
    from psycopg.types.json import Jsonb

    from ingestion import services

    started = time.perf_counter()
    done = sum(services.keyword_index_missing(workspace_id=ws, batch_size=2000) for ws in ws_ids.values())
    services.keyword_stats_compact_all()
    figures["keyword_build_s"] = round(time.perf_counter() - started + figures.pop("keyword_build_s_before", 0), 1)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE ingestion_keywordposting")
        cursor.execute("VACUUM ANALYZE ingestion_keywordstat")
        cursor.execute("VACUUM ANALYZE ingestion_chunk")
        cursor.execute("VACUUM ANALYZE ingestion_chunkvector")
        cursor.execute("SELECT pg_total_relation_size('ingestion_keywordposting'),"
                       " pg_total_relation_size('ingestion_chunk'), pg_total_relation_size('ingestion_chunkvector')")
        posting, chunk, vector = cursor.fetchone()
    figures.update(keyword_mb=round(posting / 2**20, 1), chunk_mb=round(chunk / 2**20, 1),
                   vector_table_mb=round(vector / 2**20, 1), keyword_chunks=done)
    print(f"  keyword index: {done} chunks in {figures['keyword_build_s']} s, postings table+indexes "
          f"{figures['keyword_mb']} MB; chunk table {figures['chunk_mb']} MB, vector table+indexes "
          f"{figures['vector_table_mb']} MB  {load_avg()}", flush=True)
    figures.pop("stage", None)
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM bench_growth_built")
        cursor.execute("INSERT INTO bench_growth_built VALUES (%s, %s)", [fingerprint, Jsonb(figures)])
    return figures


# --- measuring ---------------------------------------------------------------------------------

def queries(count: int) -> list[str]:
    rng = np.random.default_rng(11)
    picked: list[str] = []
    for name in SETS:
        qs = load_set(name).queries
        picks = rng.choice(len(qs), size=min(max(1, count // len(SETS)), len(qs)), replace=False)
        picked.extend(qs[i]["text"] for i in sorted(picks))
    return picked[:count]


def memoise_query_vectors() -> float:
    """Memoise the backend's embed_query; return one query's embedding time (ms)."""
    from ingestion.embeddings import get_embedding_backend

    backend = get_embedding_backend()
    if getattr(backend, "_memoised", False):
        return 0.0
    embed, memo = backend.embed_query, {}

    def embed_query(text: str) -> list[float]:
        if text not in memo:
            memo[text] = embed(text)
        return memo[text]

    started = time.perf_counter()
    embed("warm up the model")
    embed("how long does a query embedding take")
    ms = (time.perf_counter() - started) * 500
    backend.embed_query, backend._memoised = embed_query, True
    return ms


def timed(fn, texts: list[str]) -> list[float]:
    # Every query once before timing: the sizes' databases together outgrow shared_buffers,
    # so a size measured right after another reads its pages cold (seen: 100k keyword p95
    # 37.8 ms warm, 118.2 ms cold); warm is what a serving database is.
    for text in texts:
        fn(text)
    out = []
    for text in texts:
        started = time.perf_counter()
        fn(text)
        out.append((time.perf_counter() - started) * 1000)
    return out


def measure_size(total: int, ws_ids: dict[str, int], texts: list[str], legs: tuple[str, ...]) -> dict[str, list[float]]:
    from cms.access import workspace_access_for_operator
    from cms.models import Workspace
    from search.engine.legs import keyword
    from search.engine.hybrid import chunk_filter, hybrid_search
    from search.engine.semantic import semantic_search

    access = workspace_access_for_operator(workspace=Workspace.objects.get(pk=ws_ids["big"]))
    where = chunk_filter(access=access, content_type=None, spec=None).keyword_where

    def keyword_leg(text: str):
        prepared = keyword.keyword_query_prepare(workspace_id=access.workspace.pk, query=text)
        return keyword.keyword_candidates(prepared, limit=DEPTH, where=where)

    plans: dict[str, list[str]] = {"semantic": [], "hybrid": []}

    def planned(kind: str, search):
        def run(text: str) -> None:
            plans[kind].append(bench_django.vector_plan(search(access=access, query=text, top_k=TOP_K)))
        return run

    runs = {
        "keyword": lambda: timed(keyword_leg, texts),
        "semantic": lambda: timed(planned("semantic", semantic_search), texts),
        "hybrid": lambda: timed(planned("hybrid", hybrid_search), texts),
    }
    timings = {kind: run() for kind, run in runs.items() if kind in legs}
    print(f"{total}: the vector leg's exact fallback (walk short): "
          + ", ".join(f"{kind} {bench_django.fallback_rate(got)}" for kind, got in plans.items() if got), flush=True)
    return timings


def exact_ids(ws_id: int, vector: list[float], where) -> set[int]:
    """The true top 10 of the filtered rows: every distance computed (index scans off)."""
    from django.db import connection, transaction

    from search.engine.legs import vector_leg
    from search.engine.legs.vector_leg import vector_exact_params, vector_exact_sql, vector_literal

    kept, vector_leg.EXACT_MAX_ROWS = vector_leg.EXACT_MAX_ROWS, 10**9  # rank every matching row
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_indexscan = off")
        cursor.execute("SET LOCAL enable_bitmapscan = off")
        cursor.execute(vector_exact_sql(dimensions=DIMENSIONS, where_sql=where.sql, include_vectors=False,
                                        bounded=False),
                       vector_exact_params(vector_text=vector_literal(vector), workspace_id=ws_id, model_name=MODEL,
                                           where=where, limit=TOP_K, max_distance=None))
        rows = cursor.fetchall()
    vector_leg.EXACT_MAX_ROWS = kept
    return {row[1] for row in rows if row[1] is not None}


def selective(total: int, ws_ids: dict[str, int], texts: list[str]) -> None:
    from cms.access import workspace_access_for_operator
    from cms.models import Workspace
    from ingestion.embeddings import get_embedding_backend
    from search.engine.legs import vector_leg
    from search.engine.hybrid import hybrid_search
    from search.engine.semantic import semantic_search
    from search.engine.filters.chunks import chunk_filter_for

    access = workspace_access_for_operator(workspace=Workspace.objects.get(pk=ws_ids["big"]))
    backend = get_embedding_backend()
    default_max = vector_leg.EXACT_MAX_ROWS
    print(f"\nselective filters, {total} chunks, big workspace; {len(texts)} queries; exact plan at <= "
          f"{default_max} matching rows", flush=True)
    header = (f"{'filter':<22} {'rows':>6} {'plan':<16} {'hyb p50':>8} {'hyb p95':>8} {'sem p50':>8} {'sem p95':>8} "
              f"{'recall@10':>9}  load")
    print(header)
    print("-" * len(header))
    for label, spec in (("bucket=7 (1%)", {"bucket": 7}), ("tenth=7 (0.1%)", {"tenth": 7})):
        where = chunk_filter_for(access=access, spec=spec, content_type=None)
        from django.db import connection
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT count(*) {vector_leg.matching_sql(where_sql=where.sql)}",
                           [access.workspace.pk, MODEL, *where.params])
            rows = cursor.fetchone()[0]
        truth = {t: exact_ids(access.workspace.pk, backend.embed_query(t), where) for t in texts}
        for plan, max_rows in (("no exact plan", 0), ("now", default_max)):
            vector_leg.EXACT_MAX_ROWS = max_rows
            try:
                hyb = timed(lambda t: hybrid_search(access=access, query=t, top_k=TOP_K, filter=spec), texts)
                sem = timed(lambda t: semantic_search(access=access, query=t, top_k=TOP_K, filter=spec), texts)
                recall = []
                for t in texts:
                    got = {h.id for h in semantic_search(access=access, query=t, top_k=TOP_K, filter=spec).hits}
                    recall.append(len(got & truth[t]) / max(1, len(truth[t])))
            finally:
                vector_leg.EXACT_MAX_ROWS = default_max
            print(f"{label:<22} {rows:>6} {plan:<16} {statistics.median(hyb):>8.1f} {pct(hyb, 0.95):>8.1f} "
                  f"{statistics.median(sem):>8.1f} {pct(sem, 0.95):>8.1f} {statistics.mean(recall):>9.3f}  "
                  f"{load_avg()}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100000,300000")
    parser.add_argument("--queries", type=int, default=60)
    parser.add_argument("--real", type=int, default=3000, help="real chunks embedded by the local model")
    parser.add_argument("--load-only", action="store_true")
    parser.add_argument("--selective", action="store_true", help="the selective-filter comparison instead")
    parser.add_argument("--no-keyword", action="store_true",
                        help="load chunks and the HNSW index only, and measure semantic search only (for a size whose "
                             "keyword index cannot be built in the time there is; says so in its figures)")
    parser.add_argument("--citus", action="store_true",
                        help="the same measurements on a Citus cluster (coordinator + 2 workers) against one node, "
                             "and their ratios (bench/growth_citus.py)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.citus:
        import growth_citus

        growth_citus.main(sizes, args.queries, args.real)
        return
    django_setup(sizes[0])
    embed_ms = memoise_query_vectors()
    texts = queries(args.queries)
    results: dict[int, dict] = {}
    for total in sizes:
        started = time.perf_counter()
        database_switch(total)
        ws_ids, figures = load(total, args.real, keyword=not args.no_keyword)
        if args.load_only:
            continue
        if args.selective:
            selective(total, ws_ids, texts)
            continue
        legs = ("semantic",) if figures.get("stage") == "vectors" else ("keyword", "semantic", "hybrid")
        timings = measure_size(total, ws_ids, texts, legs)
        results[total] = {"figures": figures, "timings": timings}
        line = "  ".join(f"{kind} p50 {statistics.median(ms):.1f} p95 {pct(ms, 0.95):.1f} ms"
                         for kind, ms in timings.items())
        print(f"{total}: {line}  ({time.perf_counter() - started:.0f} s for this size, {load_avg()})", flush=True)
    if not results:
        return
    print(f"\ngrowth: {len(texts)} real queries; query embedding (memoised, not in the figures) "
          f"{embed_ms:.0f} ms each; {load_avg()} on {os.cpu_count()} CPUs")
    header = (f"{'chunks':>8} {'kw p50':>7} {'kw p95':>7} {'sem p50':>7} {'sem p95':>7} {'hyb p50':>7} {'hyb p95':>7}"
              f" {'hnsw s':>7} {'hnsw MB':>8} {'kw s':>7} {'kw MB':>7}")
    print(header)
    print("-" * len(header))
    def cell(ms: list[float] | None, q: float) -> str:
        return f"{pct(ms, q):>7.1f}" if ms else f"{'-':>7}"

    for total, r in results.items():
        t, f = r["timings"], r["figures"]
        print(f"{total:>8} {cell(t.get('keyword'), 0.5)} {cell(t.get('keyword'), 0.95)} "
              f"{cell(t.get('semantic'), 0.5)} {cell(t.get('semantic'), 0.95)} "
              f"{cell(t.get('hybrid'), 0.5)} {cell(t.get('hybrid'), 0.95)} "
              f"{f['hnsw_build_s']:>7} {f['hnsw_mb']:>8} {f.get('keyword_build_s', '-'):>7} {f.get('keyword_mb', '-'):>7}"
              + ("  (keyword index not built: semantic only)" if f.get("stage") == "vectors" else ""))
    base = min(results)
    for total in sorted(results)[1:]:
        decades = math.log10(total / base)
        ratios = []
        for kind in ("keyword", "semantic", "hybrid"):
            if kind not in results[base]["timings"] or kind not in results[total]["timings"]:
                continue
            for q, name in ((0.5, "p50"), (0.95, "p95")):
                a, b = pct(results[base]["timings"][kind], q), pct(results[total]["timings"][kind], q)
                ratios.append(f"{kind} {name} x{(b / a) ** (1 / decades):.2f}")
        fa, fb = results[base]["figures"], results[total]["figures"]
        ratios.append(f"hnsw build x{(fb['hnsw_build_s'] / fa['hnsw_build_s']) ** (1 / decades):.2f}")
        ratios.append(f"hnsw size x{(fb['hnsw_mb'] / fa['hnsw_mb']) ** (1 / decades):.2f}")
        print(f"per 10x data ({base} -> {total}, measured over {total / base:.0f}x): " + ", ".join(ratios))


if __name__ == "__main__":
    main()
