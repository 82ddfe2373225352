"""Tenancy as a property on the cluster: the single-node property's worlds, probes, oracle and
API checks (tests/search/tenancy.py, tests/search/tenancy_checks.py), run against the
coordinator with every tenant table distributed by workspace_id. No answer of full-text,
suggest, semantic, hybrid or agentic search leaves the caller's workspace or its draft policy.

Fewer worlds than the single-node run (25 per interface, not 100: the cluster is three servers
on a shared machine), always the same ones (derandomized, whatever HYPOTHESIS_PROFILE says).
It found a join the oracle itself made that Citus cannot plan (chunks with their entries by
entry id alone): tests/search/tenancy.py reads the two apart.
"""

from __future__ import annotations

import pytest

from tests.search.pipeline_helpers import fake_embeddings  # noqa: F401 - fixture
from tests.search.tenancy_checks import api_callers, api_checks, no_rate_limits, run_property  # noqa: F401 - fixture

pytestmark = pytest.mark.django_db

WORLDS = 25


@pytest.mark.parametrize("interface, check", api_checks().items(), ids=list(api_checks()))
def test_api_search_never_leaves_the_callers_workspace_or_policy_on_the_cluster(interface, check):
    run_property(interface, check, api_callers, examples=WORLDS, derandomize=True)
