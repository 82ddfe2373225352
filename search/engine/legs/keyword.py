"""The keyword leg of hybrid search: BM25 over the keyword index, index-backed and bounded.

The index (postings per chunk and term, statistics per workspace and term) is written by
`ingestion.services.keyword`; this module only reads it. A query runs in two statements:

1. The statistics of its terms: N (chunks), the total length and each term's df, from
   KeywordStat plus the pending KeywordStatDelta rows, read in one snapshot.
2. The ranking. Each term's postings are read through the index
   `(workspace_id, term, impact DESC) INCLUDE (chunk_id, tf, length)`, never the table:
   - terms, rarest first, read *all* their postings while the total stays within
     CANDIDATE_BUDGET: their BM25 contributions are exact;
   - the remaining (common) terms read only their CHAMPIONS best postings by impact, so
     "the", "cell" or a word in every chunk never turns a query into a scan of the
     workspace. A chunk outside those lists that contains none of the rarer terms can
     only score the common terms' small IDFs;
   - the candidates are summed, filtered (content type, metadata filter, what the caller
     may see), cut to the best RESCORE_DEPTH, and those are rescored exactly: each looks up
     its posting of every partly-read term it was not found in, by primary key
     (chunk_id, term). So a candidate's final score is its true BM25 score; only which
     chunks become candidates is bounded;
   - when a filter leaves fewer chunks than asked, the query is read again, exactly
     (`fallback` in its plan), so a selective filter never makes the answer short (the
     vector leg's exact fallback, for keywords): if at most EXACT_MAX_ROWS chunks pass the
     filter, each of them looks up its posting of each query term by primary key (as the
     vector leg ranks a small matching set exactly); otherwise every posting of every term
     is read.

   `bench/hybrid.py` measures the candidate counts, latency, and the results' agreement
   with exact BM25 (every posting read); `bench/eval.py` the quality.

BM25 (Lucene's form): score = sum over query tokens of
idf(t) * tf (k1 + 1) / (tf + k1 (1 - b + b len / avglen)), idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5)),
with k1 and b from ingestion.keywords, N, df and avglen of the chunk's workspace.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace


from cms.citus_mode import citus_active, workspace_named, workspace_param
from ingestion.keywords import BM25_B, BM25_K1, LENGTH_TERM, bm25_index_term, keyword_tokens, keyword_words
from search.engine.filters.compile import CompiledFilter
from search.contract.results import ChunkHit, json_object
from search.engine.dictionary import DELTA_TABLE, POSTING_TABLE, STAT_TABLE, dictionary_visible
from search.engine.db.statements import search_cursor
from search.engine.legs.exact import EXACT_MAX_ROWS
from search.engine.legs.keyword_bm25 import BM25_DEPTH, bm25_candidates_sql, keyword_bm25_active
from search.engine.forgiving.suggest import term_completions
from search.engine.forgiving.synonyms import SYNONYM_WEIGHT, Expansion, SynonymRule, synonym_expansions
from search.engine.forgiving.typos import (
    Correction,
    TypoBudget,
    kana_candidates,
    kana_corrections,
    typo_corrections,
    words_to_correct,
)

# Postings read in full (exact contributions), summed over the rarest terms first, and
# postings read, best impact first, from each term beyond that budget. The fit that chose them:
# docs/design/hybrid.md, "The keyword leg's bounds".
CANDIDATE_BUDGET = 2000
CHAMPIONS = 150
# Candidates (after filtering) rescored exactly, at least what is asked for (hybrid asks 50).
RESCORE_DEPTH = 100
# `prefix: true`: completions of the last word added, and their weight against a typed word.
PREFIX_COMPLETIONS = 5
PREFIX_WEIGHT = 0.7
# Query terms used at most (the rarest); a pasted paragraph stays a bounded query.
MAX_QUERY_TERMS = 64
# EXACT_MAX_ROWS (search/engine/legs/exact.py): a filter that keeps at most that many chunks is ranked
# by looking up each kept chunk's postings by primary key; figures in docs/design/vectors.md, "Selective filters".


@dataclass(frozen=True)
class KeywordPlan:
    """How one keyword query ran: its terms, which were read in full, and the candidate counts."""

    terms: int
    complete_terms: int
    truncated_terms: int
    postings_read_max: int
    chunks: int
    average_length: float
    exhaustive: bool
    candidates: int = 0
    notes: list[str] = field(default_factory=list)
    # The bounded reading left fewer than asked after the filter, so every posting was read.
    fallback: bool = False

    def as_meta(self) -> dict:
        return {
            "fallback": self.fallback,
            "terms": self.terms,
            "complete_terms": self.complete_terms,
            "truncated_terms": self.truncated_terms,
            "candidates": self.candidates,
            "exhaustive": self.exhaustive,
        }


@dataclass(frozen=True)
class _Term:
    term: str
    weight: float  # idf x the term's count in the query
    df: int


def keyword_query_terms(query: str) -> Counter[str]:
    """The query's BM25 terms and how often each occurs (the index's tokenizer)."""
    return Counter(keyword_tokens(query))


def _statistics(*, workspace_id: int, terms: list[str]) -> tuple[int, int, dict[str, int]]:
    """(N chunks, total length, df per term) of the workspace, as of this statement's snapshot."""
    wanted = [LENGTH_TERM, *terms]
    with search_cursor() as cursor:
        cursor.execute(
            "SELECT term, sum(df)::bigint, sum(tf)::bigint FROM ("
            f" SELECT term, df, tf FROM {STAT_TABLE} WHERE workspace_id = %s AND term = ANY(%s)"
            f" UNION ALL SELECT term, df, tf FROM {DELTA_TABLE} WHERE workspace_id = %s AND term = ANY(%s)"
            ") s GROUP BY term",
            [workspace_id, wanted, workspace_id, wanted],
        )
        rows = {term: (int(df or 0), int(tf or 0)) for term, df, tf in cursor.fetchall()}
    chunks, total_length = rows.pop(LENGTH_TERM, (0, 0))
    return chunks, total_length, {term: df for term, (df, _) in rows.items() if df > 0}


