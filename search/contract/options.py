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

import json
import math
import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from django.core.validators import RegexValidator
from django.utils.translation import gettext_noop
from rest_framework import serializers
from rest_framework.fields import empty

from cms.models import EntryStatus
from search.contract.errors import SearchInputError, argument_refused
from search.contract.filter_language import filter_help
from search.contract.json_input import json_loads_bounded
from search.contract.fusion_methods import DEFAULT_RERANK_WEIGHTS, FUSION_METHODS

# The default floor of a good match: the confidence (search/engine/confidence.py) under which a
# chunk search answers "no good match", one for every model and kind; how each calibration is fitted
# to it, and why this value: docs/design/confidence.md.
DEFAULT_MIN_CONFIDENCE = 0.0444

# --- limits -------------------------------------------------------------------------------
# Full-text search (search/engine/fulltext.py): literal, not trimmed.
ENTRY_QUERY_MAX_CHARS = 500
DEFAULT_LIMIT = 20
MAX_LIMIT = 100
MAX_OFFSET = 10_000
# The chunk searches (semantic, hybrid, agentic).
CHUNK_QUERY_MAX_CHARS = 2000
DEFAULT_TOP_K = 10
MAX_TOP_K = 100
MIN_EF_SEARCH = 10
MAX_EF_SEARCH = 1000
MAX_QUERIES = 8
MAX_FACETS = 5  # search/engine/facets.py

# What a query may hold, as the checks below refuse it, written as patterns so that a request
# the OpenAPI document allows is one the search accepts. Full-text: something besides
# whitespace, no control character but tab and newlines. Chunk searches: something besides
# whitespace, no NUL. Each pattern is "allowed*, one non-space, allowed*": a non-space must be
# there, and no lookahead is needed (which not every generator reads). "Space" is spelled out
# as what str.strip() removes (str.isspace): `\s` differs between engines (ECMAScript's omits
# U+0085 and adds U+FEFF), so a generator reading the pattern took "\x85\x85" for a query with
# something in it (found by the fuzzer, pinned in tests/security/test_query_patterns.py).
_PYTHON_SPACE = r"\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
_ENTRY_QUERY_ALLOWED = r"[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]"
_ENTRY_QUERY_NON_SPACE = rf"[^{_PYTHON_SPACE}\x00-\x1f\x7f-\x9f]"
ENTRY_QUERY_PATTERN = f"^{_ENTRY_QUERY_ALLOWED}*{_ENTRY_QUERY_NON_SPACE}{_ENTRY_QUERY_ALLOWED}*$"
CHUNK_QUERY_PATTERN = rf"^[^\x00]*[^{_PYTHON_SPACE}\x00][^\x00]*$"

FACETS_HELP = (f"Count the matches by up to {MAX_FACETS} facets: content_type, status, or a field whose schema says "
               'facet: true, e.g. ["content_type", "status", "tags"]. The answer\'s `facets` maps each to '
               '{value: count} (top 20, plus "other"); a facet\'s counts ignore its own filter.')
_INTEGER_TEXT = re.compile(r"\s*-?[0-9]{1,9}\s*")

# --- refusal codes --------------------------------------------------------------------------
# Each option field names the 400 codes it refuses with (OptionField.refusal_codes), and a kind's
# list is read from its fields (SearchOptions.refusal_codes): no list is kept by hand beside them.
# A JSON request body (the API's POSTs, the MCP tools' arguments) that cannot be read as an object.
JSON_BODY_CODES = ("malformed_json", "json_too_deep", "json_invalid_character", "invalid_request")
# A JSON value given as text (a query string's `filter`), read as a JSON body is.
JSON_TEXT_CODES = ("malformed_json", "json_too_deep", "json_invalid_character")
# What the filter language refuses (search/contract/filter_language.py), checked by the search.
FILTER_CODES = ("invalid_filter", "unknown_filter_key", "unknown_operator", "filter_type_mismatch",
                "filter_invalid_character", "filter_value_too_long", "filter_too_complex", "filter_too_deep")


# --- fields ---------------------------------------------------------------------------------

