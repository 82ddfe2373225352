"""Slow HTTP clients and a health probe, for the slow-client test and bench/slow_clients.py.

A slow client opens a loopback connection and trickles its request a byte at a time: either
its headers (never finished), or, after whole headers with a valid API key, its body. Each
one stops when the context exits or after `max_seconds`, whichever comes first.
"""

from __future__ import annotations

import http.client
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

BODY_BYTES = 4096  # announced in Content-Length; under API_MAX_BODY_BYTES, so the app reads it


def _slow_headers_start(port: int) -> tuple[socket.socket, bytes]:
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    return sock, b"a"


def _slow_body_start(port: int, *, slug: str, key: str) -> tuple[socket.socket, bytes]:
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.sendall(
        f"POST /api/v1/workspaces/{slug}/search/semantic HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        # X-Forwarded-Proto: with DEBUG off the app would redirect plain HTTP before reading the body.
        f"Authorization: Bearer {key}\r\nContent-Type: application/json\r\nX-Forwarded-Proto: https\r\n"
        f"Content-Length: {BODY_BYTES}\r\n\r\n".encode() + b'{"q": "'
    )
    return sock, b"a"


def _trickle(sock: socket.socket, byte: bytes, stop: threading.Event, interval: float, deadline: float) -> None:
    try:
        while not stop.wait(interval) and time.monotonic() < deadline:
            sock.sendall(byte)
    except OSError:
        pass  # the server gave up on us: that is allowed
    finally:
        sock.close()


@contextmanager
def slow_clients(port: int, *, headers: int, bodies: int, slug: str = "", key: str = "",
                 interval: float = 0.5, max_seconds: float = 30.0) -> Iterator[None]:
    """`headers` clients trickling headers and `bodies` clients trickling a keyed body, while inside."""
    stop = threading.Event()
    deadline = time.monotonic() + max_seconds
    started = [_slow_headers_start(port) for _ in range(headers)]
    started += [_slow_body_start(port, slug=slug, key=key) for _ in range(bodies)]
    threads = [threading.Thread(target=_trickle, args=(sock, byte, stop, interval, deadline), daemon=True)
               for sock, byte in started]
    for thread in threads:
        thread.start()
    time.sleep(2 * interval)  # let the server take up every connection before measuring
    try:
        yield
    finally:
        stop.set()
        for thread in threads:
            thread.join(5)


def health_latency(port: int, *, timeout: float) -> float:
    """Seconds GET /api/health took on a new connection; `timeout` if it did not answer in time."""
    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", "/api/health")
        response = connection.getresponse()
        response.read()
        if response.status not in (200, 503):
            raise RuntimeError(f"/api/health answered {response.status}")
    except (TimeoutError, socket.timeout):
        return timeout
    finally:
        connection.close()
    return time.perf_counter() - started