def bm25_idf(*, chunks: int, df: int) -> float:
    return math.log(1.0 + (chunks - df + 0.5) / (df + 0.5))


def _plan(counts: Mapping[str, float], dfs: dict[str, int], chunks: int, *, budget: int, champions: int
          ) -> tuple[list[_Term], list[int | None]]:
    """The terms to read (rarest first) and how many postings of each (None: all of them).

    `counts`: each term's count in the query, times its penalty when it is a correction or
    an expansion rather than a word of the query (search.engine.forgiving.typos, search.engine.forgiving.synonyms)."""
    present = sorted((t for t in counts if t in dfs), key=lambda t: (dfs[t], t))[:MAX_QUERY_TERMS]
    terms = [_Term(term=t, weight=bm25_idf(chunks=chunks, df=dfs[t]) * counts[t], df=dfs[t]) for t in present]
    limits: list[int | None] = []
    spent = 0
    for term in terms:
        if spent + term.df <= budget or term.df <= champions:
            limits.append(None)
            spent += term.df
        else:
            limits.append(champions)
    return terms, limits


def _weight_sql(alias: str) -> str:
    """One posting's BM25 contribution; `q.weight` is idf x query count, the last %s avglen."""
    return (f"q.weight * {alias}.tf * {BM25_K1 + 1.0!r}"
            f" / ({alias}.tf + {BM25_K1!r} * ({1.0 - BM25_B!r} + {BM25_B!r} * {alias}.length / %s::float8))")


_CHUNK_COLUMNS = "c.id, c.text, c.title, c.field, c.ordinal, c.source_kind, c.entry_id, c.asset_id, c.metadata"


