#!/usr/bin/env python
"""Judged short queries, typed the way an editor types them, built from each shared set's titles (issue 51).

Run from the repo root:  .venv/bin/python bench/short_queries.py [--write]  (prints the counts;
--write also writes every query to bench/short_queries.tsv, to read them)

Every set of ../shared/eval/ gets a companion `<set>-short` (bench/evalsets.py load_set reads
it): the same corpus and workspace, with short queries of three kinds in place of its
questions. The recipe, why, and the figures: docs/design/short-query-sets.md.

- word:  one generic word that stands in the titles of a few documents (2 to 5 distinct titles);
         relevant: every document whose title holds it;
- words: two or three words. English: consecutive content words of one title; relevant: every
         document whose title holds them all. Chinese and Japanese (Wikipedia paragraphs that
         share their article's title): the article's title and one word of one of its
         paragraphs; relevant: the article's paragraphs that hold that word;
- title: an entity or article title, as written (its end mark dropped); relevant: every
         document with that title (a Wikipedia article's paragraphs, a StackFAQ thread's answers).

Fit and test halves, never mixed: a set's distinct titles are halved, and a query belongs to the
half of the title it was made from (a `word` query, to the half most of its titles are in; a tie
is left out). Titles of documents judged for SciFact's test claims or JSQuAD's test questions
are test titles, of documents judged only for their fit ones fit titles (their own splits);
every other title is halved by a shuffle with evalsets.SPLIT_SEED. Each kind keeps at most
PER_KIND queries a half, drawn with that seed: the same queries on every run and machine.
"""

from __future__ import annotations

import random
import re
import sys
from collections import defaultdict
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / "bench"))

from evalsets import SPLIT_SEED, STOPWORDS as EVAL_STOPWORDS  # noqa: E402

SUFFIX = "-short"
KINDS = ("word", "words", "title")
PER_KIND = 40
# A generic word: in the titles of this many distinct titles (a few documents, not a topic's name).
WORD_TITLES = (2, 5)
# A query whose relevant documents are more than this is not a short query's answer but a listing.
MAX_RELEVANT = 60
MIN_LETTERS = 4  # an English generic word: 4+ letters (the demo test's vocabulary, issue 51)
WRITE_FILE = REPO_ROOT / "bench" / "short_queries.tsv"

# English stop words and the words a title's question is made of (how, can, ...): none is what
# an editor types alone.
STOPWORDS = EVAL_STOPWORDS | frozenset(
    "via within without versus vs among across per non whether ever still need".split()
)
# Words that stand in titles but that no one searches for alone or in a pair.
FILLER = frozenset("""good best better back particular possible like want new different specific certain way ways
    able allow allows allowing another anything something someone thing things really even just instead keep
    without closed duplicate versus based""".split())
_LATIN = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?")
_CJK = "\u3400-\u9fff\uf900-\ufaff"
_KATAKANA = "\u30a0-\u30ffー"
# Japanese words: runs of kanji and katakana (hiragana is mostly particles and endings).
_JA_RUN = re.compile(f"[{_CJK}{_KATAKANA}々]+")
# Chinese has no kana to cut at: runs of characters between punctuation and the commonest
# function characters.
_ZH_CUT = re.compile(r"[的是在和與了為於及等也而之其有被由以或並從對將把向上下中一不這那個所即則就都更最很已"
                     r"\s\W\da-zA-Z]+")


def base_set(name: str) -> str:
    """The question set a short set's corpus and workspace belong to (the name itself otherwise)."""
    return name.removesuffix(SUFFIX)


def is_short(name: str) -> bool:
    return name.endswith(SUFFIX)


def script_of(name: str) -> str:
    base = base_set(name)
    return "ja" if base.endswith("-ja") else ("zh" if base.endswith("-zh") else "en")


def latin_words(text: str) -> list[str]:
    """A text's English words, lowercase, in order ("'s" dropped)."""
    return [re.sub(r"['’]s$", "", w) for w in _LATIN.findall(text.lower())]


def content_words(text: str) -> list[str]:
    """The words of a title an editor would type: alphabetic, 3+ letters, not stop words."""
    return [w for w in latin_words(text) if w.isalpha() and len(w) >= 3 and w not in STOPWORDS]


