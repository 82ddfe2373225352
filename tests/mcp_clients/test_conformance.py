"""The MCP conformance suite (@modelcontextprotocol/conformance) against /mcp/ under gunicorn.

Every server scenario of the suite (`--suite all`) runs against the app served on the test
database (conftest.py). The suite's client sends no headers of its own, so it goes through a
loopback proxy that adds the Bearer key, as the TLS proxy in front of gunicorn would add
X-Forwarded-Proto (gateway.py); Host and Origin pass through unchanged.

conformance-baseline.txt lists the scenarios expected to fail, each with its reason. The test
fails on any other failure, and on a listed scenario that passes (remove it from the list).
"""

from __future__ import annotations

import json
import re
import subprocess
import time
from pathlib import Path

import pytest

from tests.figures import figure_record
from tests.mcp_clients.gateway import header_gateway
from tests.mcp_clients.node_clients import CONFORMANCE, NODE, node_env
from tests.search.live_app import BEHIND_PROXY

pytestmark = [pytest.mark.django_db, pytest.mark.node]

BASELINE = Path(__file__).with_name("conformance-baseline.txt")


def baseline_read() -> dict[str, str]:
    """The expected failures: {scenario: reason}."""
    expected = {}
    for line in BASELINE.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            scenario, _, reason = line.strip().partition(" ")
            assert reason.strip(), f"{scenario} has no reason in {BASELINE.name}"
            expected[scenario] = reason.strip()
    return expected


def scenario_results(output_dir: Path) -> dict[str, list[dict]]:
    """{scenario: its checks} from the suite's output directory (one checks.json a scenario)."""
    results = {}
    for checks_file in sorted(output_dir.glob("*/checks.json")):
        # Folders are named server-<scenario>-<ISO timestamp with dashes>.
        name = re.sub(r"-\d{4}-\d{2}-\d{2}T[\d-]+Z$", "", checks_file.parent.name.removeprefix("server-"))
        results[name] = json.loads(checks_file.read_text())
    return results


def failed(checks: list[dict]) -> bool:
    """The suite's own rule (its --expected-failures check): a FAILURE or a WARNING fails the scenario."""
    return any(check["status"] in ("FAILURE", "WARNING") for check in checks)


def test_conformance_suite_fails_only_the_baselined_scenarios(mcp_app):
    expected = baseline_read()
    output_dir = mcp_app.tmp / "conformance"
    added = {"Authorization": f"Bearer {mcp_app.key}", **BEHIND_PROXY}
    with header_gateway(mcp_app.base_url, added) as gateway:
        url = f"http://127.0.0.1:{gateway.server_address[1]}/mcp/"
        started = time.monotonic()
        run = subprocess.run(
            [str(NODE), str(CONFORMANCE), "server", "--url", url, "--suite", "all", "-o", str(output_dir)],
            env=node_env(mcp_app.tmp), capture_output=True, text=True, timeout=900,
        )
        seconds = time.monotonic() - started
    results = scenario_results(output_dir)
    failures = {name for name, checks in results.items() if failed(checks)}
    passes = set(results) - failures

    figure_record(f"MCP conformance suite: {len(results)} server scenarios in {seconds:.0f} s, "
                  f"{len(passes)} passed ({', '.join(sorted(passes))}), {len(failures)} failed "
                  f"({sum(r.startswith('FIXME:') for r in expected.values())} of them FIXME); "
                  f"{sum(gateway.requests.values())} requests ("
                  + ", ".join(f"{k} {v}" for k, v in sorted(gateway.requests.items())) + ")")
    assert results, f"the suite reported no scenario:\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    unexpected = {name: [f"{c['id']}: {c.get('errorMessage') or c.get('details')}" for c in results[name]
                         if c["status"] in ("FAILURE", "WARNING")]
                  for name in sorted(failures - set(expected))}
    stale = sorted(passes & set(expected))
    assert not unexpected and not stale, (
        f"failed, not in {BASELINE.name}: {json.dumps(unexpected, indent=1)}\n"
        f"in {BASELINE.name} but passed now (remove them): {stale}"
    )
    not_run = sorted(set(expected) - set(results))
    assert not not_run, f"in {BASELINE.name} but not run by the suite: {not_run}"
    # The suite exits 1 whenever a scenario fails; it must have run to the end.
    assert "=== SUMMARY ===" in run.stdout, run.stdout[-3000:] + run.stderr[-3000:]
