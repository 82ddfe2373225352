"""Readers for the judged retrieval sets in ../shared/eval/ (read in place, never copied here)."""

from __future__ import annotations

import csv
import json
import os
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
EVAL_DIR = Path(os.environ.get("EVAL_DIR", REPO_ROOT.parent / "shared" / "eval"))
SETS = ("scifact", "stackfaq-en", "jsquad-ja")


@dataclass(frozen=True)
class EvalSet:
    name: str
    corpus: list[dict]  # {"_id", "title", "text"}
    queries: list[dict]  # {"_id", "text"}, only those with judgements
    qrels: dict[str, dict[str, int]]  # query id -> doc id -> relevance


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


def load_set(name: str, split: str = "all") -> EvalSet:
    """A set's corpus and judged queries. `split`:

    - "all": every judged query of queries.jsonl (SciFact: its test split);
    - "test": what evaluation reports: SciFact test, every StackFAQ query, JSQuAD's `test` queries;
    - "fit": what fusion weights may be fitted on: SciFact train, JSQuAD's `valid` queries
      (StackFAQ has no split: none).
    """
    folder = eval_dir() / name
    corpus = _jsonl(folder / "corpus.jsonl")
    if split == "fit" and name == "scifact":
        qrels = _qrels(folder / "qrels-train.tsv")
        queries = [q for q in _jsonl(folder / "queries-train.jsonl") if q["_id"] in qrels]
        return EvalSet(name=name, corpus=corpus, queries=queries, qrels=qrels)
    qrels = _qrels(folder / "qrels.tsv")
    queries = [q for q in _jsonl(folder / "queries.jsonl") if q["_id"] in qrels]
    if split in ("test", "fit") and (folder / "query-split.tsv").exists():
        wanted = "test" if split == "test" else "valid"
        with (folder / "query-split.tsv").open(encoding="utf-8") as handle:
            keep = {row["query-id"] for row in csv.DictReader(handle, delimiter="\t") if row["jglue-split"] == wanted}
        queries = [q for q in queries if q["_id"] in keep]
    elif split == "fit":
        queries = []
    elif split not in ("all", "test"):
        raise ValueError(f"unknown split {split!r}")
    return EvalSet(name=name, corpus=corpus, queries=queries, qrels={q["_id"]: qrels[q["_id"]] for q in queries})


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


# Which offline model embeds the eval corpora: `local` (the multilingual default) or `minilm`
# (English only). Each model's workspaces live in their own database (see eval_db()).
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
    elif EVAL_EMBEDDING == "local":
        from ingestion.embeddings.local import LocalEmbeddingBackend as Base
    else:
        raise SystemExit(f"EVAL_EMBEDDING must be local or minilm, not {EVAL_EMBEDDING!r}.")

    class CachedQueryLocalBackend(Base):
        _queries: dict[str, list[float]] = {}

        def embed_query(self, text: str) -> list[float]:
            if text not in self._queries:
                self._queries[text] = super().embed_query(text)
            return self._queries[text]

    return CachedQueryLocalBackend
