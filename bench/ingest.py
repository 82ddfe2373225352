#!/usr/bin/env python
"""Ingestion benchmark: pipeline throughput against the local model's own, and Voyage request
counts against the fewest the API limits allow.

1. Local model, end to end: entries saved through the cms services (chunks synced in the
   save's transaction), then `chunks_embed_pending` inline, exactly what a worker runs.
   Compared with `USE.encode` on the same chunk texts in the same batch sizes. Target:
   pipeline / model >= 0.8 (overhead <= 20%).
2. Concurrent saves: several processes save and edit entries of one workspace at once
   (`--only saves`): saves per second, and the keyword statistics checked against a recount.
3. Voyage: the real VoyageEmbeddingBackend against a fake Voyage HTTP server in this process
   (the /v1/embeddings wire format), for an English and a Japanese corpus. Requests made
   against max(ceil(texts / 1,000), ceil(estimated tokens / 320,000)).

4. Offline models (`--only models`): USE and multilingual-e5-small end to end (the pipeline of
   1), on 1 and 2 threads, each in a fresh process, alternated over --rounds: chunks/s (wall
   and per model CPU-second), query embedding p50/p95 (wall and CPU), the process's RSS.

Runs in its own throwaway database (created and dropped here). Run from the repo root:
    .venv/bin/python bench/ingest.py [--only local|voyage|saves|models]
"""

from __future__ import annotations

import json
import math
import os
import random
import resource
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("NO_PROXY", "127.0.0.1,localhost")

import django  # noqa: E402
from django.conf import settings  # noqa: E402

# A database of our own, dropped at the end: never the dev database, never the tests'.
settings.DATABASES["default"]["TEST"] = {
    **settings.DATABASES["default"].get("TEST", {}),
    "NAME": f"bench_ingest_{os.getpid()}",
}
django.setup()

from django.test.utils import setup_databases, teardown_databases  # noqa: E402

from bench_django import pct  # noqa: E402 - bench/, the script's folder, is on the path

from cms import services as cms_services  # noqa: E402
from config.celery import app as celery_app  # noqa: E402
from ingestion import services  # noqa: E402
from ingestion.models import Chunk  # noqa: E402
from ingestion.embeddings import get_embedding_backend, reset_embedding_backends  # noqa: E402

ENTRIES = int(os.environ.get("BENCH_INGEST_ENTRIES", "120"))
FIELDS = [
    {"id": "title", "label": "Title", "type": "text", "required": True},
    {"id": "body", "label": "Body", "type": "richtext"},
    {"id": "version", "label": "Version", "type": "number"},
]

EN_WORDS = (
    "refund return order parcel delivery warehouse customer account password payment invoice "
    "shipping address tracking warranty repair exchange receipt discount coupon subscription "
    "support ticket agent policy days within business after before unused original packaging "
    "international domestic customs express standard window request approve inspect issue"
).split()
JA_PHRASES = (
    "商品到着後 30日以内 返品 返金 未使用品 お支払い方法 営業日 配送 送料無料 国内 海外 "
    "お問い合わせ アカウント パスワード 設定画面 注文履歴 お気に入り 保証 修理 交換 領収書 "
    "クーポン 定期購入 サポート 倉庫 追跡番号 通関 速達 通常便"
).split()


def english_sentence(rng: random.Random) -> str:
    words = [rng.choice(EN_WORDS) for _ in range(rng.randint(9, 18))]
    return " ".join(words).capitalize() + rng.choice([".", ".", "?", "!"])


def japanese_sentence(rng: random.Random) -> str:
    return "、".join(rng.choice(JA_PHRASES) for _ in range(rng.randint(4, 8))) + rng.choice(["。", "。", "！", "？"])


def body_html(rng: random.Random, sentence, paragraphs: int) -> str:
    return "".join(
        f"<p>{' '.join(sentence(rng) for _ in range(rng.randint(2, 4)))}</p>" for _ in range(paragraphs)
    )


