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


def load_set(name: str) -> EvalSet:
    folder = eval_dir() / name
    qrels: dict[str, dict[str, int]] = {}
    with (folder / "qrels.tsv").open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            if int(row["score"]) > 0:
                qrels.setdefault(row["query-id"], {})[row["corpus-id"]] = int(row["score"])
    queries = [q for q in _jsonl(folder / "queries.jsonl") if q["_id"] in qrels]
    return EvalSet(name=name, corpus=_jsonl(folder / "corpus.jsonl"), queries=queries, qrels=qrels)


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
