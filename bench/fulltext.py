"""Benchmark of search_entries: p50/p95 and pages touched per query class, against a sequential scan.

    .venv/bin/python bench/fulltext.py [--entries 200000] [--workspaces 50] [--runs 40]

Builds (once; reused while the parameters match) a corpus in its own database `cms_bench`
on the same server: mixed English and Japanese entries with Zipf word frequencies, plus
planted terms whose frequency is known (rare, medium, common). Every search's rows are
compared with a Python ground truth computed from the generated corpus.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import os
import random
import re
import statistics
import sys
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import bench_django  # noqa: E402
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

GENERATOR_VERSION = 1
SEPARATOR = "\x1f"

EN_WORDS = (
    "the of and to a in is you that it for on are with as be this was have or at by not from but what all "
    "were when we can there use an each which she do how their if will up other about out many then them these "
    "so some her would make like him into time has look two more write go see number no way could people my "
    "than first water been call who its now find long down day did get come made may part order delivery "
    "account payment policy customer support return exchange store price size color product item service "
    "team update release version guide page content editor draft publish image video note list table"
).split()
EN_SYLLABLES = "ba be bi bo bu da de di do du fa fe fi fo ga ge go ka ke ki ko la le li lo lu ma me mi mo mu " \
    "na ne ni no nu pa pe pi po ra re ri ro ru sa se si so su ta te ti to tu va ve vi wa we wo ya yo".split()
JA_WORDS = (
    "の は が を に で と も です ます ください について から まで など または および こと もの ため よう "
    "注文 商品 支払い 会員 登録 変更 確認 交換 送料 無料 在庫 発送 到着 予約 割引 期間 対象 方法 手続き 問い合わせ "
    "保証 修理 店舗 営業 時間 連絡 住所 電話 メール パスワード アカウント ログイン カート クーポン キャンペーン "
    "サイズ カラー ギフト ラッピング 領収書 請求書 定期 解約 返金 梱包 不良 破損 返送 受付 完了 詳細 案内 条件 "
    "規約 個人情報 利用 可能 必要 場合 以下 以上 日本 東京 大阪"
).split()
KANJI = (
    "日一国会人年大十二本中長出三同時政事自行社見月分議後前民生連五発間対上部東者党地合市業内相方四定今回新場"
    "金員九入選立開手米力学問高代明実円関決子動京全目表戦経通外最言氏現理調体化田当八六約主題下首意法不来作性"
    "的要用制治度務強気小七成期公持野協取都和統以機平総加山思家話世受区領多県続進正安設保改数記院女初北午指権"
    "心界支第産結百派点教報済書府活原先共得解名交資予川向際査勝面委告軍文反元重近千考判認画海参売利組知案道信"
)

# (term, fraction of entries it is planted in). Rare terms get a fixed count per workspace.
PLANTED_RARE = {"鵺": 3, "鰻丼": 4, "qj": 3, "xqz": 5, "鯱鉾堂": 4, "PX-4417-QR": 2, "特別返品保証書": 3}
PLANTED_SHARE = {"返品": 0.5, "お客様": 0.4, "払い戻し手続き": 0.5, "free shipping": 0.4,
                 "料金": 0.1, "セール": 0.1, "warranty card": 0.08}

QUERY_CLASSES = [
    # (class, terms); a class is measured over every term in many workspaces.
    ("selective 1-2 chars", ["鵺", "鰻丼", "qj"]),
    ("selective 3 chars", ["xqz", "鯱鉾堂"]),
    ("selective 6+ chars", ["PX-4417-QR", "特別返品保証書"]),
    ("medium 1-2 chars", ["料金"]),
    ("medium 3 chars", ["セール"]),
    ("medium 6+ chars", ["warranty card"]),
    ("common 1-2 chars", ["返品", "の"]),
    ("common 3 chars", ["the", "お客様"]),
    ("common 6+ chars", ["払い戻し手続き", "free shipping"]),
]
SELECTIVE_3PLUS = {"selective 3 chars", "selective 6+ chars"}
PAGE = 20


def zipf_sampler(rng: random.Random, words: list[str], exponent: float = 1.07):
    weights = [1 / (rank**exponent) for rank in range(1, len(words) + 1)]
    cumulative, total = [], 0.0
    for w in weights:
        total += w
        cumulative.append(total)
    return lambda k: rng.choices(words, cum_weights=cumulative, k=k)


def vocabularies(rng: random.Random) -> tuple[list[str], list[str]]:
    english = _grown(EN_WORDS, 4000, lambda: "".join(rng.choice(EN_SYLLABLES) for _ in range(rng.randint(2, 4))))
    japanese = _grown(JA_WORDS, 3000, lambda: "".join(rng.choice(KANJI) for _ in range(rng.randint(2, 3))))
    return english, japanese


def _grown(words, size: int, invent) -> list[str]:
    """`words`, then new words from `invent()` until there are `size` distinct ones."""
    grown, seen = list(words), set(words)
    while len(grown) < size:
        word = invent()
        if word not in seen:
            seen.add(word)
            grown.append(word)
    return grown


def corpus_generate(*, entries: int, workspaces: int, seed: int) -> list[dict]:
    """Entries as dicts: id, ws (0-based), data, status, created_at. Deterministic for a seed."""
    rng = random.Random(seed)
    english, japanese = vocabularies(rng)
    en_words, ja_words = zipf_sampler(rng, english), zipf_sampler(rng, japanese)
    start = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)
    rows = []
    for entry_id in range(1, entries + 1):
        ws = (entry_id - 1) % workspaces
        if rng.random() < 0.6:
            title = " ".join(en_words(rng.randint(3, 8))).capitalize()
            body = " ".join(en_words(rng.randint(20, 80))) + "."
        else:
            title = "".join(ja_words(rng.randint(3, 6)))
            words = ja_words(rng.randint(20, 70))
            body = "".join(w + ("、" if rng.random() < 0.1 else "") for w in words) + "。"
        for term, share in PLANTED_SHARE.items():
            if rng.random() < share:
                body = _insert(rng, body, term)
        data = {"title": title, "body": body, "sku": f"SKU-{rng.randint(0, 999999):06d}",
                "version": rng.randint(1, 40), "featured": rng.random() < 0.2}
        created = start + dt.timedelta(seconds=rng.uniform(0, 365 * 86400))
        rows.append({"id": entry_id, "ws": ws, "data": data,
                     "status": "published" if rng.random() < 0.7 else "draft", "created_at": created})
    by_ws: dict[int, list[dict]] = {}
    for row in rows:
        by_ws.setdefault(row["ws"], []).append(row)
    for ws_rows in by_ws.values():
        for term, count in PLANTED_RARE.items():
            for row in rng.sample(ws_rows, min(count, len(ws_rows))):
                row["data"]["body"] = _insert(rng, row["data"]["body"], term)
    return rows


def _insert(rng: random.Random, text: str, term: str) -> str:
    at = rng.randint(0, len(text))
    return f"{text[:at]} {term} {text[at:]}"


def search_text(data: dict) -> str:
    """The Python twin of cms_entry_search_text: string and number values, keys sorted."""
    values = [str(v) for k, v in sorted(data.items()) if isinstance(v, str) or (isinstance(v, int) and not isinstance(v, bool))]
    return SEPARATOR.join(values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=200_000)
    parser.add_argument("--workspaces", type=int, default=50)
    parser.add_argument("--runs", type=int, default=60, help="searches per query class")
    parser.add_argument("--seq-runs", type=int, default=10, help="sequential-scan baseline runs")
    parser.add_argument("--work-runs", type=int, default=20, help="searches per class measured in pages touched")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--database", default="cms_bench")
    parser.add_argument("--fold-ratio", action="store_true",
                        help="also time each search with the query unfolded (before cms.folding), alternately, "
                             "and print both p95s and their ratio")
    args = parser.parse_args()

    import django
    from django.conf import settings

    django.setup()
    settings.DATABASES["default"]["NAME"] = args.database  # before the first connection
    from django.core.management import call_command
    from django.db import connection

    started = time.perf_counter()
    corpus = corpus_generate(entries=args.entries, workspaces=args.workspaces, seed=args.seed)
    fingerprint = hashlib.sha1(
        json.dumps([GENERATOR_VERSION, args.entries, args.workspaces, args.seed, PLANTED_RARE, PLANTED_SHARE]).encode()
    ).hexdigest()
    call_command("migrate", verbosity=0)
    workspaces = corpus_load(connection, corpus, args.workspaces, fingerprint)
    print(f"corpus: {args.entries:,} entries in {args.workspaces} workspaces "
          f"(generated and ready in {time.perf_counter() - started:.0f} s, database {args.database})")

    truth = GroundTruth(corpus)
    load_before = os.getloadavg()[0]
    rng = random.Random(args.seed + 1)
    from cms.access import workspace_access_for_operator
    from search.engine.fulltext import search_entries

    accesses = [workspace_access_for_operator(workspace=workspace) for workspace in workspaces]
    # Warm the code paths and the caches: every term once in every workspace.
    for access in accesses:
        for _, terms in QUERY_CLASSES:
            for term in terms:
                search_entries(access=access, query=term, limit=PAGE)

    # Classes are interleaved (one search of each per round) so that bursts of load from
    # other processes on the machine fall on every class alike.
    timings = {name: [] for name, _ in QUERY_CLASSES}
    plans = {name: {} for name, _ in QUERY_CLASSES}
    shares = {name: [] for name, _ in QUERY_CLASSES}
    samples: dict[str, list[tuple[str, int]]] = {name: [] for name, _ in QUERY_CLASSES}
    wrong: list[str] = []
    fold_timings: dict[bool, list[float]] = {True: [], False: []}
    for run in range(args.runs):
        for name, terms in QUERY_CLASSES:
            term = terms[run % len(terms)]
            ws_index = rng.randrange(args.workspaces)
            samples[name].append((term, ws_index))
            if args.fold_ratio:  # before and after in turn, the order swapped every run
                for unfolded in ((run % 2 == 0), (run % 2 == 1)):
                    with _query_unfolded(unfolded):
                        t0 = time.perf_counter()
                        search_entries(access=accesses[ws_index], query=term, limit=PAGE)
                        fold_timings[unfolded].append((time.perf_counter() - t0) * 1000)
            t0 = time.perf_counter()
            result = search_entries(access=accesses[ws_index], query=term, limit=PAGE)
            timings[name].append((time.perf_counter() - t0) * 1000)
            plans[name][result.plan.value] = plans[name].get(result.plan.value, 0) + 1
            expected = truth.newest(ws_index, term, PAGE + 1)
            got = [hit.entry_id for hit in result.hits]
            shares[name].append(truth.count(ws_index, term) / len(truth.by_ws[ws_index]))
            if got != expected[:PAGE] or result.has_more != (len(expected) > PAGE):
                wrong.append(f"{name}: {term!r} in workspace {ws_index}: got {got[:5]}…, expected {expected[:5]}…")
    if args.fold_ratio:
        before, after = percentile(fold_timings[True], 0.95), percentile(fold_timings[False], 0.95)
        print(f"folding cost, every class alternated ({len(fold_timings[True])} searches each): p95 unfolded "
              f"{before:.2f} ms, folded {after:.2f} ms, ratio {after / before:.3f}; load {os.getloadavg()}")
    # The same searches again, each re-run under EXPLAIN (ANALYZE, BUFFERS): pages touched.
    pages = {name: [] for name, _ in QUERY_CLASSES}
    for name, _ in QUERY_CLASSES:
        for term, ws_index in samples[name][: args.work_runs]:
            meter = WorkMeter()
            with connection.execute_wrapper(meter):
                search_entries(access=accesses[ws_index], query=term, limit=PAGE)
            pages[name].append(meter.pages)
    results = [
        (name, terms, timings[name], plans[name], statistics.mean(shares[name]), statistics.mean(pages[name]))
        for name, terms in QUERY_CLASSES
    ]

    seq_timings, seq_wrong = seq_scan_baseline(connection, workspaces, truth, rng, args)
    wrong += seq_wrong
    seq_p50 = statistics.median(seq_timings)
    report(results, seq_timings, seq_p50, wrong, args)
    print(f"load average (1 min) on this {os.cpu_count()}-core machine: {load_before:.1f} before the "
          f"measurements, {os.getloadavg()[0]:.1f} after (other processes share the CPUs)")


def corpus_load(connection, corpus: list[dict], workspace_count: int, fingerprint: str):
    """Load the corpus with COPY unless the database already holds this exact corpus."""
    from cms.models import ContentType, Workspace
    from tests.factories import ARTICLE_FIELDS

    if bench_django.corpus_is_loaded(connection, "bench_fulltext_corpus", fingerprint):
        return list(Workspace.objects.order_by("pk"))

    print("loading the corpus (COPY; the search columns are generated on the way in)...", flush=True)
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE cms_entry, cms_contenttype, cms_workspace, bench_fulltext_corpus CASCADE")
    workspaces = Workspace.objects.bulk_create(
        [Workspace(slug=f"bench-{i:03d}", name=f"Bench {i}") for i in range(workspace_count)]
    )
    content_types = ContentType.objects.bulk_create(
        [ContentType(workspace=ws, api_id="article", name="Article", fields=ARTICLE_FIELDS) for ws in workspaces]
    )
    with connection.cursor() as cursor, gin_indexes_deferred(cursor):
        raw = cursor.cursor
        with raw.copy(
            "COPY cms_entry (id, workspace_id, content_type_id, data, status, created_at, updated_at) FROM STDIN"
        ) as copy:
            for row in corpus:
                ws = workspaces[row["ws"]]
                copy.write_row((row["id"], ws.pk, content_types[row["ws"]].pk, json.dumps(row["data"], ensure_ascii=False),
                                row["status"], row["created_at"], row["created_at"]))
        cursor.execute("SELECT setval(pg_get_serial_sequence('cms_entry', 'id'), (SELECT max(id) FROM cms_entry))")
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO bench_fulltext_corpus VALUES (%s)", [fingerprint])
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE cms_entry")
    return workspaces


@contextmanager
def gin_indexes_deferred(cursor):
    """Drop cms_entry's GIN indexes for a bulk load and build them again after it, as the
    migrations define them: building a GIN index once is several times faster than
    maintaining it row by row."""
    cursor.execute(
        "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'cms_entry' AND indexdef LIKE '%% USING gin %%'"
    )
    indexes = cursor.fetchall()
    for name, _ in indexes:
        cursor.execute(f'DROP INDEX "{name}"')
    try:
        yield
    finally:  # even after a failed load: a database left without them would bench the wrong thing
        cursor.execute("SET maintenance_work_mem = '512MB'")
        for _, definition in indexes:
            cursor.execute(definition)


class GroundTruth:
    """Matches computed in Python from the generated corpus, newest first per workspace."""

    def __init__(self, corpus: list[dict]):
        self.by_ws: dict[int, list[tuple[int, str]]] = {}
        for row in sorted(corpus, key=lambda r: (r["created_at"], r["id"]), reverse=True):
            self.by_ws.setdefault(row["ws"], []).append((row["id"], search_text(row["data"]).lower()))
        self._counts: dict[tuple[int, str], int] = {}

    def newest(self, ws: int, term: str, n: int) -> list[int]:
        needle, found = term.lower(), []
        for entry_id, text in self.by_ws[ws]:
            if needle in text:
                found.append(entry_id)
                if len(found) == n:
                    break
        return found

    def count(self, ws: int, term: str) -> int:
        key = (ws, term)
        if key not in self._counts:
            needle = term.lower()
            self._counts[key] = sum(needle in text for _, text in self.by_ws[ws])
        return self._counts[key]


def seq_scan_baseline(connection, workspaces, truth: GroundTruth, rng: random.Random, args):
    """The selective 3+ character queries as one statement with index use disabled."""
    from django.db import transaction

    from search.engine.fulltext_plans import like_pattern

    terms = [t for name, ts in QUERY_CLASSES if name in SELECTIVE_3PLUS for t in ts]
    timings, wrong = [], []
    for run in range(args.seq_runs):
        term = terms[run % len(terms)]
        ws_index = rng.randrange(args.workspaces)
        t0 = time.perf_counter()
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SET LOCAL enable_indexscan = off")
            cursor.execute("SET LOCAL enable_bitmapscan = off")
            cursor.execute(
                "SELECT id FROM cms_entry WHERE workspace_id = %s AND search_text LIKE lower(%s) "
                "ORDER BY created_at DESC, id DESC LIMIT %s",
                [workspaces[ws_index].pk, like_pattern(term), PAGE],
            )
            got = [r[0] for r in cursor.fetchall()]
        timings.append((time.perf_counter() - t0) * 1000)
        if got != truth.newest(ws_index, term, PAGE):
            wrong.append(f"seq scan: {term!r} in workspace {ws_index}")
    return timings, wrong


class WorkMeter:
    """An execute wrapper that re-runs each message a search sends under EXPLAIN (ANALYZE,
    BUFFERS) on a second cursor, and adds up the shared-buffer pages its statements touched.

    Search messages hold a few statements separated by `;` (settings, the query, their
    restore) and no `;` inside one; `%s` placeholders are shared out in order."""

    def __init__(self):
        self.pages = 0
        self.heap_rows = 0

    def __call__(self, execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        statements, offset, parts = [s.strip() for s in sql.split(";") if s.strip()], 0, []
        for statement in statements:
            count = len(re.findall(r"(?<!%)%s", statement))
            parts.append(("EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, FORMAT JSON) " + statement,
                          list(params or ())[offset:offset + count]))
            offset += count
        assert offset == len(params or ()), "placeholders and parameters do not match"
        with context["connection"].connection.cursor() as cursor:
            cursor.execute("; ".join(p for p, _ in parts), [v for _, ps in parts for v in ps])
            while True:
                plan = cursor.fetchone()[0][0]["Plan"]
                self.pages += plan.get("Shared Hit Blocks", 0) + plan.get("Shared Read Blocks", 0)
                self.heap_rows += _rows_read(plan)
                if not cursor.nextset():
                    break
        return result


def _rows_read(plan: dict) -> int:
    """Table rows the scans of a plan produced or threw away (index recheck and filter included)."""
    rows = 0
    if "Scan" in plan["Node Type"] and plan["Node Type"] != "Bitmap Index Scan":  # that one counts TIDs
        loops = plan.get("Actual Loops", 1)
        rows += round((plan.get("Actual Rows", 0) + plan.get("Rows Removed by Filter", 0)
                       + plan.get("Rows Removed by Index Recheck", 0)) * loops)
    return rows + sum(_rows_read(child) for child in plan.get("Plans", []))


@contextmanager
def _query_unfolded(unfolded: bool):
    """With `unfolded`, search_entries as before cms.folding on the query side: the query and
    the values it highlights only lowercased (the stored text stays as migrated)."""
    import search.engine.fulltext_plans
    import search.engine.snippets

    if not unfolded:
        yield
        return
    kept = search.engine.fulltext_plans.text_fold, search.engine.snippets.text_fold

    def lowercase(text: str) -> str:
        lowered = text.lower()
        return lowered if len(lowered) == len(text) else "".join(
            low if len(low := ch.lower()) == 1 else ch for ch in text)

    search.engine.fulltext_plans.text_fold = search.engine.snippets.text_fold = lowercase
    try:
        yield
    finally:
        search.engine.fulltext_plans.text_fold, search.engine.snippets.text_fold = kept


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def report(results, seq_timings, seq_p50, wrong, args) -> None:
    print()
    print(f"{'query class':<22} {'terms':<34} {'share':>6} {'p50 ms':>7} {'p95 ms':>7} {'max ms':>7} "
          f"{'seq/p50':>8} {'pages':>6}  plans")
    worst_p95 = 0.0
    selective_ok = True
    for name, terms, timings, plans, share, pages in results:
        p50, p95 = statistics.median(timings), percentile(timings, 0.95)
        worst_p95 = max(worst_p95, p95)
        ratio = seq_p50 / p50
        if name in SELECTIVE_3PLUS and (ratio < 50 or p50 >= 5):
            selective_ok = False
        plan_text = ", ".join(f"{k}×{v}" for k, v in sorted(plans.items()))
        print(f"{name:<22} {', '.join(terms)[:34]:<34} {share:>6.1%} {p50:>7.2f} {p95:>7.2f} {max(timings):>7.2f} "
              f"{ratio:>7.0f}× {pages:>6.0f}  {plan_text}")
    print(f"{'sequential scan':<22} {'(selective 3+ terms, no index)':<34} {'':>6} {seq_p50:>7.2f} "
          f"{percentile(seq_timings, 0.95):>7.2f} {max(seq_timings):>7.2f}")
    print()
    print(f"runs per class: {args.runs}; times are end to end through search_entries (all its statements); "
          f"pages: shared-buffer pages touched (hit + read), mean of {args.work_runs} of those searches")
    print(f"selective 3+ chars >= 50x faster than seq scan and p50 < 5 ms: {'yes' if selective_ok else 'NO'}")
    print(f"every class p95 < 10 ms: {'yes' if worst_p95 < 10 else 'NO'} (worst p95 {worst_p95:.2f} ms)")
    print(f"rows correct: {'yes' if not wrong else 'NO'} ({len(wrong)} wrong)")
    for line in wrong[:10]:
        print("  " + line)


if __name__ == "__main__":
    main()