def use_backend(path: str, **options) -> None:
    settings.SEARCH_EMBEDDING_BACKENDS = {
        "default": {"BACKEND": path, "OPTIONS": options, "PRICE_PER_MILLION_TOKENS": 0.06}
    }
    reset_embedding_backends()


def make_corpus(rng: random.Random) -> list[dict]:
    corpus = []
    for i in range(ENTRIES):
        sentence = english_sentence if i % 2 == 0 else japanese_sentence
        corpus.append({"title": f"{sentence(rng)} #{i}", "body": body_html(rng, sentence, rng.randint(3, 6)),
                       "version": i})
    return corpus


def new_doc_type(slug: str):
    workspace = cms_services.workspace_create(slug=slug, name=slug)
    return cms_services.content_type_create(workspace=workspace, api_id="doc", name="Doc", fields=FIELDS,
                                            semantic_search_enabled=True)


class ModelClock:
    """Wraps the backend's model call to time it and record the batch sizes it was given."""

    def __init__(self, backend):
        self.backend = backend
        self.seconds = 0.0
        self.cpu = 0.0
        self.batches: list[int] = []
        self._inner = backend._embed

        def timed(texts, *, input_type):
            began, cpu_began = time.perf_counter(), time.process_time()
            try:
                return self._inner(texts, input_type=input_type)
            finally:
                self.seconds += time.perf_counter() - began
                self.cpu += time.process_time() - cpu_began
                self.batches.append(len(texts))

        backend._embed = timed

    def reset(self) -> None:
        self.seconds, self.batches = 0.0, []


def _database_cpu_seconds() -> float:
    """CPU used so far by this connection's PostgreSQL backend process."""
    import psutil
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        times = psutil.Process(cursor.fetchone()[0]).cpu_times()
    return times.user + times.system


def run_sequential(doc, corpus, clock: ModelClock) -> tuple[float, float, dict[str, float]]:
    """Save everything, then embed inline: (save seconds, embed seconds, CPU seconds by part,
    counting this process and its database backend)."""
    cpu_began = time.process_time() + _database_cpu_seconds()
    started = time.perf_counter()
    for data in corpus:
        cms_services.entry_create(content_type=doc, data=data, status="published")
    synced = time.perf_counter()
    cpu_synced = time.process_time() + _database_cpu_seconds()
    clock.cpu = 0.0
    services.chunks_embed_pending(workspace=doc.workspace)
    finished = time.perf_counter()
    cpu_finished = time.process_time() + _database_cpu_seconds()
    cpu = {
        "save": cpu_synced - cpu_began,
        "model": clock.cpu,
        "claim_store": cpu_finished - cpu_synced - clock.cpu,
    }
    return synced - started, finished - synced, cpu


def _save_all(doc_pk: int, corpus: list[dict]) -> None:
    from django.db import connections

    from cms.models import ContentType

    doc = ContentType.objects.get(pk=doc_pk)
    for data in corpus:
        cms_services.entry_create(content_type=doc, data=data, status="published")
    connections.close_all()


def run_concurrent(doc, corpus) -> float:
    """The deployment shape: a web process saves while a worker (this process) embeds.
    Seconds from the first save to the last vector stored."""
    import multiprocessing

    from django.db import connections

    connections.close_all()  # the forked saver must not share this process's connection
    saver = multiprocessing.get_context("fork").Process(target=_save_all, args=(doc.pk, corpus))
    started = time.perf_counter()
    saver.start()
    while True:
        finished_saving = not saver.is_alive()
        report = services.chunks_embed_pending(workspace=doc.workspace)
        if finished_saving and report.claimed == 0:
            break
        if report.claimed == 0:
            time.sleep(0.02)
    elapsed = time.perf_counter() - started
    saver.join()
    assert saver.exitcode == 0, "the saving process failed"
    return elapsed


