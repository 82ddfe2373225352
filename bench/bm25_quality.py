"""The keyword leg's quality on the BM25 index against today's (the postings), same run: nDCG@10
and Recall@10 on each judged set's test queries, and how many queries differ.

Each set is loaded into its own workspace of a database of this bench (cms_bench_bm25) through
the real pipeline (cms.services, ingestion's sync: chunks, postings, the index's texts), with
no embedding: the keyword leg alone needs none. Then every test query runs through
`hybrid_search(semantic_weight=0, top_k=50)` (bench/eval.py's keyword method) twice, with
SEARCH_KEYWORD_INDEX=auto (the candidates of the workspace's own index, built here whatever its size) and =postings (today's leg), alternating
set by set. The index changes only which chunks are candidates for a query whose terms are
common; every score is the workspace's exact BM25, so the two should agree to the fourth digit.

    python bench/bm25_quality.py [--sets scifact,jsquad-ja] [--max-queries N]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import eval as judged  # noqa: E402 - bench/eval.py: its runners and metrics
from evalsets import EVAL_SETS, load_set  # noqa: E402

DATABASE = "cms_bench_bm25"


def workspace_loaded(data):
    """The set's workspace, its chunks and keyword index written (no vectors); entry id -> document id."""
    from cms import services as cms_services
    from cms.models import Entry, EntryStatus, Workspace

    slug = f"eval-{data.name}"
    workspace = Workspace.objects.filter(slug=slug).first()
    if workspace is not None:
        entry_ids = list(Entry.objects.filter(workspace=workspace).order_by("pk").values_list("pk", flat=True))
        if len(entry_ids) == len(data.corpus):
            return workspace, {pk: doc["_id"] for pk, doc in zip(entry_ids, data.corpus)}
        workspace.delete()
    started = time.perf_counter()
    workspace = cms_services.workspace_create(slug=slug, name=f"Eval {data.name}")
    content_type = cms_services.content_type_create(workspace=workspace, api_id="doc", name="Document",
                                                    fields=judged.FIELDS, semantic_search_enabled=True)
    mapping = {}
    for doc in data.corpus:
        entry = cms_services.entry_create(
            content_type=content_type,
            data={"title": (doc.get("title") or doc["_id"])[:500], "body": doc.get("text") or ""},
            status=EntryStatus.PUBLISHED)
        mapping[entry.pk] = doc["_id"]
    print(f"  {slug}: {len(mapping)} entries loaded in {time.perf_counter() - started:.0f} s", flush=True)
    return workspace, mapping


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default=",".join(EVAL_SETS))
    parser.add_argument("--max-queries", type=int, default=None)
    args = parser.parse_args()
    judged.EVAL_DB = DATABASE
    judged.django_setup()
    from django.core.management import call_command

    from bench_django import keyword_index
    from ingestion.services.keyword_bm25 import keyword_bm25_workspace_index_build
    from growth import load_avg

    call_command("migrate", verbosity=0)
    print(f"bench/bm25_quality.py; {load_avg()}", flush=True)
    print(f"{'set':<12} {'queries':>7} {'nDCG@10 index':>14} {'postings':>9} {'delta':>8}"
          f" {'R@10 index':>11} {'postings':>9} {'differ':>7}  seconds index / postings")
    for name in [n.strip() for n in args.sets.split(",") if n.strip()]:
        data = load_set(name, split="test")
        queries = data.queries[: args.max_queries]
        workspace, entry_to_doc = workspace_loaded(load_set(name))
        keyword_bm25_workspace_index_build(workspace_id=workspace.pk)  # the workspace's own, whatever its size
        qrels = {q["_id"]: data.qrels[q["_id"]] for q in queries}
        runs, seconds = {}, {}
        for index in ("auto", "postings"):
            with keyword_index(index):
                started = time.perf_counter()
                runs[index] = judged.run_hybrid(workspace, queries, entry_to_doc, {"semantic_weight": 0})
                seconds[index] = time.perf_counter() - started
        ours, today = judged.evaluate(qrels, runs["auto"]), judged.evaluate(qrels, runs["postings"])
        differ = sum(runs["auto"][q] != runs["postings"][q] for q in runs["auto"])
        print(f"{name:<12} {len(queries):>7} {ours['nDCG@10']:>14.4f} {today['nDCG@10']:>9.4f}"
              f" {ours['nDCG@10'] - today['nDCG@10']:>+8.4f} {ours['Recall@10']:>11.4f} {today['Recall@10']:>9.4f}"
              f" {differ:>7}  {seconds['auto']:.0f} / {seconds['postings']:.0f}; {load_avg()}", flush=True)


if __name__ == "__main__":
    main()
