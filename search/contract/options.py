"""What each search accepts, declared once: one DRF serializer per search kind.

Each option is a field with its name, type, bounds, default and help. From these
declarations come the API's request parsing and its OpenAPI entry (drf-spectacular reads the
serializers), the MCP tools' input schemas (search/interfaces/mcp/server.py), the commands' arguments
(search/interfaces/commands/search_command.py) and the admin page's fields (search/interfaces/admin/views.py).

The fields are strict: a JSON value of the wrong type is refused, never coerced (`"5"` is not
a `top_k`). Interfaces whose input is text (a query string, argv, an HTML form) read it with
`option_from_text` first, which turns `"5"` into 5 for a whole-number option and leaves
anything else for the check to refuse. A refusal is a SearchInputError with a stable code:

- `<option>_invalid`: not a value of the option's type;
- `<option>_out_of_range`: outside its bounds;
- the query's and the parts' own codes (`query_empty`, `query_too_long`, ...);
- `unknown_parameter` for a name no option has; `query_empty` when the query is left out.

The help of an option the admin page shows under "Advanced" (search/interfaces/admin/options.py) is
marked with gettext_noop: it stays the English text the API, the MCP tools and the commands say,
and the admin says it in the editor's language. Help that only the API and agents read is not
marked (the admin shows the editor's own options in plain words of its own).

What an option means beyond its shape (a content type that exists, a filter that compiles,
what the caller may see) is the search's to check: it needs the workspace.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.core.validators import RegexValidator
from django.utils.translation import gettext_noop
from rest_framework import serializers

from cms.models import EntryStatus
from search.contract.errors import SearchInputError, argument_refused
from search.contract.filter_language import filter_help
from search.contract.fusion_methods import FUSION_METHODS
from search.contract.option_fields import (CHUNK_QUERY_PATTERN, ENTRY_QUERY_MAX_CHARS, FILTER_CODES, MAX_FACETS,
                                           ApiIdField, ChoiceOptionField, ChunkQueryField, EntryQueryField,
                                           FacetsField, FlagField, JSONObjectField, NumberField, OptionField,
                                           QueriesField, RerankWeightsField, WholeNumberField, chunk_query_check,
                                           query_codes)

# The default floor of a good match: the confidence (search/engine/confidence.py) under which a
# chunk search answers "no good match", one for every model and kind; how each calibration is fitted
# to it, and why this value: docs/design/confidence.md.
DEFAULT_MIN_CONFIDENCE = 0.0444

# --- limits (a query's own: search/contract/option_fields.py) --------------------------------
# Full-text search.
DEFAULT_LIMIT = 20
MAX_LIMIT = 100
MAX_OFFSET = 10_000
# The chunk searches (semantic, hybrid, agentic).
DEFAULT_TOP_K = 10
MAX_TOP_K = 100
MIN_EF_SEARCH = 10
MAX_EF_SEARCH = 1000

FACETS_HELP = (f"Count the matches by up to {MAX_FACETS} facets: content_type, status, or a field whose schema says "
               'facet: true, e.g. ["content_type", "status", "tags"]. The answer\'s `facets` maps each to '
               '{value: count} (top 20, plus "other"); a facet\'s counts ignore its own filter.')


class ValidatedOptions(dict):
    """Options `declaration.validated` checked and completed. Handed on inside one search (the
    entry grouping to the chunk search it wraps), they are not checked again: validating them
    by the same declaration returns a copy. Changing a copy's values and validating it again
    (`{**options, "top_k": 50}` is a plain dict) checks them again."""

    __slots__ = ("declaration",)

    def __init__(self, values: Mapping[str, Any], *, declaration: type[SearchOptions]) -> None:
        super().__init__(values)
        self.declaration = declaration


class SearchOptions(serializers.Serializer):
    """A search's options. `SomeOptions.validated(raw)` is the one validation of a request."""

    # Codes for a combination of options (`validate`, or what the search finds in them), not one option's.
    combination_codes: tuple[str, ...] = ()

    @classmethod
    def refusal_codes(cls) -> tuple[str, ...]:
        """Every 400 code these options can be refused with, each once: an unknown name, then each
        option's (in declaration order), then the combinations'."""
        codes = ["unknown_parameter"]
        for name, field in cls._declared_fields.items():
            codes.extend(field.refusal_codes(name) if isinstance(field, OptionField) else ())
        return tuple(dict.fromkeys([*codes, *cls.combination_codes]))

    @classmethod
    def unknown_refuse(cls, raw: Mapping[str, Any]) -> None:
        """`unknown_parameter` for any name that is not an option (an interface whose SDK drops
        unknown names calls this before it does)."""
        unknown = sorted(set(raw) - set(cls._declared_fields), key=str)
        if unknown:
            raise SearchInputError("unknown_parameter", gettext_noop("Unknown parameter(s): %(unknown)s. Accepted: %(accepted)s."),
                                   unknown=", ".join(map(str, unknown))[:200], accepted=", ".join(cls._declared_fields))

    @classmethod
    def validated(cls, raw: Mapping[str, Any]) -> ValidatedOptions:
        """Every option, checked, with defaults filled in; SearchInputError for the first problem.
        Options this declaration validated already (ValidatedOptions) come back as a copy: one
        validation per search (DRF builds a serializer's fields anew for each, 0.3 ms)."""
        if isinstance(raw, ValidatedOptions) and raw.declaration is cls:
            return ValidatedOptions(raw, declaration=cls)
        cls.unknown_refuse(raw)
        options = cls(data=dict(raw))
        if not options.is_valid():
            # What the fields leave to DRF: a required option left out, or null where it can't be.
            name, problems = next(iter(options.errors.items()))
            raise argument_refused(name, " ".join(str(p) for p in problems))
        return ValidatedOptions(options.validated_data, declaration=cls)


