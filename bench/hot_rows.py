#!/usr/bin/env python
"""Lock waits of 32 concurrent semantic-search clients on one workspace: usage written per
search (before) against usage counted in the process and flushed (now).

Run from the repo root:  .venv/bin/python bench/hot_rows.py [--clients 32] [--searches 40] [--chunks 2000]

Every semantic search records its query embedding's usage. Before, that was one
`INSERT .. ON CONFLICT DO UPDATE` per search into the workspace's single EmbeddingUsage row
of the day: every search of a workspace took that row's lock in turn. Now
(ingestion/services/usage.py) the process counts and one flush writes every
SEARCH_USAGE_FLUSH_SECONDS. The bench runs the same load both ways in one process:

- data: a workspace of --chunks chunks with real local-model vectors of real eval texts
  (dedicated database cms_bench_hot_rows on the embedded server);
- load: --clients threads (each its own database connection), each running --searches
  semantic searches through search.engine.semantic.semantic_search, the API's code path. Query
  vectors are memoised (the model is deterministic; 64 distinct queries) so the database,
  not the 2-core model, is what the clients contend on; the per-search upsert is the same;
- "per search": the process's usage counter is replaced by an immediate write of the same
  row (exactly the old statement's effect: one upsert of one row per search);
- lock waits: a sampler on its own connection reads pg_stat_activity every 5 ms and counts
  backends of this database waiting on a lock (wait_event_type = 'Lock'), and those whose
  statement touches the usage table; pg_locks' ungranted locks are counted the same way.
  Waiting backends summed over samples x (wall time / samples) estimates the time spent
  waiting (the sampler shares the GIL with 32 clients: it gets far fewer samples than one
  per 5 ms, so its interval is measured, not assumed).
- correctness: after each run (and a flush) the usage row's requests must equal the number
  of searches made.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from pathlib import Path

import numpy as np

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "bench"))

import bench_django  # noqa: E402
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from evalsets import SETS, load_set, split_text  # noqa: E402

BENCH_DB = os.environ.get("BENCH_HOT_ROWS_DB", "cms_bench_hot_rows")
MODEL = "use-multilingual-v3"
SAMPLE_SECONDS = 0.005


def django_setup() -> None:
    bench_django.django_setup(BENCH_DB, CELERY_BROKER_URL="memory://", SEARCH_EMBEDDING_BACKENDS={
        "default": {"BACKEND": "ingestion.embeddings.local.LocalEmbeddingBackend", "OPTIONS": {"threads": 1}}})


def query_vectors_memoised() -> None:
    """The local backend's embed_query, memoised on the instance every search uses."""
    from ingestion.embeddings import get_embedding_backend

    backend = get_embedding_backend()
    embed, memo = backend.embed_query, {}

    def embed_query(text: str) -> list[float]:
        if text not in memo:
            memo[text] = embed(text)
        return memo[text]

    backend.embed_query = embed_query


def texts_for(count: int) -> list[str]:
    texts: list[str] = []
    for name in SETS:
        for doc in load_set(name).corpus:
            texts.extend(split_text(f"{doc.get('title') or ''}. {doc.get('text') or ''}".strip(". "), 500))
            if len(texts) >= count * (SETS.index(name) + 1) // len(SETS):
                break
    return texts[:count]


def load(chunks: int) -> int:
    from django.core.management import call_command

    from cms.models import Workspace
    from ingestion.embeddings import get_embedding_backend
    from ingestion.models import Chunk, ChunkStatus, ChunkVector, SourceKind
    from tests.factories import ContentTypeFactory, entry_make

    call_command("migrate", verbosity=0)
    ws, created = Workspace.objects.get_or_create(slug="bench-hot", defaults={"name": "Bench hot rows"})
    if not created and ChunkVector.objects.filter(workspace=ws).count() == chunks:
        print(f"Reusing the {chunks} chunks already in {BENCH_DB}.", flush=True)
        return ws.pk
    Chunk.objects.filter(workspace=ws).delete()
    ct = ContentTypeFactory(workspace=ws, api_id=f"article-{int(time.time())}", semantic_search_enabled=False)
    entry = entry_make(ct, title="Bench")
    texts = texts_for(chunks)
    started = time.perf_counter()
    vectors = get_embedding_backend().embed_documents(texts)
    print(f"Embedded {len(texts)} chunks with the local model in {time.perf_counter() - started:.0f} s", flush=True)
    made = Chunk.objects.bulk_create([
        Chunk(workspace_id=ws.pk, source_kind=SourceKind.ENTRY, entry=entry, field="body", ordinal=i, text=t,
              content_hash=f"{i:064x}", title=f"Chunk {i}", status=ChunkStatus.EMBEDDED,
              metadata={"content_type": ct.api_id, "status": "published", "source_kind": "entry", "fields": {}})
        for i, t in enumerate(texts)])
    ChunkVector.objects.bulk_create([
        ChunkVector(chunk=c, workspace_id=ws.pk, model=MODEL, dimensions=512, embedding=v, content_hash=c.content_hash)
        for c, v in zip(made, vectors)])
    from django.db import connection
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE ingestion_chunk")
        cursor.execute("ANALYZE ingestion_chunkvector")
    return ws.pk


