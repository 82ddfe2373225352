"""Readers for the judged retrieval sets in ../shared/eval/ (read in place, never copied here)."""

from __future__ import annotations

import csv
import json
import os
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
EVAL_DIR = Path(os.environ.get("EVAL_DIR", REPO_ROOT.parent / "shared" / "eval"))
SETS = ("scifact", "stackfaq-en", "covidfaq-en", "jsquad-ja", "jaquad-ja")
# What bench/eval.py reports: SETS, and DRCD (Traditional Chinese), which no fit has used yet.
EVAL_SETS = (*SETS, "drcd-zh")
# Each set's short queries (bench/short_queries.py: one word, two or three words, a title, as an
# editor types them), on the set's own corpus and workspace: `<set>-short`.
SHORT_SETS = tuple(f"{name}-short" for name in EVAL_SETS)
# The sets that come without a fit/test split are halved by query, once, with this seed; the
# halves are written down in bench/eval_split.tsv (`python bench/evalsets.py --write-split`).
SPLIT_SEED = 18
SPLIT_FILE = REPO_ROOT / "bench" / "eval_split.tsv"
SELF_SPLIT_SETS = ("stackfaq-en", "covidfaq-en", "jaquad-ja", "drcd-zh")
# Corpora loaded only in part (the first N documents of corpus.jsonl), where loading all of it
# does not fit the time a run has on this machine. JaQuAD's first 1,431 paragraphs are the dev
# paragraphs, which hold the answer of every judged question; the rest are train paragraphs,
# distractors. EVAL_JAQUAD_DOCS=11144 loads it whole.
CORPUS_LIMITS = {"jaquad-ja": int(os.environ.get("EVAL_JAQUAD_DOCS", "3000"))}

# English stop words the benches leave out of a query's words (bench/eval.py's full-text words,
# bench/short_queries.py's).
STOPWORDS = frozenset(
    """a about above after again against all also am an and any are as at be because been before being below
    between both but by can could did do does doing down during each few for from further had has have having he
    her here hers herself him himself his how i if in into is it its itself just me more most my myself no nor not
    now of off on once only or other our ours ourselves out over own same she should so some such than that the
    their theirs them themselves then there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your yours yourself yourselves one two use using
    used get make way does how what which there many much""".split()
)

@dataclass(frozen=True)
class EvalSet:
    name: str
    corpus: list[dict]  # {"_id", "title", "text"}
    queries: list[dict]  # {"_id", "text"}, only those with judgements
    qrels: dict[str, dict[str, int]]  # query id -> doc id -> relevance
    base: str = ""  # a short set's question set, whose corpus and workspace it reads

    @property
    def corpus_name(self) -> str:
        """The set whose corpus this is: the workspace `eval-<corpus_name>` holds it."""
        return self.base or self.name


def eval_dir() -> Path:
    if not EVAL_DIR.is_dir():
        raise SystemExit(f"No evaluation data at {EVAL_DIR} (set EVAL_DIR to the folder holding scifact/ etc.).")
    return EVAL_DIR