class EntrySearchOptions(SearchOptions):
    """What full-text search accepts (as the query parameters of GET .../search/entries)."""

    class Meta:
        ref_name = "EntrySearchOptions"

    query = EntryQueryField(help_text=f"Text to find (1-{ENTRY_QUERY_MAX_CHARS} characters, not only whitespace; "
                            "not trimmed). Literal: % and _ are ordinary characters.")
    content_type = ApiIdField(required=False, allow_null=True, default=None, min_length=1,
                              search_codes=("unknown_content_type",), help_text="Only entries of this content type (api_id).")
    status = ChoiceOptionField(EntryStatus.values, code="unknown_status", required=False, allow_null=True,
                               default=None, help_text="Only entries in this status; never widens what the caller "
                               "may see.")
    limit = WholeNumberField(min_value=1, max_value=MAX_LIMIT, required=False, default=DEFAULT_LIMIT,
                             help_text=f"Page size, 1-{MAX_LIMIT} (default {DEFAULT_LIMIT}).")
    offset = WholeNumberField(min_value=0, max_value=MAX_OFFSET, required=False, default=0,
                              help_text=f"Results to skip, 0-{MAX_OFFSET}.")
    filter = JSONObjectField(required=False, allow_null=True, default=None, search_codes=FILTER_CODES,
                             help_text=f"{filter_help()} As JSON text in a query string, percent-encoded.")
    facets = FacetsField(required=False, allow_null=True, default=None, search_codes=("unknown_facet",),
                         help_text=FACETS_HELP)
    exhaustive_facets = FlagField(required=False, default=False,
                                  help_text=gettext_noop("Count `facets` over every match. By default, past 2,000 "
                                                         "matches the counts are a deterministic sample's, scaled "
                                                         "(`meta.facets_exhaustive: false`, "
                                                         "`meta.facets_sample_rate`)."))
    typo_tolerance = FlagField(required=False, default=True,
                               help_text="When the query as typed finds nothing, search its closest correction "
                               "(1 typo from 5 letters, 2 from 9; kana variants) and say so in "
                               "`meta.corrected_query`; `meta.suggestions` lists every correction that finds "
                               "something. false: the query as typed, corrections only offered.")