def model_alone(model, backend, texts: list[str]) -> tuple[float, float]:
    """USE.encode on `texts` in the batches the pipeline makes: (chunks per second, CPU seconds)."""
    cpu_began = time.process_time()
    began = time.perf_counter()
    for batch in backend.batches(texts):
        model.encode([texts[i] for i in batch])
    return len(texts) / (time.perf_counter() - began), time.process_time() - cpu_began


def bench_local() -> None:
    use_backend("ingestion.embeddings.local.LocalEmbeddingBackend", threads=1)
    backend = get_embedding_backend()
    model = backend._get_model()
    model.encode(["warm up the model", "モデルを温める"])  # weights loaded before any timing
    clock = ModelClock(backend)
    corpus = make_corpus(random.Random(4))

    # Model first, then both pipelines, then the model again: the machine's load drifts.
    probe = new_doc_type("bench-probe")
    for data in corpus:  # only to learn the chunk texts; not timed, and never embedded
        cms_services.entry_create(content_type=probe, data=data, status="published")
    texts = list(Chunk.objects.for_workspace(probe.workspace).order_by("created_at", "id")
                 .values_list("text", flat=True))
    Chunk.objects.for_workspace(probe.workspace).delete()
    model_runs = [model_alone(model, backend, texts)]

    clock.reset()
    sequential = new_doc_type("bench-sequential")
    save_s, embed_s, seq_cpu_parts = run_sequential(sequential, corpus, clock)
    seq_cpu = sum(seq_cpu_parts.values())
    seq_model_s, seq_batches = clock.seconds, list(clock.batches)

    clock.reset()
    concurrent = new_doc_type("bench-concurrent")
    concurrent_s = run_concurrent(concurrent, corpus)
    con_model_s, con_batches = clock.seconds, list(clock.batches)

    model_runs.append(model_alone(model, backend, texts))
    total = len(texts)
    for doc in (sequential, concurrent):
        assert Chunk.objects.for_workspace(doc.workspace).embedded().count() == total
    model_cps = sum(cps for cps, _ in model_runs) / len(model_runs)
    model_cpu = sum(cpu for _, cpu in model_runs) / len(model_runs)
    seq_cps = total / (save_s + embed_s)
    con_cps = total / concurrent_s

    load = os.getloadavg()[0]
    print("== Local model (use-multilingual-v3, 512 d), end to end")
    print(f"machine: {os.cpu_count()} CPUs, load average {load:.1f} at the end (shared: figures vary with it)")
    print(f"corpus: {ENTRIES} entries (half English, half Japanese) -> {total} chunks of "
          f"{sum(len(t) for t in texts) / total:.0f} chars on average")
    print(f"model alone (USE.encode, same texts, batches of {max(len(b) for b in backend.batches(texts))}): "
          f"{model_cps:.1f} chunks/s (before {model_runs[0][0]:.1f}, after {model_runs[1][0]:.1f}); "
          f"{model_cpu:.2f} CPU s")
    print(f"pipeline A, save all through the services then embed inline: save + chunk {save_s:.2f} s, "
          f"embed + store {embed_s:.2f} s -> {seq_cps:.1f} chunks/s; {len(seq_batches)} model calls "
          f"({seq_model_s:.2f} s inside the model); {seq_cpu:.2f} CPU s with its database backend's")
    print(f"pipeline B, a web process saves while a worker embeds: {concurrent_s:.2f} s -> {con_cps:.1f} chunks/s; "
          f"{len(con_batches)} model calls of {min(con_batches)}-{max(con_batches)} ({con_model_s:.2f} s inside the model)")
    embed_overhead = (embed_s - seq_model_s) / embed_s
    print(f"embed phase alone: claim + dedupe + hash-checked store = {embed_overhead * 100:.0f}% of its time "
          f"(ratio {1 - embed_overhead:.2f})")
    best = max(seq_cps, con_cps) / model_cps
    print(f"ratio pipeline/model, wall clock: A {seq_cps / model_cps:.2f}, B {con_cps / model_cps:.2f} "
          f"(target >= 0.80: {'met' if best >= 0.8 else 'NOT met'})")
    print(f"ratio pipeline/model, CPU (immune to the machine's load): A {model_cpu / seq_cpu:.2f} "
          f"(model {model_cpu:.2f} CPU s / pipeline {seq_cpu:.2f} CPU s)")
    print(f"pipeline A CPU by part: model {seq_cpu_parts['model']:.2f} s; saves (CMS save + chunk sync + enqueue) "
          f"{seq_cpu_parts['save']:.2f} s; claim + hash-checked store (incl. the HNSW and trigram index "
          f"inserts) {seq_cpu_parts['claim_store']:.2f} s")


