#!/usr/bin/env python
"""Speed of forgiving search at 100,000 chunks: the keyword leg with typo tolerance off and on
(clean and typo'd queries), and as-you-type suggestions.

Run from the repo root (a dedicated database, cms_bench_forgiving, in EMBEDDED_PGDATA's cluster):
    .venv/bin/python bench/forgiving.py [--chunks N] [--queries Q] [--rebuild]

Data: the SciFact corpus (../shared/eval) cut into ~500-character chunks, each titled with its
document's title; the rest up to --chunks are variants like bench/hybrid.py's (the first 300
characters of a real chunk followed by "[generated variant k]", same title), in one workspace.
No vectors: only the keyword leg and suggestions are measured. The keyword index is built by
the product's own service (ingestion.services.keyword_index_missing), then compacted and
analysed.

Measured, each query timed end to end from Python on this process's connection:
- the keyword leg (`keyword_query_prepare` + `keyword_candidates`, 50 candidates as hybrid asks)
  for SciFact's test queries, clean and typo'd by bench/typos.py's generator, with
  typo_tolerance off (today) and on;
- `search.engine.forgiving.suggest.suggest_run` (limit 8) for prefixes of 1 to 6 characters of the queries'
  words and of the titles, as an operator (drafts visible) and as a published-only reader.
The load average is printed with the figures: the machine is shared.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import bench_django  # noqa: E402
from evalsets import load_set, split_text  # noqa: E402
from typos import english_typo  # noqa: E402

BENCH_DB = os.environ.get("BENCH_FORGIVING_DB", "cms_bench_forgiving")
SEED = 20261201
pct = bench_django.pct


def load(total: int, rebuild: bool) -> int:
    """The workspace id; loads the chunks and their keyword index unless already there."""
    from django.core.management import call_command
    from django.db import connection
    from psycopg.types.json import Jsonb

    from cms.models import ContentType, Entry, Workspace
    from ingestion import services
    from ingestion.models import Chunk

    call_command("migrate", verbosity=0)
    ws, _ = Workspace.objects.get_or_create(slug="bench-forgiving", defaults={"name": "Bench forgiving"})
    ct, _ = ContentType.objects.get_or_create(workspace=ws, api_id="article", defaults={
        "name": "Article", "fields": [{"id": "title", "label": "Title", "type": "text"},
                                      {"id": "body", "label": "Body", "type": "richtext"}]})
    published = Entry.objects.filter(workspace=ws, status="published").first() or Entry.objects.create(
        workspace=ws, content_type=ct, data={"title": "Bench"}, status="published")
    draft = Entry.objects.filter(workspace=ws, status="draft").first() or Entry.objects.create(
        workspace=ws, content_type=ct, data={"title": "Bench draft"}, status="draft")
    if Chunk.objects.filter(workspace=ws).count() == total and not rebuild:
        print(f"Reusing the {total} chunks already in {BENCH_DB} (--rebuild to reload).", flush=True)
        return ws.pk
    Chunk.objects.filter(workspace=ws).delete()
    pieces: list[tuple[str, str]] = []
    for doc in load_set("scifact").corpus:
        for piece in split_text(doc.get("text") or ""):
            pieces.append((doc.get("title") or doc["_id"], piece))
    rng = random.Random(SEED)
    rows = list(pieces[:total])
    k = 0
    while len(rows) < total:
        title, text = pieces[rng.randrange(len(pieces))]
        rows.append((title, f"{text[:300]} [generated variant {k}]"))
        k += 1
    now = datetime.datetime.now(datetime.UTC)
    started = time.perf_counter()
    raw = connection.connection
    with raw.cursor() as cursor:
        with cursor.copy("COPY ingestion_chunk (workspace_id, source_kind, entry_id, field, ordinal, text,"
                         " content_hash, token_estimate, title, metadata, status, attempts, last_error,"
                         " created_at, updated_at) FROM STDIN") as copy:
            for i, (title, text) in enumerate(rows):
                entry, status = (draft, "draft") if i % 50 == 0 else (published, "published")
                copy.write_row((ws.pk, "entry", entry.pk, "body", i, text, f"{i:064x}", len(text) // 3, title[:500],
                                Jsonb({"content_type": "article", "status": status, "source_kind": "entry",
                                       "workspace": ws.slug}), "embedded", 1, "", now, now))
    raw.commit() if not raw.autocommit else None
    print(f"  COPY {total} chunks: {time.perf_counter() - started:.1f} s (1 in 50 a draft's)", flush=True)
    started = time.perf_counter()
    done = services.keyword_index_missing(workspace_id=ws.pk, batch_size=1000)
    seconds = time.perf_counter() - started
    services.keyword_stats_compact_all([ws.pk])
    with connection.cursor() as cursor:
        for table in ("ingestion_keywordposting", "ingestion_keywordstat", "ingestion_chunk"):
            cursor.execute(f"VACUUM ANALYZE {table}")
        cursor.execute("SELECT count(*) FROM ingestion_keywordstat WHERE workspace_id = %s", [ws.pk])
        terms = cursor.fetchone()[0]
    print(f"  keyword index: {done} chunks in {seconds:.0f} s; dictionary {terms} terms", flush=True)
    return ws.pk


def timed(call, repeat: int = 1) -> list[float]:
    out = []
    for _ in range(repeat):
        started = time.perf_counter()
        call()
        out.append((time.perf_counter() - started) * 1000)
    return out


def summary(label: str, values: list[float]) -> str:
    return (f"  {label:44s} n={len(values):4d}  p50 {pct(values, 0.5):6.2f} ms  p95 {pct(values, 0.95):6.2f} ms"
            f"  max {max(values):6.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--skip-keyword", action="store_true", help="measure the suggestions only")
    args = parser.parse_args()
    bench_django.django_setup(BENCH_DB, CELERY_BROKER_URL="memory://")

    from cms.access import WorkspaceAccess
    from cms.models import Workspace
    from search.engine.legs.keyword import keyword_candidates, keyword_query_prepare
    from search.engine.forgiving.suggest import suggest_run
    from search.engine.forgiving.typos import TypoBudget

    ws_id = load(args.chunks, args.rebuild)
    workspace = Workspace.objects.get(pk=ws_id)
    clean = [q["text"] for q in load_set("scifact", "test").queries[: args.queries]]
    rng = random.Random(f"{SEED}:scifact")
    typod = [english_typo(q, rng) for q in clean]
    print(f"bench/forgiving.py  db={BENCH_DB}  chunks={args.chunks}  queries={len(clean)}  "
          f"loadavg={os.getloadavg()}", flush=True)

    def keyword(query: str, typos) -> None:
        prepared = keyword_query_prepare(workspace_id=ws_id, query=query, typos=typos)
        keyword_candidates(prepared, limit=50, where=None)

    for query in clean[:20]:  # warm the caches and the connection
        keyword(query, TypoBudget())
    print("Keyword leg (50 candidates):", flush=True)
    results = {}
    for label, queries in () if args.skip_keyword else (("clean", clean), ("typo'd", typod)):
        for tolerance in (None, TypoBudget()):
            values = [t for q in queries for t in timed(lambda q=q: keyword(q, tolerance))]
            results[(label, tolerance is not None)] = values
            print(summary(f"{label} queries, typo_tolerance {'on' if tolerance else 'off'}", values), flush=True)
    for label in () if args.skip_keyword else ("clean", "typo'd"):
        ratio = pct(results[(label, True)], 0.95) / pct(results[(label, False)], 0.95)
        print(f"  p95 on/off, {label}: {ratio:.2f}x   (loadavg {os.getloadavg()[0]:.1f})", flush=True)

    prefixes: list[str] = []
    for query in clean:
        words = [w for w in query.split() if w.isalpha()]
        if words:
            word = words[rng.randrange(len(words))]
            prefixes.append(word[: rng.randint(1, 6)])
    titles = list(dict.fromkeys(
        workspace_title for workspace_title in
        __import__("ingestion.models", fromlist=["Chunk"]).Chunk.objects.filter(workspace_id=ws_id)
        .values_list("title", flat=True)[:2000]))
    prefixes += [t[: rng.randint(1, 12)] for t in titles[:200] if t.strip()]
    prefixes = [p for p in prefixes if p.strip()]
    operator = WorkspaceAccess(workspace=workspace, role="operator", include_drafts=True, actor="bench")
    reader = WorkspaceAccess(workspace=workspace, role="api_key", include_drafts=False, actor="bench")
    for p in prefixes[:20]:
        suggest_run(operator, {"query": p})
    print("Suggestions (limit 8):", flush=True)
    for label, access in (("drafts visible", operator), ("published only", reader)):
        values = [t for p in prefixes for t in timed(lambda p=p: suggest_run(access, {"query": p, "limit": 8}))]
        print(summary(f"suggest, {label}", values) + f"   (loadavg {os.getloadavg()[0]:.1f})", flush=True)
    sample = prefixes[:3]
    for p in sample:
        print(f"    {p!r} -> {[s.text for s in suggest_run(reader, {'query': p}).suggestions][:4]}")


if __name__ == "__main__":
    main()
