#!/usr/bin/env python
"""Dictionary segmentation for the keyword leg against today's CJK bigrams (issue 35, item 3).

Needs requirements-tokenizers.txt (jieba, OpenCC) besides requirements.txt (Sudachi).

Run from the repo root:  .venv/bin/python bench/cjk_tokenizers.py [--sets ...] [--candidates ...] [--max-queries N]

For every candidate tokenizer and every judged set in ../shared/eval/ this prints the keyword
leg's nDCG@10 on the fit and the test queries (bench/eval_split.tsv and the sets' own splits,
as bench/eval.py), the index it would write (postings rows, distinct terms, term bytes),
indexing throughput (documents/s through chunking and term counting, no database) and the
memory a worker pays for the dictionary (RSS after loading it and tokenising one sentence,
minus before, in a fresh process). Then the choice per script by leave-one-set-out: for each
held-out set, the candidate with the best mean nDCG@10 over the *fit* queries of the other
sets (each set weighing the same) is scored on the held-out set's *test* queries against
bigrams; a tokenizer is adopted only if the worst held-out set loses no more than 0.005 and
the mean gains.

What is the same as the product: the text a chunk holds (ingestion.chunking.chunk_text of the
title and body, as bench/eval.py loads them: every set's corpus, JaQuAD's first 3,000
paragraphs as there), the Latin-script terms (ingestion.keywords: NFKC, lowercase, English
stopwords, Snowball stems), the CJK unigram extras of the index, and BM25 (k1 1.2, b 0.75,
idf log(1 + (N - df + .5)/(df + .5)), query term counts) over chunks, each document scored by
its best chunk. What differs: the scoring is exhaustive here (the product reads at most
MAX_QUERY_TERMS terms and caps very common ones, search/engine/legs/keyword.py), so `bigrams` here is the
product's keyword leg without those cuts; bench/eval.py measures the product itself.

Candidates (only CJK runs change; every other word is today's term):

- bigrams: today's overlapping character bigrams;
- sudachi-C / sudachi-A: SudachiPy with sudachidict-core, split mode C (longest units) or A
  (shortest), each morpheme's normalised form (附属/付属, 打込む/打ち込む are one term),
  particles, auxiliary verbs and symbols dropped; applied to a text that holds kana (Japanese);
- jieba: jieba's default dictionary (Simplified) on the text as written;
- jieba-t2s: the run converted to Simplified by OpenCC (t2s) first, then jieba: the
  OpenCC-aware alternative for Traditional Chinese; applied to a text with Han and no kana;
- <word tokenizer>+bigrams: the words and the bigrams of each run, in one index (as
  Elasticsearch users often index both);
- <candidate>+joined: and where a word and a CJK run touch (1992年, 第3回, iPhone版), the whole
  word joined to the run's nearest character (ingestion.keywords._joined): Tantivy's bigrams,
  which run across scripts, gave JaQuAD's "when"/"how many" questions their 2年 and 3回
  (docs/design/peers.md, "JaQuAD's keyword gap"). `bigrams+joined` is the Chinese and
  kana-free form, `sudachi-A+bigrams+joined` the Japanese.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import unicodedata
from collections import Counter
from functools import lru_cache
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "bench"))

from evalsets import EVAL_SETS, load_set  # noqa: E402

from ingestion.chunking import chunk_text  # noqa: E402
from ingestion.keywords import BM25_B, BM25_K1, ENGLISH_STOPWORDS, MAX_WORD_CHARS, _TOKEN, _joined, _stemmer  # noqa: E402

JA_CANDIDATES = ("sudachi-C", "sudachi-A", "sudachi-C+bigrams", "sudachi-A+bigrams", "sudachi-A+bigrams+joined")
ZH_CANDIDATES = ("jieba", "jieba-t2s", "jieba+bigrams", "jieba-t2s+bigrams", "bigrams+joined")
CANDIDATES = ("bigrams", *JA_CANDIDATES, *ZH_CANDIDATES)
SCRIPT_SETS = {"ja": ("jsquad-ja", "jaquad-ja"), "zh": ("drcd-zh",)}
MAX_LOSS = 0.005
_DROPPED_POS = frozenset({"助詞", "助動詞", "補助記号", "空白"})


# --- tokenizers ------------------------------------------------------------------------------

@lru_cache(maxsize=2)
def _sudachi(mode: str):
    from sudachipy import Dictionary, SplitMode

    return Dictionary(dict="core").create(), getattr(SplitMode, mode)


@lru_cache(maxsize=1)
def _t2s():
    import opencc

    return opencc.OpenCC("t2s")


def _jieba():
    import jieba

    jieba.setLogLevel(60)
    jieba.initialize()
    return jieba


def _bigrams(run: str) -> list[str]:
    return [run] if len(run) == 1 else [run[i : i + 2] for i in range(len(run) - 1)]


def _has_kana(text: str) -> bool:
    return any("\u3040" <= ch <= "\u30ff" for ch in text)


def _words(name: str, run: str, japanese: bool) -> list[str] | None:
    """The dictionary words of one CJK run, or None when the candidate does not apply to it."""
    base = name.removesuffix("+joined").removesuffix("+bigrams")
    if base.startswith("sudachi") and japanese:
        tokenizer, mode = _sudachi(base[-1])
        return [m.normalized_form() for m in tokenizer.tokenize(run, mode)
                if m.part_of_speech()[0] not in _DROPPED_POS]
    if base.startswith("jieba") and not japanese:
        text = _t2s().convert(run) if base == "jieba-t2s" else run
        return [w for w in _jieba().cut(text) if w.strip()]
    return None


def tokens(name: str, text: str) -> tuple[list[str], list[str]]:
    """(BM25 tokens, CJK runs) of `text` under candidate `name`: ingestion.keywords.keyword_tokens
    with the CJK branch replaced."""
    out: list[str] = []
    runs: list[str] = []
    words: list[str] = []
    normalised = unicodedata.normalize("NFKC", text).lower()
    japanese = _has_kana(normalised)
    base = name.removesuffix("+joined")
    previous = None
    for match in _TOKEN.finditer(normalised):
        cjk, word = match.groups()
        joined = _joined(previous, match) if base != name else None
        previous = match
        if (joined or cjk) and words:  # the words before keep their place in the order
            out.extend(_stemmer().stemWords(words))
            words = []
        if joined:
            out.append(joined)
        if cjk:
            runs.append(cjk)
            segmented = None if base == "bigrams" else _words(name, cjk, japanese)
            if segmented is None:
                out.extend(_bigrams(cjk))
            else:
                out.extend(segmented)
                if base.endswith("+bigrams"):
                    out.extend(_bigrams(cjk))
        elif word not in ENGLISH_STOPWORDS and len(word) <= MAX_WORD_CHARS:
            words.append(word)
    if words:
        out.extend(_stemmer().stemWords(words))
    return out, runs


def index_terms(name: str, text: str) -> tuple[Counter, int]:
    """ingestion.keywords.keyword_index_terms under candidate `name`: frequencies (with the
    unigram extras of runs longer than one character) and the length."""
    found, runs = tokens(name, text)
    frequencies = Counter(found)
    for run in runs:
        if len(run) > 1:
            frequencies.update(run)
    return frequencies, len(found)


def set_script(texts: list[str]) -> str:
    """ja when most chunks holding CJK hold kana, zh when they hold Han only, else latin."""
    cjk = [t for t in texts if any(c for c, _ in _TOKEN.findall(t))]
    if len(cjk) < len(texts) / 10:
        return "latin"
    return "ja" if sum(map(_has_kana, cjk)) > len(cjk) / 2 else "zh"


# --- BM25 over chunks ----------------------------------------------------------------------

def chunks_of(corpus: list[dict]) -> tuple[list[str], list[int]]:
    """Every document's chunk texts (as ingestion chunks the title + richtext body) and each chunk's document index."""
    texts, owners = [], []
    for index, doc in enumerate(corpus):
        title = (doc.get("title") or doc["_id"])[:500]
        drafts = chunk_text(doc.get("text") or "", fmt="html", title=title) or []
        for draft in drafts:
            texts.append(draft.text)
            owners.append(index)
    return texts, owners


class Index:
    def __init__(self, name: str, texts: list[str], owners: list[int]):
        import numpy as np
        from scipy import sparse

        tokens(name, "返品ポリシーは附属の書類")  # load the dictionary before the clock starts
        tokens(name, "臺灣的退貨政策")
        started = time.perf_counter()
        indexed = [index_terms(name, text) for text in texts]
        self.seconds = time.perf_counter() - started
        self.name = name
        self.vocabulary: dict[str, int] = {}
        rows, cols, tfs = [], [], []
        lengths = np.array([length for _, length in indexed], dtype=float)
        for row, (frequencies, _) in enumerate(indexed):
            for term, tf in frequencies.items():
                rows.append(row)
                cols.append(self.vocabulary.setdefault(term, len(self.vocabulary)))
                tfs.append(tf)
        self.rows = len(tfs) + len(texts)  # one posting per term, plus the length posting of each chunk
        self.term_bytes = sum(len(t.encode()) for t in self.vocabulary)
        self.posting_term_bytes = sum(len(t.encode()) * n for t, n in self._term_counts(cols).items())
        average = max(1.0, lengths.mean())
        tf = np.array(tfs, dtype=float)
        norm = BM25_K1 * (1.0 - BM25_B + BM25_B * lengths[rows] / average)
        impact = tf * (BM25_K1 + 1.0) / (tf + norm)
        self.matrix = sparse.csr_matrix((impact, (rows, cols)), shape=(len(texts), len(self.vocabulary)))
        df = np.bincount(cols, minlength=len(self.vocabulary))
        self.idf = np.log(1.0 + (len(texts) - df + 0.5) / (df + 0.5))
        self.owners = np.array(owners)
        self.documents = max(owners) + 1

    def _term_counts(self, cols: list[int]) -> dict[str, int]:
        counts = Counter(cols)
        names = {i: t for t, i in self.vocabulary.items()}
        return {names[i]: n for i, n in counts.items()}

    def run(self, queries: list[dict], doc_ids: list[str]) -> dict[str, dict[str, float]]:
        import numpy as np
        from scipy import sparse

        cols, rows, values = [], [], []
        for row, query in enumerate(queries):
            for term, count in Counter(tokens(self.name, query["text"][:2000])[0]).items():
                if (col := self.vocabulary.get(term)) is not None:
                    cols.append(col)
                    rows.append(row)
                    values.append(self.idf[col] * count)
        weights = sparse.csr_matrix((values, (cols, rows)), shape=(len(self.vocabulary), len(queries)))
        scores = (self.matrix @ weights).toarray()  # chunks x queries
        best = np.zeros((self.documents, len(queries)))
        np.maximum.at(best, self.owners, scores)
        run: dict[str, dict[str, float]] = {}
        for column, query in enumerate(queries):
            ranked = np.argsort(-best[:, column], kind="stable")[:10]
            run[query["_id"]] = {doc_ids[i]: float(best[i, column]) for i in ranked if best[i, column] > 0}
        return run


def ndcg(qrels: dict[str, dict[str, int]], run: dict[str, dict[str, float]]) -> float:
    import ir_measures
    from ir_measures import nDCG

    return ir_measures.calc_aggregate([nDCG @ 10], qrels, run)[nDCG @ 10]


# --- memory --------------------------------------------------------------------------------

_RSS_PROBE = """
import sys, unicodedata
sys.path.insert(0, {bench!r}); sys.path.insert(0, {repo!r})
def rss():
    for line in open('/proc/self/status'):
        if line.startswith('VmRSS:'):
            return int(line.split()[1])