class OptionField(serializers.Field):
    """A strict option: DRF handles absent and null (`required`, `default`, `allow_null`);
    `check` refuses anything else that is not a value of the option, with a coded error.

    DRF's own type coercion and validators never run: the attributes drf-spectacular reads
    (`min_value`, `max_length`, `choices`, ...) document what `check` enforces. So does null
    given to an optional option that takes no null (`"typo_tolerance": null`): it is a value of
    the wrong type, refused with the option's own code.
    """

    def __init__(self, *args: Any, search_codes: Sequence[str] = (), **kwargs: Any):
        super().__init__(*args, **kwargs)
        # What the search refuses the value with once it reads its meaning (it needs the workspace).
        self.search_codes = tuple(search_codes)

    def refusal_codes(self, name: str) -> tuple[str, ...]:
        """Every 400 code a value of this option, declared as `name`, can be refused with."""
        return (*self.check_codes(name), *self.search_codes)

    def check_codes(self, name: str) -> tuple[str, ...]:
        """The codes `check` and `from_text` refuse with."""
        return (f"{name}_invalid",)

    def run_validation(self, data: Any = empty) -> Any:
        if data is None and not self.allow_null and not self.required:
            return self.check(data)
        is_empty, data = self.validate_empty_values(data)
        if is_empty:
            return data
        return self.check(data)

    def check(self, value: Any) -> Any:
        raise NotImplementedError

    def from_text(self, text: str) -> Any:
        """The value a text interface (query string, argv, form) means by `text`."""
        return text

    def from_texts(self, texts: Sequence[str]) -> Any:
        """The value a query string means by giving the option once or more (`limit=5&limit=9`):
        the last, as Django's `request.GET` reads it. A list option takes every one."""
        return self.from_text(texts[-1])

    def refuse(self, suffix: str, message: str, *, path: str | None = None, **params: Any) -> SearchInputError:
        """`<name>_<suffix>`, with `message` a template (gettext_noop) whose `%(name)s` is the option's name."""
        return SearchInputError(f"{self.field_name}_{suffix}", message, path=path, name=self.field_name, **params)


def _is_number(value: Any) -> bool:
    # isfinite only on floats: on an int past a float's range (JSON allows 10**400) it raises.
    return not isinstance(value, bool) and isinstance(value, (int, float)) and (
        not isinstance(value, float) or math.isfinite(value)
    )


class WholeNumberField(OptionField, serializers.IntegerField):
    """A whole number within bounds: `<name>_invalid`, `<name>_out_of_range`."""

    def check(self, value: Any) -> int:
        low, high = self.min_value, self.max_value
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.refuse("invalid", gettext_noop("%(name)s must be a whole number from %(low)s to %(high)s, "
                                                      "not %(value)r."), low=low, high=high, value=str(value)[:20])
        if not low <= value <= high:
            raise self.refuse("out_of_range", gettext_noop("%(name)s must be between %(low)s and %(high)s, not %(value)s."),
                              low=low, high=high, value=value)
        return value

    def check_codes(self, name: str) -> tuple[str, ...]:
        return (f"{name}_invalid", f"{name}_out_of_range")

    def from_text(self, text: str) -> Any:
        return int(text) if _INTEGER_TEXT.fullmatch(text) else text


class NumberField(OptionField, serializers.FloatField):
    """A finite number within bounds: `<name>_invalid`, `<name>_out_of_range`."""

    def check(self, value: Any) -> float:
        low, high = self.min_value, self.max_value
        if not _is_number(value):
            raise self.refuse("invalid", gettext_noop("%(name)s must be a number from %(low)s to %(high)s."),
                              low=f"{low:g}", high=f"{high:g}")
        if not low <= value <= high:
            raise self.refuse("out_of_range", gettext_noop("%(name)s must be between %(low)s and %(high)s, not %(value)s."),
                              low=f"{low:g}", high=f"{high:g}", value=str(value)[:40])
        return float(value)

    def check_codes(self, name: str) -> tuple[str, ...]:
        return (f"{name}_invalid", f"{name}_out_of_range")

    def from_text(self, text: str) -> Any:
        if _INTEGER_TEXT.fullmatch(text):
            return int(text)  # "2" is 2, as in JSON, so every interface words a refusal alike
        try:
            return float(text)
        except ValueError:
            return text