class LockSampler(threading.Thread):
    """Counts lock-waiting backends of the bench database every SAMPLE_SECONDS."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.stop = threading.Event()
        self.samples = self.waiting = self.on_usage = self.ungranted = self.peak = 0

    def run(self) -> None:
        import psycopg
        from django.db import connection

        params = {**connection.get_connection_params()}
        params.pop("cursor_factory", None)
        params.pop("context", None)
        with psycopg.connect(**params, autocommit=True) as conn:
            while not self.stop.is_set():
                waiting, on_usage = conn.execute(
                    "SELECT count(*), count(*) FILTER (WHERE query ILIKE '%%ingestion_embeddingusage%%')"
                    " FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
                    " AND pid <> pg_backend_pid()").fetchone()
                ungranted = conn.execute(
                    "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a USING (pid)"
                    " WHERE NOT l.granted AND a.datname = current_database()").fetchone()[0]
                self.samples += 1
                self.waiting += waiting
                self.on_usage += on_usage
                self.ungranted += ungranted
                self.peak = max(self.peak, waiting)
                time.sleep(SAMPLE_SECONDS)


def run(ws_id: int, *, clients: int, searches: int, queries: list[str], per_search: bool) -> dict:
    from django.db import connection, connections

    from cms.models import Workspace
    from ingestion.models import EmbeddingUsage
    from ingestion.services import usage as usage_service
    from search.engine.semantic import semantic_search

    EmbeddingUsage.objects.filter(workspace_id=ws_id).delete()
    usage_service.usage_pending_discard()
    add = usage_service._PENDING.add
    if per_search:  # the old behaviour: the same row upserted by every search, at once
        usage_service._PENDING.add = lambda key, counts: usage_service._usage_upsert({key: counts})
    from cms.access import workspace_access_for_operator

    access = workspace_access_for_operator(workspace=Workspace.objects.get(pk=ws_id))
    latencies: list[float] = []
    lock = threading.Lock()
    errors: list[BaseException] = []

    def client(i: int) -> None:
        try:
            for j in range(searches):
                started = time.perf_counter()
                semantic_search(access=access, query=queries[(i * searches + j) % len(queries)], top_k=10)
                with lock:
                    latencies.append(time.perf_counter() - started)
        except BaseException as exc:  # reported below: a failed client must not pass silently
            errors.append(exc)
        finally:
            connections.close_all()

    sampler = LockSampler()
    sampler.start()
    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - started
    sampler.stop.set()
    sampler.join()
    usage_service._PENDING.add = add
    usage_service.usage_flush()
    if errors:
        raise errors[0]
    requests = EmbeddingUsage.objects.filter(workspace_id=ws_id).values_list("requests", flat=True).first() or 0
    connection.close()
    return {"wall": wall, "searches": len(latencies), "requests": requests, "latencies": latencies,
            "samples": sampler.samples, "waiting": sampler.waiting, "on_usage": sampler.on_usage,
            "ungranted": sampler.ungranted, "peak": sampler.peak}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--searches", type=int, default=40, help="per client")
    parser.add_argument("--chunks", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=2, help="runs of each mode, alternating")
    args = parser.parse_args()
    django_setup()
    ws_id = load(args.chunks)
    rng = np.random.default_rng(5)
    queries = [q["text"] for name in SETS for q in load_set(name).queries[:200]]
    queries = [queries[i] for i in rng.choice(len(queries), size=64, replace=False)]
    query_vectors_memoised()
    from ingestion.embeddings import get_embedding_backend
    backend = get_embedding_backend()
    for q in queries:  # memoise every query vector before timing
        backend.embed_query(q)
    from django.conf import settings
    print(f"{args.clients} clients x {args.searches} semantic searches, {args.chunks} chunks, "
          f"flush every {settings.SEARCH_USAGE_FLUSH_SECONDS} s; load average {os.getloadavg()}", flush=True)
    for round_ in range(args.rounds):
        for per_search in (True, False):
            r = run(ws_id, clients=args.clients, searches=args.searches, queries=queries, per_search=per_search)
            made = r["searches"]
            mode = "per-search upsert (before)" if per_search else "counted + flushed (now)  "
            print(f"round {round_ + 1} {mode}: {made} searches in {r['wall']:.1f} s ({made / r['wall']:.0f}/s), "
                  f"p50 {bench_django.pct(r['latencies'], 0.5) * 1000:.1f} ms "
                  f"p95 {bench_django.pct(r['latencies'], 0.95) * 1000:.1f} ms; "
                  f"lock-waiting backends: {r['waiting']} in {r['samples']} samples "
                  f"(~{r['waiting'] * r['wall'] / max(1, r['samples']):.2f} backend-s waiting), on the usage row {r['on_usage']}, "
                  f"ungranted pg_locks {r['ungranted']}, peak {r['peak']} at once; "
                  f"usage requests {r['requests']} of {made} searches "
                  f"{'OK' if r['requests'] == made else 'MISMATCH'}; load average {os.getloadavg()}", flush=True)


if __name__ == "__main__":
    main()
