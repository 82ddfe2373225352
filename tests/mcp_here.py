"""MCP tools called from a test with their database work on the test's own thread.

The MCP SDK is async; our tools' database work is sync. Run the client side on an event loop
in another thread, and hand each tool's work back to this thread, as the HTTP transport does
with the request's thread (search/interfaces/mcp/http.py). The work then uses this test's
connection, inside its transaction, like the ORM in the test itself.

Do not run the tools inside `asyncio.run(...)` on the test's thread instead: Django keeps a
thread's connections apart while an event loop runs on it (asgiref's thread-critical Local),
so that work gets a second connection of its own, which no test teardown or request signal
closes or checks. It outlives the test, and after the server restarts (tests do restart it)
every later call on it fails with "the connection is closed".
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Awaitable, Callable
from typing import Any

from search.interfaces.mcp.http import _RequestThread
from search.interfaces.mcp.server import Caller, RunSync, build_mcp_server


def mcp_session_here(session: Callable[[RunSync], Awaitable[Any]], *, timeout: float = 120) -> Any:
    """`session(run_sync)` on an event loop in another thread, its tools' database work done on
    this thread (`run_sync`); its result, or its exception raised here."""
    worker = _RequestThread()

    async def back_here(call: Callable[[], Any]) -> Any:
        return await asyncio.wrap_future(worker.submit(call))

    exchange: concurrent.futures.Future = concurrent.futures.Future()

    def loop() -> None:
        try:
            exchange.set_result(asyncio.run(session(back_here)))
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting test
            exchange.set_exception(exc)

    threading.Thread(target=loop, daemon=True).start()
    return worker.serve_until(exchange, timeout=timeout)


def mcp_call_here(caller: Caller, tool: str, arguments: dict[str, Any]) -> Any:
    """One tool call on a server for `caller` (the SDK's own `call_tool`): its result, or the
    ToolError it raised."""

    async def session(back_here: RunSync) -> Any:
        return await build_mcp_server(caller=caller, run_sync=back_here).call_tool(tool, arguments)

    return mcp_session_here(session)
