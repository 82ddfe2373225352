"""Benchmark of what one workspace's full-text search costs as OTHER workspaces grow.

    .venv/bin/python bench/tenancy_cost.py [--entries 200000] [--workspaces 50] [--runs 30]

One small workspace (the "searched" one, 1,000 entries) is searched while 49 others hold
the rest of the data. The same searched workspace is loaded three times, beside the others'
data halved, as given, and doubled, each in its own database (`cms_tenancy_x0_5`,
`cms_tenancy_x1`, `cms_tenancy_x2`; built once and reused while the parameters match).
For each query class it prints p50/p95 latency of search_entries, and its work in
shared-buffer page accesses (hit + read, summed over every statement the search runs,
from EXPLAIN (ANALYZE, BUFFERS)): a count that does not depend on the machine or its load.
The ratios show whether the work follows the other tenants' data.

Query classes: long queries of common trigrams, rare terms, Japanese, terms common here,
and the adversarial case: terms common in the OTHER workspaces but absent from this one.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import bench_django  # noqa: E402
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from fulltext import (  # noqa: E402
    WorkMeter,
    _insert,
    gin_indexes_deferred,
    percentile,
    vocabularies,
    zipf_sampler,
)

GENERATOR_VERSION = 1
SEARCHED_ENTRIES = 1_000
SCALES = (0.5, 1.0, 2.0)

# Planted in the searched workspace only, a few times each (rare terms that exist here).
RARE_HERE = {"xqz": 3, "PX-4417-QR": 2, "鯱鉾堂": 3, "鵺": 2, "特別返品保証書": 2}
# Planted in the OTHER workspaces only, in this share of their entries (never here).
COMMON_ELSEWHERE = {"free shipping worldwide": 0.4, "送料無料キャンペーン": 0.4, "zq": 0.4,
                    "customer account support": 0.3}
# Planted everywhere, in this share of entries.
COMMON_EVERYWHERE = {"返品": 0.5, "the order": 0.3}

QUERY_CLASSES = [
    # (class, terms)
    ("long common trigrams", ["the order of the customer and the delivery of the payment policy",
                              "support the store and the product guide for the account team"]),
    ("long Japanese", ["注文の商品について確認してください", "会員登録の変更は以下の方法で"]),
    ("rare here", ["xqz", "PX-4417-QR"]),
    ("rare here, Japanese", ["鯱鉾堂", "鵺", "特別返品保証書"]),
    ("common elsewhere only", ["free shipping worldwide", "customer account support"]),
    ("common elsewhere, Japanese", ["送料無料キャンペーン"]),
    ("common elsewhere, 2 chars", ["zq"]),
    ("common here", ["返品", "the order"]),
]
PAGE = 20


def corpus_generate(*, others: int, workspaces: int, seed: int) -> list[dict]:
    """Rows (ws 0 is the searched workspace), in created_at order, ids assigned in that
    order so that the heap interleaves the workspaces as a live system's would.

    The searched workspace's rows depend only on `seed`, never on `others`."""
    start = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)
    rows = _workspace_rows(random.Random(seed), count=SEARCHED_ENTRIES, workspaces=[0], start=start,
                           planted_share=COMMON_EVERYWHERE)
    rare_rng = random.Random(seed + 2)
    for term, count in RARE_HERE.items():
        for row in rare_rng.sample(rows, count):
            row["data"]["body"] = _insert(rare_rng, row["data"]["body"], term)
    rows += _workspace_rows(random.Random(seed + 3), count=others, workspaces=list(range(1, workspaces)), start=start,
                            planted_share={**COMMON_EVERYWHERE, **COMMON_ELSEWHERE})
    rows.sort(key=lambda r: r["created_at"])
    for entry_id, row in enumerate(rows, start=1):
        row["id"] = entry_id
    return rows


def _workspace_rows(rng: random.Random, *, count: int, workspaces: list[int], start: dt.datetime,
                    planted_share: dict[str, float]) -> list[dict]:
    english, japanese = vocabularies(random.Random(0))  # the same vocabulary everywhere
    en_words, ja_words = zipf_sampler(rng, english), zipf_sampler(rng, japanese)
    rows = []
    for i in range(count):
        if rng.random() < 0.6:
            title = " ".join(en_words(rng.randint(3, 8))).capitalize()
            body = " ".join(en_words(rng.randint(20, 80))) + "."
        else:
            title = "".join(ja_words(rng.randint(3, 6)))
            body = "".join(ja_words(rng.randint(20, 70))) + "。"
        for term, share in planted_share.items():
            if rng.random() < share:
                body = _insert(rng, body, term)
        data = {"title": title, "body": body, "sku": f"SKU-{rng.randint(0, 999999):06d}",
                "version": rng.randint(1, 40), "featured": rng.random() < 0.2}
        rows.append({"ws": workspaces[i % len(workspaces)], "data": data,
                     "status": "published" if rng.random() < 0.7 else "draft",
                     "created_at": start + dt.timedelta(seconds=rng.uniform(0, 365 * 86400))})
    return rows