def keyword_candidates_sql(*, where_sql: str | None, rescore: bool) -> str:
    """The ranking statement (see the module docstring). `where_sql` None: no chunk filter at all
    (the caller sees every chunk and asked for no filter), so candidates never read chunk rows.

    `rescore`: some terms were read only in part (`q.lim` set); each kept candidate then looks
    up its posting of each such term it was not found in (primary key (chunk_id, term)), so
    its score is exact; terms read in full are exact already.

    Its `candidates` column: the chunks holding a query term, or, under a filter, those of
    them that passed it (at most the depth): a count of chunks the caller may not see is
    never reported.
    """
    # With a filter, candidates are checked best first and the check stops once `depth` have
    # passed (a nested-loop semi-join over score order under a LIMIT): a viewer's visibility
    # predicate, which nearly every chunk passes, reads about `depth` chunk rows, not all.
    filtered = (
        " WHERE EXISTS (SELECT 1 FROM ingestion_chunk c WHERE c.id = pa.chunk_id AND c.workspace_id = %s AND "
        + where_sql + ")"
        if where_sql is not None else ""
    )
    sql = (
        "WITH q AS MATERIALIZED (SELECT * FROM unnest(%s::text[], %s::float8[], %s::int[]) AS q(term, weight, lim)),"
        " hits AS MATERIALIZED ("
        f"  SELECT p.chunk_id, q.term, {_weight_sql('p')} AS part FROM q CROSS JOIN LATERAL ("
        f"   SELECT chunk_id, tf, length FROM {POSTING_TABLE} p"
        "    WHERE p.workspace_id = %s AND p.term = q.term ORDER BY p.impact DESC LIMIT q.lim) p),"
        " partial AS (SELECT chunk_id, sum(part) AS score"
        + (", array_agg(term) AS found" if rescore else "")
        + " FROM hits GROUP BY chunk_id),"
        " kept AS MATERIALIZED (SELECT pa.* FROM (SELECT * FROM partial ORDER BY score DESC, chunk_id) pa"
        f"{filtered} ORDER BY pa.score DESC, pa.chunk_id LIMIT %s)"
    )
    if rescore:
        sql += (
            ", ranked AS (SELECT k.chunk_id, k.score + coalesce((SELECT sum(" + _weight_sql("p") + ")"
            f"  FROM q JOIN {POSTING_TABLE} p ON p.chunk_id = k.chunk_id AND p.term = q.term{workspace_named('p')}"
            "  WHERE q.lim IS NOT NULL AND q.term <> ALL(k.found)), 0) AS score FROM kept k)"
        )
    else:
        sql += ", ranked AS (SELECT chunk_id, score FROM kept)"
    # Only the returned chunks' rows are read (the rescored ones are cut to `limit` first).
    return sql + (
        ", best AS (SELECT chunk_id, score FROM ranked ORDER BY score DESC, chunk_id LIMIT %s)"
        f" SELECT {_CHUNK_COLUMNS}, r.score, (SELECT count(*) FROM {'partial' if where_sql is None else 'kept'})"
        " AS candidates"
        f" FROM best r JOIN ingestion_chunk c ON c.id = r.chunk_id{workspace_named('c')} ORDER BY r.score DESC, c.id"
    )


def keyword_candidates_params(*, terms: list[_Term], limits: list[int | None], workspace_id: int, average: float,
                              where: CompiledFilter | None, depth: int, rescore: bool, limit: int) -> list:
    params: list = [[t.term for t in terms], [t.weight for t in terms], limits, average, workspace_id]
    if where is not None:
        params += [workspace_id, *where.params]
    params.append(depth)
    if rescore:
        params += [average, *workspace_param(workspace_id)]
    params.append(limit)
    return params + workspace_param(workspace_id)