def cjk_words(text: str, script: str) -> list[str]:
    """Chinese or Japanese words of 2 to 4 characters in a text (runs longer than 4 are not
    taken as one word), in order."""
    if script == "ja":
        runs = _JA_RUN.findall(text)
    else:
        runs = [r for r in _ZH_CUT.split(text) if r]
    return [r for r in runs if 2 <= len(r) <= 4]


def words_of(query: str) -> list[str]:
    """The words of a short query for matching (lowercase; a CJK query's space-separated parts)."""
    if re.search(f"[{_CJK}{_KATAKANA}]", query):
        return [w for w in query.split() if w]
    return [w for w in latin_words(query) if w not in STOPWORDS] or latin_words(query)


def words_in(words: list[str], text: str) -> bool:
    """Whether every word stands in `text` (English: as a word; CJK: as a substring)."""
    lowered = text.lower()
    tokens = None
    for word in words:
        if re.search(f"[{_CJK}{_KATAKANA}]", word):
            if word not in text:
                return False
        else:
            tokens = tokens if tokens is not None else set(latin_words(lowered))
            if word not in tokens:
                return False
    return True


def title_halves(name: str, titles: list[str], corpus: list[dict]) -> dict[str, str]:
    """Each distinct title's half: the set's own split where its documents are judged under one
    (SciFact, JSQuAD), else a shuffle with SPLIT_SEED (the first half fit)."""
    from evalsets import load_set

    half: dict[str, str] = {}
    if name in ("scifact", "jsquad-ja"):
        title_of = {doc["_id"]: doc.get("title") or "" for doc in corpus}
        for split in ("fit", "test"):  # test last: a title judged under both is a test title
            for judged in load_set(name, split=split).qrels.values():
                for doc in judged:
                    if doc in title_of:
                        half[title_of[doc]] = split
    rest = sorted(t for t in titles if t not in half)
    random.Random(f"{SPLIT_SEED}-{name}-titles").shuffle(rest)
    for i, title in enumerate(rest):
        half[title] = "fit" if i < len(rest) // 2 else "test"
    return half


