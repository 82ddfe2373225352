"""Fixtures for the security tests: each test here reproduces one finding of the outside review (issue 17)."""

from __future__ import annotations

from tests.search.semantic_helpers import local_embeddings, local_model, no_embeddings  # noqa: F401 - fixtures