@dataclass(frozen=True)
class KeywordQuery:
    """A query ready to rank: its terms (rarest first) with weights and read limits, and the
    workspace statistics they were computed from."""

    workspace_id: int
    terms: list[_Term]
    limits: list[int | None]
    chunks: int
    average_length: float
    query_terms: int
    corrections: list[Correction] = field(default_factory=list)
    expansions: list[Expansion] = field(default_factory=list)
    typed: frozenset[str] = frozenset()  # the query's own terms, as typed (not corrections or additions)

    @property
    def typed_terms(self) -> list[_Term]:
        """The terms read that the query itself holds: what the fusion features describe."""
        return [t for t in self.terms if t.term in self.typed]

    @property
    def truncated(self) -> int:
        return sum(1 for lim in self.limits if lim is not None)

    def plan(self, *, candidates: int = 0) -> KeywordPlan:
        notes = []
        if not self.query_terms:
            notes.append("The query has no searchable words (only stopwords or punctuation).")
        elif not self.terms:
            notes.append("No chunk of this workspace contains any of the query's words.")
        return KeywordPlan(
            terms=self.query_terms, complete_terms=len(self.terms) - self.truncated,
            truncated_terms=self.truncated,
            postings_read_max=sum(t.df if lim is None else lim for t, lim in zip(self.terms, self.limits)),
            chunks=self.chunks, average_length=self.average_length, exhaustive=self.truncated == 0,
            candidates=candidates, notes=notes,
        )


def keyword_query_prepare(*, workspace_id: int, query: str, budget: int = CANDIDATE_BUDGET,
                          champions: int = CHAMPIONS, typos: TypoBudget | None = None,
                          synonyms: list[SynonymRule] | None = None, prefix: bool = False,
                          visible: CompiledFilter | None = None) -> KeywordQuery:
    """Tokenize `query` and read its terms' statistics in the workspace (one statement).

    `typos` (search.engine.forgiving.typos): correct the words missing from the workspace's dictionary within
    this budget. Kana variants are read in the same statement; edit-distance candidates, with
    their statistics, take one more (trigram-indexed) only when a word is missing. `synonyms` (search.engine.forgiving.synonyms): terms the query's phrases add,
    at SYNONYM_WEIGHT, read in the first statement too. `prefix`: the last word also
    matches the PREFIX_COMPLETIONS most frequent terms starting with it, at PREFIX_WEIGHT
    (one more statement, on the terms' prefix btree).

    `visible`: what the caller may see (search.engine.filters.visibility), None when it sees every chunk. A
    term no visible chunk holds counts as absent (search.engine.dictionary): it is not found, not a
    correction, not a completion, and the plan in `meta` does not count it.
    """
    counts: dict[str, float] = dict(keyword_query_terms(query))
    query_terms, typed = len(counts), frozenset(counts)
    if prefix:
        last = keyword_words(query)[-1:]
        if last and not last[0].cjk and len(last[0].surface) >= 2:
            for term in term_completions(workspace_id=workspace_id, word=last[0].surface, limit=PREFIX_COMPLETIONS,
                                         visible=visible):
                counts.setdefault(term, PREFIX_WEIGHT)
    kana = kana_candidates(query) if typos is not None else []
    expansions = synonym_expansions(query=query, rules=synonyms) if synonyms and counts else []
    wanted = list(dict.fromkeys([*counts, *(t for c in kana for t in c.terms), *(t for e in expansions for t in e.terms)]))
    chunks, total_length, dfs = _statistics(workspace_id=workspace_id, terms=wanted) if wanted else (0, 0, {})
    if visible is not None and dfs:
        shown = dictionary_visible(workspace_id=workspace_id, terms=dfs, visible=visible)
        dfs = {term: df for term, df in dfs.items() if term in shown}
    corrections: list[Correction] = []
    if typos is not None and counts:
        corrections = kana_corrections(kana, dfs)
        missing = words_to_correct(query, set(dfs), typos)
        found = typo_corrections(workspace_id=workspace_id, words=missing, visible=visible)  # with their df
        corrections += found
        dfs.update({c.matched: c.df for c in found})
        for correction in corrections:
            factor = counts.get(correction.term, 1.0) * correction.weight
            if correction.matched not in counts or counts[correction.matched] < factor:
                counts[correction.matched] = max(factor, counts.get(correction.matched, 0.0))
    for expansion in expansions:
        for term in expansion.terms:
            counts.setdefault(term, SYNONYM_WEIGHT)
    terms, limits = _plan(counts, dfs, chunks, budget=budget, champions=champions)
    return KeywordQuery(workspace_id=workspace_id, terms=terms, limits=limits, chunks=chunks,
                        average_length=total_length / chunks if chunks else 1.0,
                        query_terms=query_terms, corrections=corrections, typed=typed,
                        expansions=[e for e in expansions if any(t in dfs for t in e.terms)])