# --- each offline model, end to end (issue 37) -------------------------------------------------
# name -> (backend class, options): the two offline models a workspace can be on.
OFFLINE_MODELS = {
    "use": ("ingestion.embeddings.local.LocalEmbeddingBackend", {}),
    "e5-small": ("ingestion.embeddings.e5.E5EmbeddingBackend", {"e5_runtime": "onnx"}),
}
MODEL_QUERIES = (
    "how do I return an item", "refund after 30 days", "international shipping customs fees",
    "reset my account password", "warranty repair for a broken order", "discount coupon not applied",
    "返品の方法を教えて", "返金はいつ届きますか", "海外への配送と送料", "パスワードを忘れた",
    "保証期間中の修理", "定期購入を解約したい",
)


def bench_model_one(name: str, threads: int) -> dict:
    """In a child process: the pipeline (save through the services, then `chunks_embed_pending`
    inline, as a worker) with one model on `threads` threads, then query embedding, then RSS."""
    import psutil

    path, options = OFFLINE_MODELS[name]
    use_backend(path, threads=threads, **options)
    backend = get_embedding_backend()
    began = time.perf_counter()
    backend.load()
    backend.embed_queries(["warm up the model", "モデルを温める"])
    load_s = time.perf_counter() - began
    clock = ModelClock(backend)
    doc = new_doc_type(f"bench-{name}-{threads}-{os.getpid()}")
    save_s, embed_s, cpu = run_sequential(doc, make_corpus(random.Random(4)), clock)
    chunks = Chunk.objects.for_workspace(doc.workspace).embedded().count()
    assert chunks == Chunk.objects.for_workspace(doc.workspace).count(), "a chunk was left unembedded"
    walls, cpus = [], []
    for rep in range(3):
        for text in MODEL_QUERIES:
            query = f"{text} {rep}" if rep else text  # no provider-side cache can answer a repeat
            wall_began, cpu_began = time.perf_counter(), time.process_time()
            backend.embed_query(query)
            walls.append((time.perf_counter() - wall_began) * 1000)
            cpus.append((time.process_time() - cpu_began) * 1000)
    memory = psutil.Process().memory_info()
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"name": name, "threads": threads, "chunks": chunks, "load_s": load_s,
            "embed_s": embed_s, "save_s": save_s, "model_cpu": cpu["model"], "pipeline_cpu": sum(cpu.values()),
            "query_p50": pct(walls, 0.5), "query_p95": pct(walls, 0.95),
            "query_cpu_p50": pct(cpus, 0.5), "query_cpu_p95": pct(cpus, 0.95),
            "rss_mb": memory.rss / 2**20, "peak_mb": peak_kb / 1024}


