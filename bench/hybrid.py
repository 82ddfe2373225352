#!/usr/bin/env python
"""Speed of the keyword leg and of hybrid search at 100,000 chunks, and what the candidate bound costs.

Run from the repo root:
    .venv/bin/python bench/hybrid.py [--chunks N] [--queries Q] [--rebuild]

1. Data. The chunks of bench/eval.py's workspaces (the product's chunker, the local model's
   vectors), if bench/eval.py has loaded them; otherwise bench/semantic.py's real chunks (the
   same sets cut into ~500 characters, embedded by the local model, cached in var/bench).
   Either way they are the real chunks; the rest up to --chunks are
   variants like bench/semantic.py's: a real vector plus Gaussian noise (sigma 0.035), and
   the first 300 characters of its text followed by "[generated variant k]", so "generated"
   and "variant" are in ~70% of all chunks: the common-term worst case.
2. Load, into a dedicated database (cms_bench_hybrid): binary COPY of the chunks, the HNSW
   index of migration 0002, then the keyword index through the product's own service
   (`ingestion.services.keyword_index_missing`, timed), compaction, VACUUM ANALYZE.
3. Measure, per scenario (the big workspace holding 99% of the chunks; a workspace holding
   1%; the big one with a metadata filter keeping 1% of its chunks; the big one as a viewer,
   whose visibility predicate makes every candidate read its chunk row):
   - the keyword leg (`search.engine.legs.keyword`, 50 candidates as hybrid asks), timed end to end
     from Python: real queries from the three sets, and common-term queries;
   - how many candidates it scored and how many postings it read at most, and its top 10
     against exact BM25 (every posting of every term read): agreement@10;
   - hybrid_search end to end (top_k 10), including the query's embedding by the local model,
     with its default fusion and with the fusion before issue 18 (weighted 0.60 / 0.75, as a
     request), alternated query by query: p95 of each and their ratio (issue 18: <= 1.1x).
   The load average is printed with the figures: the machine is shared.
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import sys
import time
import re
import unicodedata
from contextlib import contextmanager
from pathlib import Path

import numpy as np

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "bench"))

import bench_django  # noqa: E402
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import vectorload  # noqa: E402
from eval import today_options  # noqa: E402 - the fusion before issue 18, as bench/eval.py requests it
from evalsets import SETS, eval_db, load_set  # noqa: E402

BENCH_DB = os.environ.get("BENCH_HYBRID_DB", "cms_bench_hybrid")
EVAL_DB = eval_db()
CACHE = REPO_ROOT / "var" / "bench" / "hybrid-real-chunks.npz"
MODEL = "use-multilingual-v3"
DIMENSIONS = 512
NOISE_SIGMA = 0.035
FILTER_BUCKETS = 100
TOP_K = 10
DEPTH = 50
CHUNKS_PER_ENTRY = 3
COMMON_QUERIES = ["generated variant", "variant", "the results of the study", "cell", "how to use it",
                  "について", "data analysis methods", "日本"]


def django_setup() -> None:
    bench_django.django_setup(BENCH_DB, CELERY_BROKER_URL="memory://", SEARCH_EMBEDDING_BACKENDS={
        "default": {"BACKEND": "ingestion.embeddings.local.LocalEmbeddingBackend", "OPTIONS": {"threads": 1}}})


pct = bench_django.pct


# --- data -------------------------------------------------------------------------------------

def eval_chunk_vectors(*, db: str, model: str, dimensions: int, cache: Path) -> tuple[list[str], np.ndarray]:
    """(text, vector) of every chunk of bench/eval.py's workspaces in `db` with a current vector
    of `model`, cached in `cache`; empty when that database is not on this machine."""
    if cache.exists():
        data = np.load(cache, allow_pickle=False)
        return [str(t) for t in data["texts"]], data["vectors"]
    import psycopg
    from django.db import connection
    from pgvector.psycopg import register_vector

    params = {**connection.get_connection_params(), "dbname": db}
    params.pop("cursor_factory", None)
    params.pop("context", None)
    try:
        with psycopg.connect(**params) as conn:
            register_vector(conn)
            rows = conn.execute(
                f"SELECT c.text, v.embedding::vector({int(dimensions)}) FROM ingestion_chunkvector v"
                " JOIN ingestion_chunk c ON c.id = v.chunk_id AND c.content_hash = v.content_hash"
                " WHERE v.model = %s AND v.workspace_id IN (SELECT id FROM cms_workspace WHERE slug LIKE 'eval-%%')"
                " ORDER BY c.id", [model]).fetchall()
    except psycopg.OperationalError:  # no eval database on this machine
        return [], np.zeros((0, dimensions), dtype=np.float32)
    texts = [r[0] for r in rows]
    vectors = np.asarray([np.asarray(r[1].to_list(), dtype=np.float32) for r in rows], dtype=np.float32)
    if rows:
        cache.parent.mkdir(parents=True, exist_ok=True)
        np.savez(cache, texts=np.asarray(texts), vectors=vectors)
    return texts, vectors


def real_chunks() -> tuple[list[str], np.ndarray]:
    """(text, USE vector) of every embedded chunk of bench/eval.py's workspaces, cached in var/bench."""
    texts, vectors = eval_chunk_vectors(db=EVAL_DB, model=MODEL, dimensions=DIMENSIONS, cache=CACHE)
    if not texts:
        # No eval workspaces loaded (bench/eval.py loads them, an hour on 2 CPUs): the same
        # sets cut and embedded by bench/semantic.py (its cache in var/bench is reused).
        import semantic  # noqa: PLC0415 - bench/ is on sys.path

        texts = semantic.real_chunk_texts()
        vectors = semantic.embed_cached("chunks", texts)
        print(f"No embedded chunks in {EVAL_DB}: using bench/semantic.py's {len(texts)} real chunks of the eval sets.",
              flush=True)
    return texts, vectors