def keyword_candidates(
    prepared: KeywordQuery,
    *,
    limit: int,
    where: CompiledFilter | None,
    rescore_depth: int = RESCORE_DEPTH,
) -> tuple[list[ChunkHit], KeywordPlan]:
    """The `limit` chunks of the workspace with the best BM25 score for the query, best first.

    `where` (a compiled chunk filter over alias `c`, visibility included) or None when the
    caller sees everything unfiltered. Chunks sharing no term with the query are never
    returned. Scores are BM25 (unbounded, comparable within one query only).
    """
    if not prepared.terms:
        return [], prepared.plan()
    if prepared.truncated and keyword_bm25_active(prepared.workspace_id):
        # Common terms: the BM25 index proposes the candidates instead of their best postings.
        hits, candidates = _ranked_bm25(prepared, limit=limit, where=where, depth=max(BM25_DEPTH, limit))
    else:
        hits, candidates = _ranked(prepared, limit=limit, where=where, rescore_depth=rescore_depth)
    if where is not None and prepared.truncated and len(hits) < limit:
        # A selective filter kept fewer than asked of the bounded candidates; chunks it keeps
        # may sit outside the common terms' best postings. Read every posting instead (the
        # vector leg's exact fallback, for keywords): the answer is never short.
        exhaustive = replace(prepared, limits=[None] * len(prepared.terms))
        few = _ranked_few(prepared, limit=limit, where=where)
        if few is not None:
            hits, candidates = few
        else:
            hits, candidates = _ranked(exhaustive, limit=limit, where=where, rescore_depth=rescore_depth)
        return hits, replace(exhaustive.plan(candidates=candidates), fallback=True)
    return hits, prepared.plan(candidates=candidates)


def _ranked(prepared: KeywordQuery, *, limit: int, where: CompiledFilter | None, rescore_depth: int
            ) -> tuple[list[ChunkHit], int]:
    rescore = prepared.truncated > 0
    depth = max(rescore_depth, limit)
    sql = keyword_candidates_sql(where_sql=None if where is None else where.sql, rescore=rescore)
    params = keyword_candidates_params(
        terms=prepared.terms, limits=prepared.limits, workspace_id=prepared.workspace_id,
        average=prepared.average_length, where=where, depth=depth, rescore=rescore, limit=limit,
    )
    with search_cursor() as cursor:
        # The lateral index reads are many tiny scans: parallel workers only add their start-up;
        # the per-chunk sums of a few thousand postings fit in memory rather than spilling.
        cursor.execute(sql, params, local_settings={"max_parallel_workers_per_gather": "0", "work_mem": "32MB"})
        rows = cursor.fetchall_dicts()
    return _chunk_hits(rows)