class FlagField(OptionField, serializers.BooleanField):
    """true or false: `<name>_invalid`."""

    def check(self, value: Any) -> bool:
        if not isinstance(value, bool):
            raise self.refuse("invalid", gettext_noop("%(name)s must be true or false."))
        return value

    def from_text(self, text: str) -> Any:
        return {"true": True, "1": True, "on": True, "false": False, "0": False, "off": False}.get(text.lower(), text)


class ChoiceOptionField(OptionField, serializers.ChoiceField):
    """One of a fixed list: `<name>_invalid` (or the code given)."""

    def __init__(self, choices: Any, *, code: str | None = None, **kwargs: Any):
        super().__init__(choices, **kwargs)
        self.code = code

    def check_codes(self, name: str) -> tuple[str, ...]:
        return (self.code or f"{name}_invalid",)

    def check(self, value: Any) -> str:
        if not isinstance(value, str) or value not in self.choices:
            raise SearchInputError(self.code or f"{self.field_name}_invalid",
                                   gettext_noop("%(name)s must be one of %(choices)s, not %(value)r."),
                                   name=self.field_name, choices=", ".join(self.choices), value=str(value)[:20])
        return value


class ApiIdField(OptionField, serializers.CharField):
    """A content type's api_id: any value reaches the search, which knows the workspace's types
    and answers `unknown_content_type`."""

    def check_codes(self, name: str) -> tuple[str, ...]:
        return ()

    def check(self, value: Any) -> Any:
        return value


class JSONObjectField(OptionField, serializers.DictField):
    """A JSON object whose meaning the search checks (the filter: search/contract/filter_language.py, with
    codes per part). Text interfaces give it as JSON text (`filter={"tags": "sale"}` in a
    query string), read as a JSON body is: `malformed_json`, `json_too_deep`."""

    def check_codes(self, name: str) -> tuple[str, ...]:
        return JSON_TEXT_CODES

    def check(self, value: Any) -> Any:
        return value

    def from_text(self, text: str) -> Any:
        if not text.strip():
            return None  # `filter=` in a query string: no filter, as an unset option
        try:
            return json_loads_bounded(text, what=self.field_name)
        except json.JSONDecodeError as exc:
            raise SearchInputError("malformed_json", gettext_noop("%(name)s is not valid JSON: %(problem)s"),
                                   name=self.field_name, problem=str(exc)) from exc


class FacetsField(OptionField, serializers.ListField):
    """Facet names (content_type, status, or a field whose schema says facet: true): a list,
    or comma-separated text in text interfaces. Whether a name is a facet is the search's
    to check (`unknown_facet`): it needs the workspace's schemas."""

    def __init__(self, **kwargs: Any):
        super().__init__(child=serializers.CharField(max_length=71), max_length=MAX_FACETS, **kwargs)

    def check_codes(self, name: str) -> tuple[str, ...]:
        return (f"{name}_invalid", f"{name}_too_many")

    def check(self, value: Any) -> list[str]:
        if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
            raise self.refuse("invalid", gettext_noop('facets must be a list of names such as ["content_type", "status"].'))
        if not all(name.strip() for name in value):
            raise self.refuse("invalid", gettext_noop("A facet name is empty: name each facet, e.g. content_type,status."))
        names = list(dict.fromkeys(name.removeprefix("fields.") for name in value))
        if len(names) > MAX_FACETS:
            raise self.refuse("too_many", gettext_noop("facets names %(count)s facets; the limit is %(limit)s."),
                              count=len(names), limit=MAX_FACETS)
        if any(len(name) > 64 for name in names):
            raise self.refuse("invalid", gettext_noop("a facet name has at most 64 characters."))
        return names

    def from_text(self, text: str) -> Any:
        """`content_type,status` (a query string, argv), or a JSON list as other list options
        take. An empty name (`facets=`, `a,,b`) stays, to be refused: empty is not "none"."""
        if text.lstrip().startswith("["):
            try:
                return json.loads(text)
            except ValueError:
                return text
        return [name.strip() for name in text.split(",")]

    def from_texts(self, texts: Sequence[str]) -> Any:
        """`facets=content_type&facets=status`, as OpenAPI writes a list in a query string
        (form, exploded), is the same as `facets=content_type,status`."""
        names: list[Any] = []
        for text in texts:
            value = self.from_text(text)
            if not isinstance(value, list):
                return value  # refused by check
            names.extend(value)
        return names