def bench_models(rounds: int, thread_counts: list[int]) -> None:
    """Each offline model on 1 and 2 threads, each (model, threads) in a fresh process (RSS is
    the model's alone), alternated round by round (the second round runs in reverse order) so
    the machine's drifting load falls on every row alike."""
    import subprocess

    plan = [(name, threads) for threads in thread_counts for name in OFFLINE_MODELS]
    rows = []
    print(f"== Offline models, end to end: {ENTRIES} entries (half English, half Japanese) saved through the "
          f"services, then embedded inline as a worker does; {len(MODEL_QUERIES) * 3} queries embedded one by one")
    for round_no in range(1, rounds + 1):
        for name, threads in (plan if round_no % 2 else list(reversed(plan))):
            load = os.getloadavg()[0]
            out = subprocess.run([sys.executable, __file__, "--one", f"{name}:{threads}"], capture_output=True,
                                 text=True, check=True, env={**os.environ, "DEBUG": os.environ.get("DEBUG", "true")})
            row = json.loads(out.stdout.strip().splitlines()[-1])
            row["round"], row["load"] = round_no, load
            rows.append(row)
            print(f"  round {round_no} {name:<9} {threads} thread(s): {row['chunks']} chunks, embed "
                  f"{row['chunks'] / row['embed_s']:.2f} chunks/s ({row['chunks'] / row['model_cpu']:.2f} per model "
                  f"CPU-s), save {row['save_s']:.1f} s; query p50 {row['query_p50']:.1f} p95 {row['query_p95']:.1f} ms "
                  f"(CPU {row['query_cpu_p50']:.1f} / {row['query_cpu_p95']:.1f}); RSS {row['rss_mb']:.0f} MB "
                  f"(peak {row['peak_mb']:.0f}); load {row['load_s']:.1f} s; load average {load:.2f}", flush=True)
    print(f"\n{'model':<10}{'threads':>8}{'chunks/s':>10}{'/CPU-s':>8}{'q p50':>8}{'q p95':>8}{'cpu p95':>9}"
          f"{'RSS MB':>8}{'peak':>6}   (medians over {rounds} rounds; ms)")
    for name, threads in plan:
        mine = [r for r in rows if r["name"] == name and r["threads"] == threads]

        def med(key, mine=mine):
            return statistics.median(r[key] for r in mine)
        cps = statistics.median(r["chunks"] / r["embed_s"] for r in mine)
        per_cpu = statistics.median(r["chunks"] / r["model_cpu"] for r in mine)
        print(f"{name:<10}{threads:>8}{cps:>10.2f}{per_cpu:>8.2f}{med('query_p50'):>8.1f}{med('query_p95'):>8.1f}"
              f"{med('query_cpu_p95'):>9.1f}{med('rss_mb'):>8.0f}{med('peak_mb'):>6.0f}")
    use_1 = [r for r in rows if r["name"] == "use" and r["threads"] == thread_counts[0]]
    e5_1 = [r for r in rows if r["name"] == "e5-small" and r["threads"] == thread_counts[0]]
    ratio = statistics.median(r["chunks"] / r["model_cpu"] for r in use_1) / statistics.median(
        r["chunks"] / r["model_cpu"] for r in e5_1)
    print(f"USE embeds {ratio:.1f}x the chunks of e5-small per model CPU-second ({thread_counts[0]} thread); "
          f"load average at the end {os.getloadavg()}")