def _ranked_bm25(prepared: KeywordQuery, *, limit: int, where: CompiledFilter | None, depth: int
                 ) -> tuple[list[ChunkHit], int]:
    """The `depth` best chunks of the workspace by the BM25 index (search.engine.legs.keyword_bm25),
    each rescored exactly with the workspace's statistics, filtered, best `limit` first, in one
    statement. Its candidates: those rescored, or under a filter those of them that passed it
    (at most `depth`).

    The rescoring reads each term the cheaper way (docs/design/bm25-index.md, "Where the time
    goes"): a term read in full (`lim` None, the rarest, within CANDIDATE_BUDGET together) has
    all its postings read through the (workspace, term, impact) index and kept where they are a
    candidate's; a common term is looked up per candidate by primary key (chunk_id, term).

    The index's top `depth` is a subquery in the statement's FROM, never a CTE or a scalar
    subquery: run as a subplan, pg_textsearch's scan does not get its LIMIT pushed down and
    reads far more (a JSQuAD question: 37,357 buffers, 250 ms, against 25,718, 22 ms)."""
    filtered = (
        " WHERE EXISTS (SELECT 1 FROM ingestion_chunk c WHERE c.id = s.chunk_id AND c.workspace_id = %s AND "
        + where.sql + ")"
        if where is not None else ""
    )
    sql = (
        "WITH q AS MATERIALIZED (SELECT * FROM unnest(%s::text[], %s::float8[], %s::int[]) AS q(term, weight, lim)),"
        " complete AS MATERIALIZED ("
        f"  SELECT p.chunk_id, sum({_weight_sql('p')}) AS part FROM q CROSS JOIN LATERAL ("
        f"   SELECT chunk_id, tf, length FROM {POSTING_TABLE} p WHERE p.workspace_id = %s AND p.term = q.term OFFSET 0) p"
        "   WHERE q.lim IS NULL GROUP BY p.chunk_id)"
        f" SELECT {_CHUNK_COLUMNS}, r.score, r.candidates FROM ("
        "  SELECT s.chunk_id, s.score, count(*) OVER () AS candidates FROM ("
        "   SELECT f.id AS chunk_id, coalesce(cp.part, 0) + coalesce(("
        f"    SELECT sum({_weight_sql('p')}) FROM (SELECT p.term, p.tf, p.length FROM {POSTING_TABLE} p"
        "     WHERE p.chunk_id = f.id AND p.term = ANY(%s::text[]) AND p.workspace_id = %s OFFSET 0) p"
        "     JOIN q ON q.term = p.term), 0) AS score"
        f"   FROM ({bm25_candidates_sql(prepared.workspace_id)}) f LEFT JOIN complete cp ON cp.chunk_id = f.id) s"
        f"{filtered} ORDER BY s.score DESC, s.chunk_id LIMIT %s) r"
        f" JOIN ingestion_chunk c ON c.id = r.chunk_id{workspace_named('c')} ORDER BY r.score DESC, c.id"
    )
    params = [[t.term for t in prepared.terms], [t.weight for t in prepared.terms], prepared.limits,
              prepared.average_length, prepared.workspace_id, prepared.average_length,
              [t.term for t, lim in zip(prepared.terms, prepared.limits) if lim is not None], prepared.workspace_id,
              prepared.workspace_id, " ".join(bm25_index_term(t.term) for t in prepared.terms), depth,
              *([prepared.workspace_id, *where.params] if where is not None else []),
              limit, *workspace_param(prepared.workspace_id)]
    with search_cursor() as cursor:
        cursor.execute(sql, params, local_settings={"max_parallel_workers_per_gather": "0"})
        rows = cursor.fetchall_dicts()
    return _chunk_hits(rows)


def _chunk_hits(rows: list[dict]) -> tuple[list[ChunkHit], int]:
    """The ranked rows as hits, and the candidates the statement counted (each row carries it)."""
    hits = [
        ChunkHit(id=row["id"], score=float(row["score"]), text=row["text"], title=row["title"], field=row["field"],
                 ordinal=row["ordinal"], source_kind=row["source_kind"], entry_id=row["entry_id"],
                 asset_id=row["asset_id"], metadata=json_object(row["metadata"]))
        for row in rows
    ]
    return hits, int(rows[0]["candidates"]) if rows else 0


def _postings_of_chunk_sql(chunk_id_sql: str, *, workspace: bool = False) -> str:
    """Joins one chunk's postings of the query's terms (`p`; placeholder, with `workspace`: the
    workspace id) and their weights (`q`, whose terms it reads), read by primary key: one index
    descent per chunk (chunk_id, term = ANY(terms)). As a plain join of q and the postings
    the planner reads every posting of every term instead (a hash join over 126,000
    postings for 994 chunks, 23 of a 34 ms statement at 100k chunks); OFFSET 0 keeps the
    lateral subquery from being flattened into that join."""
    return (f"CROSS JOIN LATERAL (SELECT p.chunk_id, p.term, p.tf, p.length FROM {POSTING_TABLE} p"
            f" WHERE p.chunk_id = {chunk_id_sql} AND p.term = ANY((SELECT array_agg(term) FROM q)::text[])"
            + (" AND p.workspace_id = %s" if workspace else "") + " OFFSET 0) AS p JOIN q ON q.term = p.term")