class EntryQueryField(OptionField, serializers.CharField):
    """The full-text query: literal, not trimmed; `%`, `_` and `\\` are ordinary characters."""

    def __init__(self, **kwargs: Any):
        super().__init__(min_length=1, max_length=ENTRY_QUERY_MAX_CHARS, trim_whitespace=False,
                         validators=[RegexValidator(ENTRY_QUERY_PATTERN)], **kwargs)

    def check_codes(self, name: str) -> tuple[str, ...]:
        return query_codes("query")

    def check(self, value: Any) -> str:
        return entry_query_check(value)


def entry_query_check(query: Any) -> str:
    """The full-text query unchanged if it is searchable, else SearchInputError."""
    if not isinstance(query, str):
        raise SearchInputError("query_invalid", gettext_noop("The query must be text."))
    _refuse_unencodable(query, "query", gettext_noop("The query is not valid UTF-8."))
    if "\x00" in query:
        raise SearchInputError("query_invalid_character", gettext_noop("The query must not contain a NUL character."))
    if not query.strip():
        raise SearchInputError("query_empty", gettext_noop("Type something to search for; the query is empty."))
    if len(query) > ENTRY_QUERY_MAX_CHARS:
        raise SearchInputError("query_too_long", gettext_noop("The query is %(length)s characters; the limit is %(limit)s."),
                               length=len(query), limit=ENTRY_QUERY_MAX_CHARS)
    # Control characters include U+001F, which separates values in search_text.
    if any(unicodedata.category(ch) == "Cc" and ch not in "\t\n\r" for ch in query):
        raise SearchInputError("query_invalid_character",
                               gettext_noop("The query must not contain control characters other than tab and newline."))
    return query


def _refuse_unencodable(text: str, code_prefix: str, message: str, *, path: str | None = None, **params: Any) -> None:
    # Lone surrogates: what Python makes of invalid UTF-8 in argv (a JSON body holding one is
    # refused by its parser, search.contract.json_input).
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise SearchInputError(f"{code_prefix}_invalid_encoding", message, path=path, **params) from exc


class ChunkQueryField(OptionField, serializers.CharField):
    """A chunk search's query: trimmed; anything but NUL, up to CHUNK_QUERY_MAX_CHARS."""

    def __init__(self, **kwargs: Any):
        super().__init__(min_length=1, max_length=CHUNK_QUERY_MAX_CHARS, trim_whitespace=False,
                         validators=[RegexValidator(CHUNK_QUERY_PATTERN)], **kwargs)

    def check_codes(self, name: str) -> tuple[str, ...]:
        return query_codes(name)

    def check(self, value: Any) -> str:
        return chunk_query_check(value, name=self.field_name)


def query_codes(name: str) -> tuple[str, ...]:
    """What a query's check (entry_query_check, chunk_query_check) refuses it with, `name` the option's."""
    return tuple(f"{name}_{suffix}" for suffix in ("empty", "invalid", "invalid_character", "invalid_encoding",
                                                   "too_long"))