class FakeVoyage:
    """A local Voyage /v1/embeddings: checks the request limits, counts requests, answers
    with small deterministic 1024-d unit vectors and a usage block."""

    MAX_TEXTS = 1000
    MAX_TOKENS = 320_000

    def __init__(self):
        import logging

        from pytest_httpserver import HTTPServer

        logging.getLogger("werkzeug").setLevel(logging.ERROR)  # no line per request

        self.server = HTTPServer(host="127.0.0.1", port=0)
        self.requests: list[tuple[int, int]] = []
        self.refused = 0
        self.server.expect_request("/v1/embeddings", method="POST").respond_with_handler(self.handle)
        self.server.start()

    @staticmethod
    def tokens(text: str) -> int:
        # Plays Voyage's tokenizer: fewer tokens than the backend's conservative estimate.
        ascii_chars = sum(1 for ch in text if ord(ch) < 128)
        return math.ceil(ascii_chars / 4) + (len(text) - ascii_chars)

    def handle(self, request):
        from werkzeug import Response

        body = request.get_json()
        texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
        tokens = sum(self.tokens(t) for t in texts)
        if len(texts) > self.MAX_TEXTS or tokens > self.MAX_TOKENS:
            self.refused += 1
            detail = (f"The batch size limit is {self.MAX_TEXTS}." if len(texts) > self.MAX_TEXTS else
                      f"The max allowed tokens per submitted batch is {self.MAX_TOKENS}. Your batch has {tokens} tokens.")
            return Response(json.dumps({"detail": detail}), status=400, content_type="application/json")
        self.requests.append((len(texts), tokens))
        data = []
        for index, text in enumerate(texts):
            vector = [0.0] * 1024
            vector[hash(text) % 1024] = 1.0
            data.append({"object": "embedding", "embedding": vector, "index": index})
        payload = {"object": "list", "data": data, "model": body.get("model"), "usage": {"total_tokens": tokens}}
        return Response(json.dumps(payload), status=200, content_type="application/json")

    def url(self) -> str:
        return self.server.url_for("/v1")

    def stop(self) -> None:
        self.server.clear()
        if self.server.is_running():
            self.server.stop()


def bench_voyage() -> None:
    print("== Voyage (voyage-3.5 limits: 1,000 texts and 320,000 tokens a request), fake server")
    fake = FakeVoyage()
    try:
        use_backend("ingestion.embeddings.voyage.VoyageEmbeddingBackend", api_key="bench-key", base_url=fake.url(),
                    model="voyage-3.5", timeout=30.0, max_retries=2)
        backend = get_embedding_backend()
        # Japanese costs about one token a character, English about one per three or four.
        for name, sentence, entries in (("English", english_sentence, 300), ("Japanese", japanese_sentence, 700)):
            fake.requests.clear()
            fake.refused = 0
            workspace = cms_services.workspace_create(slug=f"bench-voyage-{name.lower()}", name=name)
            doc = cms_services.content_type_create(workspace=workspace, api_id="doc", name="Doc", fields=FIELDS,
                                                   semantic_search_enabled=True)
            rng = random.Random(7)
            for i in range(entries):
                cms_services.entry_create(
                    content_type=doc, data={"title": f"{sentence(rng)} #{i}", "body": body_html(rng, sentence, 8)},
                    status="published")
            began = time.perf_counter()
            report = services.chunks_embed_pending(workspace=workspace)
            elapsed = time.perf_counter() - began
            texts = list(Chunk.objects.for_workspace(workspace).values_list("text", flat=True))
            estimated = sum(backend.estimate_tokens(t) for t in texts)
            minimum = max(math.ceil(len(texts) / backend.max_batch_texts), math.ceil(estimated / backend.max_batch_tokens))
            assert report.embedded == len(texts), report
            print(f"{name}: {len(texts)} chunks, {estimated} estimated tokens ({sum(t for _, t in fake.requests)} "
                  f"counted by the server) -> {len(fake.requests)} requests (minimum {minimum} = max(ceil(texts/1000), "
                  f"ceil(estimated tokens/320000))), {fake.refused} refused as too large; "
                  f"texts per request {[n for n, _ in fake.requests]}; {elapsed:.1f} s")
    finally:
        fake.stop()


SAVERS = int(os.environ.get("BENCH_INGEST_SAVERS", "4"))
SAVES_EACH = int(os.environ.get("BENCH_INGEST_SAVES_EACH", "60"))


