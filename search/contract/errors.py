"""Errors a search raises; the API, CLI, admin and MCP tools translate them the same way."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, gettext_noop


class ErrorText(str):
    """An error's English sentence (the str itself: what the API, MCP and commands say) that
    keeps its template, marked with gettext_noop, and the values put in it, so that the admin
    can say the same sentence in the editor's language (`localized()`): one catalogue, no
    second copy of the sentence. A value that is itself an ErrorText is said in that language too."""

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, params: dict[str, Any] | None = None) -> ErrorText:
        text = super().__new__(cls, template % params if params else template)
        text.template, text.params = str(template), dict(params or {})
        return text

    def localized(self, labels: Mapping[str, str] | None = None) -> str:
        """The sentence in the active language (English where the catalogue has no translation).
        `labels` maps an option's name to what the page calls it: an option named in the
        sentence (its `name` or `label` param) is called that, not by its API name."""
        template = gettext(self.template) if self.template else ""  # gettext("") is the catalogue's header
        if not self.params:
            return template
        labels = labels or {}
        return template % {name: value.localized(labels) if isinstance(value, ErrorText)
                           else labels.get(value, value) if name in OPTION_NAME_PARAMS and isinstance(value, str)
                           else value
                           for name, value in self.params.items()}


# The params that name an option (OptionField.refuse's `name`, a query's `label`).
OPTION_NAME_PARAMS = ("name", "label")


def localized_text(message: str, *, labels: Mapping[str, str] | None = None) -> str:
    """An error's message (`error.message`, or a message passed on as `meta.degraded`'s) in the
    active language: the admin's form of it, naming options as `labels` does (ErrorText.localized).
    The API, MCP and commands say `message` itself, English. A message that is no ErrorText (a
    provider's own words) is said as it is."""
    return message.localized(labels) if isinstance(message, ErrorText) else message


class SearchError(Exception):
    """A search that cannot run as asked.

    `code` is stable and machine-readable; `message` is one sentence for people; `status` is
    the HTTP status the API answers with; `path` names the bad part of a structured input
    (a filter), when there is one.

    `message` is an English template marked with gettext_noop, `%(name)s` placeholders filled
    from `params` (a message without params is not formatted; a param may not be named code,
    message, status or path), so that the admin can show it translated (`localized_text`);
    `.message` is the English sentence (an ErrorText).
    """

    status: int = 400

    def __init__(self, code: str, message: str, *, status: int | None = None, path: str | None = None,
                 **params: Any):
        if params or not isinstance(message, ErrorText):  # an ErrorText passed on keeps its template
            message = ErrorText(message, params)
        super().__init__(message)
        self.code = code
        self.message = message
        self.path = path
        if status is not None:
            self.status = status


class SearchInputError(SearchError, ValueError):
    """Bad search input the caller can fix (HTTP 400)."""


class SearchTimeout(SearchError):
    """A search statement ran past its time limit and was cancelled (HTTP 503).

    Not the caller's fault, nor a result: the statement was rolled back and the same search
    may succeed later, or a more specific query sooner. `timeout_ms` is the limit the search
    set (SEARCH_STATEMENT_TIMEOUT_MS), or None when the database's own limit struck.
    """

    status = 503

    def __init__(self, *, timeout_ms: int | None):
        if timeout_ms:
            super().__init__("search_timeout", gettext_noop("The search took longer than its limit of %(timeout_ms)s ms "
                                                            "and was stopped. Try a more specific query, or try again "
                                                            "later."), timeout_ms=timeout_ms)
        else:
            super().__init__("search_timeout", gettext_noop("The search took longer than the database's time limit and "
                                                            "was stopped. Try a more specific query, or try again later."))
        self.timeout_ms = timeout_ms


def provider_error_code(*, transient: bool) -> str:
    """The code of an embedding or rerank provider's failure (HTTP 503 either way), in one place:
    `provider_unavailable` when the same call may work later (a timeout, a 429, a 5xx), and
    `provider_error` when it will not."""
    return "provider_unavailable" if transient else "provider_error"


def argument_refused(name: str, problem: str) -> SearchInputError:
    """A request argument refused before any search ran (left out, or not even of a JSON type
    the parameter takes): `query_empty` for the query, there being nothing to search for, and
    `invalid_request` otherwise. The API's request bodies and the MCP tools' arguments both
    answer with it."""
    return SearchInputError("query_empty" if name == "query" else "invalid_request", f"{name}: {problem}")
