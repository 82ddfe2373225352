#!/usr/bin/env python
"""Search quality on judged data: nDCG@10 and Recall@10 of keyword, semantic, hybrid and full-text search.

Run from the repo root:  .venv/bin/python bench/eval.py [--sets scifact,stackfaq-en,jsquad-ja] [--max-queries N]
                                                       [--methods keyword,semantic,hybrid,...]

Queries: every judged test query (SciFact test: 300, JSQuAD's `test` split: 4,420, and the
test halves of StackFAQ 625, CovidFAQ 537, JaQuAD 1,970 and DRCD 1,762 written in bench/eval_split.tsv);
nothing here was fitted on them (the fusion was chosen and fitted by bench/fusion_fit.py on
the fit splits only, leave-one-set-out). --max-queries N keeps the first N.

Each set in ../shared/eval/ becomes a workspace (`eval-<set>`) in a dedicated database
(cms_bench_eval): one content type with a `title` (text) and a `body` (rich text) field,
semantic search on, one published entry per document. Ingestion is the real pipeline:
entries are created through cms.services (whose signal makes ingestion.services sync their
chunks), then `ingestion.services.chunks_embed_pending` embeds them with the local model.
A loaded workspace is reused on the next run (--rebuild reloads it).

Methods, each over the same queries, through the real search functions:

- keyword: `search.engine.hybrid.hybrid_search(semantic_weight=0, top_k=50)`: the BM25 leg alone;
- hybrid: `hybrid_search(top_k=50)` with its defaults (adaptive fusion, docs/design/fusion.md);
- hybrid-today: the default before issue 18, as a request: weighted fusion, keyword weight
  0.60 (Latin script) / 0.75 (CJK);
- agentic: `search.engine.agentic.agentic_search(top_k=50)` with its defaults;
- hybrid-rrf: the same with `fusion="rrf"`, equal weights (an override);
- hybrid-0.5: weighted fusion with equal weights 0.5/0.5 (an override);
- hybrid-kw<w> (e.g. hybrid-kw0.7): weighted fusion with keyword weight w, semantic 1 - w
  (an override: the weight fitted for another model by bench/fusion_fit.py);
  for all of them, as for semantic, chunks map to documents and each keeps its best chunk;
- semantic: `search.engine.semantic.semantic_search(top_k=50)`; chunks map to their entry (and so
  to the document) through `metadata.entry_id`; each document keeps its best chunk's score,
  and the top 10 documents are the ranking.
- full-text: `search.engine.fulltext.search_entries` is a literal substring search, so a whole
  sentence would almost never match. A query becomes words: lowercase runs of letters and
  digits of 3+ characters that are not English stopwords, and for Japanese, each run of
  kanji/katakana of 2-4 characters (longer runs are cut into overlapping 4-character
  windows, step 2); hiragana (mostly particles and endings) is dropped. Each word is one
  `search_entries` call (up to 100 hits, newest first); entries are ranked by how many of
  the query's words they contain, ties newest first. This is what a user typing words into
  the box gets; it is the baseline a later hybrid search must beat.

Short sets (`<set>-short`, bench/short_queries.py; issue 51): a set's short queries (one word,
two or three words, a title) on its own loaded workspace; `--sets scifact-short,...` runs
their test half, and --by-type prints each kind apart. `hybrid` counts a "no good match" as
nothing found; `hybrid-candidates` is the ranking alone.

--by-type prints, for a set that says each question's type (JaQuAD's `queries_meta.jsonl`:
"Lexical variation (synonymy)", "Syntactic variation", ...), every method's nDCG@10 per
type too. The lexical-variation questions reuse fewer of the paragraph's words: the nearest
this project has to a Japanese paraphrase set.

EVAL_EMBEDDING=minilm embeds with the English-only MiniLM model instead of the local one (in
its own database, cms_bench_eval_minilm), to compare the dense legs; EVAL_EMBEDDING=e5 with
multilingual-e5-small (cms_bench_eval_e5). The fusion is the product's: each model's own fit
where search/engine/legs/fusion.py's ADAPTIVE_BY_MODEL has one (E5), else USE's.

Metrics come from ir-measures (not hand-rolled). Times are wall-clock seconds per method.
Each query is embedded once and reused by every method (the local model is deterministic).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from evalsets import EVAL_SETS, SHORT_SETS, STOPWORDS, EvalSet, cached_query_backend_class, eval_db, load_set  # noqa: E402

EVAL_DB = eval_db()
SEMANTIC_TOP_K = 50
FULLTEXT_LIMIT = 100
FIELDS = [
    {"id": "title", "label": "Title", "type": "text"},
    {"id": "body", "label": "Body", "type": "richtext"},
]
_LATIN_WORD = re.compile(r"[0-9a-z]+")
_JA_RUN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff\u30a0-\u30ffー々]+")


def django_setup() -> None:
    from django.conf import settings

    settings.DATABASES["default"]["NAME"] = EVAL_DB
    # Embedding runs in this process (below); tasks enqueued on commit go nowhere.
    settings.CELERY_BROKER_URL = "memory://"
    import django

    django.setup()
    import evalsets

    evalsets.CachedQueryLocalBackend = cached_query_backend_class()
    settings.SEARCH_EMBEDDING_BACKENDS = {
        "default": {"BACKEND": "evalsets.CachedQueryLocalBackend",
                    "OPTIONS": {"threads": int(os.environ.get("LOCAL_EMBEDDING_THREADS", "2"))}}
    }


def pipeline() -> tuple[object | None, str]:
    try:
        from ingestion import services

        services.chunks_sync_for_entry, services.chunks_embed_pending  # noqa: B018 - presence check
        return services, ""
    except (ImportError, AttributeError):
        return None, ("ingestion.services (chunks_sync_for_entry, chunks_embed_pending) is not in this checkout: "
                      "bench/eval.py ingests through the real pipeline and needs the ingestion work merged.")


def fulltext() -> tuple[object | None, str]:
    try:
        from search.engine.fulltext import search_entries

        return search_entries, ""
    except ImportError:
        return None, "search.engine.fulltext.search_entries is not in this checkout: full-text results are skipped."


def query_words(text: str) -> list[str]:
    """The words of a sentence that become separate full-text queries (see the module docstring)."""
    words: list[str] = []
    lowered = text.lower()
    for word in _LATIN_WORD.findall(lowered):
        if len(word) >= 3 and word not in STOPWORDS:
            words.append(word)
    for run in _JA_RUN.findall(text):
        if len(run) < 2:
            continue
        if len(run) <= 4:
            words.append(run)
        else:
            words.extend(run[i : i + 4] for i in range(0, len(run) - 2, 2))
    return list(dict.fromkeys(words))


# --- loading -------------------------------------------------------------------------------

def workspace_load(data: EvalSet, services, rebuild: bool) -> tuple[object, dict[int, str]]:
    """The set's workspace, loaded and embedded; and entry id -> document id."""
    from cms import services as cms_services
    from cms.models import Entry, EntryStatus, Workspace
    from ingestion.models import Chunk

    slug = f"eval-{data.corpus_name}"
    workspace = Workspace.objects.filter(slug=slug).first()
    if data.base and (workspace is None or rebuild):
        raise SystemExit(f"{data.name} reads {slug}'s corpus: load it with --sets {data.base} first.")
    if workspace is not None and not rebuild:
        entry_ids = list(Entry.objects.filter(workspace=workspace).order_by("pk").values_list("pk", flat=True))
        pending = Chunk.objects.filter(workspace=workspace).exclude(status="embedded").count()
        if len(entry_ids) == len(data.corpus) and pending:  # a load stopped while embedding: resume it
            print(f"  {slug}: {len(entry_ids)} entries, embedding {pending} pending chunks", flush=True)
            services.chunks_embed_pending(workspace=workspace)
            pending = Chunk.objects.filter(workspace=workspace).exclude(status="embedded").count()
        if len(entry_ids) == len(data.corpus) and pending == 0:
            print(f"  {slug}: reusing {len(entry_ids)} entries", flush=True)
            return workspace, {pk: doc["_id"] for pk, doc in zip(entry_ids, data.corpus)}
    if workspace is not None:
        workspace.delete()
    started = time.perf_counter()
    workspace = cms_services.workspace_create(slug=slug, name=f"Eval {data.name}")
    content_type = cms_services.content_type_create(workspace=workspace, api_id="doc", name="Document",
                                                    fields=FIELDS, semantic_search_enabled=True)
    mapping: dict[int, str] = {}
    for doc in data.corpus:
        entry = cms_services.entry_create(
            content_type=content_type,
            data={"title": (doc.get("title") or doc["_id"])[:500], "body": doc.get("text") or ""},
            status=EntryStatus.PUBLISHED,
        )
        mapping[entry.pk] = doc["_id"]
    if not Chunk.objects.filter(workspace=workspace).exists():
        # The signal receivers are not wired in this checkout: sync each entry directly.
        for entry in Entry.objects.filter(workspace=workspace).select_related("content_type").order_by("pk"):
            services.chunks_sync_for_entry(entry=entry)
    chunks = Chunk.objects.filter(workspace=workspace).count()
    print(f"  {slug}: {len(mapping)} entries, {chunks} chunks synced in {time.perf_counter() - started:.0f} s; "
          "embedding...", flush=True)
    started = time.perf_counter()
    done = [0]

    def progress(count: int) -> None:
        done[0] += count
        if done[0] % 2048 < count:
            print(f"    {done[0]}/{chunks} embedded ({time.perf_counter() - started:.0f} s)", flush=True)

    report = services.chunks_embed_pending(workspace=workspace, progress=progress)
    left = Chunk.objects.filter(workspace=workspace).exclude(status="embedded").count()
    print(f"  {slug}: embedded {getattr(report, 'embedded', '?')} chunks in {time.perf_counter() - started:.0f} s"
          f"{f'; {left} NOT embedded' if left else ''}", flush=True)
    return workspace, mapping


