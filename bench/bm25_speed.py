#!/usr/bin/env python
"""The keyword leg on the BM25 index against today's (the postings'), alternated in one run.

Run from the repo root:
    .venv/bin/python bench/bm25_speed.py [--docs 20000] [--queries 20] [--explain] [--load-only]

1. Data: bench/growth.py's corpus (its real chunks of the eval sets and their generated
   variants; 99% in workspace bench-big, 1% in bench-small; `bucket` and `tenth` keeping 1%
   and 0.1%) in a database of its own, cms_bench_bm25_<N>. The vectors are random (this bench
   times no vector search: no model to run, no HNSW index to build), so the database is
   never taken for growth.py's. The keyword index (postings, statistics and the BM25
   index's text) through the product's service, as growth.py builds it.
2. Per query class (bench/peers.py's: common two-word, rare words, Japanese questions,
   ten-word questions, and those questions under the 1% and 0.1% filters), the keyword leg
   alone as hybrid asks it (search.engine.legs.keyword: 50 candidates, the operator's
   filter): every query once per path to warm, then each query on both paths, the order
   alternating, p50 / p95 per path and their ratio (the index's over the postings'). The
   load average is printed per class: the machine is shared.
3. Answers: per query, the two paths' (id, score) lists to the top 50 compared (equal
   ids, order and scores to 1e-9), and both against exact BM25 (every posting read).
4. --explain: EXPLAIN (ANALYZE, BUFFERS) of every statement each path sends, for the
   slowest query (on the index's path) of each class.

--before REV adds a third path, alternated with the two: the index's path as commit REV ranked
(its search/engine/legs/keyword.py's _ranked_bm25), to measure a change to it in one run.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import numpy as np

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import bench_django  # noqa: E402
import growth  # noqa: E402

DEPTH = 50
pct = bench_django.pct
load_avg = growth.load_avg


def database(total: int) -> str:
    return f"cms_bench_bm25_{total}"


def real_texts(count: int) -> tuple[list[str], np.ndarray]:
    """growth.real_chunks's texts, with random unit vectors instead of the model's."""
    texts = growth.real_texts(count)
    vectors = np.random.default_rng(5).normal(size=(len(texts), growth.DIMENSIONS)).astype(np.float32)
    return texts, vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def load(total: int, real: int) -> tuple[dict[str, int], dict]:
    import vectorload

    growth.real_chunks = real_texts
    # No HNSW graph over random vectors: a b-tree under the name growth.load measures stands in.
    name = vectorload.indexes_module().index_name(growth.MODEL)
    vectorload.build_vector_indexes = lambda cursor: cursor.execute(
        f"CREATE INDEX IF NOT EXISTS {name} ON ingestion_chunkvector (chunk_id)")
    from django.db import connection

    connection.close()
    connection.settings_dict["NAME"] = database(total)
    connection.ensure_connection()
    return growth.load(total, real)


def workspace_indexes(ws_ids: dict[str, int]) -> None:
    """Each bench workspace's own BM25 index (built once, CONCURRENTLY; timed, its size)."""
    from django.db import connection

    from ingestion.keywords import BM25_INDEX, bm25_workspace_index
    from ingestion.services.keyword_bm25 import keyword_bm25_workspace_index_build

    for name, workspace_id in ws_ids.items():
        started = time.perf_counter()
        outcome = keyword_bm25_workspace_index_build(workspace_id=workspace_id)
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_relation_size(%s), pg_relation_size(%s)",
                           [bm25_workspace_index(workspace_id), BM25_INDEX])
            own, every = cursor.fetchone()
        print(f"{name}: {outcome} ({time.perf_counter() - started:.1f} s; {own / 2**20:.1f} MB; the index over"
              f" every workspace {every / 2**20:.1f} MB)  {load_avg()}", flush=True)


