#!/usr/bin/env python
"""How the word rule's tiers should order a keyword query's page (issue 51, item 2).

Run from the repo root, once bench/eval.py has loaded the workspaces:
    [EVAL_EMBEDDING=e5] .venv/bin/python bench/words_tiers.py [--sets ...] [--split fit|test]
                                                               [--max-queries N] [--refresh]

The rule (search/engine/words_held.py) is fixed where it matters most: an entry holding every
word of a keyword query is never refused, and ranks above the entries holding none of them.
What the issue leaves to the fit data is how far it goes past that. This records, for every
query of each set's FIT half (question sets and their short sets) that reads as keywords, the
candidates as the fusion ordered them, each with how many of the query's words its entry holds
and its keyword leg's rank (the inputs of `ranked_by_words`, captured from the real search),
then reads the page nDCG@10 (10 entries, the ranking: `include_candidates`) of each order:

- `fused`: the fusion's order, no tiers (the search before the rule);
- `none-last`: the entries holding none of the words after the others, each part in the fusion's
  order (the least the issue asks for);
- `all-first`: the entries holding every word first, the rest in the fusion's order;
- `tiers`: all, then some, then none (Meilisearch's `words`), each tier in the fusion's order;
- `tiers+vote`: the same, the first tier ordered by fused place + keyword place (today's rule);
- `none-last+vote`: none last, the rest ordered by fused place + keyword place.

A question (or a query without a word) is not reordered by any of them, so its score is the
same in every column; the table counts only the keyword queries of each set. Chosen by
leave-one-set-out: each set held out in turn, the order with the best mean over the other sets,
read on the held-out set. The captures are cached in var/bench/words_tiers/.
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

from evalsets import EVAL_EMBEDDING, EVAL_SETS, SHORT_SETS, load_set  # noqa: E402

CACHE = REPO_ROOT / "var" / "bench" / "words_tiers"
# How far the tiers go: up to LINE words (a CJK run one word), `tiers+vote`; past it, `none-last`.
LINES = (1, 2, 3, 4)
# The line is the longest whose tiers cost no question set more than this much nDCG@10 over all
# its fit queries (questions included), against the fusion's order; among the others, the most gain.
LINE_TOLERANCE = 0.002
# Common words (Elasticsearch's `common` terms query, `cutoff_frequency`): a word in more than this
# share of the workspace's chunks does not count toward "every word" (unless every word does).
CUTOFFS = (0.05, 0.1, 0.2, 0.3, 0.5)
# Elasticsearch's `minimum_should_match: "N<P%"`: up to N words, every word; past N, P% of them
# (rounded down) make the first tier.
MSM = ((1, 50), (1, 67), (1, 75), (2, 50), (2, 67), (2, 75), (3, 67), (3, 75))
ORDERS = ("fused", "none-last", "all-first", "tiers", "tiers+vote", "none-last+vote", "counts+vote", "counts+vote-each",
          "tiers+keyword",
          *(f"common>{c}+vote" for c in CUTOFFS), *(f"msm{n}<{p}%+vote" for n, p in MSM),
          *(f"msm{n}<{p}%" for n, p in MSM))


def captures(name: str, split: str, max_queries: int | None, refresh: bool) -> list[dict]:
    """Per keyword query: its candidate entries in fused order, each [doc, words held, keyword rank],
    the number of words, and the judged documents (cached)."""
    from search.engine import words_held

    cjk = "" if words_held.CJK_CHARS_PER_WORD == 3 else f".cjk{words_held.CJK_CHARS_PER_WORD}"
    path = CACHE / f"{EVAL_EMBEDDING}.{name}.{split}.{max_queries or 'all'}{cjk}.json"
    if path.exists() and not refresh:
        return json.loads(path.read_text())
    from confidence_fit import set_queries_ready
    import search.engine.hybrid as hybrid
    from search.engine.legs.keyword import _statistics
    from ingestion.keywords import keyword_words
    from search.engine.words_held import CJK_CHARS_PER_WORD, WordClauses, entries_holding

    data, queries, access, entry_to_doc = set_queries_ready(name, split, max_queries)
    workspace = access.workspace
    seen: list[dict] = []
    current: dict = {}
    real = hybrid.ranked_by_words

    def recording(ranked, held, clauses, key_of, keyword_rank_of=None, **rest):
        keys = list(dict.fromkeys(key_of(c) for c in ranked))
        first = {}
        for candidate in ranked:
            first.setdefault(key_of(candidate), candidate)
        # Which clauses each entry holds (one statement per clause), and each clause's share of
        # the workspace's chunks (its typed term's df / N).
        masks: dict = {key: [] for key in keys}
        for index, clause in enumerate(clauses.clauses):
            one = entries_holding(workspace_id=workspace.pk, clauses=WordClauses(clauses=(clause,)),
                                  keys=[k for k in keys if held.get(k)], visible=None)
            for key, count in one.items():
                if count:
                    masks.setdefault(key, []).append(index)
        typed = sorted({t for clause in clauses.clauses for t in clause[0]})
        chunks, _, dfs = _statistics(workspace_id=workspace.pk, terms=typed)
        shares = [max((dfs.get(t, 0) / max(chunks, 1) for t in clause[0]), default=0.0) for clause in clauses.clauses]
        rows = [[entry_to_doc.get(key[1]) if key[0] == "entry" else None, held.get(key, 0),
                 None if keyword_rank_of is None else keyword_rank_of(first[key]), masks.get(key, [])]
                for key in keys]
        words = keyword_words(current["text"])
        count = sum(max(1, -(-len(w.surface) // CJK_CHARS_PER_WORD)) if w.cjk else 1 for w in words)
        seen.append({"rows": rows, "every": len(clauses.clauses), "shares": shares, "words": count})
        return real(ranked, held, clauses, key_of, keyword_rank_of=keyword_rank_of, **rest)

    hybrid.ranked_by_words = recording
    out = []
    try:
        for query in queries:
            seen.clear()
            current["text"] = query["text"][:2000]
            hybrid.hybrid_search(access=access, query=query["text"][:2000], include_candidates=True)
            if seen:  # the last ranking is the one the page was cut from
                out.append({"id": query["_id"], **seen[-1], "qrels": data.qrels[query["_id"]]})
    finally:
        hybrid.ranked_by_words = real
    CACHE.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out))
    return out


def ordered(rows: list[list], every: int, order: str, shares: list[float] = ()) -> list[list]:
    """The candidate entries (fused order) in `order` (see the docstring)."""
    def tier(row) -> int:
        return 0 if row[1] >= every else (1 if row[1] else 2)

    def vote(part: list[list]) -> list[list]:
        by_keyword = sorted(range(len(part)), key=lambda i: (part[i][2] is None, part[i][2] or 0, i))
        place = {i: p for p, i in enumerate(by_keyword)}
        return [part[i] for i in sorted(range(len(part)), key=lambda i: (i + place[i], i))]

    if order == "fused":
        return rows
    if order.startswith("counts"):
        # Meilisearch's `words` buckets: the more of the query's clauses an entry holds, the higher.
        counts = sorted({r[1] for r in rows}, reverse=True)
        out = []
        for n, count in enumerate(counts):
            bucket = [r for r in rows if r[1] == count]
            out += vote(bucket) if count and (n == 0 or order.endswith("-each")) else bucket
        return out
    if order == "tiers+keyword":
        tiered = sorted(rows, key=tier)
        first = [r for r in tiered if tier(r) == 0]
        return sorted(first, key=lambda r: (r[2] is None, r[2] or 0)) + tiered[len(first):]
    if order.startswith("msm"):
        n, p = order[3:].split("%")[0].split("<")
        need = every if every <= int(n) else max(1, every * int(p) // 100)
        tiered = sorted(rows, key=lambda r: 0 if r[1] >= need else (1 if r[1] else 2))
        if not order.endswith("+vote"):
            return tiered
        head = [r for r in tiered if r[1] >= need]
        return vote(head) + tiered[len(head):]
    if order.startswith("common>"):
        cutoff = float(order[len("common>"):].split("+")[0])
        required = {i for i, share in enumerate(shares) if share <= cutoff} or set(range(every))

        def held_tier(row) -> int:
            mask = set(row[3])
            return 0 if required <= mask else (1 if mask else 2)

        tiered = sorted(rows, key=held_tier)
        head = [r for r in tiered if held_tier(r) == 0]
        return vote(head) + tiered[len(head):]
    if order == "none-last":
        return sorted(rows, key=lambda r: tier(r) == 2)
    if order == "none-last+vote":
        head = [r for r in rows if tier(r) < 2]
        return vote(head) + [r for r in rows if tier(r) == 2]
    if order == "all-first":
        return sorted(rows, key=lambda r: tier(r) != 0)
    tiered = sorted(rows, key=tier)
    if order == "tiers":
        return tiered
    first = [r for r in tiered if tier(r) == 0]
    return vote(first) + tiered[len(first):]


def ndcg(capture: dict, order: str) -> float:
    from eval import evaluate

    docs: dict[str, float] = {}
    for rank, row in enumerate(ordered(capture["rows"], capture["every"], order, capture.get("shares", []))):
        if row[0] is not None and row[0] not in docs:
            docs[row[0]] = float(1000 - rank)
        if len(docs) == 10:
            break
    return evaluate({capture["id"]: capture["qrels"]}, {capture["id"]: docs})["nDCG@10"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default=",".join(EVAL_SETS + SHORT_SETS))
    parser.add_argument("--split", default="fit", choices=("fit", "test"))
    parser.add_argument("--max-queries", type=int, default=None)
    parser.add_argument("--refresh", action="store_true")
    parser.add_argument("--cjk-chars", type=int, default=None,
                        help="read questions with a CJK run counting one word per N characters (words_held.CJK_CHARS_PER_WORD)")
    args = parser.parse_args()
    from confidence_fit import django_ready

    django_ready()
    if args.cjk_chars:
        from search.engine import words_held

        words_held.CJK_CHARS_PER_WORD = args.cjk_chars
    print(f"load average before {tuple(round(x, 2) for x in os.getloadavg())}; {EVAL_EMBEDDING}; {args.split} halves",
          flush=True)
    names = [n.strip() for n in args.sets.split(",") if n.strip()]
    table: dict[str, dict[str, float]] = {}
    counts: dict[str, int] = {}
    for name in names:
        caps = captures(name, args.split, args.max_queries, args.refresh)
        counts[name] = len(caps)
        if caps:
            table[name] = {order: sum(ndcg(c, order) for c in caps) / len(caps) for order in ORDERS}
    header = f"{'set':<18} {'keyword queries':>15} " + " ".join(f"{o:>15}" for o in ORDERS)
    print(header + "\n" + "-" * len(header))
    for name, scores in table.items():
        print(f"{name:<18} {counts[name]:>15} " + " ".join(f"{scores[o]:>15.3f}" for o in ORDERS))
    if len(table) > 1:
        print("\nleave-one-set-out (each set held out: the order best on the others' mean, read on it):")
        for held in table:
            rest = [n for n in table if n != held]
            best = max(ORDERS, key=lambda o: sum(table[n][o] for n in rest) / len(rest))
            print(f"  {held:<18} chose {best:<15} held-out {table[held][best]:.3f}  "
                  f"(fused {table[held]['fused']:.3f}, tiers+vote {table[held]['tiers+vote']:.3f})")
    lines_report(names, args.split, args.max_queries)
    print(f"\nload average after {tuple(round(x, 2) for x in os.getloadavg())}")


def lines_report(names: list[str], split: str, max_queries: int | None) -> None:
    """Each line's effect on each set (nDCG@10 over all its queries, against the fusion's order),
    and the line chosen leave-one-set-out (LINE_TOLERANCE on the question sets, then the gain)."""
    from ingestion.keywords import keyword_words

    effect: dict[str, dict[int, float]] = {}
    for name in names:
        caps = captures(name, split, max_queries, refresh=False)
        texts = {q["_id"]: q["text"][:2000] for q in load_set(name, split=split).queries}
        total = len(texts) if max_queries is None else min(max_queries, len(texts))
        runs = {c["id"]: sum(1 for _ in keyword_words(texts[c["id"]])) for c in caps}
        effect[name] = {line: sum(ndcg(c, "tiers+vote" if runs[c["id"]] <= line else "none-last") - ndcg(c, "fused")
                                  for c in caps) / max(total, 1) for line in LINES}
    print("\nhow far the tiers go: nDCG@10 over all of a set's queries, against the fusion's order")
    print(f"{'set':<18} " + " ".join(f"{'line ' + str(line):>9}" for line in LINES))
    for name, by_line in effect.items():
        print(f"{name:<18} " + " ".join(f"{by_line[line]:>+9.4f}" for line in LINES))

    def choose(sets: list[str]) -> int:
        allowed = [line for line in LINES
                   if all(effect[n][line] >= -LINE_TOLERANCE for n in sets if not n.endswith("-short"))] or [LINES[0]]
        return max(allowed, key=lambda line: (sum(effect[n][line] for n in sets) / len(sets), -line))

    if len(effect) > 1:
        print("leave-one-set-out:")
        for held in effect:
            line = choose([n for n in effect if n != held])
            print(f"  {held:<18} line {line}: held-out {effect[held][line]:+.4f}")
        print(f"  every set: line {choose(list(effect))}")


if __name__ == "__main__":
    main()