def _ranked_few(prepared: KeywordQuery, *, limit: int, where: CompiledFilter) -> tuple[list[ChunkHit], int] | None:
    """Exact BM25 over the chunks passing `where`, if at most EXACT_MAX_ROWS do (else None):
    the passing chunks are listed (capped), and each looks up its posting of each query
    term by primary key (chunk_id, term). One statement; its first column is how many passed."""
    sql = (
        "WITH q AS MATERIALIZED (SELECT * FROM unnest(%s::text[], %s::float8[]) AS q(term, weight)),"
        " f AS MATERIALIZED (SELECT c.id FROM ingestion_chunk c WHERE c.workspace_id = %s AND "
        + where.sql + " LIMIT %s),"
        " scored AS MATERIALIZED (SELECT p.chunk_id, sum(" + _weight_sql("p") + ") AS score"
        f"  FROM f {_postings_of_chunk_sql('f.id', workspace=citus_active())}"
        "  WHERE (SELECT count(*) FROM f) <= %s GROUP BY p.chunk_id),"
        " best AS (SELECT chunk_id, score FROM scored ORDER BY score DESC, chunk_id LIMIT %s)"
        f" SELECT (SELECT count(*) FROM f) AS passing, (SELECT count(*) FROM scored) AS candidates,"
        f" {_CHUNK_COLUMNS}, r.score FROM (SELECT 1) one"
        f" LEFT JOIN (best r JOIN ingestion_chunk c ON c.id = r.chunk_id{workspace_named('c')}) ON true"
        " ORDER BY r.score DESC, c.id"
    )
    params = [[t.term for t in prepared.terms], [t.weight for t in prepared.terms], prepared.workspace_id,
              *where.params, EXACT_MAX_ROWS + 1, prepared.average_length, *workspace_param(prepared.workspace_id),
              EXACT_MAX_ROWS, limit,
              *workspace_param(prepared.workspace_id)]
    with search_cursor() as cursor:
        cursor.execute(sql, params, local_settings={"max_parallel_workers_per_gather": "0"})
        rows = cursor.fetchall_dicts()
    if rows[0]["passing"] > EXACT_MAX_ROWS:
        return None
    hits = [
        ChunkHit(id=row["id"], score=float(row["score"]), text=row["text"], title=row["title"], field=row["field"],
                 ordinal=row["ordinal"], source_kind=row["source_kind"], entry_id=row["entry_id"],
                 asset_id=row["asset_id"], metadata=json_object(row["metadata"]))
        for row in rows if row["id"] is not None
    ]
    return hits, int(rows[0]["candidates"])


def keyword_scores(prepared: KeywordQuery, chunk_ids: list[int]) -> dict[int, float]:
    """The exact BM25 score of each of these chunks (of the query's workspace) that contains a
    query term: one primary-key lookup per chunk and term."""
    if not prepared.terms or not chunk_ids:
        return {}
    with search_cursor() as cursor:
        cursor.execute(
            "WITH q AS (SELECT * FROM unnest(%s::text[], %s::float8[]) AS q(term, weight))"
            f" SELECT p.chunk_id, sum({_weight_sql('p')}) FROM unnest(%s::bigint[]) AS k(chunk_id)"
            f" {_postings_of_chunk_sql('k.chunk_id', workspace=True)} GROUP BY p.chunk_id",
            [[t.term for t in prepared.terms], [t.weight for t in prepared.terms], prepared.average_length,
             chunk_ids, prepared.workspace_id],
        )
        return {int(chunk_id): float(score) for chunk_id, score in cursor.fetchall()}