def speed_classes(workspace_id: int, count: int) -> dict[str, tuple[list[str], dict | None]]:
    import peers
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT text FROM ingestion_chunk WHERE workspace_id = %s ORDER BY id", [workspace_id])
        texts = [row[0] for row in cursor.fetchall()]
    japanese = peers.japanese_queries(count)
    questions = growth.queries(count)
    return {"common": (list(peers.COMMON_QUERIES), None), "rare": (peers.rare_words(texts, count), None),
            "japanese": (japanese[:count], None), "question": (questions, None),
            "filter 1%": (questions, {"bucket": 7}), "filter 0.1%": (questions, {"tenth": 7})}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--docs", type=int, default=20_000)
    parser.add_argument("--real", type=int, default=3000)
    parser.add_argument("--queries", type=int, default=20, help="queries per class")
    parser.add_argument("--rounds", type=int, default=2, help="timed passes over each class (alternated)")
    parser.add_argument("--explain", action="store_true")
    parser.add_argument("--load-only", action="store_true")
    parser.add_argument("--before", default=None, help="also time the index's path as this commit ranked")
    args = parser.parse_args()
    bench_django.django_setup(database(args.docs), CELERY_BROKER_URL="memory://")
    ws_ids, figures = load(args.docs, args.real)
    workspace_indexes(ws_ids)
    print(f"{args.docs} chunks loaded: {figures}  {load_avg()}", flush=True)
    if args.load_only:
        return
    measure(ws_ids, args)


def before_ranking(rev: str):
    """_ranked_bm25 of search/engine/legs/keyword.py as commit `rev` wrote it."""
    import importlib.util
    import subprocess
    import tempfile

    source = subprocess.run(["git", "show", f"{rev}:search/engine/legs/keyword.py"], cwd=REPO_ROOT, check=True,
                            capture_output=True, text=True).stdout
    path = Path(tempfile.mkdtemp()) / "keyword_before.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("keyword_before", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    from ingestion.keywords import BM25_INDEX

    # Before the workspaces' own indexes the statement read the one over every workspace, which
    # its `terms <@> 'query'` resolved to; named here, since a partial index could be chosen now.
    module.bm25_candidates_sql = lambda *_: ("SELECT k.chunk_id AS id FROM ingestion_keywordtext k"
                                             " WHERE k.workspace_id = %s ORDER BY k.terms <@>"
                                             f" to_bm25query(%s, '{BM25_INDEX}') LIMIT %s")
    return module._ranked_bm25


@contextmanager
def path_of(mode: str, before):
    """The keyword leg as `mode` ranks: "postings", "index" (this tree), "before" (--before's)."""
    from search.engine.legs import keyword

    with bench_django.keyword_index("postings" if mode == "postings" else "auto"):
        if mode != "before":
            yield
            return
        saved = keyword._ranked_bm25
        keyword._ranked_bm25 = before
        try:
            yield
        finally:
            keyword._ranked_bm25 = saved