class SemanticSearchOptions(SearchOptions):
    """What semantic search accepts."""

    class Meta:
        ref_name = "SemanticSearchRequest"

    query = ChunkQueryField(help_text="What to search for, in any language (not only whitespace).")
    top_k = WholeNumberField(min_value=1, max_value=MAX_TOP_K, required=False, default=DEFAULT_TOP_K,
                             help_text="How many results to return: entries (chunks with raw_chunks).")
    min_score = NumberField(min_value=-1, max_value=1, required=False, allow_null=True, default=None,
                            help_text=gettext_noop("Drop hits under this cosine similarity."))
    content_type = ApiIdField(required=False, allow_null=True, default=None, search_codes=("unknown_content_type",),
                              help_text="A content type's api_id.")
    filter = JSONObjectField(required=False, allow_null=True, default=None, search_codes=FILTER_CODES,
                             help_text=filter_help())
    ef_search = WholeNumberField(min_value=MIN_EF_SEARCH, max_value=MAX_EF_SEARCH, required=False, allow_null=True,
                                 default=None,
                                 help_text=gettext_noop("HNSW candidate list size: higher finds more, slower."))
    include_vectors = FlagField(required=False, default=False, help_text="Return each hit's vector.")
    include_sources = FlagField(required=False, default=True,
                                help_text="Return `sources` (false: only `relevant_context` and `meta`).")
    facets = FacetsField(required=False, allow_null=True, default=None, search_codes=("unknown_facet",),
                         help_text=FACETS_HELP)
    raw_chunks = FlagField(required=False, default=False,
                           help_text=gettext_noop("false (default): one result per entry, its best passage first and "
                                                  "its other matching passages in `passages`; top_k counts entries. "
                                                  "true: every ranked chunk is a result (an entry may appear more "
                                                  "than once); top_k counts chunks."))
    min_confidence = NumberField(min_value=0, max_value=1, required=False, default=DEFAULT_MIN_CONFIDENCE,
                                 help_text="The floor of a good match: when no result's calibrated `confidence` "
                                 "reaches it, the answer is \"no good match\" (`meta.answerable` false, "
                                 f"`meta.best_confidence`). Default {DEFAULT_MIN_CONFIDENCE:g}; 0 presents every "
                                 "result as an answer.")
    include_candidates = FlagField(required=False, default=False,
                                   help_text="Under the floor, still return the nearest results as candidates "
                                   "(`meta.answerable` stays false). false: no results when nothing is a good "
                                   "match.")


class HybridSearchOptions(SemanticSearchOptions):
    """What hybrid search accepts: semantic search's options, plus fusion and rerank."""

    class Meta:
        ref_name = "HybridSearchRequest"

    # Both weights 0 (validate), and a query with no searchable word once the vector leg is off or
    # cannot answer (search/engine/hybrid.py _no_leg_answered).
    combination_codes = ("weights_invalid", "no_searchable_terms")

    min_score = NumberField(min_value=0, max_value=1, required=False, allow_null=True, default=None,
                            help_text=gettext_noop("Drop hits under this final (fused, or reranked) score."))
    fusion = ChoiceOptionField(FUSION_METHODS, required=False, allow_null=True, default=None,
                               help_text=gettext_noop("adaptive (default): z-scored legs weighted by the query's own "
                                                      "features; weighted: scores over each leg's best, weighted; "
                                                      "rrf: reciprocal rank fusion. Unset: the workspace's pinned "
                                                      "fusion, else adaptive."))
    keyword_weight = NumberField(min_value=0, max_value=1, required=False, allow_null=True, default=None,
                                 help_text=gettext_noop("Unset: the workspace's pin, or per query (adaptive). 0 "
                                                        "turns the keyword leg off."))
    semantic_weight = NumberField(min_value=0, max_value=1, required=False, allow_null=True, default=None,
                                  help_text=gettext_noop("Unset: the complement of keyword_weight, or the "
                                                         "workspace's pin, or per query (adaptive). 0 turns the "
                                                         "vector leg off."))
    rerank = FlagField(required=False, default=False,
                       help_text="Rerank the fused candidates (503 not_configured without a reranker).")
    rerank_weights = RerankWeightsField(required=False, allow_null=True, default=None,
                                        help_text='Relative weights of the final score, e.g. {"rerank": 0.4, '
                                        '"vector": 0.4, "position": 0.2} (the defaults, which also fill any weight '
                                        "left out); normalised to add up to 1.")
    typo_tolerance = FlagField(required=False, default=True,
                               help_text="Correct query words missing from the workspace's vocabulary to close ones "
                               "that are in it (1 typo from 5 letters, 2 from 9; kana variants in Japanese), "
                               "below the exact word; `meta.corrections` lists them. false: words as typed.")
    prefix = FlagField(required=False, default=False,
                       help_text=gettext_noop("Search as you type: the query's last word also matches the "
                                              "workspace's words that start with it (the most frequent few), below "
                                              "the word itself."))

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["keyword_weight"] == 0 and attrs["semantic_weight"] == 0:
            raise SearchInputError("weights_invalid", gettext_noop("keyword_weight and semantic_weight cannot both be 0."))
        return attrs


