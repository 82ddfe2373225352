"""MCP over stdio (`manage.py mcp_serve`): the SDK's transport, with every line checked first.

The SDK's stdio transport drops a line it cannot read as a JSON-RPC message (a batch, an
object that is no message) without a word, and reads a request whose id is null as a
notification; the client then waits forever for an answer. Here each line is checked by
search/interfaces/mcp/jsonrpc.py before the SDK reads it: one that is not one MCP message is answered
with its JSON-RPC error on stdout, through the SDK's own writer, and the rest reach the SDK
unchanged.
"""

from __future__ import annotations

import io
import math
import sys
from collections.abc import AsyncIterator
from typing import Any

import anyio
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.server.lowlevel.server import Server
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage

from search.interfaces.mcp.jsonrpc import message_refusal


class _CheckedLines:
    """stdin's lines for the SDK's reader (it only iterates them), refused ones left out and answered."""

    def __init__(self, lines: Any, refusals: MemoryObjectSendStream[SessionMessage]):
        self._lines = lines
        self._refusals = refusals

    def __aiter__(self) -> AsyncIterator[str]:
        return self._checked()

    async def _checked(self) -> AsyncIterator[str]:
        async with self._refusals:
            async for line in self._lines:
                if not line.strip():
                    continue
                refusal = message_refusal(line)
                if refusal is None:
                    yield line
                else:
                    await self._refusals.send(SessionMessage(refusal))


async def _forward(refusals: MemoryObjectReceiveStream[SessionMessage], write_stream: Any) -> None:
    async with refusals:
        async for message in refusals:
            await write_stream.send(message)


async def serve_stdio(server: Server[Any]) -> None:
    """Serve `server` over this process's stdin and stdout until stdin ends, as MCPServer.run_stdio_async does."""
    # UTF-8 whatever the locale, invalid bytes replaced, as the SDK reads stdin.
    stdin = anyio.wrap_file(io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace"))
    send_refusals, receive_refusals = anyio.create_memory_object_stream[SessionMessage](math.inf)
    async with stdio_server(stdin=_CheckedLines(stdin, send_refusals)) as (read_stream, write_stream):  # type: ignore[arg-type]
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(_forward, receive_refusals, write_stream)
            await server.run(read_stream, write_stream, server.create_initialization_options())
            tasks.cancel_scope.cancel()
