"""Quality check before promoting a model: the same queries on two models, side by side.

Each query runs through `semantic_search` once per model (the one search function; the
model is passed explicitly, which only trusted code does). Per query: the overlap of the two
top-10s (by chunk). Over all queries: the mean overlap, each model's score distribution, and
with judged documents (qrels) each model's nDCG@10, where a document is an entry (its best
chunk counts) or `asset:<id>`.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field
from typing import Any

from cms.access import WorkspaceAccess
from search.engine.semantic import SemanticSearchError, semantic_run

TOP_K = 10


class CompareInputError(ValueError):
    """A queries or qrels file that cannot be read; the message names the line."""


@dataclass
class ModelFigures:
    model: str
    scores: list[float] = field(default_factory=list)  # every top-10 score over all queries
    ndcg: list[float] = field(default_factory=list)  # per judged query

    def distribution(self) -> dict[str, float | None]:
        if not self.scores:
            return {"min": None, "p25": None, "median": None, "p75": None, "max": None}
        ordered = sorted(self.scores)
        q = statistics.quantiles(ordered, n=4) if len(ordered) > 1 else [ordered[0]] * 3
        return {"min": round(ordered[0], 4), "p25": round(q[0], 4), "median": round(q[1], 4),
                "p75": round(q[2], 4), "max": round(ordered[-1], 4)}

    def mean_ndcg(self) -> float | None:
        return round(sum(self.ndcg) / len(self.ndcg), 4) if self.ndcg else None


@dataclass
class CompareReport:
    models: tuple[str, str]
    per_query: list[dict[str, Any]]
    figures: tuple[ModelFigures, ModelFigures]

    def as_dict(self) -> dict[str, Any]:
        overlaps = [q["overlap"] for q in self.per_query]
        return {
            "models": list(self.models),
            "queries": len(self.per_query),
            "mean_overlap_at_10": round(sum(overlaps) / len(overlaps), 4) if overlaps else None,
            "scores": {f.model: f.distribution() for f in self.figures},
            "ndcg_at_10": {f.model: f.mean_ndcg() for f in self.figures},
            "per_query": self.per_query,
        }


def queries_parse(text: str) -> list[tuple[str, str]]:
    """One query a line: `id<TAB>query`, or just the query (its id is the line number). Blank
    lines and lines starting with # are skipped."""
    queries = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        qid, tab, query = line.partition("\t")
        if not tab:
            qid, query = str(number), line
        if not query.strip():
            raise CompareInputError(f"Line {number}: the query is empty.")
        queries.append((qid.strip(), query.strip()))
    if not queries:
        raise CompareInputError("The queries file holds no query.")
    return queries


def qrels_parse(text: str) -> dict[str, dict[str, int]]:
    """Judgements, one a line: `query_id doc relevance` (tabs or spaces; TREC's four columns
    `query_id 0 doc relevance` too). `doc` is an entry id, or `asset:<id>`."""
    qrels: dict[str, dict[str, int]] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        parts = line.split()
        if not parts or parts[0].startswith("#"):
            continue
        if len(parts) == 4:
            parts = [parts[0], parts[2], parts[3]]
        if len(parts) != 3:
            raise CompareInputError(f"Line {number}: expected `query_id doc relevance`, got {line!r}.")
        try:
            relevance = int(parts[2])
        except ValueError:
            raise CompareInputError(f"Line {number}: relevance {parts[2]!r} is not a whole number.") from None
        qrels.setdefault(parts[0], {})[parts[1]] = relevance
    return qrels


def _doc_ranking(hits) -> list[str]:
    docs: list[str] = []
    for hit in hits:
        doc = str(hit.entry_id) if hit.entry_id is not None else f"asset:{hit.asset_id}"
        if doc not in docs:
            docs.append(doc)
    return docs


def ndcg_at_10(ranking: list[str], judged: dict[str, int]) -> float:
    """nDCG@10 with gains 2^rel - 1 and log2 discounts; 0 when nothing is judged relevant."""
    gain = sum((2 ** judged.get(doc, 0) - 1) / math.log2(rank + 2) for rank, doc in enumerate(ranking[:TOP_K]))
    ideal = sorted((r for r in judged.values() if r > 0), reverse=True)[:TOP_K]
    best = sum((2 ** r - 1) / math.log2(rank + 2) for rank, r in enumerate(ideal))
    return gain / best if best else 0.0


def embedding_compare(*, access: WorkspaceAccess, queries: list[tuple[str, str]], models: tuple[str, str],
                      qrels: dict[str, dict[str, int]] | None = None) -> CompareReport:
    """Run every query on both models (see the module docstring). Raises SemanticSearchError
    when a model cannot answer (no backend, a provider down)."""
    figures = (ModelFigures(models[0]), ModelFigures(models[1]))
    per_query = []
    for qid, query in queries:
        results = [semantic_run(access, {"query": query, "top_k": TOP_K, "include_candidates": True}, model=m) for m in models]
        ids = [[hit.id for hit in r.hits] for r in results]
        row: dict[str, Any] = {
            "id": qid, "query": query,
            "overlap": round(len(set(ids[0]) & set(ids[1])) / TOP_K, 4),
            "returned": {m: len(i) for m, i in zip(models, ids, strict=True)},
            "top_score": {m: round(r.hits[0].score, 4) if r.hits else None for m, r in zip(models, results, strict=True)},
        }
        for fig, result in zip(figures, results, strict=True):
            fig.scores.extend(hit.score for hit in result.hits)
            if qrels is not None and qid in qrels:
                fig.ndcg.append(ndcg_at_10(_doc_ranking(result.hits), qrels[qid]))
        if qrels is not None and qid in qrels:
            row["ndcg_at_10"] = {f.model: round(f.ndcg[-1], 4) for f in figures}
        per_query.append(row)
    return CompareReport(models=models, per_query=per_query, figures=figures)


__all__ = ["CompareInputError", "CompareReport", "SemanticSearchError", "embedding_compare", "ndcg_at_10",
           "qrels_parse", "queries_parse"]