def _save_many(doc_pk: int, seed: int, count: int, results) -> None:
    from django.db import connections

    from cms.models import ContentType

    doc = ContentType.objects.get(pk=doc_pk)
    rng = random.Random(seed)
    began = time.perf_counter()
    for i in range(count):
        sentence = english_sentence if i % 2 else japanese_sentence
        entry = cms_services.entry_create(
            content_type=doc, data={"title": f"{sentence(rng)} #{seed}-{i}", "body": body_html(rng, sentence, 3)},
            status="published")
        if i % 3 == 0:  # an edit too: its chunks' postings are replaced
            cms_services.entry_update(entry=entry, data={**entry.data, "body": body_html(rng, sentence, 3)})
    results.put(time.perf_counter() - began)
    connections.close_all()


def bench_concurrent_saves() -> None:
    """Saves per second when several processes save (and edit) entries of ONE workspace at once:
    the hot spot a shared statistics row would be. No embedding runs (no worker)."""
    import multiprocessing

    from django.db import connection, connections

    print(f"== Concurrent saves into one workspace: {SAVERS} processes x {SAVES_EACH} entries "
          "(a third of them edited once), English and Japanese")
    workspace = cms_services.workspace_create(slug="bench-saves", name="Saves")
    doc = cms_services.content_type_create(workspace=workspace, api_id="doc", name="Doc", fields=FIELDS,
                                           semantic_search_enabled=True)
    for procs in (1, SAVERS):
        connections.close_all()
        context = multiprocessing.get_context("fork")
        results = context.Queue()
        workers = [context.Process(target=_save_many, args=(doc.pk, 100 * procs + k, SAVES_EACH, results))
                   for k in range(procs)]
        began = time.perf_counter()
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        elapsed = time.perf_counter() - began
        assert all(worker.exitcode == 0 for worker in workers), "a saving process failed"
        saves = procs * SAVES_EACH * 4 // 3
        print(f"  {procs} process(es): {saves} saves in {elapsed:.2f} s -> {saves / elapsed:.1f} saves/s; "
              f"load average {os.getloadavg()[0]:.1f}")
    with connection.cursor() as cursor:
        cursor.execute("SELECT to_regclass('ingestion_keywordposting') IS NOT NULL")
        if cursor.fetchone()[0]:
            cursor.execute(
                "SELECT (SELECT count(*) FROM (SELECT term, sum(df) FROM (SELECT term, df FROM ingestion_keywordstat"
                " WHERE workspace_id = %s UNION ALL SELECT term, df FROM ingestion_keywordstatdelta"
                " WHERE workspace_id = %s) s GROUP BY term HAVING sum(df) <> 0"
                " EXCEPT SELECT term, count(*) FROM ingestion_keywordposting WHERE workspace_id = %s GROUP BY term) d),"
                " (SELECT count(*) FROM ingestion_keywordstatdelta WHERE workspace_id = %s)",
                [workspace.pk] * 4)
            mismatched, deltas = cursor.fetchone()
            print(f"  keyword statistics vs a recount from the postings: {mismatched} terms differ; "
                  f"{deltas} deltas not folded yet")


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("local", "voyage", "saves", "models"), default=None,
                        help="models: each offline model (USE, e5-small) end to end on 1 and 2 threads")
    parser.add_argument("--rounds", type=int, default=2, help="with --only models")
    parser.add_argument("--threads", default="1,2", help="with --only models")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # model:threads, in the child process
    args = parser.parse_args()
    celery_app.conf.broker_url = "memory://"  # the saves enqueue tasks; nobody consumes them here
    if args.only == "models" and not args.one:
        bench_models(args.rounds, [int(t) for t in args.threads.split(",")])
        return
    old_config = setup_databases(verbosity=0, interactive=False)
    try:
        if args.one:
            name, threads = args.one.split(":")
            print(json.dumps(bench_model_one(name, int(threads))))
            return
        if args.only in (None, "local"):
            bench_local()
        if args.only in (None, "saves"):
            bench_concurrent_saves()
        if args.only in (None, "voyage"):
            bench_voyage()
    finally:
        teardown_databases(old_config, verbosity=0)


if __name__ == "__main__":
    main()
