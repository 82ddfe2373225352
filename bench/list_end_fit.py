#!/usr/bin/env python
"""Where a page ends: the line under which rows after the first stop being results (issue 51, item 3).

Run from the repo root, once bench/eval.py has loaded the workspaces:
    [EVAL_EMBEDDING=e5] .venv/bin/python bench/list_end_fit.py [--sets ...] [--max-queries 300] [--refresh]

An answered page used to end at the floor: after its first row, a row under the confidence floor
(search/contract/options.py DEFAULT_MIN_CONFIDENCE) was a candidate, not a result, unless it
holds every word of a keyword query or is pinned (search/engine/confidence.py hit_is_answer).
The floor was fitted for another question, whether the best row answers at all, and the rows
after the first pay for it: some judged answers sit under it (docs/design/short-queries.md).

This reads, for each set's FIT queries (question sets and their short sets; test splits are read
only to report the chosen line), the default page with its candidates (hybrid and semantic, top
10 entries, `include_candidates`): each row's confidence, whether it holds every word or is
pinned, and whether it is judged relevant. Then, for two forms of the line:

- `absolute`: a row after the first is a result when its confidence >= L (L <= the floor);
- `relative`: when its confidence >= min(floor, r x the first row's confidence);

it reads each set's page nDCG@10 against the page with every candidate kept (nothing cut), and
the share of the judged-irrelevant rows after the first that the line cuts (what a person no
longer has to read past). The rule: the line that cuts the most irrelevant rows while no fitted
set loses more than TOLERANCE nDCG@10, chosen by leave-one-set-out (each set held out in turn,
the line read on the others, its loss and cut read on the held-out set's fit queries), then
refitted on every set. Figures go to docs/design/short-queries.md.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from evalsets import EVAL_EMBEDDING, EVAL_SETS  # noqa: E402

TOLERANCE = 0.002
KINDS = ("hybrid", "semantic")
CACHE = REPO_ROOT / "var" / "bench" / "list_end"
# The lines tried: a share of the floor (absolute), a share of the first row's confidence (relative).
ABSOLUTE_SHARES = tuple(round(i / 20, 2) for i in range(21))
RELATIVE_SHARES = (0.0, 0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0)


def page_rows(name: str, split: str, kind: str, max_queries: int | None, refresh: bool) -> list[dict]:
    """One row per query: the page's rows (doc, confidence, holds_words or pinned) and its verdict,
    cached in var/bench/list_end/."""
    path = CACHE / f"{EVAL_EMBEDDING}.{name}.{split}.{kind}.{max_queries or 'all'}.json"
    if path.exists() and not refresh:
        return json.loads(path.read_text())
    from confidence_fit import set_queries_ready
    from search.engine.hybrid import hybrid_search
    from search.engine.semantic import semantic_search

    data, queries, access, entry_to_doc = set_queries_ready(name, split, max_queries)
    run = hybrid_search if kind == "hybrid" else semantic_search
    rows = []
    for query in queries:
        result = run(access=access, query=query["text"][:2000], include_candidates=True)
        hits = [[entry_to_doc.get(hit.entry_id), hit.confidence, bool(hit.holds_words or hit.promoted)]
                for hit in result.hits[:10]]
        rows.append({"id": query["_id"], "answerable": result.extra_meta.get("answerable") is not False,
                     "hits": hits, "qrels": data.qrels[query["_id"]]})
    CACHE.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(rows))
    return rows


def page(row: dict, keep) -> dict[str, float]:
    """The page as returned under a line (`keep(confidence, first_confidence)`), rank-scored."""
    if not row["answerable"]:
        return {}
    first = row["hits"][0][1] if row["hits"] else None
    kept = [hit for rank, hit in enumerate(row["hits"])
            if rank == 0 or hit[2] or hit[1] is None or keep(hit[1], first)]
    docs: dict[str, float] = {}
    for rank, (doc, _, _) in enumerate(kept):
        if doc is not None and doc not in docs:
            docs[doc] = float(len(kept) - rank)
    return docs


def junk(row: dict, keep) -> tuple[int, int]:
    """(irrelevant rows after the first that the line cuts, irrelevant rows after the first)."""
    if not row["answerable"] or not row["hits"]:
        return 0, 0
    first = row["hits"][0][1]
    cut = total = 0
    for doc, confidence, held in row["hits"][1:]:
        if doc in row["qrels"]:
            continue
        total += 1
        cut += int(not (held or confidence is None or keep(confidence, first)))
    return cut, total


def line_keep(form: str, share: float, floor: float):
    if form == "absolute":
        return lambda confidence, first: confidence >= share * floor
    return lambda confidence, first: confidence >= min(floor, share * (first or 0.0))


def scores(rows: list[dict], form: str, share: float, floor: float) -> tuple[float, float]:
    """(nDCG@10 loss against keeping every candidate, share of irrelevant rows cut) over `rows`."""
    from eval import evaluate

    qrels = {row["id"]: row["qrels"] for row in rows}
    keep = line_keep(form, share, floor)
    everything = evaluate(qrels, {row["id"]: page(row, lambda c, f: True) for row in rows})["nDCG@10"]
    lined = evaluate(qrels, {row["id"]: page(row, keep) for row in rows})["nDCG@10"]
    cut = [junk(row, keep) for row in rows]
    total = sum(t for _, t in cut)
    return everything - lined, (sum(c for c, _ in cut) / total if total else 0.0)


def line_choose(data: dict[str, list[dict]], names: list[str], form: str, floor: float) -> float:
    """The share that cuts the most irrelevant rows with no set of `names` losing over TOLERANCE."""
    shares = ABSOLUTE_SHARES if form == "absolute" else RELATIVE_SHARES
    best, best_cut = 0.0, -1.0
    for share in shares:
        read = [scores(data[name], form, share, floor) for name in names]
        if max(loss for loss, _ in read) > TOLERANCE:
            continue
        cut = sum(c for _, c in read) / len(read)
        if cut > best_cut:
            best, best_cut = share, cut
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default=",".join([*EVAL_SETS, *(f"{s}-short" for s in EVAL_SETS)]))
    parser.add_argument("--max-queries", type=int, default=300)
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--refresh", action="store_true")
    args = parser.parse_args()
    from confidence_fit import django_ready

    django_ready()
    from ingestion.embeddings import get_embedding_backend
    from search.contract.options import DEFAULT_MIN_CONFIDENCE as floor

    names = [n.strip() for n in args.sets.split(",") if n.strip()]
    print(f"load average {tuple(round(x, 2) for x in os.getloadavg())}; model {get_embedding_backend().model_name}; "
          f"floor {floor}; tolerance {TOLERANCE} nDCG@10 per set", flush=True)
    for kind in [k.strip() for k in args.kinds.split(",") if k.strip()]:
        fit = {name: page_rows(name, "fit", kind, args.max_queries, args.refresh) for name in names}
        test = {name: page_rows(name, "test", kind, args.max_queries, args.refresh) for name in names}
        print(f"\n== {kind}: fit queries {sum(len(r) for r in fit.values())}")
        print(f"{'set':<20} {'floor loss':>10} {'floor cut':>9}   (the page ending at the floor, fit queries)")
        for name in names:
            loss, cut = scores(fit[name], "absolute", 1.0, floor)
            print(f"{name:<20} {loss:>10.4f} {cut:>9.1%}")
        for form in ("absolute", "relative"):
            print(f"\n-- {form}: leave-one-set-out (line read on the others; held-out set's fit and test queries)")
            print(f"{'held out':<20} {'share':>6} {'fit loss':>9} {'fit cut':>8} {'test loss':>9} {'test cut':>8}")
            worst = 0.0
            for name in names:
                share = line_choose(fit, [n for n in names if n != name], form, floor)
                fit_loss, fit_cut = scores(fit[name], form, share, floor)
                test_loss, test_cut = scores(test[name], form, share, floor)
                worst = max(worst, fit_loss)
                print(f"{name:<20} {share:>6.2f} {fit_loss:>9.4f} {fit_cut:>8.1%} {test_loss:>9.4f} {test_cut:>8.1%}")
            share = line_choose(fit, names, form, floor)
            read = [scores(fit[name], form, share, floor) for name in names]
            print(f"worst held-out fit loss {worst:.4f}; on every set: share {share:.2f} "
                  f"(line {share * floor if form == 'absolute' else share:.4f}), mean cut "
                  f"{sum(c for _, c in read) / len(read):.1%}")
    print(f"\nload average {tuple(round(x, 2) for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