# --- running ---------------------------------------------------------------------------------

def run_semantic(workspace, queries: list[dict], entry_to_doc: dict[int, str]) -> dict[str, dict[str, float]]:
    from cms.access import workspace_access_for_operator
    from search.engine.semantic import semantic_search

    access = workspace_access_for_operator(workspace=workspace)
    run: dict[str, dict[str, float]] = {}
    for query in queries:
        result = semantic_search(access=access, query=query["text"][:2000], top_k=SEMANTIC_TOP_K)
        best: dict[str, float] = {}
        for hit in result.hits:
            doc = entry_to_doc.get(hit.entry_id)
            if doc is not None and doc not in best:  # hits are best first: the first is the doc's best chunk
                best[doc] = hit.score
        run[query["_id"]] = dict(list(best.items())[:10])
    return run


def chunks_to_docs(hits, entry_to_doc: dict[int, str]) -> dict[str, float]:
    """The top 10 documents of a ranked chunk list, each scored by its best chunk."""
    best: dict[str, float] = {}
    for rank, hit in enumerate(hits):
        doc = entry_to_doc.get(hit.entry_id)
        if doc is not None and doc not in best:  # hits are best first: the first is the doc's best chunk
            best[doc] = float(len(hits) - rank)  # rank-based: ties in score keep the search's order
    return dict(list(best.items())[:10])