def corpus_load(connection, rows: list[dict], *, workspaces: int, fingerprint: str) -> list:
    """Load `rows` with COPY unless the database already holds this exact corpus."""
    from cms.models import ContentType, Workspace
    from tests.factories import ARTICLE_FIELDS

    if bench_django.corpus_is_loaded(connection, "bench_tenancy_corpus", fingerprint):
        return list(Workspace.objects.order_by("pk"))
    print(f"loading {len(rows):,} entries into {connection.settings_dict['NAME']}...", flush=True)
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE cms_entry, cms_contenttype, cms_workspace, bench_tenancy_corpus CASCADE")
    spaces = Workspace.objects.bulk_create(
        [Workspace(slug="searched" if i == 0 else f"other-{i:03d}", name=f"Tenant {i}") for i in range(workspaces)]
    )
    types = ContentType.objects.bulk_create(
        [ContentType(workspace=ws, api_id="article", name="Article", fields=ARTICLE_FIELDS) for ws in spaces]
    )
    with connection.cursor() as cursor, gin_indexes_deferred(cursor):
        with cursor.cursor.copy(
            "COPY cms_entry (id, workspace_id, content_type_id, data, status, created_at, updated_at) FROM STDIN"
        ) as copy:
            for row in rows:
                copy.write_row((row["id"], spaces[row["ws"]].pk, types[row["ws"]].pk,
                                json.dumps(row["data"], ensure_ascii=False), row["status"], row["created_at"],
                                row["created_at"]))
        cursor.execute("SELECT setval(pg_get_serial_sequence('cms_entry', 'id'), (SELECT max(id) FROM cms_entry))")
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE cms_entry")
        cursor.execute("INSERT INTO bench_tenancy_corpus VALUES (%s)", [fingerprint])
    return spaces


def measure(connection, workspace, runs: int, rng: random.Random) -> dict[str, dict]:
    """Per class: latencies (interleaved rounds), pages and rows of one search per term, plans."""
    from cms.access import workspace_access_for_operator
    from search.engine.fulltext import search_entries

    access = workspace_access_for_operator(workspace=workspace)
    for _, terms in QUERY_CLASSES:  # warm the caches and the code paths
        for term in terms:
            search_entries(access=access, query=term, limit=PAGE)
    out = {name: {"ms": [], "pages": [], "rows": [], "plans": {}} for name, _ in QUERY_CLASSES}
    for run in range(runs):
        for name, terms in rng.sample(QUERY_CLASSES, len(QUERY_CLASSES)):
            term = terms[run % len(terms)]
            t0 = time.perf_counter()
            result = search_entries(access=access, query=term, limit=PAGE)
            out[name]["ms"].append((time.perf_counter() - t0) * 1000)
            out[name]["plans"][result.plan.value] = out[name]["plans"].get(result.plan.value, 0) + 1
    for name, terms in QUERY_CLASSES:
        for term in terms:
            meter = WorkMeter()
            with connection.execute_wrapper(meter):
                search_entries(access=access, query=term, limit=PAGE)
            out[name]["pages"].append(meter.pages)
            out[name]["rows"].append(meter.heap_rows)
    return out


def database_use(connection, name: str) -> None:
    connection.close()
    connection.settings_dict["NAME"] = name


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=200_000, help="entries at scale 1, searched workspace included")
    parser.add_argument("--workspaces", type=int, default=50)
    parser.add_argument("--runs", type=int, default=30, help="searches per query class and scale")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--database-prefix", default="cms_tenancy")
    args = parser.parse_args()

    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    figures: dict[float, dict] = {}
    sizes: dict[float, tuple[int, str]] = {}
    for scale in SCALES:
        others = round((args.entries - SEARCHED_ENTRIES) * scale)
        name = f"{args.database_prefix}_x{str(scale).replace('.', '_').removesuffix('_0')}"
        database_use(connection, name)
        call_command("migrate", verbosity=0)
        started = time.perf_counter()
        rows = corpus_generate(others=others, workspaces=args.workspaces, seed=args.seed)
        fingerprint = hashlib.sha1(json.dumps(
            [GENERATOR_VERSION, others, args.workspaces, args.seed, RARE_HERE, COMMON_ELSEWHERE, COMMON_EVERYWHERE]
        ).encode()).hexdigest()
        spaces = corpus_load(connection, rows, workspaces=args.workspaces, fingerprint=fingerprint)
        searched = spaces[0]
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_size_pretty(pg_indexes_size('cms_entry'))")
            sizes[scale] = (len(rows), cursor.fetchone()[0])
        print(f"scale x{scale}: {len(rows):,} entries, {SEARCHED_ENTRIES:,} in the searched workspace, "
              f"indexes {sizes[scale][1]} (ready in {time.perf_counter() - started:.0f} s)", flush=True)
        figures[scale] = measure(connection, searched, args.runs, random.Random(args.seed))
    report(figures, sizes, args)


def report(figures: dict[float, dict], sizes: dict, args) -> None:
    print()
    print("work = shared-buffer pages touched by one search (hit + read, all its statements), mean over the "
          "class's terms; rows = rows its scans read or rejected")
    header = f"{'query class':<28}"
    for scale in SCALES:
        header += f" {'x' + str(scale) + ' p50/p95 ms':>17} {'pages':>6} {'rows':>6}"
    print(header + f" {'pages x2/x1':>11} {'x1/x0.5':>8}  plans (x1)")
    worst = 0.0
    for name, _ in QUERY_CLASSES:
        line = f"{name:<28}"
        pages = {}
        for scale in SCALES:
            f = figures[scale][name]
            pages[scale] = statistics.mean(f["pages"])
            line += (f" {statistics.median(f['ms']):>8.2f}/{percentile(f['ms'], 0.95):<8.2f}"
                     f" {pages[scale]:>6.0f} {statistics.mean(f['rows']):>6.0f}")
        up, down = pages[2.0] / pages[1.0], pages[1.0] / pages[0.5]
        worst = max(worst, up, down)
        plans = ", ".join(f"{k}×{v}" for k, v in sorted(figures[1.0][name]["plans"].items()))
        print(line + f" {up:>11.2f} {down:>8.2f}  {plans}")
    print()
    print("entries per scale: " + ", ".join(f"x{s}: {sizes[s][0]:,} (indexes {sizes[s][1]})" for s in SCALES))
    print(f"largest growth of a class's work when the other workspaces' data doubles: {worst:.2f}x")
    print(f"runs per class and scale: {args.runs}; load average (1 min) {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
