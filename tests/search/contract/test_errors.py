"""Provider failures have one mapping to codes, and a rerank failure is a SearchError that every
interface answers like any other (search/contract/errors.py, search/engine/legs/rerank.py)."""

from __future__ import annotations

import json

import pytest
from django.core.management.base import CommandError

from ingestion.embeddings import EmbeddingProviderError, RerankNotConfigured
from search.contract.errors import SearchError, provider_error_code
from search.engine.legs import rerank
from search.interfaces.errors import api_error_from, command_error_from, tool_error_from


@pytest.mark.parametrize(("transient", "code"), [(True, "provider_unavailable"), (False, "provider_error")])
def test_a_providers_failure_has_one_code_for_each_kind(transient, code):
    assert provider_error_code(transient=transient) == code


@pytest.mark.parametrize(("raised", "code"), [
    (EmbeddingProviderError("429 from the provider", transient=True), "provider_unavailable"),
    (EmbeddingProviderError("401 from the provider", transient=False), "provider_error"),
    (RerankNotConfigured("RERANK_PROVIDER is none"), "not_configured"),
])
def test_a_rerank_failure_is_a_search_error_each_interface_answers(monkeypatch, raised, code):
    def failing(**kwargs):
        raise raised

    monkeypatch.setattr(rerank.services, "documents_rerank", failing)
    with pytest.raises(SearchError) as failed:
        rerank.rerank_relevance(workspace_id=1, query="refund", documents=["Refunds within 30 days."])

    error = failed.value
    assert isinstance(error, rerank.RerankUnavailable)
    assert (error.code, error.status) == (code, 503)
    answer = api_error_from(error)
    assert (answer.status_code, answer.code) == (503, code)
    assert json.loads(str(tool_error_from(error)))["code"] == code
    assert isinstance(command_error_from(error), CommandError)
    assert str(command_error_from(error)).startswith(f"[{code}] ")