HYBRID_METHODS = {
    "keyword": {"semantic_weight": 0},
    "hybrid": {},
    "hybrid-rrf": {"fusion": "rrf", "keyword_weight": 0.5, "semantic_weight": 0.5},
    "hybrid-0.5": {"keyword_weight": 0.5, "semantic_weight": 0.5},
    # Today's (before issue 18) default, as a request: weighted fusion of scores over each
    # leg's best, keyword 0.60 for Latin-script queries and 0.75 for CJK ones (30%+ CJK letters).
    "hybrid-today": {"fusion": "weighted", "keyword_weight": "today"},
    # The page a caller gets (issue 34): the default top_k (10) judged as returned, one row per
    # entry by default; hybrid-page-chunks asks for raw chunks (`raw_chunks`), as before issue 34.
    "hybrid-page": {"top_k": 10},
    "hybrid-page-chunks": {"top_k": 10, "raw_chunks": True},
    # The same page with every row under the floor kept (`include_candidates`): what the floor,
    # and the list's end at it (issue 51: rows under the floor after the first are not results), cost.
    "hybrid-page-candidates": {"top_k": 10, "include_candidates": True},
    # The ranking alone: the candidates of a query under the confidence floor are returned too
    # (`include_candidates`), where `hybrid` scores a "no good match" as nothing found.
    "hybrid-candidates": {"include_candidates": True},
}
TODAY_WEIGHTS = {"latin": 0.6, "cjk": 0.75}


def today_options(query: str) -> dict:
    from search.engine.legs.fusion import cjk_share

    weight = TODAY_WEIGHTS["cjk" if cjk_share(query) >= 0.3 else "latin"]
    return {"fusion": "weighted", "keyword_weight": weight, "semantic_weight": round(1 - weight, 6)}