def load(total: int, rebuild: bool) -> tuple[dict[str, int], dict[str, int]]:
    """Workspace ids and chunk counts (big, small, filtered); loads unless already loaded."""
    from django.core.management import call_command
    from django.db import connection
    from pgvector.psycopg import register_vector
    from psycopg.types.json import Jsonb

    from ingestion import services
    from ingestion.models import Chunk

    call_command("migrate", verbosity=0)
    ws_ids, entry_ids = bench_django.bench_workspaces()
    rng = np.random.default_rng(20260101)
    texts, real = real_chunks()
    if total <= len(real):
        vectors, all_texts = real[:total], texts[:total]
    else:
        sources = rng.integers(0, len(real), size=total - len(real))
        extra = real[sources] + rng.normal(0.0, NOISE_SIGMA, size=(len(sources), real.shape[1])).astype(np.float32)
        extra /= np.linalg.norm(extra, axis=1, keepdims=True)
        vectors = np.vstack([real, extra.astype(np.float32)])
        all_texts = texts + [f"{texts[s][:300]} [generated variant {k}]" for k, s in enumerate(sources)]
    order = rng.permutation(total)
    small = np.zeros(total, dtype=bool)
    small[rng.choice(total, size=total // 100, replace=False)] = True
    counts = {"big": int((~small).sum()), "small": int(small.sum()),
              "filtered": int(sum(1 for i in range(total) if not small[i] and i % FILTER_BUCKETS == 7))}
    indexed = Chunk.objects.count() == total and not Chunk.objects.extra(
        where=["NOT EXISTS (SELECT 1 FROM ingestion_keywordposting p WHERE p.chunk_id = ingestion_chunk.id"
               " AND p.term = '')"]).exists()
    if indexed and not rebuild:
        print(f"Reusing the {total} chunks already in {BENCH_DB} (--rebuild to reload).", flush=True)
        return ws_ids, counts
    print(f"Loading {total} chunks ({len(real)} real, {max(0, total - len(real))} variants) into {BENCH_DB}...",
          flush=True)
    with connection.cursor() as cursor:
        vectorload.truncate_and_drop_vector_indexes(cursor)
    raw = connection.connection
    register_vector(raw)
    started = time.perf_counter()

    def rows():
        for i in range(total):
            j = int(order[i])
            ws = "small" if small[i] else "big"
            metadata = {"content_type": "article", "status": "published", "source_kind": "entry",
                        "fields": {"bucket": i % FILTER_BUCKETS}}
            yield (ws_ids[ws], entry_ids[ws], i, all_texts[j], f"{i:064x}", len(all_texts[j]) // 3, f"Chunk {i}",
                   Jsonb(metadata), vectors[j])

    vectorload.copy_chunks(raw, rows(), model=MODEL, dimensions=DIMENSIONS)
    # Entries of CHUNKS_PER_ENTRY chunks each (the eval sets' documents have 1 to 3), so that
    # one row per entry (search/engine/entry_results.py) groups as it would on real content.
    from cms.models import Entry

    with connection.cursor() as cursor:
        for ws in ("big", "small"):
            cursor.execute("SELECT content_type_id FROM cms_entry WHERE id = %s", [entry_ids[ws]])
            type_id = cursor.fetchone()[0]
            chunk_ids = list(Chunk.objects.filter(workspace_id=ws_ids[ws]).order_by("id").values_list("id", flat=True))
            made = Entry.objects.bulk_create(
                [Entry(workspace_id=ws_ids[ws], content_type_id=type_id, data={"title": f"Bench entry {k}"},
                       status="published") for k in range(0, len(chunk_ids), CHUNKS_PER_ENTRY)], batch_size=5000)
            cursor.execute("UPDATE ingestion_chunk c SET entry_id = (%s::bigint[])[(n.ord - 1) / %s + 1]"
                           " FROM unnest(%s::bigint[]) WITH ORDINALITY AS n(id, ord) WHERE c.id = n.id",
                           [[e.pk for e in made], CHUNKS_PER_ENTRY, chunk_ids])
    print(f"  entries of {CHUNKS_PER_ENTRY} chunks: {total // CHUNKS_PER_ENTRY}", flush=True)
    print(f"  COPY {total} chunks: {time.perf_counter() - started:.1f} s", flush=True)
    started = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute("SET maintenance_work_mem = '2GB'")
        vectorload.build_vector_indexes(cursor)
    print(f"  HNSW index build: {time.perf_counter() - started:.1f} s", flush=True)
    started = time.perf_counter()
    done = services.keyword_index_missing(batch_size=1000)
    seconds = time.perf_counter() - started
    services.keyword_stats_compact_all()
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE ingestion_keywordposting")
        cursor.execute("VACUUM ANALYZE ingestion_keywordstat")
        cursor.execute("ANALYZE ingestion_chunk")
        cursor.execute("SELECT count(*), pg_size_pretty(pg_total_relation_size('ingestion_keywordposting')),"
                       " pg_size_pretty(pg_relation_size('keyword_posting_term_impact'))"
                       " FROM ingestion_keywordposting")
        postings, size, index_size = cursor.fetchone()
    print(f"  keyword index through ingestion.services.keyword: {done} chunks in {seconds:.1f} s "
          f"({done / seconds:.0f} chunks/s), {postings} postings, table+indexes {size}, "
          f"term/impact index {index_size}", flush=True)
    return ws_ids, counts


E5_MODEL, E5_DIMENSIONS = "multilingual-e5-small", 384
E5_CACHE = REPO_ROOT / "var" / "bench" / "hybrid-real-chunks-e5.npz"


def e5_vectors_load() -> None:
    """--versus e5: a multilingual-e5-small vector beside USE's for every chunk of the bench
    database. A real chunk gets its vector from bench/eval.py's E5 database (EVAL_EMBEDDING=e5,
    cms_bench_eval_e5: the same chunker over the same sets, so the same texts); a variant gets
    its source's E5 vector plus the same Gaussian noise as its USE vector, normalised. Then
    E5's HNSW index (migration 0013's definition). Reused when every chunk has one."""
    from django.db import connection
    from pgvector.psycopg import register_vector

    from ingestion.models import Chunk, ChunkVector

    total = Chunk.objects.count()
    if ChunkVector.objects.filter(model=E5_MODEL).count() == total:
        print(f"Reusing the {total} {E5_MODEL} vectors already in {BENCH_DB}.", flush=True)
        return
    texts, vectors = eval_chunk_vectors(db="cms_bench_eval_e5", model=E5_MODEL, dimensions=E5_DIMENSIONS,
                                        cache=E5_CACHE)
    if not texts:
        raise SystemExit("--versus e5 reads the E5 vectors of bench/eval.py's workspaces: run "
                         "EVAL_EMBEDDING=e5 bench/eval.py first (database cms_bench_eval_e5).")
    exact = {t: i for i, t in enumerate(texts)}
    by_prefix = {t[:300]: i for i, t in enumerate(texts)}
    rng = np.random.default_rng(37)
    variant = re.compile(r" \[generated variant \d+\]$")
    started = time.perf_counter()
    missing = 0
    with connection.cursor() as cursor:
        cursor.execute(f"DROP INDEX IF EXISTS chunk_vector_hnsw_{E5_MODEL.replace('-', '_')}")
        cursor.execute("DELETE FROM ingestion_chunkvector WHERE model = %s", [E5_MODEL])
        cursor.execute("SELECT id, workspace_id, text, content_hash FROM ingestion_chunk ORDER BY id")
        chunks = cursor.fetchall()
    raw = connection.connection
    register_vector(raw)
    with raw.cursor() as cursor, cursor.copy(
            "COPY ingestion_chunkvector (chunk_id, workspace_id, model, dimensions, embedding, content_hash,"
            " created_at) FROM STDIN (FORMAT BINARY)") as copy:
        copy.set_types(["bigint", "bigint", "text", "integer", "vector", "text", "timestamptz"])
        stamp = datetime.datetime.now(datetime.UTC)
        for chunk_id, ws, text, content_hash in chunks:
            if text in exact:
                vector = vectors[exact[text]]
            else:
                source = by_prefix.get(variant.sub("", text)[:300])
                if source is None:
                    missing += 1
                    source = int(rng.integers(0, len(vectors)))
                vector = vectors[source] + rng.normal(0.0, NOISE_SIGMA, size=E5_DIMENSIONS).astype(np.float32)
                vector = (vector / np.linalg.norm(vector)).astype(np.float32)
            copy.write_row((chunk_id, ws, E5_MODEL, E5_DIMENSIONS, vector, content_hash, stamp))
    raw.commit() if not raw.autocommit else None
    print(f"  {E5_MODEL} vectors for {len(chunks)} chunks ({len(texts)} real ones read; {missing} chunks whose "
          f"source had no E5 vector got a random real one's): {time.perf_counter() - started:.1f} s", flush=True)
    started = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute("SET maintenance_work_mem = '2GB'")
        cursor.execute(vectorload.indexes_module().vector_index_sql(E5_MODEL, E5_DIMENSIONS))
        cursor.execute("ANALYZE ingestion_chunkvector")
    print(f"  {E5_MODEL} HNSW index build: {time.perf_counter() - started:.1f} s", flush=True)


@contextmanager
def active_model(workspace_id: int, model: str | None):
    """--versus e5: the workspace's active embedding model for one search (its WorkspaceEmbedding
    row, as `embedding_switch promote` sets it), outside the timing."""
    from ingestion.models import WorkspaceEmbedding

    if model is None:
        yield
        return
    WorkspaceEmbedding.objects.update_or_create(workspace_id=workspace_id, defaults={"active_model": model})
    yield


# --- measuring ----------------------------------------------------------------------------------

def query_sets(count: int) -> dict[str, list[str]]:
    rng = np.random.default_rng(11)
    real: list[str] = []
    for name in SETS:
        queries = load_set(name).queries
        picks = rng.choice(len(queries), size=min(count // len(SETS), len(queries)), replace=False)
        real.extend(queries[i]["text"] for i in sorted(picks))
    return {"real": real, "common": COMMON_QUERIES}


def keyword_run(ws_id: int, query: str, where, budget=None, champions=None):
    from search.engine.legs import keyword

    kwargs = {}
    if budget is not None:
        kwargs = {"budget": budget, "champions": champions}
    prepared = keyword.keyword_query_prepare(workspace_id=ws_id, query=query, **kwargs)
    return keyword.keyword_candidates(prepared, limit=DEPTH, where=where)


def measure(args: argparse.Namespace) -> None:
    from cms.access import workspace_access_for_operator
    from cms.models import Workspace
    from search.engine.hybrid import chunk_filter, hybrid_search
    from search.engine.legs.keyword import CANDIDATE_BUDGET, CHAMPIONS

    ws_ids, counts = load(args.chunks, args.rebuild)
    queries = query_sets(args.queries)
    big = Workspace.objects.get(pk=ws_ids["big"])
    small = Workspace.objects.get(pk=ws_ids["small"])
    operator_big = workspace_access_for_operator(workspace=big)
    viewer_big = workspace_access_for_operator(workspace=big, include_drafts=False)
    scenarios = [
        ("ws 99%", operator_big, None, counts["big"]),
        ("ws 1%", workspace_access_for_operator(workspace=small), None, counts["small"]),
        ("ws 99% + filter 1%", operator_big, {"bucket": 7}, counts["filtered"]),
        ("ws 99%, viewer", viewer_big, None, counts["big"]),
    ]
    from ingestion.embeddings import get_embedding_backend, get_embedding_backend_for_model

    if args.versus == "e5":
        e5_vectors_load()
        get_embedding_backend_for_model(E5_MODEL).embed_query("warm up the model")
        print(f"--versus e5: 'hyb' is hybrid search on {E5_MODEL} ({E5_DIMENSIONS} d) vectors, 'tdy' on "
              f"{MODEL} ({DIMENSIONS} d): the same chunks and keyword index, the workspace's active model "
              f"set before each search (not timed); each query embedded by its model", flush=True)
    backend = get_embedding_backend()
    embed_ms = []
    for text in queries["real"][:30]:
        started = time.perf_counter()
        backend.embed_query(text)
        embed_ms.append((time.perf_counter() - started) * 1000)
    load1, load5, _ = os.getloadavg()
    print(f"\n{args.chunks} chunks; {len(queries['real'])} real queries (SciFact, StackFAQ, JSQuAD) and "
          f"{len(queries['common'])} common-term queries; bound: budget {CANDIDATE_BUDGET} postings, "
          f"{CHAMPIONS} champions per common term; query embedding p50 {statistics.median(embed_ms):.1f} ms")
    print(f"load average {load1:.1f}/{load5:.1f} on {os.cpu_count()} CPUs (timings include any contention)\n")
    header = (f"{'scenario':<20} {'rows':>6} {'queries':<7} {'kw p50':>7} {'kw p95':>7} {'cand p50':>8} "
              f"{'cand max':>8} {'read max':>8} {'agree@10':>8} {'exact q':>7} {'hyb p50':>7} {'hyb p95':>7} "
              f"{'tdy p50':>7} {'tdy p95':>7} {'p95/tdy':>7} {'fallback (hyb)':>14}")
    print(header)
    print("-" * len(header))
    for label, access, spec, rows in scenarios:
        where = chunk_filter(access=access, content_type=None, spec=spec).keyword_where
        for kind, texts in queries.items():
            for text in texts[:5]:  # warm the index pages
                keyword_run(access.workspace.pk, text, where)
            # Latency first, on its own (the exhaustive runs below read far more pages).
            kw_ms, cands, reads, found, exhaustive = [], [], [], [], 0
            for text in texts:
                started = time.perf_counter()
                hits, plan = keyword_run(access.workspace.pk, text, where)
                kw_ms.append((time.perf_counter() - started) * 1000)
                cands.append(plan.candidates)
                reads.append(plan.postings_read_max)
                exhaustive += plan.exhaustive
                found.append({h.id for h in hits[:TOP_K]})
            agree = []
            for text, ids in zip(texts, found if args.versus == "fusion-18" else []):  # raw-chunks: hybrid only
                exact, _ = keyword_run(access.workspace.pk, text, where, budget=10**9, champions=10**9)
                truth = {h.id for h in exact[:TOP_K]}
                if truth:
                    agree.append(len(ids & truth) / len(truth))
            # Hybrid as shipped, and with the fusion before issue 18 (weighted, 0.60 / 0.75 by
            # script) as a request: the same legs and statements; alternated query by query,
            # each first every other time, so contention falls on both.
            hyb_ms, today_ms, plans = [], [], []
            for i, text in enumerate(texts * args.repeat):
                # --versus raw-chunks: one row per entry (the default) against raw chunks, as before issue 34.
                # --versus unfolded: the query's keywords only lowercased, as before cms.folding (issue 35).
                # --versus e5: the same search on E5's vectors ('hyb') and on USE's ('tdy').
                # --versus words: the same search without the word rule ('tdy'), as before issue 51.
                before = ({"raw_chunks": True} if args.versus == "raw-chunks"
                          else {} if args.versus in ("unfolded", "e5", "words") else today_options(text))
                e5 = args.versus == "e5"
                runs = [(hyb_ms, {}, False, E5_MODEL if e5 else None),
                        (today_ms, before, args.versus == "unfolded", MODEL if e5 else None)]
                for out, options, unfolded, model in (runs if i % 2 == 0 else runs[::-1]):
                    without_words = args.versus == "words" and out is today_ms
                    with query_unfolded(unfolded), active_model(access.workspace.pk, model), \
                            words_rule_off(without_words):
                        started = time.perf_counter()
                        result = hybrid_search(access=access, query=text, top_k=TOP_K, filter=spec, **options)
                        out.append((time.perf_counter() - started) * 1000)
                        if out is hyb_ms:
                            plans.append(bench_django.vector_plan(result))
            print(f"{label:<20} {rows:>6} {kind:<7} {statistics.median(kw_ms):>7.1f} {pct(kw_ms, 0.95):>7.1f} "
                  f"{int(statistics.median(cands)):>8} {max(cands):>8} {max(reads):>8} "
                  f"{statistics.mean(agree) if agree else float('nan'):>8.3f} {exhaustive:>3}/{len(texts):<3} "
                  f"{statistics.median(hyb_ms):>7.1f} {pct(hyb_ms, 0.95):>7.1f} {statistics.median(today_ms):>7.1f} "
                  f"{pct(today_ms, 0.95):>7.1f} {pct(hyb_ms, 0.95) / pct(today_ms, 0.95):>6.2f}x "
                  f"{bench_django.fallback_rate(plans):>14}", flush=True)
            if args.versus == "unfolded":  # folding changes what a CJK query reaches, not a Latin one's
                for script, chosen in (("cjk", True), ("latin", False)):
                    pairs = [(h, t) for text, h, t in zip(texts, hyb_ms, today_ms)
                             if bool(CJK.search(text)) is chosen]
                    if pairs:
                        folded, unfolded = [h for h, _ in pairs], [t for _, t in pairs]
                        print(f"{'':<20} {'':>6} {script:<7} {len(pairs):>4} queries: hybrid p95 folded "
                              f"{pct(folded, 0.95):.1f} ms, unfolded {pct(unfolded, 0.95):.1f} ms, "
                              f"{pct(folded, 0.95) / pct(unfolded, 0.95):.2f}x", flush=True)
    load1, load5, _ = os.getloadavg()
    print(f"\nload average at the end {load1:.1f}/{load5:.1f}")
    if args.bounds:
        bound_sweep(ws_ids["big"], queries["real"], args.bounds)


CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")


@contextmanager
def words_rule_off(off: bool):
    """With `off`, hybrid without the word rule (search/engine/words_held.py): the candidates as
    fused, no statement for which entries hold every word, as before issue 51."""
    import search.engine.hybrid

    if not off:
        yield
        return
    kept = search.engine.hybrid.words_first
    search.engine.hybrid.words_first = lambda collected, ranked, *, where: ranked
    try:
        yield
    finally:
        search.engine.hybrid.words_first = kept


@contextmanager
def query_unfolded(unfolded: bool):
    """With `unfolded`, the keyword leg's query terms as before cms.folding: NFKC and lowercase
    only (the stored postings stay folded; Latin text folds to its lowercase, so the work is the
    same and the difference is folding's own cost)."""
    import ingestion.keywords

    if not unfolded:
        yield
        return
    kept = ingestion.keywords.text_fold, ingestion.keywords.text_normalise
    ingestion.keywords.text_fold = str.lower
    ingestion.keywords.text_normalise = lambda text: unicodedata.normalize("NFKC", text).lower()
    try:
        yield
    finally:
        ingestion.keywords.text_fold, ingestion.keywords.text_normalise = kept


def bound_sweep(ws_id: int, texts: list[str], bounds: str) -> None:
    """Agreement with exact BM25 and latency for other (budget, champions) settings."""
    print(f"\nbound sweep, ws 99%, {len(texts)} real queries")
    header = f"{'budget':>7} {'champ':>6} {'kw p50':>7} {'kw p95':>7} {'cand p50':>8} {'cand max':>8} {'agree@10':>8}"
    print(header)
    print("-" * len(header))
    exact = {}
    for text in texts:
        hits, _ = keyword_run(ws_id, text, None, budget=10**9, champions=10**9)
        exact[text] = {h.id for h in hits[:TOP_K]}
    for pair in bounds.split(","):
        budget, champions = (int(x) for x in pair.split("/"))
        ms, cands, agree = [], [], []
        for text in texts:
            started = time.perf_counter()
            hits, plan = keyword_run(ws_id, text, None, budget=budget, champions=champions)
            ms.append((time.perf_counter() - started) * 1000)
            cands.append(plan.candidates)
            if exact[text]:
                agree.append(len({h.id for h in hits[:TOP_K]} & exact[text]) / len(exact[text]))
        print(f"{budget:>7} {champions:>6} {statistics.median(ms):>7.1f} {pct(ms, 0.95):>7.1f} "
              f"{int(statistics.median(cands)):>8} {max(cands):>8} {statistics.mean(agree):>8.3f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=150)
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--versus", choices=("fusion-18", "raw-chunks", "unfolded", "e5", "words"),
                        default="fusion-18",
                        help="what hybrid is timed against: the fusion before issue 18, raw chunks (issue 34), "
                        "the query's keywords unfolded (issue 35: folding's cost), with e5, hybrid on "
                        "multilingual-e5-small's 384-d vectors against USE's 512-d ones (issue 37), or, with "
                        "words, hybrid without the word rule (issue 51: search/engine/words_held.py's cost)")
    parser.add_argument("--load-only", action="store_true", help="load the data set and build the indexes, then stop")
    parser.add_argument("--repeat", type=int, default=1,
                        help="time each query's two hybrid searches this many times (8 common-term queries "
                             "give a p95 that is their slowest one at 1)")
    parser.add_argument("--bounds", default="500/50,1000/100,2000/150,4000/300,1000000000/1000000000",
                        help="budget/champions pairs for the sweep ('' to skip)")
    args = parser.parse_args()
    django_setup()
    if args.load_only:
        load(args.chunks, args.rebuild)
        return
    measure(args)


if __name__ == "__main__":
    main()