def build(name: str) -> list[dict]:
    """Every short query of set `name` (a question set's name), both halves:
    {"_id", "text", "kind", "split", "relevant": [document ids]}."""
    from evalsets import load_set

    corpus = load_set(name, split="all").corpus
    script = script_of(name)
    by_title: dict[str, list[str]] = defaultdict(list)
    for doc in corpus:
        by_title[doc.get("title") or ""].append(doc["_id"])
    by_title.pop("", None)
    # StackFAQ's thread titles end in a moderator's mark ("[closed]", "[duplicate]"), no one's words.
    display = {t: re.sub(r"\s*\[[^\]]*\]\s*$", "", t) for t in by_title}
    titles = sorted(by_title)
    half = title_halves(name, titles, corpus)
    made: dict[tuple[str, str], list[dict]] = defaultdict(list)
    seen: set[str] = set()

    def add(kind: str, split: str, text: str, relevant: list[str]) -> None:
        key = text.lower()
        if key in seen or not relevant or len(relevant) > MAX_RELEVANT:
            return
        seen.add(key)
        made[(kind, split)].append({"text": text, "kind": kind, "split": split, "relevant": sorted(relevant)})

    # title: the title as written, its end mark dropped.
    for title in titles:
        text = display[title].strip().rstrip("?？.。!！").strip()
        if text:
            add("title", half[title], text, by_title[title])
    # word: a generic word. English: one in 2 to 5 distinct titles, relevant where a title holds
    # it. Chinese and Japanese Wikipedia titles are article names that seldom share a word, so
    # there: a word of 2 to 4 characters that 2 to 5 paragraphs hold, of 2 articles at least
    # (a run of characters that only one article uses is seldom a word), relevant where it
    # stands in the paragraph.
    texts = {doc["_id"]: (doc.get("title") or "") + "\n" + (doc.get("text") or "") for doc in corpus}
    title_by_doc = {doc["_id"]: doc.get("title") or "" for doc in corpus}
    if script == "en":
        holders: dict[str, set[str]] = defaultdict(set)
        for title in titles:
            for word in {w for w in content_words(display[title]) if len(w) >= MIN_LETTERS and w not in FILLER}:
                holders[word].add(title)
        for word in sorted(holders):
            held = holders[word]
            if not WORD_TITLES[0] <= len(held) <= WORD_TITLES[1]:
                continue
            fit = sum(half[t] == "fit" for t in held)
            if fit * 2 != len(held):
                add("word", "fit" if fit * 2 > len(held) else "test", word,
                    [d for t in sorted(held) for d in by_title[t]])
    else:
        docs_with: dict[str, set[str]] = defaultdict(set)
        for doc, text in texts.items():
            for word in set(cjk_words(text, script)):
                docs_with[word].add(doc)
        for word in sorted(docs_with):
            held = docs_with[word]
            articles = {title_by_doc[d] for d in held}
            if not WORD_TITLES[0] <= len(held) <= WORD_TITLES[1] or len(articles) < 2:
                continue
            fit = sum(half.get(title_by_doc[d]) == "fit" for d in held)
            if fit * 2 != len(held):
                add("word", "fit" if fit * 2 > len(held) else "test", word, sorted(held))
    # words: two or three words.
    rng = random.Random(f"{SPLIT_SEED}-{name}-words")
    if script == "en":
        with_token: dict[str, set[str]] = defaultdict(set)
        for title in titles:
            for token in latin_words(title):
                with_token[token].add(title)
        for title in titles:
            words = list(dict.fromkeys(w for w in content_words(display[title]) if w not in FILLER))
            if len(words) < 2:
                continue
            size = min(len(words), rng.choice((2, 3)))
            start = rng.randrange(len(words) - size + 1)
            chosen = words[start:start + size]
            relevant = [d for t in sorted(set.intersection(*(with_token[w] for w in chosen))) for d in by_title[t]]
            add("words", half[title], " ".join(chosen), relevant)
    else:
        for title in titles:
            paragraphs = by_title[title]
            counts: dict[str, int] = defaultdict(int)
            for doc in paragraphs:
                for word in set(cjk_words(texts[doc], script)):
                    counts[word] += 1
            # A word of this article's that a few of its paragraphs hold, not its title's own.
            aspects = sorted(w for w, c in counts.items() if c <= 3 and w not in title and title not in w
                             and len({title_by_doc[d] for d in docs_with.get(w, ())}) >= 3)
            if not aspects:
                continue
            aspect = rng.choice(aspects)
            add("words", half[title], f"{title} {aspect}", [d for d in paragraphs if aspect in texts[d]])
    out = []
    for kind in KINDS:
        for split in ("fit", "test"):
            pool = made[(kind, split)]
            random.Random(f"{SPLIT_SEED}-{name}-{kind}-{split}").shuffle(pool)
            for i, query in enumerate(sorted(pool[:PER_KIND], key=lambda q: q["text"])):
                out.append({"_id": f"short-{kind}-{split}-{i}", **query})
    return out


_CACHE: dict[str, list[dict]] = {}


def short_queries(name: str) -> list[dict]:
    """The short queries of question set `name` (built once per process)."""
    if name not in _CACHE:
        _CACHE[name] = build(name)
    return _CACHE[name]


def main() -> None:
    import argparse

    from evalsets import EVAL_SETS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"also write every query to {WRITE_FILE.name}")
    args = parser.parse_args()

    rows = []
    print(f"{'set':<14}" + "".join(f"{kind + ' ' + split:>12}" for kind in KINDS for split in ("fit", "test")))
    for name in EVAL_SETS:
        queries = short_queries(name)
        rows += [(name, q) for q in queries]
        print(f"{name:<14}" + "".join(f"{sum(q['kind'] == kind and q['split'] == split for q in queries):>12}"
                                      for kind in KINDS for split in ("fit", "test")))
    if args.write:
        with WRITE_FILE.open("w", encoding="utf-8") as handle:
            handle.write("set\tquery-id\tsplit\tkind\ttext\trelevant\n")
            for name, q in rows:
                handle.write(f"{name}\t{q['_id']}\t{q['split']}\t{q['kind']}\t{q['text']}\t{len(q['relevant'])}\n")
        print(f"wrote {WRITE_FILE}")


if __name__ == "__main__":
    main()
