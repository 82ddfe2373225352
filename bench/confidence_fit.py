#!/usr/bin/env python
"""Fit the chunk searches' confidence (search/engine/confidence.py) and its default floor on the fit splits only.

Run from the repo root:  DEBUG=true .venv/bin/python bench/confidence_fit.py [--max-queries 300] [--sets ...]
(EVAL_EMBEDDING=e5 fits multilingual-e5-small on its own database, as bench/eval.py loads it.)

Data: every set of ../shared/eval/ loaded as bench/eval.py loads it (workspace `eval-<set>`,
in the database of EVAL_EMBEDDING's model). For each set's FIT queries (SciFact train,
JSQuAD valid, the `fit` half of the others in bench/eval_split.tsv; --max-queries of them,
spread evenly over the split):

- answerable: the query on its own corpus; a row (one of the chunks semantic_search, and
  hybrid_search, rank for a default request of 10 entries: 40, see search_rows) is labelled
  relevant when its entry is a judged document of the query;
- unanswerable: the same query on a corpus about another subject (UNANSWERABLE_CORPUS, with
  each pair's reason; a query naming that corpus's subject is left out); every row is
  labelled not relevant.

Rows are read from the searches as the product runs them (`include_candidates: true`, so
the floor drops nothing); their features are what search/engine/confidence.py reads: cosine
similarity and BM25, the query's cosine to each background sentence, and each row's own
background (from its stored vector, whether or not the calibration reads it yet). Rows are
cached in var/bench/confidence/ per (model, set, split, corpus, kind); --refresh reruns the
searches.

Models (logistic, each set weighted equally, L2 1e-3), per kind of row ("semantic": the
semantic search's rows; "hybrid": hybrid's), the cosine and one more feature (MODELS):
  sim:         z = b + w1 * similarity
  sim+kw:      ... + w2 * log(1 + BM25)                         (hybrid rows)
  sim+kwnorm:  ... + w2 * BM25 / the query's best BM25          (hybrid rows)
  sim+gap:     ... + w2 * (the query's first cosine - its tenth)
  sim+bg-<statistic>: ... + w2 * the query's background: its cosines to
               search/engine/confidence_background.py's sentences, summed up by `statistic`
               (search/engine/confidence_background.py BACKGROUND_STATISTICS: their mean; their mean over
               the sentences in the query's own script; the mean of the nearest 10, 5, 1)
  <model>+passage: ... + w3 * the row's own background: its vector's mean cosine to the same
               sentences (ChunkHit.passage_background), beside the cosine alone or beside
               each statistic of the query's background
  <model>+bm25: ... + w4 * log(1 + BM25) of a hybrid row (the table's keyword weight), beside
               what the model reads (issue 51: short queries, whose words stand in the row)
Short sets (`<set>-short`, bench/short_queries.py; issue 51) are fitted beside the question sets,
each a set of its own in leave-one-set-out: answerable on their own corpus; unanswerable on
their question set's UNANSWERABLE_CORPUS, less any query whose every word stands in some
document there (then the words are there, and it is an answer). A short set's false "no good
match" target is SHORT_TARGET (1%), read as a point (--short-target).
The floor for a fit: the highest confidence such that, on EVERY set fitted on, the share of the
answerable queries with a best confidence under it is at most 5% with 95% confidence (its
one-sided Clopper-Pearson upper bound; refusals_allowed: 8 of 300 queries, where the share
read as a point, 15 of 300, left a binding set over 5% on unseen queries about half the
time). The model is chosen per kind by
leave-one-set-out: fit on five sets, pick the floor on them, and score the sixth (false "no
good match" rate on its answerable queries, true rate on its unanswerable ones); the model
with the best worst set wins (true rate, a false rate over 5% counted four times against it;
each feature added must gain MIN_GAIN over the model without it: a second over the cosine
alone, a third over the best with two; one model serves both kinds, judged by its worse
kind: models_choose), and is refitted on all six.
Then each kind's bias is moved so that its floor falls on the one default floor
(DEFAULT_MIN_CONFIDENCE, search/contract/options.py): every model and kind maps onto the same
scale, where the floor means "at most 5% of answerable queries refused on any set, with 95%
confidence". It prints the entry to paste into search/engine/confidence.py's CALIBRATION.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import os
import re
import sys
from pathlib import Path

import numpy as np

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from evalsets import EVAL_SETS, SHORT_SETS, load_set  # noqa: E402
from search.engine.confidence_background import BACKGROUND_STATISTICS, background_statistic, text_script  # noqa: E402

# Which corpus a set's queries are run against as unanswerable ones: a corpus on another
# subject, so that no question of the set can be answered there (bench/unanswerable.py reads
# the same pairs). Never two Wikipedias: JSQuAD and JaQuAD are both Japanese Wikipedia (one's
# question may be answered by the other's paragraph), and DRCD's Chinese Wikipedia shares
# subjects with them (Japan, Taiwan, history, science), in another script but in one
# multilingual vector space.
# - scifact (biomedical claims)          -> stackfaq-en (how-tos of web apps: Gmail, Google Docs)
# - stackfaq-en (web-app how-tos)        -> covidfaq-en (68 COVID-19 FAQ answers)
# - covidfaq-en (COVID-19 questions)     -> stackfaq-en
# - jsquad-ja (Japanese Wikipedia)       -> covidfaq-en (English; its COVID/infection questions skipped)
# - jaquad-ja (Japanese Wikipedia)       -> stackfaq-en (English; its web-service questions skipped)
# - drcd-zh (Chinese Wikipedia)          -> stackfaq-en (English; its web/e-mail questions skipped)
UNANSWERABLE_CORPUS = {
    "scifact": "stackfaq-en",
    "stackfaq-en": "covidfaq-en",
    "covidfaq-en": "stackfaq-en",
    "jsquad-ja": "covidfaq-en",
    "jaquad-ja": "stackfaq-en",
    "drcd-zh": "stackfaq-en",
}
# What each corpus that stands in as "elsewhere" is about: a question naming its subject is not
# sent there as an unanswerable one (JSQuAD has articles on infectious diseases, with COVID-19
# questions, and on Google Search; DRCD asks about the first e-mail).
CORPUS_SUBJECTS = {
    "covidfaq-en": re.compile(r"covid|corona|sars|mers|virus|quarantin|pandemic|epidemic|influenza|\bflu\b|vaccin|"
                              r"コロナ|ウイルス|ウィルス|感染|検疫|疫|インフルエンザ|ワクチン|冠狀|病毒|肺炎|流感|隔離",
                              re.IGNORECASE),
    "stackfaq-en": re.compile(r"google|gmail|youtube|twitter|facebook|dropbox|trello|e-?mail|spreadsheet|browser|"
                              r"グーグル|メール|ツイッター|ブラウザ|谷歌|郵件|郵箱|瀏覽器|網頁|推特|臉書",
                              re.IGNORECASE),
}


def unanswerable_corpus(name: str) -> str:
    """The corpus a set's queries are unanswerable on: a short set's is its question set's."""
    from short_queries import base_set

    return UNANSWERABLE_CORPUS[base_set(name)]


