#!/usr/bin/env python
"""Agentic search against hybrid on compound questions (both halves found?) and on ordinary ones (no harm?).

Run from the repo root (it loads bench/eval.py's workspaces if they are not there yet):
    .venv/bin/python bench/agentic.py [--sample N] [--single-queries N] [--fit]

1. Compound questions (bench/compound_sets.py, fixed seed): Japanese pairs of JSQuAD `test`
   questions (「Q1。また、Q2？」, 「Q1と、Q2について教えて」), English pairs of StackFAQ questions
   ("Q1? Q2?", "Q1, and q2?"); the first --sample of each (both join forms alternate). For:
   - hybrid: `hybrid_search` of the whole question;
   - agentic (rules): `agentic_search`, the server's rule decomposer splitting it;
   - agentic (given): `agentic_search` with `queries` = the two original questions;
   Recall@10 against the union of both parts' documents, and the share of questions where
   BOTH parts have a relevant document in the top 10 ("both@10").
2. Ordinary questions: nDCG@10 of hybrid and agentic (rules) on the first --single-queries
   test queries of SciFact, StackFAQ and JSQuAD, as bench/eval.py runs them.
3. Latency: every call above is timed end to end (each query embedded once by each method,
   in the order hybrid, agentic rules, agentic given, so all three share the load).
4. --fit: the merge (round robin or per-part normalised) is compared on compound sets built
   the same way from the fit splits only (JSQuAD `valid`, SciFact train); no test query is read.

As in bench/eval.py: top_k 50 chunks, each document keeps its best chunk, the first 10
documents are the ranking; metrics by ir-measures.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "bench"))

import bench_django  # noqa: E402
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import eval as evalbench  # noqa: E402
from compound_sets import CompoundQuestion, english_compounds, japanese_compounds  # noqa: E402
from evalsets import load_set  # noqa: E402

TOP_K = 50


pct = bench_django.pct


def setup() -> object:
    evalbench.django_setup()
    services, why = evalbench.pipeline()
    if services is None:
        raise SystemExit(why)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    services.keyword_index_missing()
    services.keyword_stats_compact_all()
    return services


def searcher(method: str, access, merge: str | None = None):
    """(text, parts) -> SearchResult for one method, through the product's functions."""
    from search.engine.agentic import DEFAULT_MERGE, agentic_answer
    from search.engine.hybrid import hybrid_request, hybrid_search

    merge = merge or DEFAULT_MERGE
    if method == "hybrid":
        return lambda text, parts: hybrid_search(access=access, query=text[:2000], top_k=TOP_K)
    if method == "agentic (rules)":
        return lambda text, parts: agentic_answer(
            access=access, request=hybrid_request(access=access, options={"query": text[:2000], "top_k": TOP_K}), queries=None,
            merge=merge)
    if method == "agentic (given)":
        return lambda text, parts: agentic_answer(
            access=access, request=hybrid_request(access=access, options={"query": text[:2000], "top_k": TOP_K}),
            queries=list(parts), merge=merge)
    raise ValueError(method)


def run_compounds(workspace, entry_to_doc, questions: list[CompoundQuestion], methods: list[tuple[str, str | None]]
                  ) -> dict[str, dict]:
    """Per method: the run (question id -> top 10 docs), latencies, and which path answered."""
    from cms.access import workspace_access_for_operator

    access = workspace_access_for_operator(workspace=workspace)
    search = {label: searcher(method, access, merge) for label, (method, merge) in
              ((f"{m}{' ' + g if g else ''}", (m, g)) for m, g in methods)}
    out = {label: {"run": {}, "ms": [], "agentic": 0, "parts2": 0} for label in search}
    for q in questions:
        for label, fn in search.items():  # interleaved: every method sees the same load
            started = time.perf_counter()
            result = fn(q.text, q.parts)
            out[label]["ms"].append((time.perf_counter() - started) * 1000)
            out[label]["run"][q.id] = evalbench.chunks_to_docs(result.hits, entry_to_doc)
            meta = result.extra_meta
            out[label]["agentic"] += meta.get("path") == "agentic"
            out[label]["parts2"] += len(meta.get("parts", [])) == 2
    return out


def both_found(questions: list[CompoundQuestion], run: dict[str, dict[str, float]]) -> float:
    hits = 0
    for q in questions:
        top = set(run.get(q.id, {}))
        hits += all(top & set(part) for part in q.part_qrels)
    return hits / max(1, len(questions))


def compound_table(name: str, questions: list[CompoundQuestion], results: dict[str, dict]) -> list[str]:
    qrels = {q.id: q.qrels for q in questions}
    rows = []
    for label, res in results.items():
        scores = evalbench.evaluate(qrels, res["run"])
        rows.append(f"{name:<12} {label:<28} {len(questions):>5} {scores['Recall@10']:>9.3f} "
                    f"{both_found(questions, res['run']):>8.3f} {res['agentic'] / len(questions):>8.3f} "
                    f"{statistics.median(res['ms']):>7.1f} {pct(res['ms'], 0.95):>7.1f}")
    return rows