class AgenticSearchOptions(HybridSearchOptions):
    """What agentic search accepts: hybrid search's options, plus the parts."""

    class Meta:
        ref_name = "AgenticSearchRequest"

    queries = QueriesField(required=False, allow_null=True, default=None,
                           help_text="The parts of the question, when you have split it yourself (one question "
                           "each); left out, the server splits `query` by rule. The merged list is still reranked "
                           "against `query`.")


# As-you-type suggestions (search/engine/forgiving/suggest.py).
SUGGEST_PREFIX_MAX_CHARS = 100
DEFAULT_SUGGEST_LIMIT = 8
MAX_SUGGEST_LIMIT = 20


class SuggestPrefixField(OptionField, serializers.CharField):
    """What has been typed so far: not only whitespace, up to SUGGEST_PREFIX_MAX_CHARS."""

    def __init__(self, **kwargs: Any):
        super().__init__(min_length=1, max_length=SUGGEST_PREFIX_MAX_CHARS, trim_whitespace=False,
                         validators=[RegexValidator(CHUNK_QUERY_PATTERN)], **kwargs)

    def check(self, value: Any) -> str:
        if isinstance(value, str) and len(value) > SUGGEST_PREFIX_MAX_CHARS:
            raise SearchInputError("query_too_long", gettext_noop("The prefix is %(length)s characters; the limit is %(limit)s."),
                                   length=len(value), limit=SUGGEST_PREFIX_MAX_CHARS)
        return chunk_query_check(value, name="query")

    def check_codes(self, name: str) -> tuple[str, ...]:
        return query_codes("query")


class SuggestOptions(SearchOptions):
    """What as-you-type suggestions accept (the query parameters of GET .../search/suggest)."""

    class Meta:
        ref_name = "SuggestOptions"

    query = SuggestPrefixField(help_text=f"What has been typed so far (1-{SUGGEST_PREFIX_MAX_CHARS} characters, not "
                               "only whitespace); the last word is completed.")
    limit = WholeNumberField(min_value=1, max_value=MAX_SUGGEST_LIMIT, required=False, default=DEFAULT_SUGGEST_LIMIT,
                             help_text=f"How many suggestions, 1-{MAX_SUGGEST_LIMIT} (default {DEFAULT_SUGGEST_LIMIT}).")


def option_from_text(options: type[SearchOptions], name: str, text: str) -> Any:
    """What `text`, typed for option `name` in a text interface, means (unchanged if it is no value)."""
    return option_from_texts(options, name, [text])


def option_from_texts(options: type[SearchOptions], name: str, texts: Sequence[str]) -> Any:
    """What option `name` given once or more in a query string means (OptionField.from_texts)."""
    field = options._declared_fields[name]
    return field.from_texts(texts) if isinstance(field, OptionField) else texts[-1]