def chunk_query_check(query: Any, *, name: str = "query", path: str | None = None) -> str:
    """A chunk search's query (or one part of it, named by `path`), stripped; SearchInputError otherwise."""
    label = path or name
    if not isinstance(query, str):
        raise SearchInputError(f"{name}_invalid", gettext_noop("%(label)s must be a string."), path=path, label=label)
    _refuse_unencodable(query, name, gettext_noop("%(label)s is not valid UTF-8."), path=path, label=label)
    if "\x00" in query:
        raise SearchInputError(f"{name}_invalid_character", gettext_noop("%(label)s contains a NUL character."), path=path,
                               label=label)
    # The limit is on what the caller sent, as the OpenAPI document says (maxLength), not on
    # what is left once the spaces around it are stripped.
    if len(query) > CHUNK_QUERY_MAX_CHARS:
        raise SearchInputError(f"{name}_too_long", gettext_noop("%(label)s is %(length)s characters; the limit is %(limit)s."),
                               path=path, label=label, length=len(query), limit=CHUNK_QUERY_MAX_CHARS)
    if not query.strip():
        raise SearchInputError(f"{name}_empty", gettext_noop("%(label)s is empty: say what to search for."), path=path,
                               label=label)
    return query.strip()


class QueriesField(OptionField, serializers.ListField):
    """Agentic search's parts: 1 to MAX_QUERIES queries, stripped and de-duplicated."""

    def __init__(self, **kwargs: Any):
        super().__init__(child=ChunkQueryField(), min_length=1, max_length=MAX_QUERIES, **kwargs)

    def check_codes(self, name: str) -> tuple[str, ...]:
        return tuple(dict.fromkeys((f"{name}_invalid", f"{name}_empty", f"{name}_too_many", *query_codes(name))))

    def check(self, value: Any) -> list[str]:
        if not isinstance(value, list):
            raise self.refuse("invalid", gettext_noop("queries must be a list of 1 to %(limit)s strings."), limit=MAX_QUERIES)
        if not value:
            raise self.refuse("empty", gettext_noop("queries is an empty list: leave it out, or give the parts."))
        if len(value) > MAX_QUERIES:
            raise self.refuse("too_many", gettext_noop("queries has %(count)s parts; the limit is %(limit)s."),
                              count=len(value), limit=MAX_QUERIES)
        parts: list[str] = []
        for index, part in enumerate(value):
            part = chunk_query_check(part, name="queries", path=f"queries[{index}]")
            if part not in parts:
                parts.append(part)
        return parts


class RerankWeightsField(OptionField, serializers.Serializer):
    """The final score's mix after a rerank: relative weights, normalised to add up to 1."""

    class Meta:
        ref_name = "RerankWeights"

    rerank = serializers.FloatField(min_value=0, max_value=1, required=False, help_text="The reranker's relevance.")
    vector = serializers.FloatField(min_value=0, max_value=1, required=False, help_text="The fused score.")
    position = serializers.FloatField(min_value=0, max_value=1, required=False, help_text="The fused rank.")

    def check_codes(self, name: str) -> tuple[str, ...]:
        return (f"{name}_invalid", f"{name}_out_of_range")

    def check(self, value: Any) -> dict[str, float]:
        if not isinstance(value, dict):
            raise self.refuse("invalid", gettext_noop("rerank_weights must be an object such as "
                                                      "{\"rerank\": 0.4, \"vector\": 0.4, \"position\": 0.2}."))
        unknown = sorted(set(value) - set(DEFAULT_RERANK_WEIGHTS))
        if unknown:
            raise self.refuse("invalid", gettext_noop("Unknown rerank weight(s) %(unknown)s; use rerank, vector and position."),
                              unknown=", ".join(unknown))
        weights = dict(DEFAULT_RERANK_WEIGHTS)
        for key, raw in value.items():
            if raw is None:  # null inside the object means what it means at the top level: the default
                continue
            if not _is_number(raw):
                raise self.refuse("invalid", gettext_noop("rerank_weights must be numbers from 0 to 1."))
            if not 0.0 <= raw <= 1.0:
                raise self.refuse("out_of_range", gettext_noop("rerank_weights must be between 0 and 1, not %(value)s."),
                                  value=str(raw)[:40])
            weights[key] = float(raw)
        # Relative weights: {"rerank": 1} with the other defaults means 1 : 0.4 : 0.2. All zero
        # keeps the fused order (every final score 0).
        total = sum(weights.values())
        return {key: weight / total for key, weight in weights.items()} if total > 0 else weights


# --- the declarations -----------------------------------------------------------------------

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
