"""The option types each search declares its options with (search/contract/options.py).

A field is strict: a JSON value of the wrong type is refused, never coerced, and each field
names the 400 codes it refuses with (`OptionField.refusal_codes`), so a kind's list of codes is
read from its fields. The queries' own checks (`entry_query_check`, `chunk_query_check`) and the
patterns the OpenAPI document gives them live here too, with the limits they enforce: one
place says what a query may hold.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Sequence
from typing import Any

from django.core.validators import RegexValidator
from django.utils.translation import gettext_noop
from rest_framework import serializers
from rest_framework.fields import empty

from search.contract.errors import SearchInputError
from search.contract.json_input import json_loads_bounded
from search.contract.fusion_methods import DEFAULT_RERANK_WEIGHTS

# --- what a query may hold ------------------------------------------------------------------
# Full-text search (search/engine/fulltext.py): literal, not trimmed.
ENTRY_QUERY_MAX_CHARS = 500
# The chunk searches (semantic, hybrid, agentic).
CHUNK_QUERY_MAX_CHARS = 2000
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