def hybrid_method_options(method: str) -> dict | None:
    """The hybrid_search overrides of a method name; None when it is not a hybrid method."""
    if method in HYBRID_METHODS:
        return HYBRID_METHODS[method]
    if method.startswith("hybrid-kw"):
        try:
            weight = float(method.removeprefix("hybrid-kw"))
        except ValueError:
            return None
        if 0 <= weight <= 1:
            return {"keyword_weight": weight, "semantic_weight": round(1 - weight, 6)}
    return None


def run_hybrid(workspace, queries: list[dict], entry_to_doc: dict[int, str], options: dict
               ) -> dict[str, dict[str, float]]:
    from cms.access import workspace_access_for_operator
    from search.engine.hybrid import hybrid_search

    access = workspace_access_for_operator(workspace=workspace)
    run = {}
    for query in queries:
        text = query["text"][:2000]
        given = today_options(text) if options.get("keyword_weight") == "today" else options
        run[query["_id"]] = chunks_to_docs(hybrid_search(access=access, query=text,
                                                         **{"top_k": SEMANTIC_TOP_K, **given}).hits, entry_to_doc)
    return run


def run_agentic(workspace, queries: list[dict], entry_to_doc: dict[int, str]) -> dict[str, dict[str, float]]:
    """Agentic search with its defaults (the configured decomposer splits a question that asks
    several things; each part fused by its own features) on the same single questions."""
    from cms.access import workspace_access_for_operator
    from search.engine.agentic import agentic_search

    access = workspace_access_for_operator(workspace=workspace)
    return {query["_id"]: chunks_to_docs(agentic_search(access=access, query=query["text"][:2000],
                                                        top_k=SEMANTIC_TOP_K).hits, entry_to_doc)
            for query in queries}


def run_fulltext(search_entries, workspace, queries: list[dict], entry_to_doc: dict[int, str]
                 ) -> dict[str, dict[str, float]]:
    from cms.access import workspace_access_for_operator

    access = workspace_access_for_operator(workspace=workspace)
    newest = max(entry_to_doc) + 1
    run: dict[str, dict[str, float]] = {}
    for query in queries:
        matched: dict[int, int] = {}
        for word in query_words(query["text"]):
            for hit in search_entries(access=access, query=word, limit=FULLTEXT_LIMIT).hits:
                matched[hit.entry_id] = matched.get(hit.entry_id, 0) + 1
        # More words matched first; ties newest first (a higher id is a newer entry).
        ranked = sorted(matched.items(), key=lambda item: (-item[1], -item[0]))[:10]
        run[query["_id"]] = {entry_to_doc[pk]: count + pk / newest / 2 for pk, count in ranked if pk in entry_to_doc}
    return run


def evaluate(qrels: dict[str, dict[str, int]], run: dict[str, dict[str, float]]) -> dict[str, float]:
    import ir_measures
    from ir_measures import R, nDCG

    # Queries with no results still count (as zeros): ir-measures fills them in from qrels.
    scores = ir_measures.calc_aggregate([nDCG @ 10, R @ 10], qrels, run)
    return {"nDCG@10": scores[nDCG @ 10], "Recall@10": scores[R @ 10]}


def ndcg_by_type(qrels: dict[str, dict[str, int]], run: dict[str, dict[str, float]],
                 types: dict[str, str]) -> dict[str, tuple[int, float]]:
    """{question type: (queries, mean nDCG@10)} over the judged queries (a query with no
    result counts as 0, as in `evaluate`)."""
    import ir_measures
    from ir_measures import nDCG

    per_query = {query_id: 0.0 for query_id in qrels}
    for metric in ir_measures.iter_calc([nDCG @ 10], qrels, run):
        per_query[metric.query_id] = metric.value
    grouped: dict[str, list[float]] = {}
    for query_id, value in per_query.items():
        grouped.setdefault(types.get(query_id, "(no type)"), []).append(value)
    return {kind: (len(values), sum(values) / len(values)) for kind, values in sorted(grouped.items())}


