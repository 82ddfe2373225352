"""The searches as every interface sees them: one SearchKind each, from which the API
endpoint, the MCP tool, the command and the admin page's mode are built.

A kind names its options (search/contract/options.py), the function that runs it, and the words
that describe it to people and to agents; its 400 codes are read from its options. To add a
search kind, add its options class, its function and one SearchKind here; the interfaces pick it
up. SEARCH_KINDS are the four searches every interface offers; SUGGEST, the search box's
completions, is the API's alone, through the same door.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from cms.access import WorkspaceAccess
from search.engine.agentic import agentic_run
from search.contract.filter_language import filter_help
from search.engine.forgiving.suggest import suggest_run
from search.engine.fulltext import search_entries_run
from search.engine.hybrid import hybrid_run
from search.operations.metrics import search_observed
from search.contract.options import (
    AgenticSearchOptions,
    EntrySearchOptions,
    HybridSearchOptions,
    SearchOptions,
    SemanticSearchOptions,
    SuggestOptions,
)
from search.contract.results import SearchOutcome
from search.insights.search_log import search_log_record
from search.engine.semantic import semantic_run


@dataclass(frozen=True)
class SearchKind:
    """One search, as the interfaces offer it.

    - `name`: the MCP tool, the command and the API operation (`hybrid_search`);
    - `mode`: the admin page's mode and the API path segment (`hybrid`);
    - `summary` / `description`: for people (the OpenAPI document, the command's help);
    - `guidance`: for agents choosing a tool (the MCP tool's description).
    """

    name: str
    mode: str
    label: str
    options: type[SearchOptions]
    run: Callable[[WorkspaceAccess, Mapping[str, Any]], SearchOutcome]  # (access, options) -> the result
    summary: str
    description: str
    guidance: str

    @property
    def bad_request_codes(self) -> tuple[str, ...]:
        """Every 400 code its options and its search can give, read from the options' fields
        (SearchOptions.refusal_codes)."""
        return self.options.refusal_codes()

    def search(self, access: WorkspaceAccess, options: Mapping[str, Any], *, interface: str) -> SearchOutcome:
        """Run the search for `interface` ("api", "mcp", "command", "admin"): timed, its results
        and failures counted for /metrics (search/operations/metrics.py), and, when it answered, appended
        to the workspace's search log (search/insights/search_log.py: in memory, written off the request
        path), whose id the result carries as `meta.search_id`.

        The options are validated here, once: `run` is handed the checked values (ValidatedOptions,
        which the engine's own `validated` calls pass on as they are), and a refusal is counted as
        the search's failure."""
        started = time.perf_counter()
        with search_observed(self.mode, interface) as observed:
            result = self.run(access, self.options.validated(options))
            observed.results = result.answers
        search_id = search_log_record(
            access=access, kind=self.mode, interface=interface, query=_logged_query(result, options),
            results=result.answers, latency_ms=(time.perf_counter() - started) * 1000,
            entry_ids=[hit.entry_id for hit in result.hits if hit.entry_id is not None],
            chunk_ids=[hit.id for hit in result.hits] if self.chunks else [])
        return dataclasses.replace(result, search_id=search_id) if search_id else result

    @property
    def chunks(self) -> bool:
        """Whether it ranks chunks (a JSON body, SearchResult) rather than entries or completions
        (query parameters)."""
        return issubclass(self.options, SemanticSearchOptions)


def _logged_query(result: Any, options: Mapping[str, Any]) -> str:
    """The query the search ran: the full-text result's own (validated) or the options' `query`."""
    query = getattr(result, "query", None)
    if not isinstance(query, str):
        query = options.get("query")
    return query if isinstance(query, str) else ""


# What every chunk search's answer says when nothing is a good match (search/engine/confidence.py).
NO_GOOD_MATCH_GUIDANCE = (
    "`meta.answerable` false means NO GOOD MATCH: no result reached the relevance floor (`min_confidence`; "
    "`meta.best_confidence` is the best there was), so the workspace holds nothing relevant; say so rather than "
    "guess. The results are then empty unless you pass `include_candidates` true. Each source has a calibrated "
    "`confidence` (0-1).")

SEARCH_ENTRIES = SearchKind(
    name="search_entries",
    mode="fulltext",
    label="Full-text",
    options=EntrySearchOptions,
    run=search_entries_run,
    summary="Full-text search over entries",
    description="Entries whose field values contain `q` (case-insensitive, literal: `%` and `_` are ordinary "
    "characters), newest first. For exact words, names, ids, slugs and product codes. Percent-encode the query "
    "string as UTF-8 (`curl -G --data-urlencode \"q=返品\"`). `filter` takes the chunk searches' filter as JSON "
    "text (`--data-urlencode 'filter={\"tags\": {\"$in\": [\"sale\"]}}'`).",
    guidance="Use for an exact word or code: names, ids, slugs, SKUs, error codes, a quoted phrase.\n\n"
    "Entries whose field values contain `query` (case-insensitive, literal), newest first; each result names the "
    "matched fields and has a snippet around the first match. Not for questions or meaning: use hybrid_search for "
    "those. `status` narrows to \"draft\" or \"published\" (only those list_content_types shows you); `filter` is "
    "the same MongoDB-style filter as semantic_search, over the entry's fields; page with limit and offset.",
)

SEMANTIC_SEARCH = SearchKind(
    name="semantic_search",
    mode="semantic",
    label="Semantic",
    options=SemanticSearchOptions,
    run=semantic_run,
    summary="Semantic search over chunks",
    description="The chunks nearest in meaning to `query`, best first, with `relevant_context` ready to paste into "
    "a prompt. For questions and topics in any wording or language.",
    guidance="Use for a question or a topic in any wording or language (\"how do refunds work?\", 「返品」 finds "
    "\"refund policy\"). Returns the passages nearest in meaning, best first, with `relevant_context` ready to "
    "quote and `sources` with scores. For an exact code or name use search_entries. `filter`: "
    f"{filter_help()} list_content_types names the fields. `meta.pending` counts chunks not embedded yet. "
    "One result per entry (its best passage; its other matching passages in `passages`); `raw_chunks` true "
    "returns every chunk instead. " f"{NO_GOOD_MATCH_GUIDANCE}",
)

HYBRID_SEARCH = SearchKind(
    name="hybrid_search",
    mode="hybrid",
    label="Hybrid",
    options=HybridSearchOptions,
    run=hybrid_run,
    summary="Hybrid search over chunks: keywords and meaning (the default for questions)",
    description="The chunks that best answer `query` by BM25 keywords and vector meaning fused, best first, with "
    "`relevant_context` ready to paste into a prompt and each source's per-leg scores and ranks. Without an "
    "embedding provider it answers from keywords (`meta.legs_used`, `meta.degraded`).",
    guidance="THE DEFAULT SEARCH for natural-language questions: keywords (BM25) and meaning fused.\n\n"
    "Returns the best passages, best first, with `relevant_context` ready to quote and `sources` (each with its "
    "keyword and semantic scores and ranks). Exact words in the question (names, error codes, 返品) count, and so "
    "does meaning. `filter` is the same MongoDB-style filter as semantic_search. Leave the weights unset (fitted "
    "defaults); `fusion` \"rrf\" ranks by reciprocal ranks instead; `rerank` true reorders with the reranker if "
    "one is configured. `meta.legs_used` says which legs answered. One result per entry, its other "
    "matching passages in `passages` (`raw_chunks` true: every chunk). " f"{NO_GOOD_MATCH_GUIDANCE}",
)

AGENTIC_SEARCH = SearchKind(
    name="agentic_search",
    mode="agentic",
    label="Agentic",
    options=AgenticSearchOptions,
    run=agentic_run,
    summary="Agentic search: a compound question searched part by part, every part in the top k",
    description="For a question that asks several things at once (\"How do I reset my password, and can I delete "
    "my account?\", 「返品の期限と送料は？」). The question is split into parts (pass `queries` when you have split it "
    "yourself), each part runs the hybrid search, and each part's best passages reach the top k (scores over each "
    "part's best), so no part is starved by another; with `rerank` the merged list is reranked against the whole "
    "question. If splitting, a part's search or the reranker fails, the plain hybrid search of the whole question "
    "answers: `meta.path` is `agentic` or `standard`, `meta.fallback_reason` says why. Same response as hybrid "
    "search.",
    guidance="FOR A QUESTION THAT ASKS SEVERAL THINGS AT ONCE (\"How do I reset my password, and can I delete my "
    "account?\", 「返品の期限と送料は？」): each part is searched on its own and every part gets passages in the "
    "top_k, where hybrid_search would favour whichever half dominates.\n\nIf you can split the question yourself, "
    "DO: pass the whole question as `query` and the self-contained sub-questions as `queries` (e.g. [\"How do I "
    "reset my password?\", \"Can I delete my account?\"]); otherwise the server splits `query` by rule. Same "
    "options and answer as hybrid_search; with `rerank` the passages are reranked against `query`. `meta.path` "
    "is \"agentic\" when the parts answered, \"standard\" when the whole question was searched instead (it did "
    "not split, or something failed: `meta.fallback_reason`). " f"{NO_GOOD_MATCH_GUIDANCE}",
)

SEARCH_KINDS: dict[str, SearchKind] = {
    kind.name: kind for kind in (SEARCH_ENTRIES, SEMANTIC_SEARCH, HYBRID_SEARCH, AGENTIC_SEARCH)
}

# Completions for a search box as someone types: the API's GET .../search/suggest only (an agent or
# an editor runs a search, not its completions), timed, counted and logged as the searches are.
SUGGEST = SearchKind(
    name="search_suggest",
    mode="suggest",
    label="Suggest",
    options=SuggestOptions,
    run=suggest_run,
    summary="As-you-type suggestions",
    description="Completions of `q` for a search box: titles of entries and assets starting with it (newest "
    "first), then frequent words completing its last word. Only what the caller may search is offered (a "
    "published-only key never sees a draft's title).",
    guidance="",
)