import cjk_tokenizers as t
before = rss()
t.tokens({name!r}, {sample!r})
print(rss() - before)
"""


def rss_delta_kib(name: str) -> int:
    """What loading candidate `name`'s dictionary adds to a fresh process's RSS, in KiB."""
    sample = "返品ポリシーは附属の書類に打込む" if name.startswith("sudachi") else "臺灣的退貨政策"
    code = _RSS_PROBE.format(bench=str(REPO_ROOT / "bench"), repo=str(REPO_ROOT), name=name, sample=sample)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO_ROOT)
    return int(result.stdout.strip().splitlines()[-1]) if result.returncode == 0 else -1


# --- leave-one-set-out -----------------------------------------------------------------------

def leave_one_set_out(scores: dict, script: str, candidates: tuple[str, ...], names: list[str]) -> None:
    """For each held-out set: the candidate (bigrams included) with the best mean fit nDCG@10 over
    the other sets, scored on the held-out set's test queries against bigrams."""
    options = ("bigrams", *[c for c in candidates if c in {k[0] for k in scores}])
    print(f"\nLeave-one-set-out, {script} candidates {', '.join(options[1:])}: "
          "chosen on the other sets' fit queries, scored on the held-out test queries")
    print(f"{'held out':<12} {'chosen':<20} {'test nDCG@10':>12} {'bigrams':>8} {'delta':>7}")
    deltas = []
    for held in names:
        others = [n for n in names if n != held]
        chosen = max(options, key=lambda c: (sum(scores[(c, n)][0] for n in others) / len(others), c == "bigrams"))
        delta = scores[(chosen, held)][1] - scores[("bigrams", held)][1]
        deltas.append(delta)
        print(f"{held:<12} {chosen:<20} {scores[(chosen, held)][1]:>12.4f} {scores[('bigrams', held)][1]:>8.4f} "
              f"{delta:>+7.4f}")
    for held in SCRIPT_SETS[script]:
        if held in names:  # not leave-one-set-out: what the set's own fit half would choose
            own = max(options, key=lambda c: (scores[(c, held)][0], c == "bigrams"))
            print(f"  {held}: chosen on its own fit queries: {own}, test {scores[(own, held)][1]:.4f} "
                  f"({scores[(own, held)][1] - scores[('bigrams', held)][1]:+.4f} against bigrams)")
    every = max(options, key=lambda c: (sum(scores[(c, n)][0] for n in names) / len(names), c == "bigrams"))
    worst, mean = min(deltas), sum(deltas) / len(deltas)
    adopt = every != "bigrams" and worst >= -MAX_LOSS and mean > 0
    print(f"worst {worst:+.4f}, mean {mean:+.4f}; chosen on every set's fit queries: {every}; "
          f"{'ADOPT ' + every if adopt else 'keep bigrams'} (rule: worst >= -{MAX_LOSS}, mean > 0)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default=",".join(EVAL_SETS))
    parser.add_argument("--candidates", default=",".join(CANDIDATES))
    parser.add_argument("--max-queries", type=int, default=None, help="first N queries of each split")
    parser.add_argument("--no-rss", action="store_true")
    args = parser.parse_args()
    names = [n.strip() for n in args.sets.split(",") if n.strip()]
    candidates = [c.strip() for c in args.candidates.split(",") if c.strip()]
    if unknown := [c for c in candidates if c not in CANDIDATES]:
        raise SystemExit(f"Unknown candidate(s): {', '.join(unknown)}; choose from {', '.join(CANDIDATES)}.")
    if "bigrams" not in candidates:
        candidates.insert(0, "bigrams")
    print(f"load average {os.getloadavg()}", flush=True)
    scores: dict[tuple[str, str], tuple[float, float]] = {}
    table = []
    for name in names:
        test, fit = load_set(name, split="test"), load_set(name, split="fit")
        texts, owners = chunks_of(test.corpus)
        doc_ids = [doc["_id"] for doc in test.corpus]
        script = set_script(texts)
        for candidate in candidates:
            if candidate != "bigrams" and candidate not in {"ja": JA_CANDIDATES, "zh": ZH_CANDIDATES}.get(script, ()):
                scores[(candidate, name)] = scores[("bigrams", name)]  # it changes no term of this set
                continue
            index = Index(candidate, texts, owners)
            fit_queries, test_queries = fit.queries[: args.max_queries], test.queries[: args.max_queries]
            fit_score = ndcg({q["_id"]: fit.qrels[q["_id"]] for q in fit_queries}, index.run(fit_queries, doc_ids))
            test_score = ndcg({q["_id"]: test.qrels[q["_id"]] for q in test_queries},
                              index.run(test_queries, doc_ids))
            scores[(candidate, name)] = (fit_score, test_score)
            row = (name, candidate, len(fit_queries), fit_score, len(test_queries), test_score, index.rows,
                   len(index.vocabulary), index.posting_term_bytes, len(test.corpus) / index.seconds)
            table.append(row)
            print(f"  {name:<12} {candidate:<20} fit {fit_score:.4f}  test {test_score:.4f}  rows {index.rows}  "
                  f"terms {len(index.vocabulary)}  {row[-1]:.0f} docs/s", flush=True)

    print(f"\nload average {os.getloadavg()}")
    header = (f"{'set':<12} {'candidate':<20} {'fit q':>6} {'fit nDCG':>8} {'test q':>6} {'test nDCG':>9} "
              f"{'postings':>9} {'terms':>8} {'term MB':>7} {'docs/s':>7}")
    print(header)
    print("-" * len(header))
    for name, cand, nfit, fit_score, ntest, test_score, rows, terms, term_bytes, rate in table:
        print(f"{name:<12} {cand:<20} {nfit:>6} {fit_score:>8.4f} {ntest:>6} {test_score:>9.4f} {rows:>9} "
              f"{terms:>8} {term_bytes / 1e6:>7.2f} {rate:>7.0f}")

    if not args.no_rss:
        print("\nRSS a worker pays for the dictionary (fresh process, load + one sentence):")
        for candidate in candidates:
            if candidate != "bigrams" and not candidate.endswith("+bigrams"):
                print(f"  {candidate:<20} {rss_delta_kib(candidate) / 1024:>7.1f} MiB", flush=True)

    for script, script_candidates in (("ja", JA_CANDIDATES), ("zh", ZH_CANDIDATES)):
        wanted = tuple(c for c in script_candidates if c in candidates)
        if wanted:
            leave_one_set_out(scores, script, wanted, names)


if __name__ == "__main__":
    main()