def question_types(name: str) -> dict[str, str]:
    """Query id -> question type, from the set's queries_meta.jsonl ({} when it has none); a short
    set's: the kind of each short query (word, words, title)."""
    import json

    if name.endswith("-short"):
        return {q["_id"]: q["kind"] for q in load_set(name, split="all").queries}

    from evalsets import eval_dir

    path = eval_dir() / name / "queries_meta.jsonl"
    if not path.is_file():
        return {}
    with path.open(encoding="utf-8") as lines:
        return {row["_id"]: row["question_type"] for row in map(json.loads, lines) if row.get("question_type")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default=",".join(EVAL_SETS))
    parser.add_argument("--max-queries", type=int, default=None, help="queries per set (first N of the test split)")
    parser.add_argument("--methods", default="keyword,semantic,hybrid-today,hybrid,agentic")
    parser.add_argument("--rebuild", action="store_true", help="reload and re-embed the workspaces")
    parser.add_argument("--by-type", action="store_true", help="also nDCG@10 per question type, where a set has types")
    args = parser.parse_args()
    names = [n.strip() for n in args.sets.split(",") if n.strip()]
    unknown = [n for n in names if n not in EVAL_SETS + SHORT_SETS]
    if unknown:
        raise SystemExit(f"Unknown set(s): {', '.join(unknown)}; choose from {', '.join(EVAL_SETS + SHORT_SETS)}.")

    wanted = [m.strip() for m in args.methods.split(",") if m.strip()]
    unknown_methods = [m for m in wanted if hybrid_method_options(m) is None
                       and m not in ("semantic", "full-text", "agentic")]
    if unknown_methods:
        raise SystemExit(f"Unknown method(s): {', '.join(unknown_methods)}.")
    django_setup()
    services, why = pipeline()
    if services is None:
        raise SystemExit(why)
    search_entries, why_not_fulltext = fulltext()
    if search_entries is None:
        print(why_not_fulltext, flush=True)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    # Chunks loaded before the keyword index existed get their postings now (idempotent).
    services.keyword_index_missing()
    services.keyword_stats_compact_all()

    rows, typed = [], []
    for name in names:
        data = load_set(name, split="test")
        print(f"{name}: {len(data.corpus)} documents, {len(data.queries)} judged test queries", flush=True)
        workspace, entry_to_doc = workspace_load(data, services, args.rebuild)
        queries = data.queries[: args.max_queries]
        qrels = {q["_id"]: data.qrels[q["_id"]] for q in queries}
        from evalsets import queries_prime

        queries_prime(q["text"][:2000] for q in queries)
        methods = []
        for method in wanted:
            if (options := hybrid_method_options(method)) is not None:
                methods.append((method, lambda o=options: run_hybrid(workspace, queries, entry_to_doc, o)))
            elif method == "semantic":
                methods.append(("semantic", lambda: run_semantic(workspace, queries, entry_to_doc)))
            elif method == "agentic":
                methods.append(("agentic", lambda: run_agentic(workspace, queries, entry_to_doc)))
            elif method == "full-text" and search_entries is not None:
                methods.append(("full-text", lambda: run_fulltext(search_entries, workspace, queries, entry_to_doc)))
        for method, runner in methods:
            started = time.perf_counter()
            run = runner()
            seconds = time.perf_counter() - started
            scores = evaluate(qrels, run)
            rows.append((name, method, len(queries), scores["nDCG@10"], scores["Recall@10"], seconds))
            if args.by_type and (types := question_types(name)):
                typed.append((name, method, ndcg_by_type(qrels, run, types)))
            print(f"  {method:<12} nDCG@10 {scores['nDCG@10']:.3f}  Recall@10 {scores['Recall@10']:.3f}  "
                  f"{seconds:.1f} s", flush=True)

    print()
    header = f"{'set':<12} {'method':<12} {'queries':>7} {'nDCG@10':>8} {'Recall@10':>9} {'seconds':>8} {'ms/query':>8}"
    print(header)
    print("-" * len(header))
    for name, method, count, ndcg, recall, seconds in rows:
        print(f"{name:<12} {method:<12} {count:>7} {ndcg:>8.3f} {recall:>9.3f} {seconds:>8.1f} "
              f"{seconds / max(1, count) * 1000:>8.1f}")
    for name in dict.fromkeys(name for name, _, _ in typed):
        methods = [(method, by_type) for set_name, method, by_type in typed if set_name == name]
        kinds = list(methods[0][1])
        print(f"\n{name}: nDCG@10 per question type (queries)")
        print(f"{'type':<40}" + "".join(f" {method:>12}" for method, _ in methods))
        for kind in kinds:
            print(f"{kind + f' ({methods[0][1][kind][0]})':<40}"
                  + "".join(f" {by_type[kind][1]:>12.3f}" for _, by_type in methods))


if __name__ == "__main__":
    main()