def measure(ws_ids: dict[str, int], args: argparse.Namespace) -> None:
    from cms.access import workspace_access_for_operator
    from cms.models import Workspace
    from search.engine.hybrid import chunk_filter
    from search.engine.legs import keyword
    from search.engine.legs.keyword_bm25 import keyword_bm25_active

    access = workspace_access_for_operator(workspace=Workspace.objects.get(pk=ws_ids["big"]))
    classes = speed_classes(access.workspace.pk, args.queries)
    before = before_ranking(args.before) if args.before else None
    modes = ["index", "postings", *(["before"] if before else [])]

    def where_of(spec):
        return chunk_filter(access=access, content_type=None, spec=spec).keyword_where

    def run(text: str, where, **limits):
        prepared = keyword.keyword_query_prepare(workspace_id=access.workspace.pk, query=text, **limits)
        hits, plan = keyword.keyword_candidates(prepared, limit=DEPTH, where=where)
        return [(h.id, h.score) for h in hits], plan

    with bench_django.keyword_index("auto"):
        if not keyword_bm25_active(access.workspace.pk):
            raise SystemExit("the workspace's BM25 index is not valid in this database: nothing to compare")
    print(f"\nkeyword leg alone (limit {DEPTH}), p50 / p95 ms; the paths ({', '.join(modes)}) alternated per query"
          f" (the order rotating), {args.rounds} rounds; x = postings / index (above 1: the index's path is faster)"
          + (f"; 'before': the index's path at {args.before}" if before else ""))
    print(f"{'class':<12} {'n':>3} " + " ".join(f"{m + ' p50':>13} {'p95':>7}" for m in modes)
          + f" {'x p50':>6} {'x p95':>6}  same top {DEPTH} (index = postings; index = exact; postings = exact)  load")
    slowest: dict[str, str] = {}
    for label, (texts, spec) in classes.items():
        where = where_of(spec)
        times: dict[str, list[float]] = {m: [] for m in modes}
        answers: dict[str, dict[str, list]] = {m: {} for m in modes}
        for mode in modes:  # warm
            with path_of(mode, before):
                for text in texts:
                    answers[mode][text] = run(text, where)[0]
        for rnd in range(args.rounds):
            for i, text in enumerate(texts):
                shift = (i + rnd) % len(modes)
                for mode in modes[shift:] + modes[:shift]:
                    with path_of(mode, before):
                        started = time.perf_counter()
                        run(text, where)
                        times[mode].append((time.perf_counter() - started) * 1000)
        index_by_text = dict(zip(texts * args.rounds, times["index"]))
        slowest[label] = max(index_by_text, key=index_by_text.get)
        exact = {t: run(t, where, budget=10**12, champions=10**12)[0] for t in texts}

        def same(a: dict, b: dict) -> int:
            return sum(len(a[t]) == len(b[t]) and all(x[0] == y[0] and abs(x[1] - y[1]) < 1e-9
                                                       for x, y in zip(a[t], b[t])) for t in texts)

        a, p = times["index"], times["postings"]
        print(f"{label:<12} {len(texts):>3} " + " ".join(f"{pct(times[m], .5):13.2f} {pct(times[m], .95):7.2f}"
                                                        for m in modes)
              + f" {pct(p, .5) / pct(a, .5):6.2f} {pct(p, .95) / pct(a, .95):6.2f}  "
              f"{same(answers['index'], answers['postings'])}/{len(texts)}; {same(answers['index'], exact)}/{len(texts)};"
              f" {same(answers['postings'], exact)}/{len(texts)}  {load_avg()}", flush=True)
    if args.explain:
        explain(access, classes, slowest, where_of)


def explain(access, classes, slowest: dict[str, str], where_of) -> None:
    """EXPLAIN ANALYZE of every statement each path sends, for the slowest query of each class."""
    from django.db import connection

    from search.engine.db import statements
    from search.engine.legs import keyword

    sent: list[tuple[str, list, dict]] = []
    execute = statements.SearchCursor.execute

    def recorded(self, sql, params=(), **kwargs):
        sent.append((sql, list(params), kwargs.get("local_settings") or {}))
        return execute(self, sql, params, **kwargs)

    statements.SearchCursor.execute = recorded
    try:
        for label, (texts, spec) in classes.items():
            text = slowest[label]
            for mode in ("index", "postings"):
                with path_of(mode, None):
                    sent.clear()
                    prepared = keyword.keyword_query_prepare(workspace_id=access.workspace.pk, query=text)
                    keyword.keyword_candidates(prepared, limit=DEPTH, where=where_of(spec))
                print(f"\n=== {label}, {mode}: {text[:60]!r} ({len(prepared.terms)} terms,"
                      f" {prepared.truncated} read in part); {len(sent)} statements")
                for sql, params, local in sent:
                    with connection.cursor() as cursor:
                        cursor.execute("BEGIN")
                        for name, value in local.items():
                            cursor.execute(f"SET LOCAL {name} = '{value}'")
                        cursor.execute("EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) " + sql, params)
                        plan = [row[0] for row in cursor.fetchall()]
                        cursor.execute("COMMIT")
                    print(f"--- {' '.join(sql.split())[:150]}")
                    print("\n".join(plan))
    finally:
        statements.SearchCursor.execute = execute


if __name__ == "__main__":
    main()