def queries_sample(queries: list[dict], count: int | None) -> list[dict]:
    """`count` queries spread evenly over the list (all of them for None): JSQuAD's queries
    come article by article, so its first 100 would be one or two articles."""
    if count is None or count >= len(queries):
        return list(queries)
    return [queries[i * len(queries) // count] for i in range(count)]


def unanswerable_queries(name: str, queries: list[dict]) -> list[dict]:
    """The queries of set `name` that ask nothing about the subject of its UNANSWERABLE_CORPUS.
    A short set's also leave out a query whose every word stands in some document of that
    corpus: there the words are, so it is answerable (issue 51), whatever it meant."""
    from short_queries import is_short, words_in, words_of

    other = unanswerable_corpus(name)
    subject = CORPUS_SUBJECTS.get(other)
    kept = [q for q in queries if subject is None or not subject.search(q["text"])]
    if is_short(name):
        texts = [f"{doc.get('title') or ''}\n{doc.get('text') or ''}" for doc in load_set(other).corpus]
        kept = [q for q in kept if not any(words_in(words_of(q["text"]), text) for text in texts)]
    return kept


KINDS = ("semantic", "hybrid")
FALSE_TARGET = 0.05
# A short set's target (issue 51: a word that stands in the content is an answer): 1% of its
# answerable queries refused at most. Its ~120 fit queries cannot bound 1% with 95% confidence
# (that takes 299 with none refused), so it is read as a point: 1 refusal of 120.
# --short-target sets another (0.05: the question sets' rule for them too).
SHORT_TARGET = 0.01
# How sure the floor's read must be that a set's false "no good match" rate is within
# FALSE_TARGET: a one-sided bound, so that a set read at the target on its fit queries is not
# over it on unseen ones half the time (docs/design/confidence.md, the operating point).
FLOOR_CONFIDENCE = 0.95
CACHE = REPO_ROOT / "var" / "bench" / "confidence"


def django_ready() -> None:
    from eval import django_setup

    django_setup()


def workspace_of(name: str):
    """The loaded eval workspace of a set and entry id -> document id (bench/eval.py loads them)."""
    from cms.models import Entry, Workspace

    from evalsets import load_set as load

    from short_queries import base_set

    name = base_set(name)
    workspace = Workspace.objects.filter(slug=f"eval-{name}").first()
    if workspace is None:
        raise SystemExit(f"eval-{name} is not loaded: run bench/eval.py --sets {name} first.")
    corpus = load(name, split="test").corpus
    entry_ids = list(Entry.objects.filter(workspace=workspace).order_by("pk").values_list("pk", flat=True))
    return workspace, {pk: doc["_id"] for pk, doc in zip(entry_ids, corpus)}


def set_queries_ready(name: str, split: str, max_queries: int | None):
    """A loaded set's queries as a bench searches them: (the set, its queries spread over the
    split, operator access to its workspace, entry id -> document id), the queries' vectors
    embedded ahead in batches."""
    from cms.access import workspace_access_for_operator
    from evalsets import load_set as load, queries_prime

    data = load(name, split=split)
    queries = queries_sample(data.queries, max_queries)
    workspace, entry_to_doc = workspace_of(name)
    queries_prime(q["text"][:2000] for q in queries)
    return data, queries, workspace_access_for_operator(workspace=workspace), entry_to_doc


def search_rows(kind: str, workspace, entry_to_doc: dict[int, str], queries: list[dict],
                qrels: dict[str, dict[str, int]] | None) -> list[dict]:
    """One row per query: its hits' (similarity, BM25, relevant) and the product's verdict.

    The hits are the chunks a default request (top_k 10 entries) ranks before grouping them by
    entry (chunk_fetch: 40), so their features, and the verdict, are exactly what
    answer_floor_apply reads in the product."""
    from cms.access import workspace_access_for_operator
    from ingestion.embeddings import get_embedding_backend
    from ingestion.models import ChunkVector
    from search.engine.confidence import background_cosines, hit_features, passage_background
    from search.engine.hybrid import hybrid_search
    from search.contract.options import DEFAULT_TOP_K
    from search.engine.entry_results import chunk_fetch
    from search.engine.semantic import semantic_search

    from evalsets import queries_prime

    queries_prime(q["text"][:2000] for q in queries)
    access = workspace_access_for_operator(workspace=workspace)
    run = semantic_search if kind == "semantic" else hybrid_search
    backend = get_embedding_backend()  # the bench's: its query vectors are cached (evalsets)
    rows = []
    for query in queries:
        result = run(access=access, query=query["text"][:2000], top_k=chunk_fetch(DEFAULT_TOP_K), raw_chunks=True,
                     include_candidates=True)
        judged = (qrels or {}).get(query["_id"], {})
        # Each row's own background (its mean cosine to the background sentences), whether or not
        # the model's calibration reads it yet: from its stored vector, by the product's
        # passage_background (what the vector leg's SQL computes when the calibration reads it).
        passages = {chunk_id: passage_background(backend.model_name, vector) for chunk_id, vector in
                    ChunkVector.objects.filter(chunk_id__in=[hit.id for hit in result.hits], model=backend.model_name
                                               ).values_list("chunk_id", "embedding")}
        hits, background = [], None
        for hit in result.hits:
            similarity, keyword, background, _ = hit_features(hit)
            hits.append([similarity, keyword, int(entry_to_doc.get(hit.entry_id) in judged), hit.id,
                         round(passages[hit.id], 5) if hit.id in passages else None])
        # The query's cosine to each background sentence, whatever the calibration reads: the
        # fit compares ways of summing them up (BACKGROUND_STATISTICS).
        cohort = background_cosines(backend.model_name, backend.embed_query(query["text"][:2000]))
        rows.append({"id": query["_id"], "text": query["text"][:2000], "hits": hits, "background": background,
                     "cohort": [round(float(c), 5) for c in cohort], "script": text_script(query["text"]),
                     "answerable": result.extra_meta.get("answerable"),
                     "best_confidence": result.extra_meta.get("best_confidence")})
    return rows


def rows_cached(name: str, split: str, corpus: str, kind: str, max_queries: int | None, refresh: bool
                ) -> list[dict]:
    """The rows of `name`'s `split` queries (queries_sample; on another corpus, unanswerable_queries
    of them) run by `kind` on `corpus`'s workspace, cached per embedding model."""
    from evalsets import EVAL_EMBEDDING

    CACHE.mkdir(parents=True, exist_ok=True)
    path = CACHE / f"{EVAL_EMBEDDING}.passages.{name}.{split}.{corpus}.{kind}.{max_queries or 'all'}.jsonl"
    if path.exists() and not refresh:
        return [json.loads(line) for line in path.open(encoding="utf-8")]
    data = load_set(name, split=split)
    queries = queries_sample(data.queries, max_queries)
    if corpus != name:
        queries = unanswerable_queries(name, queries)
    workspace, entry_to_doc = workspace_of(corpus)
    rows = search_rows(kind, workspace, entry_to_doc, queries, data.qrels if corpus == name else None)
    with path.open("w", encoding="utf-8") as handle:
        handle.writelines(json.dumps(row) + "\n" for row in rows)
    return rows


# --- the fit ------------------------------------------------------------------------------

# The second feature beside the cosine, per model (None: the cosine alone). "kw": log(1 + BM25)
# of the row; "kwnorm": the row's BM25 over the best BM25 of the query's rows; "gap": the
# query's first cosine minus its tenth (the rows' spread). The last two are per answer, not
# per row: the product (search/engine/confidence.py) reads the row alone, and would have to
# compute them from the answer's rows in answer_floor_apply if a fit chose one.
# "+passage": and the row's own background (its mean cosine to the same sentences; ChunkHit
# .passage_background), beside the cosine alone or beside each statistic of the query's.
MODELS = {"sim": None, "sim+kw": "kw", "sim+kwnorm": "kwnorm", "sim+gap": "gap",
          **{f"sim+bg-{name}": f"bg-{name}" for name in BACKGROUND_STATISTICS}}
MODELS |= {f"{model}+passage": second for model, second in MODELS.items()
           if second is None or second.startswith("bg-")}
# "+bm25": and log(1 + BM25) of a hybrid row beside what the model reads (the table's keyword
# weight, which the product reads already; a semantic row has none): short queries, whose words
# stand in the row, are the evidence a cosine alone misses (issue 51).
MODELS |= {f"{model}+bm25": second for model, second in MODELS.items()
           if second is None or second.startswith("bg-")}


# --models: only these are compared (all of MODELS by default).
ONLY_MODELS: tuple[str, ...] = ()


def reads_passage(model: str) -> bool:
    return model.removesuffix("+bm25").endswith("+passage")


def reads_bm25(model: str) -> bool:
    return model.endswith("+bm25")

# A second feature is kept only when it raises the worst held-out set's score by this much (5
# queries in 100) over the cosine alone: E5's semantic rows on five sets gained 0.02 from "gap"
# with a negative weight, noise that would have cost the product a per-answer feature.
MIN_GAIN = 0.05
# The second features search/engine/confidence.py reads ("kw", "kwnorm" and "gap" are measured
# and printed, and chosen only once the product computes them): the query's background, summed up each way the product can (search/engine/confidence_background.py
# BACKGROUND_STATISTICS: the mean of its cosines to the background sentences; their mean over the
# sentences in the query's own script, as E5's and USE's cosines run lower across languages than
# within one; the mean of the nearest 10, 5 or 1, the "adaptive" cohort of speaker verification's
# score normalisation, which takes the impostors nearest the test utterance), from the row's
# "cohort" (its query's cosine to each sentence) by the product's own background_statistic.
PRODUCT_FEATURES = (None, *(f"bg-{name}" for name in BACKGROUND_STATISTICS))


_DESIGN: dict = {}


def design(row: dict, model: str, kind: str) -> np.ndarray:
    """design_of, memoised per row (every fold and floor reads the same rows again)."""
    key = (id(row), model, kind)
    if key not in _DESIGN:
        _DESIGN[key] = design_of(row, model, kind)
    return _DESIGN[key]


def design_of(row: dict, model: str, kind: str) -> np.ndarray:
    """Feature columns [1, similarity, the model's second feature, the row's own background (0
    unless the model reads it), log(1 + BM25) (0 unless the model reads it)] of one query's hits [similarity, BM25, relevant, chunk id, own
    background] that have a similarity (the best BM25 is over all of them, as a product
    computing it would read it)."""
    extra = MODELS[model]
    if kind == "semantic" and extra in ("kw", "kwnorm"):
        extra = None  # semantic rows carry no BM25
    best_bm25 = max((h[1] for h in row["hits"] if h[1] is not None), default=0.0)
    hits = scored_hits(row)
    similarities = sorted((h[0] for h in hits), reverse=True)
    gap = similarities[0] - similarities[min(9, len(similarities) - 1)] if similarities else 0.0
    columns = []
    background = (background_statistic(extra.removeprefix("bg-"), np.asarray(row["cohort"]), row["script"])
                  if extra and extra.startswith("bg-") else 0.0)
    for similarity, keyword, _, _, passage in hits:
        value = {None: 0.0, "kw": math.log1p(max(keyword or 0.0, 0.0)),
                 "kwnorm": (keyword or 0.0) / best_bm25 if best_bm25 > 0 else 0.0, "gap": gap}.get(extra, background)
        columns.append([1.0, similarity, value, passage if reads_passage(model) else 0.0,
                        math.log1p(max(keyword or 0.0, 0.0)) if reads_bm25(model) and kind == "hybrid" else 0.0])
    return np.array(columns, dtype=float).reshape(-1, 5)


def logistic_fit(x: np.ndarray, y: np.ndarray, weights: np.ndarray, l2: float = 1e-3) -> np.ndarray:
    """Weighted L2 logistic regression by Newton steps; unused columns (all 0) stay 0."""
    used = np.abs(x).sum(axis=0) > 0
    xs = x[:, used]
    beta = np.zeros(xs.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-np.clip(xs @ beta, -50, 50)))
        gradient = xs.T @ (weights * (p - y)) + l2 * beta
        hessian = (xs.T * (weights * p * (1 - p))) @ xs + l2 * np.eye(xs.shape[1])
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if np.abs(step).max() < 1e-8:
            break
    full = np.zeros(x.shape[1])
    full[used] = beta
    return full


def scored_hits(row: dict) -> list[list]:
    """The row's hits with a cosine (and a vector, so an own background): what the confidence reads."""
    return [h for h in row["hits"] if h[0] is not None and h[4] is not None]


def fit_table(data: dict, sets: list[str], model: str, kind: str) -> np.ndarray:
    """(bias, w_similarity, w_second, w_own_background, w_bm25) for `kind`'s rows, fitted on `sets` (each
    weighted equally)."""
    xs, ys, ws = [], [], []
    for name in sets:
        blocks = [design(row, model, kind) for side in ("answerable", "unanswerable")
                  for row in data[name][kind][side] if scored_hits(row)]
        labels = [h[2] for side in ("answerable", "unanswerable") for row in data[name][kind][side]
                  for h in scored_hits(row)]
        if not labels:
            continue
        xs.append(np.vstack(blocks))
        ys.append(np.array(labels, dtype=float))
        ws.append(np.full(len(labels), 1.0 / len(labels)))
    return logistic_fit(np.vstack(xs), np.concatenate(ys), np.concatenate(ws) * len(xs))


def best_confidences(rows: list[dict], table: np.ndarray, model: str, kind: str) -> list[float]:
    """Each query's best hit confidence under `table` (0 for a query with no hit)."""
    best = []
    for row in rows:
        hits = scored_hits(row)
        if not hits:
            best.append(0.0)
            continue
        z = design(row, model, kind) @ table
        best.append(float((1 / (1 + np.exp(-np.clip(z, -50, 50)))).max()))
    return best


@functools.cache
def refusals_allowed(queries: int, confidence: float) -> int:
    """The most answerable queries of `queries` a floor may refuse while the false "no good
    match" rate's one-sided Clopper-Pearson upper bound at `confidence` (FLOOR_CONFIDENCE) stays
    at most FALSE_TARGET: 8 of 300 (2.7%), 82 of 1,969 (4.2%) at 95%; -1 where even none is not
    enough (under 59 queries). `confidence` 0 reads the share as a point (the rule before)."""
    from scipy.stats import beta

    if not confidence:
        return int(math.floor(FALSE_TARGET * queries))

    def upper(refused: int) -> float:
        if refused >= queries:
            return 1.0
        return float(beta.ppf(confidence, refused + 1, queries - refused))

    refused = -1
    while refused + 1 < queries and upper(refused + 1) <= FALSE_TARGET:
        refused += 1
    return refused


def refusals_for(name: str, queries: int) -> int:
    """How many of a fitted set's `queries` answerable ones its floor may refuse: a question set's
    by refusals_allowed, a short set's SHORT_TARGET read as a point."""
    from short_queries import is_short

    if is_short(name) and SHORT_TARGET != FALSE_TARGET:
        return int(math.floor(SHORT_TARGET * queries))
    return refusals_allowed(queries, FLOOR_CONFIDENCE)


def target_of(name: str) -> float:
    from short_queries import is_short

    return SHORT_TARGET if is_short(name) else FALSE_TARGET


def floor_for(data: dict, sets: list[str], table: np.ndarray, model: str, kind: str) -> float:
    """The highest floor keeping the false "no good match" rate within FALSE_TARGET, with
    FLOOR_CONFIDENCE, on every set: at each set's (refusals_allowed + 1)-th lowest best confidence
    (main refuses to fit a set too small to bound)."""
    floors = []
    for name in sets:
        best = sorted(best_confidences(data[name][kind]["answerable"], table, model, kind))
        floors.append(best[refusals_for(name, len(best))] if best else 1.0)
    return min(floors)


def rates(data: dict, name: str, table: np.ndarray, model: str, kind: str, floor: float) -> tuple[float, float]:
    """(false "no good match" rate on answerable queries, true rate on unanswerable ones)."""
    answerable = best_confidences(data[name][kind]["answerable"], table, model, kind)
    unanswerable = best_confidences(data[name][kind]["unanswerable"], table, model, kind)
    false_rate = sum(c < floor for c in answerable) / max(1, len(answerable))
    true_rate = sum(c < floor for c in unanswerable) / max(1, len(unanswerable))
    return false_rate, true_rate


def logit(p: float) -> float:
    return math.log(p / (1 - p))


def leave_one_set_out(data: dict, names: list[str], kind: str) -> dict[str, float]:
    """Print each model's held-out rates per left-out set; each eligible model's worst set's score."""
    scores = {}
    for model in MODELS:
        if ONLY_MODELS and model not in ONLY_MODELS:
            continue
        if kind == "semantic" and MODELS[model] in ("kw", "kwnorm"):
            continue
        worst = 1.0
        for name in names:
            others = [n for n in names if n != name]
            table = fit_table(data, others, model, kind)
            floor = floor_for(data, others, table, model, kind)
            false_rate, true_rate = rates(data, name, table, model, kind, floor)
            worst = min(worst, true_rate - max(0.0, false_rate - target_of(name)) * 4)
            print(f"{model:<16} {kind:<9} {name:<12} {floor:>6.3f} {false_rate:>6.1%} {true_rate:>6.1%}")
        veto = " (refuses a cosine of 1 with no second feature: not eligible)" if (
            model != "sim" and vetoes_answers(data, names, model, kind)) else (
            " (the product does not compute it: not eligible)" if MODELS[model] not in PRODUCT_FEATURES else "")
        print(f"{model:<16} {kind:<9} {'worst score':<12} {worst:>6.3f}{veto}", flush=True)
        scores[model] = worst
    return {m: score for m, score in scores.items() if MODELS[m] in PRODUCT_FEATURES
            and (m == "sim" or not vetoes_answers(data, names, m, kind))}


def models_choose(scores: dict[str, dict[str, float]], current: str | None = None) -> dict[str, str]:
    """Per kind, the cosine alone or the cosine and the backgrounds the model reads, from each
    eligible model's worst held-out score (`scores[kind][model]`). The product computes one
    background per query and model, so one model serves both kinds, judged by its worse kind.
    Features are added one at a time: the best model with one more feature is taken only where
    it raises that score by MIN_GAIN over the model taken so far (the cosine alone; then the
    best with one feature beside it); a kind keeps the result where it gains MIN_GAIN over the
    cosine alone. Among the models with as many features, the one the product reads now
    (`current`, current_model) is kept unless another beats it by MIN_GAIN: a refit does not
    swap one background statistic for another on a query or two of 300."""
    eligible = [m for m in scores[KINDS[0]] if all(m in scores[kind] for kind in KINDS)]

    def worse(model: str) -> float:
        return min(scores[kind][model] for kind in KINDS)

    chosen = "sim"
    for size in (1, 2, 3):  # features beside the cosine
        best = max((m for m in eligible if m.count("+") == size), key=worse, default=None)
        if current in eligible and current.count("+") == size and worse(current) >= worse(best) - MIN_GAIN:
            best = current
        if best is not None and worse(best) >= worse(chosen) + MIN_GAIN:
            chosen = best
    return {kind: chosen if scores[kind][chosen] >= scores[kind]["sim"] + MIN_GAIN else "sim" for kind in KINDS}


def current_model(model_name: str) -> str | None:
    """The MODELS name of what `model_name`'s calibration reads now (search/engine/confidence.py
    CALIBRATION and BACKGROUND_STATISTIC), None for a model with no calibration."""
    from search.engine.confidence import (BACKGROUND_STATISTIC, CALIBRATION, confidence_calibrated,
                                          reads_background, reads_passage_background)

    if not confidence_calibrated(model_name):
        return None
    name = "sim"
    if reads_background(model_name):
        name += f"+bg-{BACKGROUND_STATISTIC[model_name]}"
    if reads_passage_background(model_name):
        name += "+passage"
    if any(table[2] for table in CALIBRATION[model_name].values()):
        name += "+bm25"
    return name


def vetoes_answers(data: dict, names: list[str], model: str, kind: str) -> bool:
    """Whether the model, fitted on all sets, refuses a row with a cosine of 1 when its second
    feature is 0: the keyword share does (no keyword match, a paraphrase or a question in another
    language, is then never an answer; every cross-language pair here is an unanswerable one, so
    the fit learns that), which the product cannot take."""
    table = fit_table(data, names, model, kind)
    floor = floor_for(data, names, table, model, kind)
    return 1 / (1 + math.exp(-(table[0] + table[1]))) < floor


def needed_cosine_print(data: dict, names: list[str], table: np.ndarray, model: str, kind: str) -> None:
    """The cosine a row needs to reach the default floor, at the fit rows' 5th, 50th and 95th
    percentile of each background the model reads (the others at their median): what a
    background weight costs an answer, in the cosine it asks for."""
    from search.contract.options import DEFAULT_MIN_CONFIDENCE

    rows = [design(row, model, kind) for name in names for side in ("answerable", "unanswerable")
            for row in data[name][kind][side] if scored_hits(row)]
    features = np.vstack(rows)
    median = np.median(features, axis=0)
    for column, label in ((2, "query's background"), (3, "row's own background")):
        if not table[column]:
            continue
        needed = []
        for q in (5, 50, 95):
            point = median.copy()
            point[column] = np.percentile(features[:, column], q)
            rest = float(point @ table) - table[1] * point[1]
            needed.append(f"{point[column]:.3f} -> {(logit(DEFAULT_MIN_CONFIDENCE) - rest) / table[1]:.3f}")
        print(f"    cosine needed at the floor by the {label} (p5, p50, p95 of the fit rows): " + ", ".join(needed))


def main() -> None:
    global FLOOR_CONFIDENCE, SHORT_TARGET, ONLY_MODELS
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default=",".join(EVAL_SETS + SHORT_SETS))
    parser.add_argument("--max-queries", type=int, default=300,
                        help="fit queries per set (spread over the split; CALIBRATION was fitted on 300)")
    parser.add_argument("--refresh", action="store_true", help="rerun the searches instead of reading the cache")
    parser.add_argument("--floor-confidence", type=float, default=FLOOR_CONFIDENCE,
                        help="how sure the floor's read is that each set's false rate is within 5%% "
                        "(0: the share read as a point, the rule before)")
    parser.add_argument("--short-target", type=float, default=SHORT_TARGET,
                        help="a short set's false no-match target, read as a point (0.05: the question sets' rule)")
    parser.add_argument("--models", default="", help="only these models, e.g. sim,sim+bg-mean+passage (default: all)")
    parser.add_argument("--rows-only", action="store_true", help="run and cache the searches of --sets, fit nothing")
    args = parser.parse_args()
    names = [n.strip() for n in args.sets.split(",") if n.strip()]
    FLOOR_CONFIDENCE = args.floor_confidence
    SHORT_TARGET = args.short_target
    ONLY_MODELS = tuple(dict.fromkeys(["sim", *(m for m in args.models.split(",") if m)])) if args.models else ()
    if unknown := [m for m in ONLY_MODELS if m not in MODELS]:
        raise SystemExit(f"unknown model(s) {unknown}; models: {', '.join(MODELS)}")
    django_ready()
    from ingestion.embeddings import get_embedding_backend
    from search.contract.options import DEFAULT_MIN_CONFIDENCE

    model_name = get_embedding_backend().model_name
    rule = (f"with {FLOOR_CONFIDENCE:.0%} confidence ({refusals_allowed(300, FLOOR_CONFIDENCE)} refusals "
            "of 300 allowed)"
            if FLOOR_CONFIDENCE else "as a point")
    print(f"load average {tuple(round(x, 2) for x in os.getloadavg())}; embedding model {model_name}; "
          f"floors read {rule}", flush=True)
    data: dict = {}
    for name in names:
        data[name] = {}
        for kind in KINDS:
            data[name][kind] = {
                "answerable": rows_cached(name, "fit", name, kind, args.max_queries, args.refresh),
                "unanswerable": rows_cached(name, "fit", unanswerable_corpus(name), kind, args.max_queries,
                                            args.refresh),
            }
        print(f"  {name}: {len(data[name]['hybrid']['answerable'])} fit queries on its corpus, "
              f"{len(data[name]['hybrid']['unanswerable'])} on {unanswerable_corpus(name)}'s", flush=True)
    if args.rows_only:
        return
    for name in names:
        queries = len(data[name]["hybrid"]["answerable"])
        if refusals_for(name, queries) < 0:
            raise SystemExit(f"{name}: {queries} answerable fit queries cannot bound a {FALSE_TARGET:.0%} false "
                             f"rate with {FLOOR_CONFIDENCE:.0%} confidence even with none refused: "
                             "raise --max-queries (59 at least at 95%)")

    print("\nleave-one-set-out (fit on the others, floor chosen on the others, scored on the one left out)")
    print(f"{'model':<16} {'kind':<9} {'left out':<12} {'floor':>6} {'false':>6} {'true':>6}")
    current = current_model(model_name)
    chosen = models_choose({kind: leave_one_set_out(data, names, kind) for kind in KINDS}, current)
    print(f"\nchosen by the worst held-out set (the product reads {current} now): {chosen}; refitted on all {len(names)} sets, each kind's bias "
          f"moved so that its floor is the default floor {DEFAULT_MIN_CONFIDENCE}")
    entry = {}
    for kind in KINDS:
        model = chosen[kind]
        table = fit_table(data, names, model, kind)
        floor = floor_for(data, names, table, model, kind)
        # (+ 0.001: the query the floor was read from stays at or over it once the weights are rounded)
        table[0] += logit(DEFAULT_MIN_CONFIDENCE) - logit(floor) + 0.001
        background = table[2] if MODELS[model] else 0.0
        entry[kind] = tuple(round(float(v), 4) for v in (table[0], table[1], table[4], background, table[3]))
        print(f"  {kind:<9} {model:<16} fitted floor {floor:.4f}; bias {table[0]: .4f}  similarity {table[1]: .4f}"
              f"  {MODELS[model] or '-'} {table[2]: .4f}  own background {table[3]: .4f}  bm25 {table[4]: .4f}")
        for name in names:
            false_rate, true_rate = rates(data, name, table, model, kind, DEFAULT_MIN_CONFIDENCE)
            print(f"    {name:<12} fit queries at the floor: false {false_rate:>6.1%}  true {true_rate:>6.1%}")
        needed_cosine_print(data, names, table, model, kind)
    print(f"\nCALIBRATION[{model_name!r}] (bias, similarity, keyword weight, background weight, "
          f"own background weight) = {entry}")
    statistic = {MODELS[model] for model in chosen.values()} - {None}
    print(f"BACKGROUND_STATISTIC[{model_name!r}] = "
          + (repr(statistic.pop().removeprefix("bg-")) if statistic else "(none: reads no background)"))


if __name__ == "__main__":
    main()