def _jsonl(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _qrels(path: Path) -> dict[str, dict[str, int]]:
    qrels: dict[str, dict[str, int]] = {}
    with path.open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            if int(row["score"]) > 0:
                qrels.setdefault(row["query-id"], {})[row["corpus-id"]] = int(row["score"])
    return qrels


def split_write() -> None:
    """Halve each set without a split by query (seed SPLIT_SEED) into SPLIT_FILE: set, query id, fit|test."""
    import random

    rows = []
    for name in SELF_SPLIT_SETS:
        folder = eval_dir() / name
        qrels = _qrels(folder / "qrels.tsv")
        ids = sorted(q["_id"] for q in _jsonl(folder / "queries.jsonl") if q["_id"] in qrels)
        random.Random(SPLIT_SEED).shuffle(ids)
        half = len(ids) // 2
        rows += [(name, qid, "fit" if i < half else "test") for i, qid in enumerate(ids)]
    with SPLIT_FILE.open("w", encoding="utf-8") as handle:
        handle.write("set\tquery-id\tsplit\n")
        handle.writelines(f"{name}\t{qid}\t{split}\n" for name, qid, split in rows)


def _self_split(name: str) -> dict[str, str]:
    with SPLIT_FILE.open(encoding="utf-8") as handle:
        return {row["query-id"]: row["split"] for row in csv.DictReader(handle, delimiter="\t") if row["set"] == name}


def load_set(name: str, split: str = "all") -> EvalSet:
    """A set's corpus and judged queries. `split`:

    - "all": every judged query of queries.jsonl (SciFact: its test split);
    - "test": what evaluation reports: SciFact test, JSQuAD's `test` queries, and the `test`
      half of StackFAQ, CovidFAQ and JaQuAD (bench/eval_split.tsv);
    - "fit": what fusion may be fitted on: SciFact train, JSQuAD's `valid` queries, the
      `fit` half of the others.
    """
    if name.endswith("-short"):
        return short_set(name, split)
    folder = eval_dir() / name
    corpus = _jsonl(folder / "corpus.jsonl")[: CORPUS_LIMITS.get(name)]
    if split == "fit" and name == "scifact":
        qrels = _qrels(folder / "qrels-train.tsv")
        queries = [q for q in _jsonl(folder / "queries-train.jsonl") if q["_id"] in qrels]
        return EvalSet(name=name, corpus=corpus, queries=queries, qrels=qrels)
    qrels = _qrels(folder / "qrels.tsv")
    queries = [q for q in _jsonl(folder / "queries.jsonl") if q["_id"] in qrels]
    if split not in ("all", "test", "fit"):
        raise ValueError(f"unknown split {split!r}")
    if split in ("test", "fit") and (folder / "query-split.tsv").exists():
        wanted = "test" if split == "test" else "valid"
        with (folder / "query-split.tsv").open(encoding="utf-8") as handle:
            keep = {row["query-id"] for row in csv.DictReader(handle, delimiter="\t") if row["jglue-split"] == wanted}
        queries = [q for q in queries if q["_id"] in keep]
    elif split in ("test", "fit") and name in SELF_SPLIT_SETS:
        halves = _self_split(name)
        queries = [q for q in queries if halves.get(q["_id"]) == split]
    return EvalSet(name=name, corpus=corpus, queries=queries, qrels={q["_id"]: qrels[q["_id"]] for q in queries})


def short_set(name: str, split: str = "all") -> EvalSet:
    """A short set (`<set>-short`): its question set's corpus, and the short queries of `split`
    ("fit", "test" or "all"; bench/short_queries.py, every document they name judged 1)."""
    from short_queries import base_set, short_queries

    base = base_set(name)
    if split not in ("all", "test", "fit"):
        raise ValueError(f"unknown split {split!r}")
    queries = [q for q in short_queries(base) if split == "all" or q["split"] == split]
    return EvalSet(name=name, corpus=load_set(base, split="all").corpus,
                   queries=[{"_id": q["_id"], "text": q["text"], "kind": q["kind"]} for q in queries],
                   qrels={q["_id"]: {doc: 1 for doc in q["relevant"]} for q in queries}, base=base)


def split_text(text: str, size: int = 500) -> list[str]:
    """About `size`-character pieces, cut at a sentence end or space where one is near."""
    text = " ".join(text.split())
    pieces: list[str] = []
    while len(text) > size:
        cut = max(text.rfind(mark, size // 2, size) for mark in (". ", "。", "？", "! ", "? "))
        if cut < 0:
            cut = text.rfind(" ", size // 2, size)
        cut = size if cut < 0 else cut + 1
        pieces.append(text[:cut].strip())
        text = text[cut:].strip()
    if text:
        pieces.append(text)
    return pieces


# Which offline model embeds the eval corpora: `local` (USE, the benches' default), `minilm`
# (English only) or `e5` (multilingual-e5-small). Each model's workspaces live in their own database (see eval_db()).
EVAL_EMBEDDING = os.environ.get("EVAL_EMBEDDING", "local")


def eval_db() -> str:
    """The database holding the loaded eval workspaces of EVAL_EMBEDDING's model."""
    default = "cms_bench_eval" if EVAL_EMBEDDING == "local" else f"cms_bench_eval_{EVAL_EMBEDDING}"
    return os.environ.get("BENCH_EVAL_DB", default)


def cached_query_backend_class():
    """The offline model (EVAL_EMBEDDING) with its query embeddings memoised: benches run
    several methods over the same queries, and the model is deterministic, so each query is
    embedded once."""
    if EVAL_EMBEDDING == "minilm":
        from ingestion.embeddings.minilm import MiniLMEmbeddingBackend as Base
    elif EVAL_EMBEDDING == "e5":
        from ingestion.embeddings.e5 import E5EmbeddingBackend as Base
    elif EVAL_EMBEDDING == "local":
        from ingestion.embeddings.local import LocalEmbeddingBackend as Base
    else:
        raise SystemExit(f"EVAL_EMBEDDING must be local, minilm or e5, not {EVAL_EMBEDDING!r}.")

    class CachedQueryLocalBackend(Base):
        _queries: dict[str, list[float]] = {}

        def embed_query(self, text: str) -> list[float]:
            if text not in self._queries:
                self._queries[text] = super().embed_query(text)
            return self._queries[text]

        def embed_queries(self, texts) -> list[list[float]]:
            texts = list(texts)
            missing = [t for t in dict.fromkeys(texts) if t not in self._queries]
            if missing:
                self._queries.update(zip(missing, super().embed_queries(missing)))
            return [self._queries[t] for t in texts]

        def prime(self, texts, batch: int = 64) -> None:
            """Embed these queries ahead, in batches (the model is much faster per text in a batch)."""
            texts = [t for t in dict.fromkeys(texts) if t not in self._queries]
            for start in range(0, len(texts), batch):
                self.embed_queries(texts[start:start + batch])

    return CachedQueryLocalBackend


if __name__ == "__main__":
    import sys

    if sys.argv[1:] == ["--write-split"]:
        split_write()
        print(f"wrote {SPLIT_FILE}")


def queries_prime(texts) -> None:
    """Embed a bench's queries ahead in batches through the configured (cached) backend."""
    from ingestion.embeddings import get_embedding_backend

    backend = get_embedding_backend()
    if hasattr(backend, "prime"):
        backend.prime(list(texts))