COMPOUND_HEADER = (f"{'set':<12} {'method':<28} {'n':>5} {'Recall@10':>9} {'both@10':>8} {'agentic':>8} "
                   f"{'p50 ms':>7} {'p95 ms':>7}")


def fit(services, sample: int) -> None:
    """Compare the merges on compound sets from the fit splits (JSQuAD valid, SciFact train)."""
    from search.engine.agentic import MERGES

    sets = [("jsquad-ja", lambda: japanese_compounds(load_set("jsquad-ja"), count=sample, split="valid")),
            ("scifact", lambda: english_compounds(load_set("scifact", split="fit"), count=sample))]
    rows = []
    for name, build in sets:
        # The workspace holds the set's corpus, whatever the split; the questions are the fit split's.
        workspace, entry_to_doc = evalbench.workspace_load(load_set(name, split="fit"), services, False)
        questions = build()
        methods = [("hybrid", None)] + [(m, merge) for merge in MERGES for m in ("agentic (rules)", "agentic (given)")]
        rows += compound_table(f"{name} fit", questions, run_compounds(workspace, entry_to_doc, questions, methods))
    print(f"\nMerge fit on the fit splits ({sample} compound questions per set)\n{COMPOUND_HEADER}")
    print("-" * len(COMPOUND_HEADER))
    print("\n".join(rows), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=300, help="compound questions per language")
    parser.add_argument("--single-queries", type=int, default=300, help="ordinary test queries per set")
    parser.add_argument("--fit", action="store_true", help="compare the merges on the fit splits, then stop")
    args = parser.parse_args()
    services = setup()
    load1, load5, _ = os.getloadavg()
    print(f"load average {load1:.1f}/{load5:.1f} on {os.cpu_count()} CPUs (timings include any contention)",
          flush=True)
    if args.fit:
        fit(services, args.sample)
        return

    methods = [("hybrid", None), ("agentic (rules)", None), ("agentic (given)", None)]
    compound_rows, latencies = [], {}
    for name, build in (("jsquad-ja", japanese_compounds), ("stackfaq-en", english_compounds)):
        data = load_set(name)
        workspace, entry_to_doc = evalbench.workspace_load(data, services, False)
        questions = build(data)[: args.sample]
        started = time.perf_counter()
        results = run_compounds(workspace, entry_to_doc, questions, methods)
        print(f"  {name}: {len(questions)} compound questions in {time.perf_counter() - started:.0f} s; "
              f"split in two by the rules: {results['agentic (rules)']['parts2']}", flush=True)
        compound_rows += compound_table(name, questions, results)
        for label, res in results.items():
            latencies.setdefault(label, []).extend(res["ms"])

    single_rows = []
    for name in ("scifact", "stackfaq-en", "jsquad-ja"):
        data = load_set(name, split="test")
        workspace, entry_to_doc = evalbench.workspace_load(data, services, False)
        queries = data.queries[: args.single_queries]
        items = [CompoundQuestion(id=q["_id"], text=q["text"], form="single", parts=(q["text"], q["text"]),
                                  part_qrels=(data.qrels[q["_id"]], {})) for q in queries]
        results = run_compounds(workspace, entry_to_doc, items, methods[:2])
        qrels = {q["_id"]: data.qrels[q["_id"]] for q in queries}
        hybrid = evalbench.evaluate(qrels, results["hybrid"]["run"])["nDCG@10"]
        agentic = evalbench.evaluate(qrels, results["agentic (rules)"]["run"])["nDCG@10"]
        split = results["agentic (rules)"]["agentic"]
        single_rows.append(f"{name:<12} {len(queries):>7} {hybrid:>14.4f} {agentic:>15.4f} {agentic - hybrid:>+8.4f} "
                           f"{split:>6}")
        print(f"  {name}: {len(queries)} ordinary questions done", flush=True)

    print(f"\nCompound questions (first {args.sample} per language of bench/compound_sets.py, seed fixed)")
    print(COMPOUND_HEADER)
    print("-" * len(COMPOUND_HEADER))
    print("\n".join(compound_rows))
    print(f"\nOrdinary questions (first {args.single_queries} test queries per set)")
    header = f"{'set':<12} {'queries':>7} {'hybrid nDCG@10':>14} {'agentic nDCG@10':>15} {'diff':>8} {'split':>6}"
    print(header)
    print("-" * len(header))
    print("\n".join(single_rows))
    print("\nLatency over all compound questions (ms, end to end, the same questions for each method)")
    base = pct(latencies["hybrid"], 0.95)
    for label, ms in latencies.items():
        print(f"  {label:<18} p50 {statistics.median(ms):7.1f}  p95 {pct(ms, 0.95):7.1f}  "
              f"p95 / hybrid p95 {pct(ms, 0.95) / base:5.2f}")
    load1, load5, _ = os.getloadavg()
    print(f"load average at the end {load1:.1f}/{load5:.1f}")


if __name__ == "__main__":
    main()
